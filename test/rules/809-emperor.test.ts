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
