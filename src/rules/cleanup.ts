/**
 * The cleanup step's turn-based actions.
 * CR 402.2, 514.1, 514.3a.
 */
import type { TurnContext } from '../../machines/turn.types.js';
import { maxHandSizeOf } from './effects.js';

/**
 * How many cards the active player must discard in the cleanup step: enough to reduce
 * their hand to their maximum hand size (CR 514.1), none without a maximum (402.2) or
 * without an active player (800.4j).
 */
export function discardDue(ctx: Pick<TurnContext, 'activePlayer' | 'handSizes' | 'maxHandSize' | 'effects'>): number {
  if (ctx.activePlayer === null) return 0;
  const max = maxHandSizeOf(ctx, ctx.activePlayer);
  if (max === null) return 0;
  return Math.max(0, (ctx.handSizes[ctx.activePlayer] ?? 0) - max);
}
