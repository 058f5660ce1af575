/**
 * What the turn's schedule and plan say of a persisted state, for the consistency checks of
 * ./validate.ts: the phase a step belongs to, and the tags of a leaf state.
 */
import { STEPS_OF_PHASE } from '../rules/schedule.js';
import { turnPlan } from '../compiled/plan.js';

/** The phase kind a step belongs to, as a phase name. */
export function STEPS_OF_PHASE_KIND(step: string): 'beginning' | 'precombatMain' | 'combat' | 'ending' {
  for (const phase of ['beginning', 'precombatMain', 'combat', 'ending'] as const) if (STEPS_OF_PHASE[phase].includes(step as never)) return phase;
  return 'precombatMain';
}

/** The tags of a leaf state and its ancestors. */
export function tagsOf(path: string): ReadonlySet<string> {
  return turnPlan.leaves.get(path)?.tags ?? new Set();
}
