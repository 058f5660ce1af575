/**
 * The cleanup step's turn-based actions.
 * CR 402.2, 514.1, 514.3a, 805.4.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { maxHandSizeOf } from './effects.js';
import { membersOf } from './units.js';

type DiscardContext = Pick<TurnContext, 'activePlayer' | 'handSizes' | 'maxHandSize' | 'effects' | 'teams' | 'variant' | 'players'>;

/** How many cards a player holds over their maximum hand size (none without a maximum, 402.2). */
function excess(ctx: DiscardContext, player: PlayerId): number {
  const max = maxHandSizeOf(ctx, player);
  return max === null ? 0 : Math.max(0, (ctx.handSizes[player] ?? 0) - max);
}

/**
 * The active player who must discard now (CR 514.1): the active player, or with shared team
 * turns each player of the active team in seat order (805.4); null when none must, or
 * without an active player (800.4j).
 */
export function discardingPlayer(ctx: DiscardContext): PlayerId | null {
  if (ctx.activePlayer === null) return null;
  return membersOf(ctx, ctx.activePlayer).find((p) => excess(ctx, p) > 0) ?? null;
}

/** How many cards that player must discard: enough to reduce their hand to their maximum hand size (CR 514.1). */
export function discardDue(ctx: DiscardContext): number {
  const player = discardingPlayer(ctx);
  return player === null ? 0 : excess(ctx, player);
}
