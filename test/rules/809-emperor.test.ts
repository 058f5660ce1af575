/** Who goes first in Emperor (CR 809.4) when the options do not say. */
import { describe, expect, it } from 'vitest';
import { createGame } from '../../src/index.js';

const emperor = (seed: number, startingPlayer?: string) =>
  createGame({
    players: ['g1', 'E1', 'g2', 'h1', 'E2', 'h2'],
    variant: 'emperor',
    teams: [
      { id: 'west', players: ['g1', 'E1', 'g2'] },
      { id: 'east', players: ['h1', 'E2', 'h2'] },
    ],
    seed,
    ...(startingPlayer === undefined ? {} : { startingPlayer }),
  });

describe('Emperor: the first turn (CR 809.4)', () => {
  it('809.4: without startingPlayer an emperor chosen at random (with the seed) takes the first turn, not the first player listed', () => {
    const starters = new Set(Array.from({ length: 24 }, (_, seed) => emperor(seed).view().activePlayer));
    expect([...starters].sort()).toEqual(['E1', 'E2']);
    expect(emperor(5).view().activePlayer).toBe(emperor(5).view().activePlayer);
  });

  it('the host may still name who goes first', () => {
    expect(emperor(5, 'E2').view().activePlayer).toBe('E2');
  });
});

describe('Emperor: ranges of influence (CR 809.3a, 809.6a)', () => {
  /** Who leaves when `winner` wins (801.14: the opponents within their range of influence lose). */
  const losers = (players: string[], teams: { id: string; players: string[] }[], winner: string) => {
    const game = createGame({ players, variant: 'emperor', teams });
    const result = game.send({ type: 'WIN', player: winner });
    return result.ok ? result.events.flatMap((e) => (e.type === 'playerLeft' ? [e.player] : [])) : result.error.message;
  };

  it('teams of three: emperors 2, generals 1 (809.3a)', () => {
    const players = ['g1', 'E1', 'g2', 'h1', 'E2', 'h2'];
    const teams = [
      { id: 'west', players: ['g1', 'E1', 'g2'] },
      { id: 'east', players: ['h1', 'E2', 'h2'] },
    ];
    expect(losers(players, teams, 'E1')).toEqual(['h1', 'h2']);
    expect(losers(players, teams, 'g2')).toEqual(['h1']);
  });

  it("teams of four, as 809.6a's example: each emperor 3, each general 2 range 2, generals 1 and 3 range 1", () => {
    const players = ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4'];
    const teams = [
      { id: 'a', players: ['A1', 'A2', 'A3', 'A4'] },
      { id: 'b', players: ['B1', 'B2', 'B3', 'B4'] },
    ];
    // A2 the emperor (range 3): B1, B3 and B4 are within 3 seats, emperor B2 is 4 away.
    expect(losers(players, teams, 'A2')).toEqual(['B1', 'B3', 'B4']);
    expect(losers(players, teams, 'A3')).toEqual(['B1']); // general 2: range 2
    expect(losers(players, teams, 'A4')).toEqual(['B1']); // general 3: range 1
    expect(losers(players, teams, 'A1')).toEqual(['B4']); // general 1: range 1
  });
});
