/**
 * Copies of the context with a patch applied, made cheaply. The context has some fifty
 * fields and every effect composed with {@link andThen} sees a patched copy, so how the copy
 * is made dominates the engine's time per event: an object spread (`{ ...ctx, ...patch }`) is
 * compiled by V8 into a generic clone that adds the fields one by one once it has seen
 * contexts of more than a few hidden classes. {@link cloneContext} is one object literal
 * naming every field, so every copy has the same hidden class, made in one allocation, and
 * every read of a context field stays monomorphic.
 *
 * The copies list the fields in the order of `initialContext` (machines/turn.effects.ts). A
 * context restored from a snapshot of the full form (format 2) has the order it came in; the
 * compiled game keeps that order for the actor's snapshot (src/logic/single.ts `chartState`), and
 * persist() writes the fields in this order (src/persistence/compact.ts), so no order is visible.
 */
import { cloneContext } from '../src/state.js';
import type { TurnContext } from '../src/state.js';

export { adoptContext, cloneContext } from '../src/state.js';



/** The names of the context's fields, in the order of {@link cloneContext}. */
export const CONTEXT_KEYS: readonly string[] = Object.keys(cloneContext({} as TurnContext));

/** The fields that last one send, at their start values (CONTRACT: the auto-pass loop guard counts "within one send"; 724.1, 724.2). */
export const FRESH_SEND: Readonly<Partial<TurnContext>> = { autoPasses: 0, autoPassTurns: 0, priorityFresh: false, endedInSend: false };

/** Whether the per-send fields are at their start values (then a send begins on the context as it is). */
export function isFreshSend(ctx: TurnContext): boolean {
  return ctx.autoPasses === 0 && ctx.autoPassTurns === 0 && !ctx.priorityFresh && !ctx.endedInSend;
}

/** Sets the patch's fields on a context (one that nobody else has seen yet). */
export function assignPatch(target: TurnContext, patch: Partial<TurnContext>): TurnContext {
  return Object.assign(target, patch);
}

/** Whether a patch changes nothing (has no fields). */
export function isEmptyPatch(patch: Partial<TurnContext>): boolean {
  for (const _ in patch) return false;
  return true;
}

/** The context with a patch applied: `{ ...ctx, ...patch }`, as a {@link cloneContext} copy. */
export function patched(ctx: TurnContext, patch: Partial<TurnContext>): TurnContext {
  return assignPatch(cloneContext(ctx), patch);
}

/** The context as a patch leaves it: `ctx` itself when the patch is empty (contexts are never changed once made), else {@link patched}. */
export function withPatch(ctx: TurnContext, patch: Partial<TurnContext>): TurnContext {
  return isEmptyPatch(patch) ? ctx : patched(ctx, patch);
}
