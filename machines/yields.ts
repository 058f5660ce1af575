/**
 * The end of yields (CONTRACT: "Stops and auto-pass"): 'nextTurn' at the next turnBegan,
 * 'endOfTurn' as the end step begins, 'stackResolved' the next time anyone receives priority
 * with an empty stack, and every yield without `evenIfStackChanges` when a new object goes
 * on the stack.
 */
import { effect, NOTHING, type Effect } from './effect.js';
import type { TurnContext } from './turn.types.js';

/** Ends the yields of one kind (CONTRACT: 'nextTurn' at the next turnBegan, 'endOfTurn' as the end step begins). */
export function endYields(until: 'nextTurn' | 'endOfTurn' | 'stackResolved') {
  return (ctx: TurnContext): Effect => {
    let changed = false;
    const yields = { ...ctx.yields };
    for (const [p, y] of Object.entries(ctx.yields)) {
      if (y.until === until) {
        delete yields[p];
        changed = true;
      }
    }
    return changed ? effect(ctx, { yields }) : NOTHING;
  };
}

/** A new object on the stack ends every yield that does not hold "even if the stack changes". */
export function endYieldsOnStackChange(ctx: TurnContext): Effect {
  let changed = false;
  const yields = { ...ctx.yields };
  for (const [p, y] of Object.entries(ctx.yields)) {
    if (!y.evenIfStackChanges) {
      delete yields[p];
      changed = true;
    }
  }
  return changed ? effect(ctx, { yields }) : NOTHING;
}

