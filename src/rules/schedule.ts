/**
 * The shape of a turn: which phase comes next, and which steps and phases are skipped.
 * CR 500.1, 500.8, 505.1a, 614.10.
 */
import type { PhaseKind, PhaseName, PlayerId, SkipRecord, SkipTarget, StepName, TurnContext } from '../../machines/turn.types.js';
import { skipsFirstDraw, withSkipCount } from './turnOrder.js';

/** The regular phases of a turn, in order (CR 500.1). */
export const REGULAR_PHASES: readonly PhaseKind[] = ['beginning', 'main', 'combat', 'main', 'ending'];

/** The steps of each phase, in order (CR 501.1, 505.2, 506.1, 512.1). */
export const STEPS_OF_PHASE: Readonly<Record<PhaseName, readonly StepName[]>> = {
  beginning: ['untap', 'upkeep', 'draw'],
  precombatMain: ['main'],
  combat: ['beginningOfCombat', 'declareAttackers', 'declareBlockers', 'firstStrikeDamage', 'combatDamage', 'endOfCombat'],
  postcombatMain: ['main'],
  ending: ['end', 'cleanup'],
};

/** Caps on what a host can schedule, so that no single event has to walk an unbounded schedule. */
export const MAX_PENDING_SKIPS = 64;
export const MAX_PENDING_EXTRA_TURNS = 256;
export const MAX_PENDING_EXTRA_PHASES = 64;

/** The next phase of the turn, or null when the turn is over. Added phases come first (CR 500.8). */
export function nextPhase(ctx: Pick<TurnContext, 'extraPhases' | 'regularPhases'>): PhaseKind | null {
  return ctx.extraPhases[0] ?? REGULAR_PHASES[ctx.regularPhases] ?? null;
}

/** The phase node a main phase enters: only the first main phase of a turn is precombat (CR 505.1a). */
export function isFirstMainPhase(ctx: Pick<TurnContext, 'mainPhases'>): boolean {
  return ctx.mainPhases === 0;
}

/** Consumes the phase that `nextPhase` returned: an added phase or the next regular one. */
export function advancePhase(ctx: Pick<TurnContext, 'extraPhases' | 'regularPhases' | 'mainPhases'>): Pick<TurnContext, 'extraPhases' | 'regularPhases' | 'mainPhases'> {
  const kind = nextPhase(ctx);
  const fromExtra = ctx.extraPhases.length > 0;
  return {
    extraPhases: fromExtra ? ctx.extraPhases.slice(1) : ctx.extraPhases,
    regularPhases: fromExtra ? ctx.regularPhases : ctx.regularPhases + 1,
    mainPhases: kind === 'main' ? ctx.mainPhases + 1 : ctx.mainPhases,
  };
}

/**
 * Adds a combat phase after the current phase, followed by a main phase unless told
 * otherwise. Phases most recently added after the same phase occur first (CR 500.8).
 */
export function addExtraCombat(extraPhases: PhaseKind[], followedByMain: boolean): PhaseKind[] {
  return [...(followedByMain ? (['combat', 'main'] as PhaseKind[]) : (['combat'] as PhaseKind[])), ...extraPhases];
}

/** Records a "skip your next ..." effect (CR 614.1b). */
export function addSkip(skips: TurnContext['skips'], player: PlayerId, what: SkipTarget): TurnContext['skips'] {
  return withSkipCount(skips, player, what, (skips[player]?.[what] ?? 0) + 1);
}

/**
 * Decides, as a step begins, whether it is passed over (CR 103.8a, 614.10): the first step of a
 * phase checks the active player's pending phase skip ('combat', or 'main' for a main
 * phase), any step checks a pending skip of that step. A step inside a skipped phase is
 * passed over too. Returns the record and the skips left, or null when the step happens.
 */
export function stepSkip(
  ctx: Pick<TurnContext, 'skips' | 'activePlayer' | 'skipping' | 'turn' | 'seats' | 'startingPlayer'>,
  phase: PhaseName,
  step: StepName,
): { record: SkipRecord; skips: TurnContext['skips'] } | null {
  // CR 103.8a: in a two-player game the starting player skips the draw step of their first turn.
  if (phase === 'beginning' && step === 'draw' && skipsFirstDraw(ctx)) return { record: { phase, step, rule: '103.8a' }, skips: ctx.skips };
  const firstOfPhase = STEPS_OF_PHASE[phase][0] === step;
  if (!firstOfPhase && ctx.skipping !== null && ctx.skipping.step === undefined && ctx.skipping.phase === phase) {
    return { record: ctx.skipping, skips: ctx.skips };
  }
  const player = ctx.activePlayer;
  if (player === null) return null;
  const mine = ctx.skips[player];
  if (mine === undefined) return null;
  if (firstOfPhase && phase === 'combat' && (mine.combat ?? 0) > 0) {
    return { record: { phase, rule: '614.10' }, skips: withSkipCount(ctx.skips, player, 'combat', (mine.combat ?? 0) - 1) };
  }
  const pending = mine[step] ?? 0;
  if (pending > 0) {
    const record: SkipRecord = step === 'main' ? { phase, rule: '614.10' } : { phase, step, rule: '614.10' };
    return { record, skips: withSkipCount(ctx.skips, player, step, pending - 1) };
  }
  return null;
}
