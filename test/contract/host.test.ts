/**
 * A realistic host (test/support/cards.ts: 32 opaque cards) plays whole games through the
 * public API: every action legalActions offers is accepted, the checkpoint carries out what
 * happened and reports host events, and persist/restore keeps the game going.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type RulesEra } from '../../src/index.js';
import { Host, playOne, rng } from '../support/cards.js';

function play(players: string[], rules: RulesEra, seed: number, extra: Record<string, unknown> = {}) {
  const host = new Host(players);
  let game = createGame({ players, rules, seed, hooks: { checkpoint: host.checkpoint }, ...extra });
  const random = rng(seed);
  for (let i = 0; i < 3000 && game.view().turn <= 12; i++) {
    if (!playOne(game, host, random)) break;
    if (i % 500 === 499) game = restoreGame(JSON.parse(JSON.stringify(game.persist())), { hooks: { checkpoint: host.checkpoint } });
  }
  return { game, host };
}

describe('a realistic host plays whole games (CONTRACT "Game", every host event)', () => {
  it.each([
    [['A', 'B'], 'current', 1],
    [['A', 'B'], 'm10', 2],
    [['A', 'B'], 'classic', 3],
    [['A', 'B', 'C'], 'current', 4],
    [['A', 'B', 'C', 'D'], 'm10', 5],
  ] as const)('%j under %s rules (seed %i): no refusal of an offered action, the game moves on', (players, rules, seed) => {
    const { game, host } = play([...players], rules, seed);
    const view = game.view();
    expect(view.turn > 3 || view.gameOver !== null).toBe(true);
    expect(host.emitted.some((e) => e.type === 'resolve')).toBe(true);
    expect(view.awaiting !== null || view.gameOver !== null).toBe(true);
  });

  it('with a pregame, player-ordered triggers and attack choices', () => {
    const { game } = play(['A', 'B', 'C'], 'current', 9, { pregame: true, orderTriggers: 'players', attack: 'chooseOne' });
    expect(game.view().phase).not.toBe('pregame');
  });

  it('in team games: Two-Headed Giant and Emperor', () => {
    const thg = play(['A1', 'B1', 'A2', 'B2'], 'current', 11, { variant: 'twoHeadedGiant', teams: [{ id: 'a', players: ['A1', 'A2'] }, { id: 'b', players: ['B1', 'B2'] }] });
    expect(thg.game.view().teams).not.toBeNull();
    const emperor = play(['A1', 'A2', 'A3', 'B1', 'B2', 'B3'], 'current', 12, {
      variant: 'emperor',
      teams: [
        { id: 'a', players: ['A1', 'A2', 'A3'] },
        { id: 'b', players: ['B1', 'B2', 'B3'] },
      ],
    });
    expect(emperor.game.view().turn).toBeGreaterThan(1);
  });
});
