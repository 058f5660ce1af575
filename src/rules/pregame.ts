/**
 * The start of the game (CR 103): the starting player, mulligans, opening hand actions.
 * CR 103.1, 103.4, 103.5, 103.5a, 103.5c, 103.6.
 */
import type { PlayerId, TurnContext } from '../../machines/turn.types.js';
import { inTurnOrderFrom } from './turnOrder.js';

/** The pregame's bookkeeping. */
export type Pregame = NonNullable<TurnContext['pregame']>;

/** The players in turn order from the starting player (CR 103.5, 103.6). */
function fromStarting(ctx: Pick<TurnContext, 'seats' | 'players'>, pre: Pregame): PlayerId[] {
  return pre.starting === null ? [] : inTurnOrderFrom(ctx, pre.starting);
}

/**
 * The player who must now decide to mulligan or keep (CR 103.5): in turn order from the
 * starting player, each player who has not kept decides once a round; those who took a
 * mulligan decide again in the next round. Null once every player has kept.
 */
export function mulliganDue(ctx: Pick<TurnContext, 'seats' | 'players' | 'pregame'>): PlayerId | null {
  const pre = ctx.pregame;
  if (pre === null) return null;
  const order = fromStarting(ctx, pre).filter((p) => !pre.kept.includes(p));
  return order.find((p) => !pre.decided.includes(p)) ?? order[0] ?? null;
}

/** How many cards a player who keeps puts on the bottom (CR 103.5: London mulligan; 103.5c: the first is free in multiplayer). */
export function cardsToBottom(ctx: Pick<TurnContext, 'seats'>, mulligans: number): number {
  const free = ctx.seats.length > 2 ? 1 : 0;
  return Math.max(0, mulligans - free);
}

/** The player who must put cards on the bottom now, and how many; a player who left the game is not waited for (CR 800.4a). */
export function bottomDue(ctx: Pick<TurnContext, 'pregame' | 'players'>): { player: PlayerId; count: number } | null {
  const pre = ctx.pregame;
  if (pre === null) return null;
  for (const [player, count] of Object.entries(pre.bottom)) if (count > 0 && ctx.players.includes(player)) return { player, count };
  return null;
}

/** The player who may now take opening hand actions (CR 103.6), in turn order from the starting player. */
export function openingHandDue(ctx: Pick<TurnContext, 'seats' | 'players' | 'pregame'>): PlayerId | null {
  const pre = ctx.pregame;
  if (pre === null) return null;
  return fromStarting(ctx, pre).find((p) => !pre.handsDone.includes(p)) ?? null;
}
