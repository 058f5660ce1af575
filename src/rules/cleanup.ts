/**
 * The cleanup step's turn-based actions.
 * CR 402.2, 514.1, 514.3a.
 */
import type { TurnContext } from '../../machines/turn.types.js';

/**
 * How many cards the active player must discard as the cleanup step begins: enough to
 * reduce their hand to their maximum hand size (CR 514.1). None without an active player
 * (CR 800.4j) or in a cleanup step that is passed over.
 */
export function discardDue(ctx: Pick<TurnContext, 'activePlayer' | 'handSizes' | 'maxHandSize' | 'skipping'>): number {
  if (ctx.activePlayer === null || ctx.skipping !== null) return 0;
  const hand = ctx.handSizes[ctx.activePlayer] ?? 0;
  return Math.max(0, hand - ctx.maxHandSize);
}

/**
 * A turn has at most this many cleanup steps: the last one may not give priority again.
 * A host whose checkpoint reports state-based actions in every cleanup would otherwise
 * never end the turn (CR 514.3a); the event that would break the cap is refused with
 * LOOP_LIMIT, and once the host reports nothing the turn ends.
 */
export const MAX_CLEANUP_STEPS_PER_TURN = 100;
