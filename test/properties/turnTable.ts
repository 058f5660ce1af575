/**
 * The order of steps within a turn, written from the Comprehensive Rules' turn table
 * (CR 500.1, 501.1, 505.1, 506.1, 512.1) rather than read from the machine, and the list
 * of allowed successors generated from it. The property tests compare the `stepBegan`
 * events a game emits against this list.
 */
import type { PhaseName, StepName } from '../../src/index.js';

/** A step as `phase/step`, e.g. 'combat/declareAttackers'. */
export type StepToken = `${PhaseName}/${StepName}`;

/** The regular turn, in order (CR 500.1 and the first rule of each phase). */
export const TURN_TABLE: readonly StepToken[] = [
  'beginning/untap',
  'beginning/upkeep',
  'beginning/draw',
  'precombatMain/main',
  'combat/beginningOfCombat',
  'combat/declareAttackers',
  'combat/declareBlockers',
  'combat/firstStrikeDamage',
  'combat/combatDamage',
  'combat/endOfCombat',
  'postcombatMain/main',
  'ending/end',
  'ending/cleanup',
];

/**
 * Runs of steps the rules leave out by themselves, with no effect of a card:
 * 103.8a (the starting player's first draw in a two-player game), 508.8 (no attackers:
 * no declare blockers and combat damage steps), 510.4 (no first strike: one damage step).
 */
const OMITTED_RUNS: readonly { steps: readonly StepToken[]; rule: string }[] = [
  { steps: ['beginning/draw'], rule: '103.8a' },
  { steps: ['combat/declareBlockers', 'combat/firstStrikeDamage', 'combat/combatDamage'], rule: '508.8' },
  { steps: ['combat/firstStrikeDamage'], rule: '510.4' },
];

/** Steps that may begin again right after themselves (CR 514.3a: another cleanup step). */
const REPEATS: readonly StepToken[] = ['ending/cleanup'];

/** What may come right after each step, with the rule that allows it. */
export type SuccessorList = ReadonlyMap<StepToken, readonly { next: StepToken; rule: string }[]>;

/** Generates the successor list of a turn without skip effects or added phases. */
export function generateSuccessors(): SuccessorList {
  const out = new Map<StepToken, { next: StepToken; rule: string }[]>();
  TURN_TABLE.forEach((token, i) => {
    const list: { next: StepToken; rule: string }[] = [];
    const following = TURN_TABLE[i + 1];
    if (following !== undefined) list.push({ next: following, rule: '500.1' });
    for (const run of OMITTED_RUNS) {
      if (run.steps[0] !== following) continue;
      const after = TURN_TABLE[i + 1 + run.steps.length];
      if (after !== undefined) list.push({ next: after, rule: run.rule });
    }
    if (REPEATS.includes(token)) list.push({ next: token, rule: '514.3a' });
    out.set(token, list);
  });
  return out;
}

/** The generated list, once. */
export const SUCCESSORS = generateSuccessors();

/**
 * What may begin when a phase ends in a turn with added phases (CR 500.8): an added combat
 * or main phase (the first main phase of a turn is precombat, CR 505.1a), or the regular
 * phase the added ones were inserted before.
 */
const ADDED_PHASE_STARTS: readonly StepToken[] = ['combat/beginningOfCombat', 'precombatMain/main', 'postcombatMain/main', 'ending/end'];

/** What the game allowed while the step sequence ran. */
export interface StepContext {
  /** Turn number of the step being left. */
  turn: number;
  /** Players who started the game (103.8a applies to two). */
  seats: number;
  /** Skip effects were pending (CR 614.10): any later step of the turn may come next. */
  skipsPending: boolean;
  /** Added phases were pending (CR 500.8). */
  addedPhases: boolean;
}

/**
 * Why `next` may not follow `from` within one turn, or null when it may.
 */
export function successorProblem(from: StepToken, next: StepToken, ctx: StepContext): string | null {
  const allowed = SUCCESSORS.get(from) ?? [];
  const hit = allowed.find((s) => s.next === next);
  if (hit !== undefined && (hit.rule !== '103.8a' || (ctx.turn === 1 && ctx.seats === 2))) return null;
  if (ctx.skipsPending && TURN_TABLE.indexOf(next) > TURN_TABLE.indexOf(from)) return null;
  if (ctx.addedPhases && ADDED_PHASE_STARTS.includes(next)) return null;
  if (ctx.addedPhases && ctx.skipsPending && !next.startsWith('beginning/')) return null;
  return `${next} may not follow ${from} (allowed: ${allowed.map((s) => `${s.next} [${s.rule}]`).join(', ') || 'nothing'})`;
}

/** The steps a turn may begin with (CR 501.1; a skipped untap step under 614.10). */
export function firstStepProblem(first: StepToken, ctx: Pick<StepContext, 'skipsPending' | 'addedPhases'>): string | null {
  if (first === TURN_TABLE[0]) return null;
  if (ctx.skipsPending) return null;
  return `a turn began with ${first}, not ${TURN_TABLE[0]}`;
}

/** The steps a turn may end with: cleanup, unless skips or added phases change the turn's end. */
export function lastStepProblem(last: StepToken, ctx: Pick<StepContext, 'skipsPending' | 'addedPhases'>): string | null {
  if (last === 'ending/cleanup') return null;
  if (ctx.skipsPending || ctx.addedPhases) return null;
  return `a turn ended after ${last}, not after ending/cleanup`;
}
