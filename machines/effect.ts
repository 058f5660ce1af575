/**
 * The shape of what an action does: a patch to the context, the events it emits, and the
 * events it raises for the chart to take next (ending the turn or the combat from a
 * checkpoint). Every emitted event is also appended to `pending`, the events the next
 * checkpoint hands to the host (CONTRACT: checkpoint's `pending`).
 */
import type { EmittedEvent, TurnEvent } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';
import { MAX_PENDING_EVENTS } from '../src/rules/limits.js';
import { isEmptyPatch, patched } from './context.js';

/** A patch to the context, the events to emit in order, and events to raise. */
export interface Effect {
  patch: Partial<TurnContext>;
  emit: EmittedEvent[];
  raise?: TurnEvent[];
}

/** An effect that does nothing. */
export const NOTHING: Effect = { patch: {}, emit: [] };

/**
 * An effect: `patch`, plus `emit` emitted and appended to the pending events. The patch becomes
 * the effect's (its `pending` is set here): pass a new object, never one another effect holds.
 * Copying it instead would put every patch on V8's slow path for adding properties to an
 * empty object (the transitions from `{}` are shared by patches of every shape).
 */
export function effect(ctx: TurnContext, patch: Partial<TurnContext>, emit: EmittedEvent[] = []): Effect {
  if (emit.length === 0) return { patch, emit };
  const base = patch.pending ?? ctx.pending;
  patch.pending = base.length + emit.length > MAX_PENDING_EVENTS ? [...base, ...emit].slice(-MAX_PENDING_EVENTS) : base.concat(emit);
  return { patch, emit };
}

/**
 * Applies `next` to the context that `first` leaves: the two effects in sequence (`first` is
 * consumed, see {@link combine}). An empty patch is passed over rather than merged.
 */
export function andThen(ctx: TurnContext, first: Effect, next: (ctx: TurnContext) => Effect): Effect {
  return combine(first, next(isEmptyPatch(first.patch) ? ctx : patched(ctx, first.patch)));
}

/**
 * Two effects in sequence where the second was computed without the first's patch (it reads
 * nothing the first changes). The first is consumed: its patch takes the second's fields (a
 * copy would add every field to a new object on V8's slow path), so never use it afterwards.
 */
export function combine(first: Effect, second: Effect): Effect {
  const raise = first.raise || second.raise ? [...(first.raise ?? []), ...(second.raise ?? [])] : undefined;
  const patch = isEmptyPatch(first.patch) ? second.patch : isEmptyPatch(second.patch) ? first.patch : Object.assign(first.patch, second.patch);
  const out: Effect = { patch, emit: first.emit.length === 0 ? second.emit : second.emit.length === 0 ? first.emit : [...first.emit, ...second.emit] };
  if (raise) out.raise = raise;
  return out;
}

/** Applies effects in sequence. */
export function sequence(ctx: TurnContext, ...steps: ((ctx: TurnContext) => Effect)[]): Effect {
  let out: Effect = NOTHING;
  for (const step of steps) out = andThen(ctx, out, step);
  return out;
}
