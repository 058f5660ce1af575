/**
 * The draw step's draw (CR 504.1) as the engine counts hands: up to MAX_AMOUNT cards, the
 * largest HAND_SIZE and DISCARD (issue 22). Past it the discard down to the maximum hand size
 * (CR 514.1) could not be sent in one DISCARD, and the game could not be saved.
 */
import { describe, expect, it } from 'vitest';
import { restoreGame } from '../../src/index.js';
import { MAX_AMOUNT } from '../../src/fields.js';
import { play } from '../support/dsl.js';

describe('504.1: a draw counted against the largest hand the engine counts', () => {
  it('a hand of MAX_AMOUNT cards stays at MAX_AMOUNT after the draw, and its discard can be sent (514.1)', () => {
    const t = play({ players: ['A', 'B'], startingPlayer: 'A' });
    t.passUntil({ turn: 2, step: 'upkeep' });
    t.send({ type: 'HAND_SIZE', player: 'B', size: MAX_AMOUNT });
    t.send({ type: 'ADD_EFFECT', id: 'no-hand', effect: { kind: 'maxHandSize', set: 0 }, duration: 'endOfTurn' });
    t.passUntil({ step: 'draw' });
    expect(t.view().handSizes.B).toBe(MAX_AMOUNT);
    t.passUntil({ step: 'cleanup' });
    expect(t.view().awaiting).toEqual({ kind: 'discard', player: 'B', count: MAX_AMOUNT });
    // The game is saved and restored there, and the discard is sent.
    const restored = restoreGame(JSON.parse(JSON.stringify(t.game.persist())));
    expect(restored.send({ type: 'DISCARD', player: 'B', count: MAX_AMOUNT }).ok).toBe(true);
    expect(restored.view().handSizes.B).toBe(0);
  });

  it('a hand below the cap grows by one, as always', () => {
    const t = play({ players: ['A', 'B'], startingPlayer: 'A' });
    t.passUntil({ turn: 2, step: 'upkeep' });
    t.send({ type: 'HAND_SIZE', player: 'B', size: MAX_AMOUNT - 1 });
    t.passUntil({ step: 'draw' });
    expect(t.view().handSizes.B).toBe(MAX_AMOUNT);
  });
});
