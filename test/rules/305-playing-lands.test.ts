/** Land drops changed by effects (CR 305.2, 101.2): "can't play lands" wins over any effect that allows more. */
import { describe, it } from 'vitest';
import { play } from '../support/dsl.js';

describe('effects on land drops (CR 305.2)', () => {
  it('305.2: an additional land (Exploration, change +1) and a set number (set 2) apply in timestamp order', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    t.send({ type: 'ADD_EFFECT', id: 'exploration', effect: { kind: 'landPlays', change: 1, players: ['A'] } });
    t.expectView({ landPlaysAllowed: 2 });
    t.send({ type: 'ADD_EFFECT', id: 'two', effect: { kind: 'landPlays', set: 2, players: ['A'] } });
    t.send({ type: 'ADD_EFFECT', id: 'more', effect: { kind: 'landPlays', change: 1, players: ['A'] } });
    t.expectView({ landPlaysAllowed: 3 });
  });

  it('101.2: "can\'t play lands" (set 0) takes precedence over an additional land given after it', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    t.send({ type: 'ADD_EFFECT', id: 'cant', effect: { kind: 'landPlays', set: 0, players: ['A'] } });
    t.send({ type: 'ADD_EFFECT', id: 'exploration', effect: { kind: 'landPlays', change: 1, players: ['A'] } });
    t.expectView({ landPlaysAllowed: 0 });
    t.refused({ type: 'PLAY_LAND', player: 'A' }, 'ILLEGAL_ACTION', '305.2');
    // Once the "can't" ends, the additional land counts again.
    t.send({ type: 'REMOVE_EFFECT', id: 'cant' });
    t.expectView({ landPlaysAllowed: 2 });
    t.send({ type: 'PLAY_LAND', player: 'A' });
  });

  it('101.2: and over an additional land given before it, and over a later set number', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    t.send({ type: 'ADD_EFFECT', id: 'exploration', effect: { kind: 'landPlays', change: 1, players: ['A'] } });
    t.send({ type: 'ADD_EFFECT', id: 'cant', effect: { kind: 'landPlays', set: 0, players: ['A'] } });
    t.send({ type: 'ADD_EFFECT', id: 'three', effect: { kind: 'landPlays', set: 3, players: ['A'] } });
    t.expectView({ landPlaysAllowed: 0 });
    t.refused({ type: 'PLAY_LAND', player: 'A' }, 'ILLEGAL_ACTION', '305.2');
  });
});
