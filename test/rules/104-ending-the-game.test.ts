/** Losses a state-based action check reports together (CR 104.4a, 704.3). */
import { describe, expect, it } from 'vitest';
import { createGame, type CheckpointResult, type GameOptions } from '../../src/index.js';

/** A game whose checkpoint hook reports `result` the first time a player is about to receive priority in turn 1's main phase. */
function reporting(options: GameOptions, result: CheckpointResult) {
  let once = true;
  const game = createGame({
    ...options,
    hooks: {
      checkpoint: (v) => {
        if (!once || v.step !== 'main' || v.priority === null) return undefined;
        once = false;
        return result;
      },
    },
  });
  for (let i = 0; i < 20 && game.view().gameOver === null && once; i++) {
    const v = game.view();
    game.send({ type: 'PASS_PRIORITY', player: v.priority ?? v.activePlayer ?? 'A' });
  }
  return game;
}

describe('losses reported together are simultaneous (CR 704.3, 104.4a)', () => {
  it('104.4a: both players of a two-player game losing in one check is a draw', () => {
    const game = reporting({ players: ['A', 'B'] }, { stateBasedActions: true, events: [{ type: 'LOSE', player: 'A', reason: 'life total 0' }, { type: 'LOSE', player: 'B', reason: 'life total 0' }] });
    expect(game.view().gameOver).toMatchObject({ winners: [], draw: true });
  });

  it('104.4a: every remaining player of a three-player game losing in one check is a draw; two of three is not', () => {
    const all = reporting({ players: ['A', 'B', 'C'] }, { events: [{ type: 'LOSE', player: 'A' }, { type: 'LOSE', player: 'B' }, { type: 'LOSE', player: 'C' }] });
    expect(all.view().gameOver).toMatchObject({ winners: [], draw: true });
    const two = reporting({ players: ['A', 'B', 'C'] }, { events: [{ type: 'LOSE', player: 'A' }, { type: 'LOSE', player: 'C' }] });
    expect(two.view().gameOver).toMatchObject({ winners: ['B'], draw: false });
  });

  it('104.4a, 810.8a: in Two-Headed Giant one player of each team losing in one check is a draw', () => {
    const teams = [{ id: 't1', players: ['A', 'B'] }, { id: 't2', players: ['C', 'D'] }];
    const game = reporting({ players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams }, { events: [{ type: 'LOSE', player: 'B' }, { type: 'LOSE', player: 'D' }] });
    expect(game.view().gameOver).toMatchObject({ winners: [], draw: true });
  });

  it('104.2a: losses sent one by one are not simultaneous: the first ends the game', () => {
    const game = createGame({ players: ['A', 'B'] });
    expect(game.send({ type: 'LOSE', player: 'A' }).ok).toBe(true);
    expect(game.send({ type: 'LOSE', player: 'B' })).toMatchObject({ ok: false, error: { code: 'GAME_OVER' } });
    expect(game.view().gameOver).toMatchObject({ winners: ['B'], draw: false });
  });
});
