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
 * Sets the patch's fields on a context (one that nobody else has seen yet). A `switch` on the
 * field's name with a named store per field (the most frequent first): `Object.assign` onto a
 * context of some fifty fields looks each name up in the context's descriptors on V8's generic
 * path, which was the engine's largest single cost per send (issue 34). Every field of
 * {@link cloneContext} has its case (test/runtime/assign-patch.test.ts).
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
      case 'yields':
        target.yields = v as TurnContext['yields'];
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
      case 'rules':
        target.rules = v as TurnContext['rules'];
        break;
      case 'seats':
        target.seats = v as TurnContext['seats'];
        break;
      case 'players':
        target.players = v as TurnContext['players'];
        break;
      case 'startingPlayer':
        target.startingPlayer = v as TurnContext['startingPlayer'];
        break;
      case 'maxHandSize':
        target.maxHandSize = v as TurnContext['maxHandSize'];
        break;
      case 'attack':
        target.attack = v as TurnContext['attack'];
        break;
      case 'turnOwner':
        target.turnOwner = v as TurnContext['turnOwner'];
        break;
      case 'rotation':
        target.rotation = v as TurnContext['rotation'];
        break;
      case 'mainSeen':
        target.mainSeen = v as TurnContext['mainSeen'];
        break;
      case 'pendingTriggers':
        target.pendingTriggers = v as TurnContext['pendingTriggers'];
        break;
      case 'spellsCast':
        target.spellsCast = v as TurnContext['spellsCast'];
        break;
      case 'previousTurnSpells':
        target.previousTurnSpells = v as TurnContext['previousTurnSpells'];
        break;
      case 'handSizes':
        target.handSizes = v as TurnContext['handSizes'];
        break;
      case 'extraTurns':
        target.extraTurns = v as TurnContext['extraTurns'];
        break;
      case 'skips':
        target.skips = v as TurnContext['skips'];
        break;
      case 'effects':
        target.effects = v as TurnContext['effects'];
        break;
      case 'dayNight':
        target.dayNight = v as TurnContext['dayNight'];
        break;
      case 'controlNext':
        target.controlNext = v as TurnContext['controlNext'];
        break;
      case 'controlledBy':
        target.controlledBy = v as TurnContext['controlledBy'];
        break;
      case 'stops':
        target.stops = v as TurnContext['stops'];
        break;
      case 'emptyTurns':
        target.emptyTurns = v as TurnContext['emptyTurns'];
        break;
      case 'cleanupSteps':
        target.cleanupSteps = v as TurnContext['cleanupSteps'];
        break;
      case 'cleanupCheck':
        target.cleanupCheck = v as TurnContext['cleanupCheck'];
        break;
      case 'reasons':
        target.reasons = v as TurnContext['reasons'];
        break;
      case 'result':
        target.result = v as TurnContext['result'];
        break;
      case 'nextObjectId':
        target.nextObjectId = v as TurnContext['nextObjectId'];
        break;
      case 'orderTriggers':
        target.orderTriggers = v as TurnContext['orderTriggers'];
        break;
      case 'triggerOrder':
        target.triggerOrder = v as TurnContext['triggerOrder'];
        break;
      case 'rng':
        target.rng = v as TurnContext['rng'];
        break;
      case 'variant':
        target.variant = v as TurnContext['variant'];
        break;
      case 'teams':
        target.teams = v as TurnContext['teams'];
        break;
      case 'ranges':
        target.ranges = v as TurnContext['ranges'];
        break;
      case 'influence':
        target.influence = v as TurnContext['influence'];
        break;
      case 'planarRolls':
        target.planarRolls = v as TurnContext['planarRolls'];
        break;
      case 'pregame':
        target.pregame = v as TurnContext['pregame'];
        break;
      case 'extraTurn':
        target.extraTurn = v as TurnContext['extraTurn'];
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
