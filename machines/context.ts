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

/**
 * The fields a send writes most (a pass, priority, the step and phase, the stack, combat, mana,
 * lands, the turn): {@link assignPatch} stores each of them by name.
 */
export const HOT_FIELDS = ['passed', 'priority', 'priorityFresh', 'pending', 'autoPasses', 'autoPassTurns', 'endedInSend', 'step', 'phase', 'steps', 'phases', 'stack', 'manaPool', 'combat', 'landsPlayedBy', 'turn', 'activePlayer'] as const;

/**
 * Sets the patch's fields on a context (one that nobody else has seen yet). A `switch` on the
 * field's name with a named store for each of the {@link HOT_FIELDS}, the generic store for the
 * others: `Object.assign` onto a context of some fifty fields looks each name up in the
 * context's descriptors on V8's generic path, which was the engine's largest single cost per
 * send (issue 34). The hot fields only, not all fifty: each case costs the browser bundle bytes.
 */
export function assignPatch(target: TurnContext, patch: Partial<TurnContext>): TurnContext {
  for (const key in patch) {
    const v = patch[key as keyof TurnContext];
    switch (key) {
      case 'passed':
        target.passed = v as TurnContext['passed'];
        break;
      case 'priority':
        target.priority = v as TurnContext['priority'];
        break;
      case 'priorityFresh':
        target.priorityFresh = v as TurnContext['priorityFresh'];
        break;
      case 'pending':
        target.pending = v as TurnContext['pending'];
        break;
      case 'autoPasses':
        target.autoPasses = v as TurnContext['autoPasses'];
        break;
      case 'autoPassTurns':
        target.autoPassTurns = v as TurnContext['autoPassTurns'];
        break;
      case 'endedInSend':
        target.endedInSend = v as TurnContext['endedInSend'];
        break;
      case 'step':
        target.step = v as TurnContext['step'];
        break;
      case 'phase':
        target.phase = v as TurnContext['phase'];
        break;
      case 'steps':
        target.steps = v as TurnContext['steps'];
        break;
      case 'phases':
        target.phases = v as TurnContext['phases'];
        break;
      case 'stack':
        target.stack = v as TurnContext['stack'];
        break;
      case 'manaPool':
        target.manaPool = v as TurnContext['manaPool'];
        break;
      case 'combat':
        target.combat = v as TurnContext['combat'];
        break;
      case 'landsPlayedBy':
        target.landsPlayedBy = v as TurnContext['landsPlayedBy'];
        break;
      case 'turn':
        target.turn = v as TurnContext['turn'];
        break;
      case 'activePlayer':
        target.activePlayer = v as TurnContext['activePlayer'];
        break;
      default:
        (target as unknown as Record<string, unknown>)[key] = v;
    }
  }
  return target;
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
