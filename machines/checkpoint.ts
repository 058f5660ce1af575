/**
 * The state-based action and trigger check that runs before a player would receive
 * priority, once in every cleanup step, and while a turn or combat ends (CR 117.5, 704.3,
 * 514.3a, 724.1c). It calls the host's checkpoint hook with the events emitted since the
 * last call, applies the host events the hook returns, puts triggered abilities on the stack
 * in APNAP order (CR 603.3b), and repeats until a check reports nothing (704.3).
 */
import { ErrorCode, TurnEngineError } from '../src/errors.js';
import { MAX_CHECKPOINT_ROUNDS, MAX_STACK } from '../src/rules/limits.js';
import { needsOrdering, receivesPriority, stackTriggers } from '../src/rules/priority.js';
import { isLeaving, violationOf } from '../src/events/index.js';
import { leavingWith } from '../src/rules/teams.js';
import { withPatch } from './context.js';
import { effect, andThen, combine, type Effect } from './effect.js';
import { hostEffect, leaveEffect } from './host.effects.js';
import type { GameHooksRuntime } from './hooks.js';
import { endYieldsOnStackChange } from './yields.js';
import type { PlayerId, Trigger, TurnEvent } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';

/** Refuses an event that would put more than MAX_STACK objects on the stack (or waiting for it). */
export function assertStackLimit(size: number, what: string): void {
  if (size > MAX_STACK) throw new TurnEngineError(ErrorCode.ILLEGAL_ACTION, `${what} would hold ${size} objects, past MAX_STACK = ${MAX_STACK}`);
}

/** A checkpoint failure: the whole send is refused with HOOK_FAILED. */
export function hookFailed(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.HOOK_FAILED, message);
}

/** The outcome of a check. */
export interface CheckOutcome extends Effect {
  /**
   * Whether state-based actions were performed or triggered abilities were waiting (CR 514.3a:
   * what makes a cleanup step give priority). Host events alone (bookkeeping such as HAND_SIZE)
   * are not: they are applied as if sent, and the check runs again after them.
   */
  activity: boolean;
}

/** Options of a check. */
export interface CheckOptions {
  /** The player about to receive priority, shown as `priority` in the hook's view (null in cleanup's own check). */
  about: PlayerId | null;
  /** CR 724.1c, 724.2c: triggers reported now wait; nothing goes on the stack. */
  holdTriggers?: boolean;
}

/**
 * Runs the check. Triggers waiting from `TRIGGER` events go on the stack here too (unless
 * held). A hook that throws, returns something that is not a CheckpointResult, returns an
 * event that would be refused, or keeps reporting past MAX_CHECKPOINT_ROUNDS, fails the whole
 * send with HOOK_FAILED.
 */
export function runCheckpoint(ctx: TurnContext, runtime: GameHooksRuntime | undefined, options: CheckOptions): CheckOutcome {
  const check = runtime?.check;
  // Without a hook the events since the last check are nobody's to read: they are dropped here.
  if (check === undefined && (options.holdTriggers || ctx.pendingTriggers.length === 0)) return { patch: ctx.pending.length === 0 ? {} : { pending: [] }, emit: [], activity: false };
  let out: Effect = { patch: {}, emit: [] };
  let activity = false;
  // CR 117.5, 800.4a: the player about to receive priority (the next in turn order if they left meanwhile).
  let shown = options.about === null ? null : receivesPriority(ctx, options.about);
  for (let round = 0; ; round++) {
    if (round >= MAX_CHECKPOINT_ROUNDS) {
      throw hookFailed(
        `the checkpoint hook still reported something after MAX_CHECKPOINT_ROUNDS = ${MAX_CHECKPOINT_ROUNDS} checks in a row (CR 704.3)`,
      );
    }
    const current = withPatch(ctx, out.patch);
    const reported = check === undefined ? { triggers: [], stateBasedActions: false, events: [] } : check(current, shown);
    // The events so far are the hook's now (`combine`: the cleared list reads nothing of the context).
    out = combine(out, { patch: { pending: [] }, emit: [] });
    // The host's path: a check that reports nothing, with no trigger waiting, ends the checkpoint
    // here, as the rounds below would (no context copied, no trigger checked: resolving N
    // triggers with a hook stays linear). A stack already past MAX_STACK takes the long way (its error).
    if (reported.triggers.length === 0 && reported.events.length === 0 && !reported.stateBasedActions && current.pendingTriggers.length === 0 && current.stack.length <= MAX_STACK) {
      return withActivity(out, current.result !== null || activity);
    }
    const applied = applyEvents(withPatch(ctx, out.patch), reported.events);
    out = combine(out, applied);
    const after = withPatch(ctx, out.patch);
    // CR 800.4d: a trigger of a player who left is never put on the stack, and is not waiting (514.3a).
    const fresh = [...reported.triggers, ...applied.triggers].filter((t) => after.players.includes(t.controller));
    const triggers = [...after.pendingTriggers.filter((t) => after.players.includes(t.controller)), ...fresh];
    // CR 405.1: ids on the stack are unique; the reported triggers are checked as one TRIGGER event would be.
    const unique = violationOf({ ...after, pendingTriggers: [] }, null, { type: 'TRIGGER', triggers });
    if (unique !== null) throw hookFailed(`result.triggers: ${unique.message} (CR ${unique.rule})`);
    const acted = reported.stateBasedActions || fresh.length > 0 || (!options.holdTriggers && after.pendingTriggers.length > 0);
    if (applied.stop || after.result !== null) return withActivity(out, true);
    if (!acted && reported.events.length === 0) return withActivity(out, activity);
    if (acted) activity = true;
    if (options.holdTriggers) {
      out = andThen(ctx, out, (c) => effect(c, { pendingTriggers: [...c.pendingTriggers, ...fresh] }));
    } else if (needsOrdering(after, triggers)) {
      // CR 603.3b: the players order their triggers first; the check runs again afterwards.
      return withActivity(andThen(ctx, out, (c) => effect(c, { pendingTriggers: [], triggerOrder: { batch: triggers, orders: {}, about: options.about } })), true);
    } else {
      const stack = stackTriggers(after, triggers);
      assertStackLimit(stack.length, 'the stack');
      out = andThen(ctx, out, (c) => effect(c, { stack, pendingTriggers: [], passed: triggers.length > 0 ? [] : c.passed }));
      if (triggers.length > 0) out = andThen(ctx, out, endYieldsOnStackChange);
    }
    shown = options.about === null ? null : receivesPriority(withPatch(ctx, out.patch), options.about);
  }
}

/**
 * Applies the host events a hook returned, in order, as if sent at that moment. One that
 * ends the turn, the combat or the game drops the rest (724.1a, 724.2a). An event that would
 * be refused fails the send.
 */
function applyEvents(ctx: TurnContext, events: readonly TurnEvent[]): Effect & { triggers: Trigger[]; stop: boolean } {
  let out: Effect = { patch: {}, emit: [] };
  const triggers: Trigger[] = [];
  for (const [i, e] of events.entries()) {
    const current = withPatch(ctx, out.patch);
    const v = violationOf(current, null, e);
    if (v !== null) throw hookFailed(`result.events[${i}] (${e.type}) was refused: ${v.message} (CR ${v.rule})`);
    if (e.type === 'END_TURN' || (e.type === 'END_COMBAT' && current.phase === 'combat')) return { patch: out.patch, emit: out.emit, raise: [e], triggers, stop: true };
    // A checkpoint that reports anything is already a point no undo goes back past: a reveal's MARK_IRREVERSIBLE changes nothing more.
    if (e.type === 'END_COMBAT' || e.type === 'MARK_IRREVERSIBLE') continue;
    if (e.type === 'TRIGGER') {
      triggers.push(...e.triggers.filter((t) => current.players.includes(t.controller)));
      continue;
    }
    if (isLeaving(e)) {
      // CR 704.3, 104.4a: the losses one check reports happen at once; if they take every player still in the game, it is a draw.
      const draw = e.type === 'LOSE' && current.players.every((p) => events.some((x, j) => j >= i && x.type === 'LOSE' && current.players.includes(x.player) && leavingWith(current, x.player).includes(p)));
      out = andThen(ctx, out, (c) => leaveEffect(c, draw ? { type: 'DRAW_GAME' } : e));
      if (withPatch(ctx, out.patch).result !== null) return withTriggers(out, triggers, true);
      continue;
    }
    out = andThen(ctx, out, (c) => hostEffect(c, e));
  }
  return withTriggers(out, triggers, false);
}

// The outcomes are built field by field: a spread of an effect followed by more fields takes V8's slow path.
function withActivity(e: Effect, activity: boolean): CheckOutcome {
  const out: CheckOutcome = { patch: e.patch, emit: e.emit, activity };
  if (e.raise !== undefined) out.raise = e.raise;
  return out;
}

function withTriggers(e: Effect, triggers: Trigger[], stop: boolean): Effect & { triggers: Trigger[]; stop: boolean } {
  const out: Effect & { triggers: Trigger[]; stop: boolean } = { patch: e.patch, emit: e.emit, triggers, stop };
  if (e.raise !== undefined) out.raise = e.raise;
  return out;
}
