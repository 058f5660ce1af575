/**
 * Controlling another player.
 * CR 723.1, 723.1a, 723.1b, 723.5, 723.6, 800.4a.
 */
import type { PlayerId, TurnContext } from '../../machines/turn.types.js';
import { violation, type Violation } from '../errors.js';

/** Who makes a player's decisions now: their controller during a controlled turn, else themselves (CR 723.2). */
export function decider(ctx: Pick<TurnContext, 'controlledBy'>, player: PlayerId): PlayerId {
  return ctx.controlledBy[player] ?? player;
}

/** A decision's `by` must name the player who decides for `player` (CR 723.5). */
export function byViolation(ctx: Pick<TurnContext, 'controlledBy'>, player: PlayerId, by: PlayerId | undefined): Violation | null {
  if (by === undefined) return null;
  const who = decider(ctx, player);
  return by === who ? null : violation('723.5', `${by} cannot make ${player}'s decisions: ${who} does`);
}

/**
 * As a player's turn begins, the latest pending "control that player during their next
 * turn" effect takes hold (CR 723.1a, 723.1b); the others for that player are used up.
 */
export function controlForTurn(
  ctx: Pick<TurnContext, 'controlNext' | 'players'>,
  player: PlayerId,
): { controlledBy: Record<PlayerId, PlayerId>; controlNext: TurnContext['controlNext'] } {
  const mine = ctx.controlNext.filter((c) => c.player === player && ctx.players.includes(c.controller));
  const latest = mine[mine.length - 1];
  return {
    controlledBy: latest === undefined ? {} : { [player]: latest.controller },
    controlNext: ctx.controlNext.filter((c) => c.player !== player),
  };
}
