/** Controlling a player (CR 723): control of oneself, and conceding. */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';

describe('controlling a player (CR 723)', () => {
  it('723.9, 723.1a: a player given control of themselves after a pending control effect makes their own decisions in their turn', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'CONTROL_PLAYER', controller: 'A', player: 'B' });
    t.send({ type: 'CONTROL_PLAYER', controller: 'B', player: 'B' });
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'B', decidedBy: { A: 'A', B: 'B', C: 'C' } });
  });

  it("723.6: the controller of another player can't make that player concede; the player still may (104.3a)", () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'CONTROL_PLAYER', controller: 'A', player: 'B' });
    t.passUntil({ turn: 2 });
    t.expectView({ decidedBy: { A: 'A', B: 'A', C: 'C' } });
    t.refused({ type: 'CONCEDE', player: 'B', by: 'A' }, 'ILLEGAL_ACTION', '723.6');
    t.refused({ type: 'CONCEDE', player: 'B', by: 'C' }, 'ILLEGAL_ACTION', '723.6');
    t.send({ type: 'CONCEDE', player: 'B', by: 'B' });
    expect(t.view().players).toEqual(['A', 'C']);
  });
});
