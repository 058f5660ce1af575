/** Added phases and steps (CR 500.8, 500.9, 500.10, 505.2) where they cannot go. */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';

describe('added phases and steps (CR 500.8, 505.2)', () => {
  it('500.8: no combat phase is added after the ending phase, however it is added; the turn ends with its cleanup step', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'end' });
    t.refused({ type: 'ADD_EXTRA_COMBAT', followedByMain: false }, 'ILLEGAL_ACTION', '500.8');
    t.refused({ type: 'ADD_EXTRA_PHASE', phase: 'combat' }, 'ILLEGAL_ACTION', '500.8');
    t.refused({ type: 'ADD_EXTRA_STEP', step: 'beginningOfCombat', afterPhase: 'ending' }, 'ILLEGAL_ACTION', '500.8');
    t.clearEmitted();
    t.passUntil({ turn: 2 });
    expect(t.emittedOf('stepBegan').map((e) => (e.type === 'stepBegan' ? e.step : null))).toEqual(['cleanup', 'untap', 'upkeep']);
  });

  it('500.8: before the ending phase, a combat named to come after it is refused too', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ phase: 'precombatMain' });
    t.refused({ type: 'ADD_EXTRA_PHASE', phase: 'combat', after: 'ending' }, 'ILLEGAL_ACTION', '500.8');
    t.send({ type: 'ADD_EXTRA_PHASE', phase: 'combat', after: 'postcombatMain' });
  });

  it('505.2: the main phase has no steps; a main step is not added to a phase, but a main phase is added with afterPhase', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ phase: 'precombatMain' });
    t.refused({ type: 'ADD_EXTRA_STEP', step: 'main' }, 'ILLEGAL_ACTION', '505.2');
    t.send({ type: 'ADD_EXTRA_STEP', step: 'main', afterPhase: 'combat' });
    t.clearEmitted();
    t.passUntil({ phase: 'ending' });
    const steps = t.emittedOf('stepBegan').map((e) => (e.type === 'stepBegan' ? `${e.phase}/${e.step}` : null));
    expect(steps.filter((s) => s?.endsWith('/main'))).toEqual(['postcombatMain/main', 'postcombatMain/main']);
    expect(steps.at(-1)).toBe('ending/end');
  });
});

describe('phases after the ending phase (CR 500.8, 500.10)', () => {
  it('500.10: an additional upkeep "after this phase" during the end step comes after the ending phase; a combat never does', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'end' });
    t.send({ type: 'ADD_EXTRA_STEP', step: 'upkeep', afterPhase: 'ending' });
    t.refused({ type: 'ADD_EXTRA_PHASE', phase: 'combat' }, 'ILLEGAL_ACTION', '500.8');
    t.clearEmitted();
    t.passUntil({ turn: 2 });
    expect(t.emittedOf('stepBegan').map((e) => (e.type === 'stepBegan' ? `${e.phase}/${e.step}` : null))).toEqual(['ending/cleanup', 'beginning/upkeep', 'beginning/untap', 'beginning/upkeep']);
  });
});

describe('schedule of added phases (CR 500.10, 614.10, 103.8a)', () => {
  it('an added phase every step of which will be passed over is marked skipped, and nothing of it happens', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ turn: 3, phase: 'precombatMain' });
    // An additional beginning phase with only an upkeep step after combat (500.10), and A skips their next upkeep.
    t.send({ type: 'ADD_EXTRA_STEP', step: 'upkeep', afterPhase: 'combat' });
    t.send({ type: 'SKIP_NEXT', player: 'A', what: 'upkeep' });
    expect(t.view().schedule.phases).toEqual([
      { phase: 'combat', skipped: false },
      { phase: 'beginning', skipped: true },
      { phase: 'postcombatMain', skipped: false },
      { phase: 'ending', skipped: false },
    ]);
    t.clearEmitted();
    t.passUntil({ step: 'end' });
    expect(t.emittedOf('stepBegan').some((e) => e.type === 'stepBegan' && (e.step === 'upkeep' || e.phase === 'beginning'))).toBe(false);
  });

  it("103.8a: an added beginning phase with only a draw step in the starting player's first turn is marked skipped", () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ phase: 'precombatMain' });
    t.send({ type: 'ADD_EXTRA_STEP', step: 'draw', afterPhase: 'combat' });
    expect(t.view().schedule.phases[1]).toEqual({ phase: 'beginning', skipped: true });
  });
});
