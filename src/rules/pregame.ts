/**
 * The start of the game (CR 103): the starting player, mulligans, opening hand actions.
 * CR 103.1, 103.4, 103.5, 103.5a, 103.5c, 103.6, 805.3a, 805.3b, 809.4, 904.6.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { emperorOf } from './teams.js';
import { inTurnOrderFrom, nextPlayerAfter } from './turnOrder.js';
import { membersOf, sharesTurns, unitOf, unitSeating } from './units.js';

/**
 * Who may take the first turn when a variant says, or null when any player may (CR 103.1):
 * the archenemy (904.6: "rather than a randomly determined player"), or an emperor (809.4:
 * "randomly determine which emperor goes first"). Only players still in the game.
 */
export function startingCandidates(ctx: Pick<TurnContext, 'players' | 'teams' | 'variant'>): PlayerId[] | null {
  if (ctx.teams === null) return null;
  if (ctx.variant === 'archenemy') return ctx.teams.filter((t) => t.players.length === 1).flatMap((t) => t.players).filter((p) => ctx.players.includes(p));
  if (ctx.variant === 'emperor') return ctx.teams.map(emperorOf).filter((p) => ctx.players.includes(p));
  return null;
}

/** The player who chooses the starting player now: the one chosen at random, or the next in turn order (or the first candidate) if they left. */
export function startingChooser(ctx: Pick<TurnContext, 'players' | 'seats' | 'teams' | 'variant' | 'pregame'>): PlayerId | null {
  const pre = ctx.pregame;
  if (pre === null) return null;
  if (ctx.players.includes(pre.chooser)) return pre.chooser;
  const candidates = startingCandidates(ctx);
  return candidates?.[0] ?? nextPlayerAfter(ctx, pre.chooser) ?? pre.chooser;
}

/** The pregame's bookkeeping. */
export type Pregame = NonNullable<TurnContext['pregame']>;

/**
 * The players in turn order from the starting player (CR 103.5, 103.6); with shared team turns
 * the starting team's players first, then each other team's in turn order (805.3a, 805.3b).
 */
export function inOrderFromStarting(ctx: Pick<TurnContext, 'seats' | 'players' | 'teams' | 'variant'>, starting: PlayerId): PlayerId[] {
  if (!sharesTurns(ctx)) return inTurnOrderFrom(ctx, starting);
  return inTurnOrderFrom(unitSeating(ctx), unitOf(ctx, starting)).flatMap((unit) => membersOf(ctx, unit));
}

function fromStarting(ctx: Pick<TurnContext, 'seats' | 'players' | 'teams' | 'variant'>, pre: Pregame): PlayerId[] {
  return pre.starting === null ? [] : inOrderFromStarting(ctx, pre.starting);
}

/**
 * The player who must now decide to mulligan or keep (CR 103.5): in turn order from the
 * starting player, each player who has not kept decides once a round; those who took a
 * mulligan decide again in the next round. Null once every player has kept.
 */
export function mulliganDue(ctx: Pick<TurnContext, 'seats' | 'players' | 'pregame' | 'teams' | 'variant'>): PlayerId | null {
  const pre = ctx.pregame;
  if (pre === null) return null;
  const order = fromStarting(ctx, pre).filter((p) => !pre.kept.includes(p));
  return order.find((p) => !pre.decided.includes(p)) ?? order[0] ?? null;
}

/** Whether a player may take another mulligan: they would keep at least one card (CR 103.5; 800.6: the free first mulligan of a multiplayer game does not count). */
export function mayMulligan(ctx: Pick<TurnContext, 'seats' | 'pregame'>, player: PlayerId): boolean {
  const pre = ctx.pregame;
  return pre !== null && cardsToBottom(ctx, (pre.mulligans[player] ?? 0) + 1) <= pre.handSize;
}

/** How many cards a player who keeps puts on the bottom (CR 103.5: London mulligan; 103.5c, 800.6: the first is free in multiplayer). */
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
export function openingHandDue(ctx: Pick<TurnContext, 'seats' | 'players' | 'pregame' | 'teams' | 'variant'>): PlayerId | null {
  const pre = ctx.pregame;
  if (pre === null) return null;
  return fromStarting(ctx, pre).find((p) => !pre.handsDone.includes(p)) ?? null;
}
