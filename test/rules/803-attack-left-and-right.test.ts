/** The attack left option with a limited range of influence (CR 506.2a, 801.2c, 803.1a). */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';

describe('attack left (CR 803.1a)', () => {
  it('803.1a: the active player chooses the nearest opponent to the left as the defending player', () => {
    const t = play({ players: ['A', 'B', 'C', 'D', 'E'], attack: 'left', rangeOfInfluence: 1 });
    t.passUntil({ step: 'beginningOfCombat' });
    t.expectView({ awaiting: { kind: 'chooseDefender', player: 'A', defenders: ['B'] } });
  });

  it('803.1a, 801.2c: when that opponent leaves before the choice, nobody is left to choose: nothing is awaited and nobody can be attacked', () => {
    const t = play({ players: ['A', 'B', 'C', 'D', 'E'], attack: 'left', rangeOfInfluence: 1 });
    t.passUntil({ step: 'beginningOfCombat' });
    t.send({ type: 'LOSE', player: 'B' });
    // C is now nearest on A's left but outside A's range of influence, fixed as the turn began (801.2c).
    t.expectView({ step: 'beginningOfCombat', priority: 'A', awaiting: { kind: 'priority', player: 'A' } });
    t.passUntil({ step: 'declareAttackers' });
    t.refused({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'a1', defender: 'C' }] }, 'ILLEGAL_ACTION');
    t.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [] });
    expect(t.view().step).not.toBe('declareBlockers');
  });

  it('800.1, 507.1: a game that began with three players is still multiplayer with two left: the active player still chooses the defending player', () => {
    for (const attack of ['left', 'chooseOne'] as const) {
      const t = play({ players: ['A', 'B', 'C'], attack });
      t.send({ type: 'CONCEDE', player: 'C' });
      t.passUntil({ step: 'beginningOfCombat' });
      t.expectView({ awaiting: { kind: 'chooseDefender', player: 'A', defenders: ['B'] } });
      t.send({ type: 'CHOOSE_DEFENDER', player: 'A', defender: 'B' });
      t.expectView({ priority: 'A' });
    }
  });
});

