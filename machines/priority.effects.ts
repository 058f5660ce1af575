/**
 * What the actions about priority and the stack do, as pure functions of the context: giving
 * and passing priority (with the checkpoint first), automatic passes, resolving, casting,
 * triggers, special actions and players leaving.
 * CR 116, 117, 305, 405, 603.3b, 608, 800.4, 901.9.
 */
import { byUnits, membersOf, representative, unitOf } from '../src/rules/units.js';
import { byPriority } from '../src/rules/units.js';
import { isLastToPassWithObjectOnStack, recordPass } from '../src/rules/priority.js';
import { autoPassReason, mayPassAutomatically } from '../src/rules/stops.js';
import { activeOrNext, nextPlayerAfter } from '../src/rules/turnOrder.js';
import { randomIndex } from '../src/rules/random.js';
import { PLANAR_DIE, planarDieCost } from '../src/rules/teams.js';
import { landsPlayedBy } from '../src/rules/timing.js';
import { orderedBatch, receivesPriority, stackTriggers, triggerOrderDue } from '../src/rules/priority.js';
import { assertStackLimit, runCheckpoint } from './checkpoint.js';
import { combine, effect, NOTHING, andThen, type Effect } from './effect.js';
import { leaveEffect } from './host.effects.js';
import { endYields, endYieldsOnStackChange } from './yields.js';
import type { GameHooksRuntime } from './hooks.js';
import type { EmittedEvent, PlayerId, Trigger, TurnEvent } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';

type Runtime = GameHooksRuntime | undefined;

const endStackResolvedYields = endYields('stackResolved');

/**
 * A player receives priority: first the state-based action and trigger check runs
 * (CR 117.5, 704.3), then that player (or, if they left meanwhile, the next in turn order)
 * holds priority. `fresh` starts a new round of passes (after a resolution or a new step);
 * otherwise the passes made so far stand (CR 117.4: state-based actions and the host's events are
 * no player's action; triggers put on the stack start a new round in the check itself).
 */
export function givePriority(ctx: TurnContext, runtime: Runtime, player: PlayerId | null, fresh: boolean): Effect {
  if (player === null || ctx.result !== null || ctx.triggerOrder !== null) return NOTHING;
  const checked = runCheckpoint(ctx, runtime, { about: player });
  return andThen(ctx, checked, (c) => {
    if (c.result !== null) return NOTHING;
    if (c.triggerOrder !== null) return effect(c, { priority: null, passed: [] }); // CR 603.3b: the triggers are ordered first
    const patch: Partial<TurnContext> = { priority: receivesPriority(c, player), priorityFresh: true };
    if (fresh) patch.passed = [];
    const given = effect(c, patch);
    // The yields end on the context before `given`: they are all endYields reads, and `given` leaves them as they are.
    return c.stack.length === 0 ? combine(given, endStackResolvedYields(c)) : given;
  });
}

/**
 * CONTRACT v3, `hooks.autoPass`: the host says the player holding priority has nothing
 * meaningful to do (with objects on the stack too); with shared team turns, every member (805.5).
 */
function hostAutoPass(ctx: TurnContext, runtime: Runtime): 'host' | null {
  const ask = runtime?.autoPass;
  const player = ctx.priority;
  if (ask === undefined || player === null || !mayPassAutomatically(ctx)) return null;
  const members = membersOf(ctx, player);
  return (members.length > 0 ? members : [player]).every((m) => ask(ctx, m)) ? 'host' : null;
}

/** CONTRACT v3, CR 732.2c: what an agreed shortcut says of the player holding priority, before their own settings: pass, ask them (its end), or nothing. */
function shortcutVerdict(ctx: TurnContext, runtime: Runtime): 'shortcut' | 'ask' | null {
  const taking = runtime?.shortcut;
  if (taking === undefined || !mayPassAutomatically(ctx)) return null;
  const verdict = taking(ctx);
  return verdict === 'pass' ? 'shortcut' : verdict;
}

/** Whether something outside the player's settings may pass for them now (the host's `hooks.autoPass`, a shortcut): asked as they receive priority. */
export function mayBePassedFor(ctx: TurnContext, runtime: Runtime): boolean {
  return (runtime?.autoPass !== undefined || runtime?.shortcut !== undefined) && mayPassAutomatically(ctx);
}

/**
 * The player holding priority passes automatically (CONTRACT: stops and yields): `autoPass`
 * first, then the pass and what it causes (117.4).
 */
export function autoPassPriority(ctx: TurnContext, runtime: Runtime): Effect {
  const player = ctx.priority;
  const verdict = shortcutVerdict(ctx, runtime);
  const reason = verdict === 'ask' ? null : (verdict ?? autoPassReason(ctx) ?? hostAutoPass(ctx, runtime));
  // The host's hook said no, or a shortcut ends here: the player is asked (decided for this priority).
  if (player !== null && reason === null && (runtime?.autoPass !== undefined || runtime?.shortcut !== undefined) && ctx.priorityFresh) return effect(ctx, { priorityFresh: false });
  if (player === null || reason === null) return NOTHING;
  const announced = effect(ctx, { autoPasses: ctx.autoPasses + 1, priorityFresh: false }, [{ type: 'autoPass', player: representative(ctx, player), turn: ctx.turn, step: ctx.step, reason }]);
  const resolves = isLastToPassWithObjectOnStack(byPriority(ctx), player);
  return andThen(ctx, announced, (c) => {
    const passed = passPriority(c, runtime, player);
    return resolves ? andThen(c, passed, (d) => resolveTopOfStack(d, runtime)) : passed;
  });
}

/** CR 117.3a, 117.3b: the active player (or the next player, CR 800.4j) receives priority. */
export function givePriorityToActivePlayer(ctx: TurnContext, runtime: Runtime): Effect {
  return givePriority(ctx, runtime, activeOrNext(ctx), true);
}

/** CR 117.3c: after casting or activating, the same player receives priority again. */
export function keepPriority(ctx: TurnContext, runtime: Runtime): Effect {
  return givePriority(ctx, runtime, ctx.priority, false);
}

/**
 * A pass sent to the game (CR 117.3d). In the send that takes an agreed shortcut, the table
 * passes for the player holding priority first: that pass is the shortcut's, announced as an
 * automatic pass (CONTRACT v3, CR 732.2c).
 */
export function passSent(ctx: TurnContext, runtime: Runtime, player: PlayerId): Effect {
  if (runtime?.shortcut === undefined || runtime.shortcut(ctx) !== 'pass') return passPriority(ctx, runtime, player);
  const announced = effect(ctx, { autoPasses: ctx.autoPasses + 1 }, [{ type: 'autoPass', player: representative(ctx, player), turn: ctx.turn, step: ctx.step, reason: 'shortcut' }]);
  return andThen(ctx, announced, (c) => passPriority(c, runtime, player));
}

/** CR 117.3d: a player passes; the next player receives priority unless all have passed. */
export function passPriority(ctx: TurnContext, runtime: Runtime, player: PlayerId): Effect {
  const { passed, next } = recordPass(byPriority(ctx), unitOf(ctx, player));
  const after = effect(ctx, { passed, priority: null });
  if (next === null) return after;
  return andThen(ctx, after, (c) => givePriority(c, runtime, next, false));
}

/**
 * CR 117.4, 608: all players passed with an object on the stack: the top one resolves
 * (`resolve`, for the host to carry out); a 'classic' combat damage object deals its damage
 * (`combatDamage`, no `resolve`). Then the active player receives priority (117.3b).
 */
export function resolveTopOfStack(ctx: TurnContext, runtime: Runtime): Effect {
  const top = ctx.stack[ctx.stack.length - 1];
  if (top === undefined) return NOTHING;
  const event: EmittedEvent =
    top.kind === 'combatDamage' ? { type: 'combatDamage', first: ctx.step === 'firstStrikeDamage', creatures: [...(top.creatures ?? [])] } : { type: 'resolve', object: { ...top } };
  // The rest of the stack: popped in place when the game owns the array (src/game/ownedStacks.ts), so that N resolutions cost O(N).
  const rest = runtime?.stacks?.pop(ctx.stack) ?? ctx.stack.slice(0, -1);
  const resolved = effect(ctx, { stack: rest, passed: [] }, [event]);
  return andThen(ctx, resolved, (c) => givePriorityToActivePlayer(c, runtime));
}

/** CR 601.2a, 602.2a: a spell or ability goes on the stack; a spell counts for the turn. A new object ends yields (CONTRACT). */
export function castOrActivate(ctx: TurnContext, player: PlayerId, id: string, kind: 'spell' | 'ability'): Effect {
  assertStackLimit(ctx.stack.length + 1, 'the stack');
  const patch: Partial<TurnContext> = { stack: [...ctx.stack, { id, controller: player, kind }], passed: [] };
  if (kind === 'spell') patch.spellsCast = { ...ctx.spellsCast, [player]: (ctx.spellsCast[player] ?? 0) + 1 };
  return andThen(ctx, effect(ctx, patch), endYieldsOnStackChange);
}

/** A player of the active player or team plays a land (CR 305.1, 116.2a, 805.4c): no stack, a new round of passes. */
export function playLand(ctx: TurnContext, player: PlayerId): Effect {
  return effect(ctx, { landsPlayedBy: { ...ctx.landsPlayedBy, [player]: landsPlayedBy(ctx, player) + 1 }, passed: [] });
}

/**
 * Abilities triggered (CR 603.2): they wait for the next time a player would receive
 * priority, which is at once when a player holds priority now (CR 117.2a, 603.3).
 * Abilities of players who have left are never put on the stack (CR 800.4d).
 */
export function addTriggers(ctx: TurnContext, runtime: Runtime, triggers: readonly Trigger[]): Effect {
  const kept = triggers.filter((t) => ctx.players.includes(t.controller)).map((t) => ({ id: t.id, controller: t.controller }));
  assertStackLimit(ctx.stack.length + ctx.pendingTriggers.length + kept.length, 'the stack with the waiting triggered abilities');
  const first = andThen(ctx, effect(ctx, { pendingTriggers: [...ctx.pendingTriggers, ...kept] }), kept.length > 0 ? endYieldsOnStackChange : () => NOTHING);
  if (ctx.priority === null) return first;
  return andThen(ctx, first, (c) => givePriority(c, runtime, c.priority, false));
}

/**
 * CR 901.9: the active player rolls the planar die, paying one more mana than for the last
 * roll this turn; the seeded roll is emitted (`planarDie`) and they get priority again.
 */
export function rollPlanarDie(ctx: TurnContext, runtime: Runtime, player: PlayerId): Effect {
  const cost = planarDieCost(ctx);
  const { state, index } = randomIndex(ctx.rng, PLANAR_DIE.length);
  const roll = PLANAR_DIE[index] ?? 'blank';
  const rolled = effect(
    ctx,
    { rng: state, planarRolls: ctx.planarRolls + 1, manaPool: { ...ctx.manaPool, [player]: (ctx.manaPool[player] ?? 0) - cost }, passed: [] },
    [{ type: 'planarDie', player, roll }],
  );
  return andThen(ctx, rolled, (c) => givePriority(c, runtime, player, false));
}

/**
 * CR 603.3b: a player orders their triggers of a batch (`orderTriggers: 'players'`). Once
 * every player who had two or more has ordered them, the batch goes on the stack in APNAP
 * order, each player's in the order given; then the check runs again and the player about
 * to receive priority receives it.
 */
export function orderTriggers(ctx: TurnContext, runtime: Runtime, player: PlayerId, order: readonly string[]): Effect {
  const pending = ctx.triggerOrder;
  const due = triggerOrderDue(ctx);
  if (pending === null || due === null) return NOTHING;
  // CR 805.7: a team's order, given by any of its members, is kept under the team's unit.
  const orders = { ...pending.orders, [due.unit]: [...order] };
  if (triggerOrderDue({ ...ctx, triggerOrder: { ...pending, orders } }) !== null) return effect(ctx, { triggerOrder: { ...pending, orders } });
  return finishTriggerOrder({ ...ctx, triggerOrder: { ...pending, orders } }, runtime);
}

/** Every order is given: the batch goes on the stack and the player about to receive priority receives it (CR 603.3b). */
function finishTriggerOrder(ctx: TurnContext, runtime: Runtime): Effect {
  const pending = ctx.triggerOrder;
  if (pending === null) return NOTHING;
  const batch = orderedBatch(ctx);
  const stacked = andThen(ctx, effect(ctx, { triggerOrder: null, stack: stackTriggers(ctx, batch), passed: [] }), endYieldsOnStackChange);
  return andThen(ctx, stacked, (c) => givePriority(c, runtime, pending.about ?? activeOrNext(c), false));
}

/** A player leaves the game, or the game ends (CR 104.3a, 800.4a): if they held priority, the next player receives it. */
export function removePlayer(ctx: TurnContext, runtime: Runtime, e: Extract<TurnEvent, { type: 'CONCEDE' | 'LOSE' | 'WIN' | 'DRAW_GAME' }>): Effect {
  const held = ctx.priority;
  const left = leaveEffect(ctx, e);
  return andThen(ctx, left, (c) => {
    // Triggers waiting to be ordered by nobody left to order them go on the stack.
    if (c.result === null && c.triggerOrder !== null && triggerOrderDue(c) === null) return finishTriggerOrder(c, runtime);
    if (c.result !== null || held === null || c.priority !== null || c.players.includes(held)) return NOTHING;
    const next = byUnits(c).players.length > 1 ? nextPlayerAfter(byPriority(c), held) : null;
    return givePriority(c, runtime, next, false);
  });
}

