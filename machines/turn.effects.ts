/**
 * What each action of the turn machine does, as pure functions of the context: a patch to
 * the context and the events to emit. The machine's actions (turn.setup.ts) are one-line
 * adapters over these; the rules they apply live in src/rules/.
 */
import { ErrorCode, TurnEngineError } from '../src/errors.js';
import { MAX_CLEANUP_STEPS_PER_TURN, discardDue } from '../src/rules/cleanup.js';
import { creaturesDealingDamage, newCombat, skipsRestOfDeclareAttackersStep } from '../src/rules/combat.js';
import { leaveGame } from '../src/rules/leaving.js';
import { emptyPools, poolsEmptyAt, poolsWithMana } from '../src/rules/mana.js';
import { recordPass } from '../src/rules/priority.js';
import { addExtraCombat, addSkip, advancePhase, stepSkip } from '../src/rules/schedule.js';
import { activeOrNext, nextTurn } from '../src/rules/turnOrder.js';
import { MAX_SKIP_RECORDS } from '../src/limits.js';
import { assertStackLimit, runCheckpoint } from './checkpoint.js';
import type {
  Attacker,
  Blocker,
  CheckpointHook,
  EmittedEvent,
  PhaseName,
  PlayerId,
  SkipRecord,
  SkipTarget,
  StepName,
  Trigger,
  TurnContext,
  TurnInput,
} from './turn.types.js';

/** A patch to the context and the events to emit, in order. */
export interface Effect {
  patch: Partial<TurnContext>;
  emit: EmittedEvent[];
}

const NOTHING: Effect = { patch: {}, emit: [] };

function patchOnly(patch: Partial<TurnContext>): Effect {
  return { patch, emit: [] };
}

/** Applies two effects in sequence. */
function then(ctx: TurnContext, first: Effect, next: (ctx: TurnContext) => Effect): Effect {
  const second = next({ ...ctx, ...first.patch });
  return { patch: { ...first.patch, ...second.patch }, emit: [...first.emit, ...second.emit] };
}

/** The context of a new game: turn 1 has begun, with the starting player active (CR 103.8). */
export function initialContext(input: TurnInput): TurnContext {
  const handSizes: Record<PlayerId, number> = {};
  for (const p of input.players) handSizes[p] = input.handSize;
  return {
    rules: input.rules,
    seats: [...input.players],
    players: [...input.players],
    startingPlayer: input.startingPlayer,
    maxHandSize: input.maxHandSize,
    turn: 1,
    activePlayer: input.startingPlayer,
    turnOwner: input.startingPlayer,
    rotation: input.startingPlayer,
    phase: 'beginning',
    step: 'untap',
    priority: null,
    passed: [],
    stack: [],
    pendingTriggers: [],
    landsPlayed: 0,
    manaPool: emptyPools(input.players),
    handSizes,
    combat: null,
    extraTurns: [],
    extraPhases: [],
    regularPhases: 1,
    mainPhases: 0,
    skips: {},
    skipping: null,
    skippedThisTurn: [],
    cleanupSteps: 0,
    cleanupCheck: null,
    winners: null,
    nextObjectId: 1,
  };
}

/** Announces turn 1 (the machine's initial state is its untap step). */
export function announceFirstTurn(ctx: TurnContext): Effect {
  return { patch: {}, emit: [{ type: 'turnBegan', turn: ctx.turn, activePlayer: ctx.turnOwner }] };
}

/**
 * A step begins (CR 500.4): nobody holds priority yet and no one has passed. A step that a
 * pending skip effect replaces is passed over without any of its actions (CR 614.10).
 */
export function beginStep(ctx: TurnContext, phase: PhaseName, step: StepName): Effect {
  const skip = stepSkip(ctx, phase, step);
  const base: Partial<TurnContext> = { phase, step, priority: null, passed: [], cleanupCheck: null };
  if (skip !== null) {
    const isNew = skip.record !== ctx.skipping;
    return patchOnly({
      ...base,
      skipping: skip.record,
      skips: skip.skips,
      skippedThisTurn: isNew ? withSkipRecords(ctx, [skip.record]) : ctx.skippedThisTurn,
    });
  }
  const cleanupSteps = step === 'cleanup' ? ctx.cleanupSteps + 1 : ctx.cleanupSteps;
  return { patch: { ...base, skipping: null, cleanupSteps }, emit: [{ type: 'stepBegan', turn: ctx.turn, phase, step }] };
}

/** The turn's skip records with `records` added, keeping the newest MAX_SKIP_RECORDS. */
function withSkipRecords(ctx: TurnContext, records: SkipRecord[]): SkipRecord[] {
  return [...ctx.skippedThisTurn, ...records].slice(-MAX_SKIP_RECORDS);
}

/** Records steps that the turn's structure leaves out (CR 508.8, 510.4, 103.8a), for inspection. */
export function recordSkips(ctx: TurnContext, phase: PhaseName, steps: readonly StepName[], rule: string): Effect {
  const records: SkipRecord[] = steps.map((step) => ({ phase, step, rule }));
  return patchOnly({ skippedThisTurn: withSkipRecords(ctx, records) });
}

/** CR 502.3: the active player untaps their permanents (the host does the untapping). */
export function untapActivePlayer(ctx: TurnContext): Effect {
  if (ctx.skipping !== null || ctx.activePlayer === null) return NOTHING;
  return { patch: {}, emit: [{ type: 'untap', player: ctx.activePlayer }] };
}

/** CR 504.1: the active player draws a card. */
export function drawForTurn(ctx: TurnContext): Effect {
  const player = ctx.activePlayer;
  if (ctx.skipping !== null || player === null) return NOTHING;
  return { patch: { handSizes: { ...ctx.handSizes, [player]: (ctx.handSizes[player] ?? 0) + 1 } }, emit: [{ type: 'draw', player }] };
}

/**
 * A player receives priority: first the state-based action and trigger check runs
 * (CR 117.5, 704.3), then the player holds priority. `resetPasses` starts a new round of
 * passing (after an action, a resolution or at the start of a step).
 */
export function givePriority(ctx: TurnContext, hook: CheckpointHook | undefined, to: PlayerId | null, resetPasses: boolean): Effect {
  if (ctx.skipping !== null || ctx.winners !== null || to === null) return NOTHING;
  const after = runCheckpoint(ctx, hook, to).ctx;
  return patchOnly({ stack: after.stack, pendingTriggers: after.pendingTriggers, priority: to, passed: resetPasses ? [] : ctx.passed });
}

/** The active player (or, without one, the next player in turn order) receives priority (CR 117.3a, 117.3b, 800.4j). */
export function givePriorityToActivePlayer(ctx: TurnContext, hook: CheckpointHook | undefined): Effect {
  return givePriority(ctx, hook, activeOrNext(ctx), true);
}

/** The player who acted keeps priority (CR 117.3c, 116.3). */
export function keepPriority(ctx: TurnContext, hook: CheckpointHook | undefined): Effect {
  return givePriority(ctx, hook, ctx.priority, true);
}

/** A player passes (CR 117.3d): the next player receives priority unless everyone has passed (CR 117.4). */
export function passPriority(ctx: TurnContext, hook: CheckpointHook | undefined, player: PlayerId): Effect {
  const { passed, next } = recordPass(ctx, player);
  const first = patchOnly({ passed, priority: null });
  if (next === null) return first;
  // The check before `next` receives priority reads neither `passed` nor `priority` (its view
  // names `next`), so it runs on the context as it is, without copying it first.
  const given = givePriority(ctx, hook, next, false);
  return given === NOTHING ? first : patchOnly({ ...given.patch, passed });
}

/** The top object of the stack resolves (CR 117.4, 405.5): the host carries it out. */
export function resolveTopOfStack(ctx: TurnContext): Effect {
  const top = ctx.stack[ctx.stack.length - 1];
  if (top === undefined) return NOTHING;
  return { patch: { stack: ctx.stack.slice(0, -1), passed: [] }, emit: [{ type: 'resolve', object: top }] };
}

/** A spell is cast or an ability activated: it goes on top of the stack (CR 405.2, 601.2i). */
export function putOnStack(ctx: TurnContext, player: PlayerId, id: string, kind: 'spell' | 'ability'): Effect {
  assertStackLimit(ctx.stack.length + 1, 'the stack');
  return patchOnly({ stack: [...ctx.stack, { id, controller: player, kind }], passed: [] });
}

/** The active player plays a land (CR 305.1, 116.2a). */
export function playLand(ctx: TurnContext): Effect {
  return patchOnly({ landsPlayed: ctx.landsPlayed + 1, passed: [] });
}

/** The combat phase begins with no creatures in combat. */
export function beginCombat(): Effect {
  return patchOnly({ combat: newCombat() });
}

/** CR 511.3: when the end of combat step ends, all creatures are removed from combat. */
export function endCombat(): Effect {
  return patchOnly({ combat: null });
}

/** CR 508.1: the active player's attackers. */
export function declareAttackers(ctx: TurnContext, attackers: readonly Attacker[]): Effect {
  const combat = ctx.combat ?? newCombat();
  return patchOnly({ combat: { ...combat, attackers: attackers.map((a) => ({ ...a })) } });
}

/**
 * 'classic' rules: with no attackers declared, the rest of the declare attackers step is
 * skipped (nobody receives priority), as are the declare blockers and combat damage steps.
 */
export function skipRestOfStepWithoutAttackers(ctx: TurnContext): Effect {
  // A step already passed over (CR 614.10, with its phase perhaps) stays so.
  if (ctx.skipping !== null || !skipsRestOfDeclareAttackersStep(ctx)) return NOTHING;
  return patchOnly({ skipping: { phase: 'combat', step: 'declareAttackers', rule: '508.8' } });
}

/** CR 509.1: one defending player's blockers. */
export function declareBlockers(ctx: TurnContext, player: PlayerId, blockers: readonly Blocker[]): Effect {
  const combat = ctx.combat ?? newCombat();
  return patchOnly({
    combat: {
      ...combat,
      blockers: [...combat.blockers, ...blockers.map((b) => ({ ...b, player }))],
      declaredBy: [...combat.declaredBy, player],
    },
  });
}

/**
 * Combat damage is assigned and dealt (CR 510.1, 510.2). Under 'classic' rules the
 * assignment goes on the stack as one object and is dealt when it resolves (classic 310.1).
 */
export function dealCombatDamage(ctx: TurnContext, first: boolean): Effect {
  if (ctx.skipping !== null || ctx.combat === null) return NOTHING;
  const creatures = creaturesDealingDamage(ctx, first);
  const combat = { ...ctx.combat, firstStrikeStep: ctx.combat.firstStrikeStep || first };
  const emit: EmittedEvent[] = [{ type: 'combatDamage', first, creatures }];
  if (ctx.rules !== 'classic' || creatures.length === 0) return { patch: { combat }, emit };
  assertStackLimit(ctx.stack.length + 1, 'the stack');
  const object = { id: `combat-damage-${ctx.nextObjectId}`, controller: ctx.activePlayer ?? ctx.turnOwner, kind: 'combatDamage' as const, creatures };
  return { patch: { combat, stack: [...ctx.stack, object], nextObjectId: ctx.nextObjectId + 1 }, emit };
}

/**
 * Mana empties as a step or phase ends (CR 500.5): at every step end under the current
 * rules, only at phase ends under 'classic', where each unspent mana also burns its owner
 * (classic 300.3). Nothing empties once the game is over.
 */
export function emptyManaPools(ctx: TurnContext, boundary: 'step' | 'phase'): Effect {
  if (ctx.winners !== null || !poolsEmptyAt(ctx.rules, boundary)) return NOTHING;
  const pools = poolsWithMana(ctx);
  if (pools.length === 0) return NOTHING;
  const emit: EmittedEvent[] = [];
  for (const { player, amount } of pools) {
    emit.push({ type: 'manaEmptied', player, amount });
    if (ctx.rules === 'classic') emit.push({ type: 'manaBurn', player, amount });
  }
  return { patch: { manaPool: emptyPools(ctx.players) }, emit };
}

/** CR 514.1: the active player discards down to their maximum hand size. */
export function discardToHandSize(ctx: TurnContext): Effect {
  const player = ctx.activePlayer;
  const count = discardDue(ctx);
  if (player === null || count === 0) return NOTHING;
  return { patch: { handSizes: { ...ctx.handSizes, [player]: ctx.maxHandSize } }, emit: [{ type: 'discard', player, count }] };
}

/** CR 514.2: damage wears off and "until end of turn" effects end (the host carries it out). */
export function endTurnEffects(ctx: TurnContext): Effect {
  if (ctx.skipping !== null) return NOTHING;
  return { patch: {}, emit: [{ type: 'cleanup', player: ctx.activePlayer }] };
}

/** CR 514.3a: the cleanup step's own check; if anything happened, players will receive priority. */
export function checkCleanup(ctx: TurnContext, hook: CheckpointHook | undefined): Effect {
  if (ctx.skipping !== null) return patchOnly({ cleanupCheck: 'quiet' });
  const { ctx: after, activity } = runCheckpoint(ctx, hook, null);
  // The cap applies when the step would give priority again, so a host that behaves again ends the turn.
  if (activity && ctx.cleanupSteps >= MAX_CLEANUP_STEPS_PER_TURN) {
    throw new TurnEngineError(
      ErrorCode.LOOP_LIMIT,
      `turn ${ctx.turn}: cleanup step number ${ctx.cleanupSteps} found state-based actions or triggers again; a turn has at most ` +
        `${MAX_CLEANUP_STEPS_PER_TURN} cleanup steps (CR 514.3a). A checkpoint hook that reports something in every cleanup step keeps the turn from ending`,
    );
  }
  return patchOnly({ stack: after.stack, pendingTriggers: after.pendingTriggers, cleanupCheck: activity ? 'active' : 'quiet' });
}

/**
 * Abilities triggered (CR 603.2): they wait for the next time a player would receive
 * priority, which is at once when a player holds priority now (CR 117.2a, 603.3).
 * Abilities of players who have left are never put on the stack (CR 800.4d).
 */
export function addTriggers(ctx: TurnContext, hook: CheckpointHook | undefined, triggers: readonly Trigger[]): Effect {
  const kept = triggers.filter((t) => ctx.players.includes(t.controller)).map((t) => ({ id: t.id, controller: t.controller }));
  assertStackLimit(ctx.stack.length + ctx.pendingTriggers.length + kept.length, 'the stack with the waiting triggered abilities');
  const first = patchOnly({ pendingTriggers: [...ctx.pendingTriggers, ...kept] });
  if (ctx.priority === null) return first;
  return then(ctx, first, (c) => givePriority(c, hook, c.priority, false));
}

/** The host reports a player's hand size. */
export function setHandSize(ctx: TurnContext, player: PlayerId, size: number): Effect {
  return patchOnly({ handSizes: { ...ctx.handSizes, [player]: size } });
}

/** Mana is added to a pool (CR 106.4), or spent from it. */
export function changeMana(ctx: TurnContext, player: PlayerId, delta: number): Effect {
  return patchOnly({ manaPool: { ...ctx.manaPool, [player]: (ctx.manaPool[player] ?? 0) + delta } });
}

/** CR 500.7: an extra turn after this one; the most recently created is taken first. */
export function addExtraTurn(ctx: TurnContext, player: PlayerId): Effect {
  return patchOnly({ extraTurns: [...ctx.extraTurns, player] });
}

/** CR 500.8: an additional combat phase (and main phase) after this phase. */
export function addCombatPhase(ctx: TurnContext, followedByMain: boolean): Effect {
  return patchOnly({ extraPhases: addExtraCombat(ctx.extraPhases, followedByMain) });
}

/** CR 614.1b, 614.10: a player will skip their next such step, combat phase or turn. */
export function skipNext(ctx: TurnContext, player: PlayerId, what: SkipTarget): Effect {
  return patchOnly({ skips: addSkip(ctx.skips, player, what) });
}

/** The next phase of the turn begins (CR 500.1, 500.8). */
export function beginPhase(ctx: TurnContext): Effect {
  return patchOnly(advancePhase(ctx));
}

/** A player leaves the game (CR 104.3a, 800.4a); with one player left, that player wins. */
export function removePlayer(ctx: TurnContext, hook: CheckpointHook | undefined, player: PlayerId): Effect {
  const { patch, priorityTo } = leaveGame(ctx, player);
  const left: Effect = { patch, emit: [{ type: 'playerLeft', player }] };
  if (patch.winners) return { patch, emit: [...left.emit, { type: 'gameOver', winners: [...patch.winners] }] };
  if (priorityTo === null) return left;
  return then(ctx, left, (c) => givePriority(c, hook, priorityTo, false));
}

/**
 * The next turn begins (CR 500.7, 614.10, 800.4k): extra turns first, skipped turns passed
 * over. Everything that lasts "this turn" starts afresh.
 */
export function beginTurn(ctx: TurnContext): Effect {
  const next = nextTurn(ctx);
  const turn = ctx.turn + 1;
  return {
    patch: {
      turn,
      activePlayer: next.player,
      turnOwner: next.player,
      rotation: next.rotation,
      extraTurns: next.extraTurns,
      skips: next.skips,
      priority: null,
      passed: [],
      landsPlayed: 0,
      combat: null,
      extraPhases: [],
      regularPhases: 1,
      mainPhases: 0,
      skipping: null,
      skippedThisTurn: [],
      cleanupSteps: 0,
      cleanupCheck: null,
    },
    emit: [{ type: 'turnBegan', turn, activePlayer: next.player }],
  };
}
