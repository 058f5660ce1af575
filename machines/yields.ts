/**
 * The end of yields (CONTRACT: "Stops and auto-pass"): 'nextTurn' at the next turnBegan,
 * 'endOfTurn' as the end step begins (or, without one, the cleanup step; at the latest the next turn), 'stackResolved' the next time anyone receives priority
 * with an empty stack, and every yield without `evenIfStackChanges` when a new object goes
 * on the stack.
 */
import { effect, NOTHING, type Effect } from './effect.js';
import type { PlayerId, Yield } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';

/** Ends the yields of these kinds (CONTRACT: 'nextTurn' at the next turnBegan, 'endOfTurn' as the end step begins). */
export function endYields(...until: ('nextTurn' | 'endOfTurn' | 'stackResolved')[]) {
  return (ctx: TurnContext): Effect => withoutYields(ctx, (y) => until.includes(y.until));
}

/** A new object on the stack ends every yield that does not hold "even if the stack changes". */
export function endYieldsOnStackChange(ctx: TurnContext): Effect {
  return withoutYields(ctx, (y) => !y.evenIfStackChanges);
}

/** The yields that `ends` picks end (nothing is copied when none does). */
function withoutYields(ctx: TurnContext, ends: (y: Yield) => boolean): Effect {
  let yields: Record<PlayerId, Yield> | null = null;
  for (const p in ctx.yields) {
    if (ends(ctx.yields[p] as Yield)) {
      yields ??= { ...ctx.yields };
      delete yields[p];
    }
  }
  return yields === null ? NOTHING : effect(ctx, { yields });
}

