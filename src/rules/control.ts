/**
 * Controlling another player.
 * CR 723.1, 723.1a, 723.1b, 723.5, 723.6, 800.4a, 805.8.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { membersOf, sharesTurns } from './units.js';

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
 * turn" effect takes hold (CR 723.1a, 723.1b); the others for that player are used up. With
 * shared team turns the turn is the team's (`player` is its unit): an effect on any member
 * takes hold, and its controller controls the whole team (805.8).
 */
export function controlForTurn(
  ctx: Pick<TurnContext, 'controlNext' | 'players' | 'teams' | 'variant'>,
  player: PlayerId,
): { controlledBy: Record<PlayerId, PlayerId>; controlNext: TurnContext['controlNext'] } {
  const members = sharesTurns(ctx) ? membersOf(ctx, player) : [player];
  const mine = ctx.controlNext.filter((c) => members.includes(c.player) && ctx.players.includes(c.controller));
  const latest = mine[mine.length - 1];
  const controlledBy: Record<PlayerId, PlayerId> = {};
  if (latest !== undefined) for (const m of sharesTurns(ctx) ? members : [latest.player]) if (m !== latest.controller) controlledBy[m] = latest.controller;
  // Unchanged when none was for this turn's players: the same list (a context field that keeps its identity is known unchanged).
  const rest = ctx.controlNext.filter((c) => !members.includes(c.player));
  return { controlledBy, controlNext: rest.length === ctx.controlNext.length ? ctx.controlNext : rest };
}
