/**
 * The shape of what an action does: a patch to the context, the events it emits, and the
 * events it raises for the chart to take next (ending the turn or the combat from a
 * checkpoint). Every emitted event is also appended to `pending`, the events the next
 * checkpoint hands to the host (CONTRACT: checkpoint's `pending`).
 */
import type { EmittedEvent, TurnEvent } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';
import { MAX_PENDING_EVENTS } from '../src/rules/limits.js';
import { assignPatch, isEmptyPatch, patched } from './context.js';

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
 * The draft: the context the compiled runtime's step is making (src/compiled/runtime.ts
 * `microstep`), which nobody but the action it is running has seen, or null. {@link andThen}
 * writes a first effect's patch into it in place instead of copying the whole context for the
 * next effect (issue 34: the per-send copies were the engine's gap to a hand-written reducer).
 * Any other context (a published state's, XState's through the adapter, a what-if copy) takes
 * the copying path: a context is written in place only when it is this very object.
 */
let draft: TurnContext | null = null;
/** How many patches were written into a draft in place (the runtime tells from it that a step changed its context). */
let draftWrites = 0;

/** @internal The compiled runtime: `ctx` is the step's own context, unseen by anyone else (null: none). */
export function setDraft(ctx: TurnContext | null): void {
  draft = ctx;
}

/** @internal The count of in-place writes so far (compare two reads). */
export function draftWriteCount(): number {
  return draftWrites;
}

/**
 * Applies `next` to the context that `first` leaves: the two effects in sequence (`first` is
 * consumed, see {@link combine}). An empty patch is passed over rather than merged.
 *
 * On the runtime's draft (see {@link setDraft}) `first`'s patch is written into the context
 * itself, and the effect returned carries only what is not written yet (`next`'s patch): the
 * context plus the returned patch is the same as the copying path gives. Effects therefore
 * read the context they are given only before they call `andThen` on it, or read fields the
 * first effect does not change (test/runtime/compiled.test.ts plays the two paths in lockstep).
 */
export function andThen(ctx: TurnContext, first: Effect, next: (ctx: TurnContext) => Effect): Effect {
  if (ctx !== draft) return combine(first, next(isEmptyPatch(first.patch) ? ctx : patched(ctx, first.patch)));
  if (!isEmptyPatch(first.patch)) {
    assignPatch(ctx, first.patch);
    draftWrites++;
  }
  const second = next(ctx);
  // Nothing of `first` is left to carry: `second` is the composed effect (no new object).
  if (first.emit.length === 0 && first.raise === undefined) return second;
  const raise = first.raise || second.raise ? [...(first.raise ?? []), ...(second.raise ?? [])] : undefined;
  const out: Effect = { patch: second.patch, emit: first.emit.length === 0 ? second.emit : second.emit.length === 0 ? first.emit : [...first.emit, ...second.emit] };
  if (raise) out.raise = raise;
  return out;
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
