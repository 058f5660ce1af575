/**
 * The shape of a turn: the phases and steps still to come, which of them are passed over,
 * and what an added step or phase changes.
 * CR 103.8, 500.1, 500.8, 500.9, 500.10, 500.10a, 505.1a, 508.8, 510.4, 614.10.
 */
import type { PlayerId, Schedule, ScheduledTurn, SkipTarget, TurnPhaseName, TurnStepName } from '../contract.js';
import type { PhaseEntry, PhaseKind, StepEntry, TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { skipsEvery } from './effects.js';
import { MAX_PHASES, MAX_STEPS } from './limits.js';
import { hasFirstStrikeCombatant, newCombat } from './combat.js';
import { scheduledTurns } from './turnOrder.js';
import { byUnits, representative, unitOf } from './units.js';

/** The regular phases of a turn, in order (CR 500.1). */
export const REGULAR_PHASES: readonly PhaseKind[] = ['beginning', 'main', 'combat', 'main', 'ending'];

/** The steps of each kind of phase, in order (CR 501.1, 505.2, 506.1, 512.1). */
export const STEPS_OF_KIND: Readonly<Record<PhaseKind, readonly TurnStepName[]>> = {
  beginning: ['untap', 'upkeep', 'draw'],
  main: ['main'],
  combat: ['beginningOfCombat', 'declareAttackers', 'declareBlockers', 'firstStrikeDamage', 'combatDamage', 'endOfCombat'],
  ending: ['end', 'cleanup'],
};

/** The steps of each phase, in order. */
export const STEPS_OF_PHASE: Readonly<Record<TurnPhaseName, readonly TurnStepName[]>> = {
  beginning: STEPS_OF_KIND.beginning,
  precombatMain: STEPS_OF_KIND.main,
  combat: STEPS_OF_KIND.combat,
  postcombatMain: STEPS_OF_KIND.main,
  ending: STEPS_OF_KIND.ending,
};

/** The kind of a phase: both main phases are main phases. */
export function kindOf(phase: TurnPhaseName): PhaseKind {
  return phase === 'precombatMain' || phase === 'postcombatMain' ? 'main' : phase;
}

/** The kind of phase a step belongs to. */
export function kindOfStep(step: TurnStepName): PhaseKind {
  for (const kind of REGULAR_PHASES) if (STEPS_OF_KIND[kind].includes(step)) return kind;
  return 'main';
}

/** The name of a phase of a kind: the first main phase of a turn, taken or skipped, is precombat (CR 505.1a). */
export function phaseName(kind: PhaseKind, mainSeen: boolean): TurnPhaseName {
  if (kind !== 'main') return kind;
  return mainSeen ? 'postcombatMain' : 'precombatMain';
}

/** A phase of a kind with all its steps. `only`: the one step it has, its others passed over (CR 500.10). */
export function newPhase(kind: PhaseKind, extra: boolean, only?: TurnStepName): PhaseEntry {
  const steps = STEPS_OF_KIND[kind].map((step): StepEntry => (only === undefined || step === only ? { step } : { step, passedOver: '500.10' }));
  return extra ? { kind, steps, extra } : { kind, steps };
}

/**
 * Whether a step or phase that `player` "gets" goes into this turn: only into a turn of theirs
 * (CR 500.10a), which with shared team turns is their team's turn (805.8). Without `player` the
 * effect adds it to the turn whoever's it is.
 */
export function getsOnThisTurn(ctx: Pick<TurnContext, 'activePlayer' | 'teams' | 'variant'>, player: PlayerId | undefined): boolean {
  return player === undefined || (ctx.activePlayer !== null && unitOf(ctx, player) === ctx.activePlayer);
}

/**
 * The entries of a new turn's phases, made once and shared by every turn of every game (a
 * context is never changed in place, so neither are they; frozen to keep it so).
 */
const REGULAR_PHASE_ENTRIES: readonly PhaseEntry[] = REGULAR_PHASES.map((kind) => {
  const entry = newPhase(kind, false);
  for (const step of entry.steps) Object.freeze(step);
  Object.freeze(entry.steps);
  return Object.freeze(entry);
});

/** The phases of a new turn (CR 500.1). */
export function regularPhases(): PhaseEntry[] {
  return REGULAR_PHASE_ENTRIES.slice();
}

/** The steps of a new phase after its first one. */
export function stepsAfterFirst(phase: PhaseEntry): StepEntry[] {
  return phase.steps.slice(1);
}

/** Pending skip counts, copied so a look ahead can use them up without changing the game. */
export type SkipCounts = Record<PlayerId, Partial<Record<SkipTarget, number>>>;

/** Uses up one pending skip of `what` for `player`, if any. */
function usePendingSkip(counts: SkipCounts, player: PlayerId, what: SkipTarget): boolean {
  const n = counts[player]?.[what] ?? 0;
  if (n <= 0) return false;
  const mine = { ...counts[player] };
  if (n > 1) mine[what] = n - 1;
  else delete mine[what];
  counts[player] = mine;
  return true;
}

/** What the skips read of the context. */
export type SkipContext = Pick<TurnContext, 'activePlayer' | 'effects' | 'turn' | 'seats' | 'startingPlayer' | 'combat' | 'phase' | 'variant'> & Partial<Pick<TurnContext, 'teams' | 'reasons'>>;

/**
 * Whether a phase about to begin is passed over, and by which rule (CR 614.10): a skip
 * effect or a pending "skip your next ..." of the active player. A phase skip names the
 * phase ('precombatMain', 'combat', ...); 'combat' skips a combat phase. Uses up a pending
 * skip in `counts`.
 */
export function phaseSkipRule(ctx: SkipContext, name: TurnPhaseName, counts: SkipCounts): string | null {
  return isSkipped(ctx, name, counts) ? '614.10' : null;
}

/** CR 614.10: whether a skip effect or a pending "skip your next ..." of the active player skips a step or phase; uses up the pending skip in `counts`. */
function isSkipped(ctx: SkipContext, what: TurnStepName | TurnPhaseName, counts: SkipCounts): boolean {
  const player = ctx.activePlayer;
  return player !== null && (skipsEvery(ctx, player, what) || usePendingSkip(counts, player, what));
}

/** The rules that pass over a step about to begin, each decided by the function of that name below. */
export type StepSkipRule = '500.10' | '103.8a' | '508.8' | '510.4' | '614.10';

/**
 * One rule that passes over a step about to begin: whether it applies to `entry`, the next
 * step of `phase`. The chart's guards of the same names call these (machines/turn.setup.ts).
 */
export type StepSkip = (ctx: SkipContext, phase: TurnPhaseName, entry: StepEntry, counts: SkipCounts) => boolean;

/**
 * CR 500.10: a step of an added phase that has only another step ("an additional upkeep step
 * after this phase"): it was queued passed over, and is passed over whatever happens.
 */
export const isOtherStepOfAddedPhase: StepSkip = (_ctx, _phase, entry) => entry.passedOver !== undefined;

/** CR 103.8a: the draw step of the starting player's first turn in a two-player game (see {@link skipsFirstDraw}). */
export const isFirstDrawSkipped: StepSkip = (ctx, _phase, entry) => entry.step === 'draw' && skipsFirstDraw(ctx);

/** The steps of a combat that a combat with no attackers has not (CR 508.8). */
const STEPS_AFTER_ATTACKS: readonly TurnStepName[] = ['declareBlockers', 'firstStrikeDamage', 'combatDamage'];

/**
 * CR 508.8: attackers were declared and no creature attacks: the declare blockers and combat
 * damage steps (both of them, with first strike) are skipped.
 */
export const hasNoAttackers: StepSkip = (ctx, phase, entry) =>
  kindOf(phase) === 'combat' && STEPS_AFTER_ATTACKS.includes(entry.step) && ctx.combat !== null && ctx.combat.attacksDeclared && !ctx.combat.declared;

/**
 * The context after a step of `phase` is reached in a look ahead: CR 508.8, a declare attackers
 * step passed over declares no attackers, and the declare blockers and combat damage steps of
 * that combat are skipped too (as the chart's `passOverStep` records, machines/turn.effects.ts).
 */
export function afterStep<C extends Pick<TurnContext, 'combat'>>(ctx: C, entry: StepEntry, passedOver: boolean): C {
  if (!passedOver || entry.step !== 'declareAttackers' || ctx.combat?.attacksDeclared === true) return ctx;
  return { ...ctx, combat: { ...(ctx.combat ?? newCombat()), attacksDeclared: true } };
}

/** CR 510.4: no attacking or blocking creature has first strike or double strike: there is no first combat damage step. */
export const hasNoFirstStrike: StepSkip = (ctx, phase, entry) => kindOf(phase) === 'combat' && entry.step === 'firstStrikeDamage' && !hasFirstStrikeCombatant(ctx);

/**
 * CR 614.10: a skip effect or a pending "skip your next ..." of the active player skips the
 * step. Uses up the pending skip in `counts` (a skip effect uses up nothing).
 */
export const isSkippedByEffect: StepSkip = (ctx, _phase, entry, counts) => isSkipped(ctx, entry.step, counts);

/**
 * Whether a step about to begin is passed over, and by which rule: the first of these that
 * applies, in this order (the chart's `nextStep` states check their guards in the same order,
 * machines/turn.machine.ts): 500.10 (a step of an added phase gives the rule it was queued
 * with), 103.8a, 508.8, 510.4, 614.10. Uses up a pending skip in `counts`.
 */
export function stepSkipRule(ctx: SkipContext, phase: TurnPhaseName, entry: StepEntry, counts: SkipCounts): string | null {
  if (entry.passedOver !== undefined) return entry.passedOver;
  if (isFirstDrawSkipped(ctx, phase, entry, counts)) return '103.8a';
  if (hasNoAttackers(ctx, phase, entry, counts)) return '508.8';
  if (hasNoFirstStrike(ctx, phase, entry, counts)) return '510.4';
  if (isSkippedByEffect(ctx, phase, entry, counts)) return '614.10';
  return null;
}

/**
 * Whether the starting player skips the draw step of turn 1: in a two-player game
 * (CR 103.8a; 103.8c: in other multiplayer games nobody does).
 */
export function skipsFirstDraw(ctx: Pick<TurnContext, 'turn' | 'seats' | 'activePlayer' | 'startingPlayer' | 'variant'>): boolean {
  // CR 103.8b: in Two-Headed Giant the starting team skips it.
  return ctx.turn === 1 && (ctx.seats.length === 2 || ctx.variant === 'twoHeadedGiant') && ctx.activePlayer === ctx.startingPlayer;
}

/** A copy of the pending skips that a look ahead may use up. */
export function copyCounts(skips: SkipCounts): SkipCounts {
  return { ...skips };
}

/** The pending skips after a look ahead used some up: `skips` itself when it used up none (a context field that keeps its identity is known unchanged). */
export function countsAfter(skips: SkipCounts, counts: SkipCounts): SkipCounts {
  return sameCounts(counts, skips) ? skips : counts;
}

/**
 * What comes next if nothing changes (CONTRACT: TurnView.schedule): the remaining steps of
 * this phase, the remaining phases of this turn, and the next turns, each marked when a
 * skip will pass over it. A first-strike damage step shows only while a creature in combat
 * has first or double strike.
 */
export function scheduleOf(ctx: TurnContext): Schedule {
  const counts = copyCounts(ctx.skips);
  const steps: Schedule['steps'] = [];
  const phase = ctx.phase === 'pregame' ? 'beginning' : ctx.phase;
  let now = ctx;
  for (const entry of ctx.steps) {
    const rule = stepSkipRule(now, phase, entry, counts);
    now = afterStep(now, entry, rule !== null);
    if (entry.step === 'firstStrikeDamage' && (rule === '510.4' || !hasFirstStrikeCombatant(now))) continue;
    steps.push({ step: entry.step, skipped: rule !== null });
  }
  // CR 514.3a: a cleanup step in which players receive priority is followed by another one.
  if (ctx.step === 'cleanup' && ctx.priority !== null) steps.push({ step: 'cleanup', skipped: false });
  const phases: Schedule['phases'] = [];
  let mainSeen = ctx.mainSeen;
  for (const entry of ctx.phases) {
    const name = phaseName(entry.kind, mainSeen);
    if (entry.kind === 'main') mainSeen = true;
    phases.push({ phase: name, skipped: phaseSkipRule(ctx, name, counts) !== null || isEveryStepSkipped(ctx, name, entry, counts) });
  }
  const turns = turnsAhead(ctx, counts);
  // CONTRACT (TurnView.schedule): before turn 1 begins (the pregame, CR 103) the next turn is turn 1,
  // the starting player's (as the pregame stands now); the turns after it are those a running turn 1 shows.
  if (ctx.phase === 'pregame') turns.unshift({ player: representative(ctx, ctx.startingPlayer), extra: false, skipped: false });
  return { steps, phases, turns };
}

/**
 * CR 614.10, 505.2, 500.10: a phase every step of which is passed over (a main phase's one step
 * skipped, an added phase's one step skipped, 103.8a's draw step the only step of an added
 * beginning phase in turn 1) has nothing of it happen: the schedule marks it skipped. Uses up
 * the pending skips in `counts`, as the turn will; a combat phase still to come begins with none.
 */
function isEveryStepSkipped(ctx: SkipContext, name: TurnPhaseName, entry: PhaseEntry, counts: SkipCounts): boolean {
  let later = ctx.combat === null ? ctx : { ...ctx, combat: null };
  for (const step of entry.steps) {
    if (stepSkipRule(later, name, step, counts) === null) return false;
    later = afterStep(later, step, true);
  }
  return true;
}

/** What the next turns depend on (besides the skip counts): their order, extra turns, rotation and effects, by units. */
type TurnOrderFields = Pick<TurnContext, 'seats' | 'players' | 'teams' | 'variant' | 'extraTurns' | 'rotation' | 'skips' | 'effects' | 'turnOwner'>;

/**
 * The next turns of the schedule: computed as a turn begins, then remembered while none of the
 * fields they depend on changes (contexts are never changed in place: the same field is the
 * same value) and no step or phase still to come uses up a pending skip. Each call hands out
 * a copy: the schedule is part of a fresh view.
 */
function turnsAhead(ctx: TurnOrderFields, counts: SkipCounts): ScheduledTurn[] {
  if (!sameCounts(counts, ctx.skips)) return scheduledTurns(byUnits(ctx), counts, ctx.players.length);
  let memo = lastTurns.get(ctx.seats);
  if (
    memo === undefined ||
    memo.of.players !== ctx.players ||
    memo.of.teams !== ctx.teams ||
    memo.of.variant !== ctx.variant ||
    memo.of.extraTurns !== ctx.extraTurns ||
    memo.of.rotation !== ctx.rotation ||
    memo.of.skips !== ctx.skips ||
    memo.of.effects !== ctx.effects ||
    memo.of.turnOwner !== ctx.turnOwner
  ) {
    const of: TurnOrderFields = { seats: ctx.seats, players: ctx.players, teams: ctx.teams, variant: ctx.variant, extraTurns: ctx.extraTurns, rotation: ctx.rotation, skips: ctx.skips, effects: ctx.effects, turnOwner: ctx.turnOwner };
    lastTurns.set(ctx.seats, (memo = { of, turns: scheduledTurns(byUnits(of), counts, of.players.length) }));
  }
  const turns: ScheduledTurn[] = [];
  for (const t of memo.turns) {
    // A team whose first player left takes its turns through a member still in the game (805.2).
    const player = representative(ctx, t.player);
    turns.push(t.id === undefined ? { player, extra: t.extra, skipped: t.skipped } : { player, extra: t.extra, id: t.id, skipped: t.skipped });
  }
  return turns;
}

/** The last next turns of each game, by its seats (the same list for the whole game: one memo per game, not one for every game a process holds), and the other fields in `of`. */
const lastTurns = new WeakMap<readonly PlayerId[], { of: TurnOrderFields; turns: ScheduledTurn[] }>();

/** Whether no pending skip was used up: `counts` began as a shallow copy of `skips` (usePendingSkip replaces a player's entry). */
function sameCounts(counts: SkipCounts, skips: SkipCounts): boolean {
  for (const p in counts) if (counts[p] !== skips[p]) return false;
  return true;
}

/**
 * Where an added step goes (CR 500.9): directly after the current step (the default) or
 * after or before the first step of that name still to come this turn; the most recently
 * added comes first. Returns the new queues, or why the step cannot be added.
 */
export function addStep(
  ctx: Pick<TurnContext, 'steps' | 'phases' | 'step' | 'phase'>,
  step: TurnStepName,
  where: { after?: TurnStepName; before?: TurnStepName },
): { steps: StepEntry[]; phases: PhaseEntry[] } | Violation {
  // CR 505.2: a main phase has no steps; another main phase is added as a phase.
  if (step === 'main') return violation('505.2', 'the main phase has no steps: add a main phase (ADD_EXTRA_PHASE)');
  const kind = kindOfStep(step);
  const anchor = where.before ?? where.after;
  const offset = where.before !== undefined ? 0 : 1;
  const currentKind = ctx.phase === 'pregame' ? null : kindOf(ctx.phase);
  const fits = (k: PhaseKind | null) => k === kind;
  if (anchor === undefined || (where.before === undefined && anchor === ctx.step)) {
    if (!fits(currentKind)) return violation('500.9', `a ${step} step can only be added to a ${kind} phase; this is the ${ctx.phase} phase`);
    if (ctx.steps.length >= MAX_STEPS) return violation('500.9', `a phase has at most ${MAX_STEPS} steps to come`);
    return { steps: [{ step }, ...ctx.steps], phases: ctx.phases };
  }
  const i = ctx.steps.findIndex((s) => s.step === anchor);
  if (i >= 0) {
    if (!fits(currentKind)) return violation('500.9', `a ${step} step can only be added to a ${kind} phase`);
    if (ctx.steps.length >= MAX_STEPS) return violation('500.9', `a phase has at most ${MAX_STEPS} steps to come`);
    const steps = [...ctx.steps];
    steps.splice(i + offset, 0, { step });
    return { steps, phases: ctx.phases };
  }
  for (const [p, phase] of ctx.phases.entries()) {
    const j = phase.steps.findIndex((s) => s.step === anchor);
    if (j < 0) continue;
    if (!fits(phase.kind)) return violation('500.9', `a ${step} step can only be added to a ${kind} phase`);
    if (phase.steps.length >= MAX_STEPS) return violation('500.9', `a phase has at most ${MAX_STEPS} steps`);
    const steps = [...phase.steps];
    steps.splice(j + offset, 0, { step });
    const phases = [...ctx.phases];
    phases[p] = { ...phase, steps };
    return { steps: ctx.steps, phases };
  }
  return violation('500.9', `no ${anchor} step is still to come this turn`);
}

/**
 * Where an added phase goes (CR 500.8): directly after the current phase, or after the first
 * phase named `after` still to come this turn; the most recently added comes first. A main
 * phase is named as the view names it (505.1a).
 */
export function addPhases(
  ctx: Pick<TurnContext, 'phases' | 'phase' | 'mainSeen'>,
  added: PhaseEntry[],
  after: TurnPhaseName | undefined,
): PhaseEntry[] | Violation {
  if (ctx.phases.length + added.length > MAX_PHASES) return violation('500.8', `a turn has at most ${MAX_PHASES} phases to come`);
  // CONTRACT (ADD_EXTRA_COMBAT): no effect adds a combat after the ending phase, however it is
  // added, so the combats of a turn come before its cleanup step (500.8, 514.3a). Other phases
  // may follow it (500.8, 500.10: an additional upkeep "after this phase").
  if ((after ?? ctx.phase) === 'ending' && added.some((p) => p.kind === 'combat')) {
    return violation('500.8', 'no combat phase can be added after the ending phase');
  }
  if (after === undefined || after === ctx.phase) return [...added, ...ctx.phases];
  let mainSeen = ctx.mainSeen;
  for (const [i, entry] of ctx.phases.entries()) {
    const name = phaseName(entry.kind, mainSeen);
    if (entry.kind === 'main') mainSeen = true;
    if (name === after) return [...ctx.phases.slice(0, i + 1), ...added, ...ctx.phases.slice(i + 1)];
  }
  return violation('500.8', `there is no ${after} phase still to come this turn`);
}
