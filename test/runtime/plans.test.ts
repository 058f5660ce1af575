/**
 * The build-time tables (issue 21, CONTRACT v3 "Package"): src/compiled/plans.generated.ts is
 * exactly the compile of the charts as they are (so the plan the main entry runs cannot drift
 * from the chart), and linked it is the plan a fresh compile of `turnMachine` gives.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { turnMachine } from '../../machines/turn.machine.js';
import { compileMachine } from '../../src/compiled/compile.js';
import { plansSource } from '../../src/compiled/generate.js';
import type { Plan, PlanTransition } from '../../src/compiled/link.js';
import { turnPlan } from '../../src/compiled/plan.js';

/** A plan as plain data with its functions named (to compare two plans). */
function shape(plan: Plan): unknown {
  const t = (x: PlanTransition | null) =>
    x === null ? null : { guard: x.guard === null ? null : [x.guard.name, x.guard.fn, x.guard.params], actions: x.actions.map((a) => [a.name, a.fn, a.params]), target: x.target?.path ?? null, changes: x.changesStates };
  return {
    id: plan.machineId,
    start: t(plan.start),
    leaves: [...plan.leaves.values()].map((l) => ({ path: l.path, id: l.id, tags: [...l.tags].sort(), final: l.final, on: [...l.on].map(([k, v]) => [k, v.map(t)]), always: l.always.map(t) })),
  };
}

describe('the plans generated at build time (issue 21)', () => {
  it('src/compiled/plans.generated.ts is the compile of the charts as they are (regenerate: node --import tsx scripts/generate-plans.ts)', () => {
    expect(readFileSync(new URL('../../src/compiled/plans.generated.ts', import.meta.url), 'utf8')).toBe(plansSource());
  });

  it('linked, it is the plan a fresh compile of turnMachine gives: every leaf, tag, candidate, guard, action and target', () => {
    expect(shape(turnPlan)).toEqual(shape(compileMachine(turnMachine)));
  });

  it('resolves compound states to their initial leaves as the chart does, and nothing else', () => {
    const fresh = compileMachine(turnMachine);
    for (const path of ['combat', 'combat.declareAttackers', 'beginning', 'ending.cleanup', 'pregame', 'gameOver', 'combat.declareAttackers.priority']) {
      expect(turnPlan.resolve(path)?.path).toBe(fresh.resolve(path)?.path);
    }
    expect(turnPlan.resolve('')).toBeUndefined();
    expect(turnPlan.resolve('nowhere')).toBeUndefined();
    expect(turnPlan.resolve('__proto__')).toBeUndefined();
  });
});
