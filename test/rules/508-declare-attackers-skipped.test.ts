/** A skipped declare attackers step declares no attackers, so the declarations and damage after it are skipped too (CR 508.8, 614.10a), and the schedule says so. */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';

describe('a skipped declare attackers step (CR 508.8, 614.10a)', () => {
  it("508.8: the schedule marks the declare blockers and combat damage steps skipped once the declare attackers step will be", () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'beginningOfCombat' });
    t.send({ type: 'SKIP_NEXT', player: 'A', what: 'declareAttackers' });
    expect(t.view().schedule.steps).toEqual([
      { step: 'declareAttackers', skipped: true },
      { step: 'declareBlockers', skipped: true },
      { step: 'combatDamage', skipped: true },
      { step: 'endOfCombat', skipped: false },
    ]);
    t.clearEmitted();
    t.passUntil({ phase: 'postcombatMain' });
    expect(t.emittedOf('stepBegan').map((e) => (e as { step: string }).step)).toEqual(['endOfCombat', 'main']);
  });

  it("508.8, 614.10: a skip effect on declare attackers steps: a later turn's combat phase shows as its steps will be taken, not as skipped whole", () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    t.send({ type: 'ADD_EXTRA_COMBAT', followedByMain: false });
    t.send({ type: 'ADD_EFFECT', id: 'no-attacks', effect: { kind: 'skip', what: 'declareAttackers' } });
    // Two combat phases to come, each with its beginning and end of combat steps: neither is skipped whole.
    expect(t.view().schedule.phases.filter((p) => p.phase === 'combat')).toEqual([
      { phase: 'combat', skipped: false },
      { phase: 'combat', skipped: false },
    ]);
    t.passUntil({ step: 'beginningOfCombat' });
    expect(t.view().schedule.steps.map((s) => `${s.step}${s.skipped ? ' (skipped)' : ''}`)).toEqual(['declareAttackers (skipped)', 'declareBlockers (skipped)', 'combatDamage (skipped)', 'endOfCombat']);
  });
});
