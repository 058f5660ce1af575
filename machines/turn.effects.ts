/**
 * What each action of the turn's flow does, as pure functions of the context: the turn,
 * its phases and steps, mana, cleanup and ending the turn (priority.effects.ts and
 * combat.effects.ts hold the rest). The machine's actions
 * (turn.implementations.ts) are one-line adapters over these; the rules they apply live in src/rules/.
 */
import { ErrorCode, TurnEngineError } from '../src/errors.js';
import { discardDue, discardingPlayer } from '../src/rules/cleanup.js';
import { byUnits, membersOf, representative, unitOf } from '../src/rules/units.js';
import { controlForTurn } from '../src/rules/control.js';
import { dayNightChange, dayNightSpellCount } from '../src/rules/dayNight.js';
import { startingCandidates } from '../src/rules/pregame.js';
import { drawnGame } from '../src/rules/leaving.js';
import { MAX_CLEANUP_STEPS_PER_TURN, MAX_EMPTY_TURNS_PER_PLAYER } from '../src/rules/limits.js';
import { MAX_AMOUNT } from '../src/fields.js';
import { burnsMana, emptyPools, poolsEmptyAt, poolsToEmpty } from '../src/rules/mana.js';
import { copyCounts, countsAfter, isSkippedByEffect, phaseName, phaseSkipRule, regularPhases, type StepSkip, type StepSkipRule } from '../src/rules/schedule.js';
import { departedTurnsBegun, nextPlayerAfter, nextTurn } from '../src/rules/turnOrder.js';
import { dueAsTurnBegins, phasingInUntapStep } from '../src/rules/phasing.js';
import { seedState } from '../src/rules/random.js';
import { eraOf } from '../src/rules/eras.js';
import { influenceOf, rangesOf } from '../src/rules/teams.js';
import { endCombat, expireAt, isLeftBeforeEndingChecks } from './boundaries.js';
import { pregameOf } from './pregame.effects.js';
import { runCheckpoint } from './checkpoint.js';
import { effect, NOTHING, sequence, andThen, type Effect } from './effect.js';
import { endYields } from './yields.js';
import type { GameHooksRuntime } from './hooks.js';
import type { EmittedEvent, PlayerId, StepName, TurnPhaseName, TurnStepName } from '../src/contract.js';
import type { TurnContext, TurnInput } from '../src/state.js';

type Runtime = GameHooksRuntime | undefined;

function perPlayer<T>(players: readonly PlayerId[], value: T): Record<PlayerId, T> {
  const out: Record<PlayerId, T> = {};
  for (const p of players) out[p] = value;
  return out;
}

/** The context of a new game: turn 1 is about to begin, with the starting player active (CR 103.8). */
export function initialContext(input: TurnInput): TurnContext {
  const start = input.pregame
    ? pregameOf(input.players, input.handSize, seedState(input.seed), startingCandidates({ players: input.players, teams: input.teams, variant: input.variant }))
    : { pregame: null, rng: seedState(input.seed) };
  return {
    rules: input.rules,
    seats: [...input.players],
    players: [...input.players],
    startingPlayer: input.startingPlayer,
    maxHandSize: input.maxHandSize,
    attack: input.attack,
    turn: 1,
    activePlayer: input.pregame ? null : input.startingPlayer,
    turnOwner: input.startingPlayer,
    rotation: input.startingPlayer,
    phase: input.pregame ? 'pregame' : 'beginning',
    step: input.pregame ? 'pregame' : 'untap',
    steps: [],
    phases: input.pregame ? [] : regularPhases(),
    mainSeen: false,
    priority: null,
    passed: [],
    stack: [],
    pendingTriggers: [],
    landsPlayedBy: {},
    spellsCast: perPlayer(input.players, 0),
    previousTurnSpells: null,
    manaPool: emptyPools(input.players),
    handSizes: perPlayer(input.players, input.pregame ? 0 : input.handSize),
    combat: null,
    extraTurns: [],
    skips: {},
    effects: [],
    dayNight: null,
    controlNext: [],
    controlledBy: {},
    stops: perPlayer<null>(input.players, null),
    yields: {},
    autoPasses: 0,
    autoPassTurns: 0,
    priorityFresh: false,
    endedInSend: false,
    emptyTurns: 0,
    cleanupSteps: 0,
    cleanupCheck: null,
    reasons: {},
    result: null,
    nextObjectId: 1,
    pending: [],
    orderTriggers: input.orderTriggers,
    triggerOrder: null,
    rng: start.rng,
    variant: input.variant,
    teams: input.teams === null ? null : input.teams.map((t) => ({ id: t.id, players: [...t.players] })),
    ranges: rangesOf(input.players, input.teams, input.variant, input.rangeOfInfluence),
    influence: influenceOf({ players: input.players, ranges: rangesOf(input.players, input.teams, input.variant, input.rangeOfInfluence) }),
    planarRolls: 0,
    pregame: start.pregame,
    extraTurn: null,
    waitingToPhaseIn: [],
  };
}

/**
 * The fields that last one turn, as every new turn has them (CR 500.1: the turn begins with the
 * untap step; 305.2 land plays; 731.2 spells counted for day and night; 801.2c range of
 * influence fixed as the turn begins; 723.1b control for the turn): one factory for turn 1 and
 * every later turn, so ending a turn early (724) leaves nothing of it behind.
 */
function newTurn(ctx: TurnContext, player: PlayerId): Partial<TurnContext> {
  const control = controlForTurn(ctx, player);
  // Fields are set on this object, never spread into another: V8 adds properties to a spread
  // copy of an object this size on a slow path (microseconds per property).
  return {
    activePlayer: player,
    turnOwner: player,
    phase: 'beginning',
    step: 'untap',
    steps: [],
    phases: regularPhases(),
    mainSeen: false,
    priority: null,
    passed: [],
    landsPlayedBy: {},
    planarRolls: 0,
    influence: influenceOf(ctx),
    spellsCast: perPlayer(ctx.players, 0),
    combat: null,
    cleanupSteps: 0,
    cleanupCheck: null,
    controlledBy: control.controlledBy,
    controlNext: control.controlNext,
    extraTurn: null,
  };
}

/** Turn 1 begins, with the starting player active (CR 103.8), after the pregame if there was one. */
export function beginFirstTurn(ctx: TurnContext): Effect {
  const chosen = ctx.pregame?.starting ?? ctx.startingPlayer;
  // CR 800.4k: a player who left during the pregame never begins a turn; the next in turn order does.
  const player = unitOf(ctx, ctx.players.includes(chosen) ? chosen : (nextPlayerAfter(ctx, chosen) ?? chosen));
  return effect(
    ctx,
    Object.assign(newTurn(ctx, player), { rotation: player, startingPlayer: player, pregame: null }),
    [{ type: 'turnBegan', turn: ctx.turn, activePlayer: representative(ctx, player), extra: false }],
  );
}

/**
 * The next turn begins (CR 500.7, 614.10, 723.1b, 800.4k): extra turns first, skipped turns
 * passed over. Everything that lasts "this turn" starts afresh; control effects for the new
 * active player take hold; 'untilYourNextTurn' effects end right after `turnBegan`.
 */
export function beginTurn(ctx: TurnContext): Effect {
  // CR 104.4b: turn after turn with every phase and step skipped, or every turn skipped for ever, is a loop of mandatory actions: a draw.
  const next = ctx.emptyTurns >= MAX_EMPTY_TURNS_PER_PLAYER * ctx.seats.length ? null : nextTurn(byUnits(ctx));
  if (next === null || next.forever === true) return effect(ctx, { result: drawnGame(ctx), priority: null }, [{ type: 'gameOver', winners: [], draw: true }]);
  const turn = ctx.turn + 1;
  const previous = ctx.activePlayer ?? ctx.turnOwner;
  const patch = newTurn(ctx, next.player);
  // CR 500.7: an extra turn, named as ADD_EXTRA_TURN named it (CONTRACT v3: currentTurn, turnBegan).
  if (next.extra) patch.extraTurn = next.id === undefined ? {} : { id: next.id };
  patch.turn = turn;
  patch.rotation = next.rotation;
  patch.extraTurns = next.extraTurns;
  patch.skips = next.skips;
  // CR 731.2a-b: with shared team turns, the most spells any one player of the previous active team cast.
  patch.previousTurnSpells = dayNightSpellCount(ctx, previous);
  // CR 104.4b: a loop is turns with nothing in them and nothing used up; a skip used up or an extra turn taken starts the count again.
  patch.emptyTurns = next.extra || next.skips !== ctx.skips ? 0 : ctx.emptyTurns + 1;
  patch.autoPassTurns = ctx.autoPassTurns + (ctx.autoPasses > 0 ? 1 : 0);
  // CR 800.4m: the players who have left whose next turn would have begun now (with shared team turns, their team's).
  const passedOver = departedTurnsBegun(ctx, next);
  // CR 702.26n: what phased out under them phases in during the next untap step.
  patch.waitingToPhaseIn = dueAsTurnBegins(ctx, next.player, passedOver);
  const began = effect(ctx, patch, [
    next.id === undefined ? { type: 'turnBegan', turn, activePlayer: representative(ctx, next.player), extra: next.extra } : { type: 'turnBegan', turn, activePlayer: representative(ctx, next.player), extra: next.extra, id: next.id },
  ]);
  return andThen(ctx, began, (c) => sequence(c, (d) => expireAt(d, { at: 'turnBegan', player: next.player, passedOver }), endYields('nextTurn', 'endOfTurn')));
}

/** The name of the next phase of the turn (CR 505.1a), or null when the turn is over. */
export function nextPhaseName(ctx: Pick<TurnContext, 'phases' | 'mainSeen'>): TurnPhaseName | null {
  const entry = ctx.phases[0];
  return entry === undefined ? null : phaseName(entry.kind, ctx.mainSeen);
}

/** Whether the next phase is passed over (CR 614.10). */
export function isNextPhaseSkipped(ctx: TurnContext): boolean {
  const name = nextPhaseName(ctx);
  return name !== null && phaseSkipRule(ctx, name, copyCounts(ctx.skips)) !== null;
}

/** The next phase is passed over: it emits nothing (CR 614.10); a skipped first main phase still counts as precombat (505.1a). */
export function passOverPhase(ctx: TurnContext): Effect {
  const name = nextPhaseName(ctx);
  if (name === null) return NOTHING;
  const counts = copyCounts(ctx.skips);
  phaseSkipRule(ctx, name, counts);
  return effect(ctx, { phases: ctx.phases.slice(1), skips: countsAfter(ctx.skips, counts), mainSeen: ctx.mainSeen || name === 'precombatMain' });
}

/** The next phase begins (CR 500.1, 500.8). */
export function beginPhase(ctx: TurnContext): Effect {
  const entry = ctx.phases[0];
  if (entry === undefined) return NOTHING;
  const phase = phaseName(entry.kind, ctx.mainSeen);
  return effect(ctx, { phase, steps: entry.steps, phases: ctx.phases.slice(1), mainSeen: ctx.mainSeen || entry.kind === 'main' });
}

/** The next step of this phase, or null when the phase is over. */
export function nextStepName(ctx: Pick<TurnContext, 'steps'>): TurnStepName | null {
  return ctx.steps[0]?.step ?? null;
}

/**
 * Whether one rule passes over the next step of this phase (src/rules/schedule.ts: 500.10,
 * 103.8a, 508.8, 510.4, 614.10). A pending skip is looked at, not used up.
 */
export function isNextStepSkippedBy(ctx: TurnContext, skip: StepSkip): boolean {
  const entry = ctx.steps[0];
  if (entry === undefined || ctx.phase === 'pregame') return false;
  return skip(ctx, ctx.phase, entry, copyCounts(ctx.skips));
}

/**
 * The next step is passed over by `rule`: it emits nothing (CR 614.10). Passed over by a skip
 * (614.10), a pending "skip your next ..." is used up. A passed-over declare attackers step
 * declares no attackers (508.8).
 */
export function passOverStep(ctx: TurnContext, rule: StepSkipRule): Effect {
  const entry = ctx.steps[0];
  if (entry === undefined || ctx.phase === 'pregame') return NOTHING;
  const patch: Partial<TurnContext> = { steps: ctx.steps.slice(1) };
  if (rule === '614.10') {
    const counts = copyCounts(ctx.skips);
    isSkippedByEffect(ctx, ctx.phase, entry, counts);
    patch.skips = countsAfter(ctx.skips, counts);
  }
  if (entry.step === 'declareAttackers' && ctx.combat !== null) patch.combat = { ...ctx.combat, attacksDeclared: true };
  return effect(ctx, patch);
}

/** The next step is taken: it leaves the queue. */
export function takeNextStep(ctx: TurnContext): Effect {
  return effect(ctx, { steps: ctx.steps.slice(1) });
}

/**
 * A step begins (CR 500.4): nobody holds priority yet and no one has passed; `stepBegan` is
 * emitted; 'untilStep' effects end; an 'endOfTurn' yield ends as the end step begins.
 */
export function beginStep(ctx: TurnContext, step: StepName): Effect {
  const patch: Partial<TurnContext> = { step, priority: null, passed: [], cleanupCheck: null, emptyTurns: 0 };
  if (step === 'cleanup') patch.cleanupSteps = ctx.cleanupSteps + 1;
  const began = effect(ctx, patch, [{ type: 'stepBegan', turn: ctx.turn, phase: ctx.phase, step }]);
  // Nothing can end below without effects in force, or outside the yields of the end of the turn (and `began` changes neither).
  const endsYields = step === 'end' || step === 'cleanup';
  if (step === 'pregame' || (ctx.effects.length === 0 && !endsYields)) return began;
  return andThen(ctx, began, (c) =>
    // CONTRACT: a yield 'until end of turn' ends as the end step begins, or the cleanup step when the turn had no end step (724.1d, 614.10).
    sequence(c, (d) => expireAt(d, { at: 'stepBegan', step, player: d.activePlayer, turn: d.turn }), endsYields ? endYields('endOfTurn') : () => NOTHING),
  );
}

/** CR 502.1, 703.4a: phasing, for the host to carry out: the active players', then what phased out under players who have left (702.26n). */
export function phaseIn(ctx: TurnContext): Effect {
  const { players, waiting } = phasingInUntapStep(ctx, activePlayers(ctx));
  return effect(ctx, waiting === ctx.waitingToPhaseIn ? {} : { waitingToPhaseIn: waiting }, players.map((player): EmittedEvent => ({ type: 'phasing', player })));
}

/** The active players: the active player, or every player of the active team with shared team turns (CR 805.4). */
function activePlayers(ctx: TurnContext): PlayerId[] {
  return ctx.activePlayer === null ? [] : membersOf(ctx, ctx.activePlayer);
}

/** CR 502.2, 703.4b, 731.2: the day/night check. */
export function checkDayNight(ctx: TurnContext): Effect {
  const value = dayNightChange(ctx);
  return value === null ? NOTHING : effect(ctx, { dayNight: value }, [{ type: 'dayNight', value }]);
}

/** CR 502.3, 703.4c: the active player untaps their permanents (the host does the untapping). */
export function untapActivePlayer(ctx: TurnContext): Effect {
  return effect(ctx, {}, activePlayers(ctx).map((player): EmittedEvent => ({ type: 'untap', player })));
}

/**
 * CR 504.1, 703.4d: the active player draws a card. The engine counts a hand up to MAX_AMOUNT
 * cards (the largest HAND_SIZE and DISCARD): past it, a discard down to the maximum hand size
 * could not be asked for in one DISCARD, and the game could not be saved (issue 22).
 */
export function drawForTurn(ctx: TurnContext): Effect {
  const players = activePlayers(ctx);
  if (players.length === 0) return NOTHING;
  const handSizes = { ...ctx.handSizes };
  for (const p of players) handSizes[p] = Math.min(MAX_AMOUNT, (handSizes[p] ?? 0) + 1);
  return effect(ctx, { handSizes }, players.map((player): EmittedEvent => ({ type: 'draw', player })));
}

/**
 * CR 505.4, 703.4e-g: the precombat main phase's turn-based actions, in the rules' order, for
 * every active player (each player of the active team with shared team turns, 805.4): the
 * archenemy sets a scheme in motion (904.9), then lore counters, then attractions.
 */
export function beginPrecombatMain(ctx: TurnContext): Effect {
  const player = ctx.activePlayer;
  if (player === null || ctx.phase !== 'precombatMain') return NOTHING;
  const players = activePlayers(ctx);
  const archenemy = ctx.variant === 'archenemy' && ctx.teams?.some((t) => t.players.length === 1 && t.players[0] === player);
  return effect(ctx, {}, [
    ...(archenemy ? [{ type: 'setInMotion' as const, player }] : []),
    ...players.map((p): EmittedEvent => ({ type: 'loreCounters', player: p })),
    ...players.map((p): EmittedEvent => ({ type: 'visitAttractions', player: p })),
  ]);
}

/**
 * Mana empties as a step or phase ends (CR 500.5): at every step end in the current eras,
 * only at phase ends in 'classic', where unspent mana also burns its owner (classic 300.3).
 * A `keepMana` effect keeps a pool. Nothing empties once the game is over.
 */
export function emptyManaPools(ctx: TurnContext, boundary: 'step' | 'phase', leftBy?: { type: string }): Effect {
  if (ctx.result !== null || !poolsEmptyAt(ctx, boundary) || (leftBy !== undefined && isLeftBeforeEndingChecks(ctx, leftBy))) return NOTHING;
  const pools = poolsToEmpty(ctx);
  if (pools.length === 0) return NOTHING;
  const emit: EmittedEvent[] = [];
  const manaPool = { ...ctx.manaPool };
  for (const { player, amount } of pools) {
    manaPool[player] = 0;
    emit.push({ type: 'manaEmptied', player, amount });
    if (burnsMana(ctx, player)) emit.push({ type: 'manaBurn', player, amount });
  }
  return effect(ctx, { manaPool }, emit);
}

/** CR 514.1: the active player discards down to their maximum hand size. */
export function discardToHandSize(ctx: TurnContext, count: number): Effect {
  const player = discardingPlayer(ctx);
  if (player === null || count === 0) return NOTHING;
  return effect(ctx, { handSizes: { ...ctx.handSizes, [player]: (ctx.handSizes[player] ?? 0) - count } }, [{ type: 'discard', player, count }]);
}

/** Whether a discard is due in this cleanup step (CR 514.1). */
export function isDiscardDue(ctx: TurnContext): boolean {
  return ctx.result === null && discardDue(ctx) > 0;
}

/** CR 514.2: damage wears off and "until end of turn" effects end (`cleanup` for the host, then `effectEnded`). */
export function endTurnEffects(ctx: TurnContext): Effect {
  return andThen(ctx, effect(ctx, {}, [{ type: 'cleanup', player: ctx.activePlayer }]), (c) => expireAt(c, { at: 'cleanup' }));
}

/**
 * CR 514.3a: the cleanup step's own check; if anything happened, players will receive
 * priority. An object the host put on the stack during the step (PUT_ON_STACK) counts as a
 * trigger put on the stack there: the turn cannot end with the stack holding it.
 */
export function checkCleanup(ctx: TurnContext, runtime: Runtime): Effect {
  const checked = runCheckpoint(ctx, runtime, { about: null });
  return andThen(ctx, checked, (c) => {
    // CR 514.3a: state-based actions performed, triggers waiting, or an object on the stack (the host put one there) give priority.
    const activity = checked.activity || c.stack.length > 0;
    if (activity && ctx.cleanupSteps >= MAX_CLEANUP_STEPS_PER_TURN) {
      throw new TurnEngineError(
        ErrorCode.HOOK_FAILED,
        `turn ${ctx.turn}: cleanup step ${ctx.cleanupSteps} found state-based actions or triggers again, past MAX_CLEANUP_STEPS_PER_TURN = ${MAX_CLEANUP_STEPS_PER_TURN} (CR 514.3a)`,
      );
    }
    return effect(c, { cleanupCheck: activity ? 'active' : 'quiet' });
  });
}

/**
 * CR 724.1a-c, 724.2a-c: ending the turn or the combat: triggers waiting cease to exist,
 * every object on the stack is exiled (top first), state-based actions are checked with no
 * priority and no triggers put on the stack (those that trigger now wait, 724.1f). In the classic
 * era (509.1, May 2009) no rule drops the triggers waiting: they wait with those, for the cleanup step;
 * and ending the turn removes the attacking and blocking creatures from combat with the stack, before
 * the check (509.1a-b; today as the step ends, 724.1d). The combat phase itself ends as the step does.
 */
export function endTheTurnOrCombat(ctx: TurnContext, runtime: Runtime, endsTurn: boolean): Effect {
  const era = eraOf(ctx);
  const waiting = era.endingDropsWaitingTriggers ? [] : [...(ctx.triggerOrder?.batch ?? []), ...ctx.pendingTriggers];
  const combat = endsTurn && era.endTurnLeavesCombatFirst && ctx.combat !== null ? { ...ctx.combat, attackers: [], blockers: [] } : ctx.combat;
  const exiled = effect(
    ctx,
    { pendingTriggers: waiting, triggerOrder: null, stack: [], priority: null, passed: [], endedInSend: true, combat },
    [...ctx.stack].reverse().map((object): EmittedEvent => ({ type: 'removedFromStack', object: { ...object }, reason: 'exiled' })),
  );
  return andThen(ctx, exiled, (c) => runCheckpoint(c, runtime, { about: null, holdTriggers: true }));
}

/**
 * CR 724.1d: the current phase and step end (after 724.1b-c: a combat ends here, its
 * 'endOfCombat' effects with it, then the mana pools empty, 500.5) and the turn skips straight
 * to the cleanup step: no other phase or step of this turn is taken.
 */
export function skipToCleanup(ctx: TurnContext): Effect {
  return sequence(ctx, (c) => (c.combat === null ? NOTHING : endCombat(c)), (c) => emptyManaPools(c, 'phase'), (c) => effect(c, { phase: 'ending', steps: [], phases: [] }));
}


export { expireAt, isLeftBeforeEndingChecks } from './boundaries.js';
