/**
 * Stops, yields and automatic passes: where each player wants to be asked (CONTRACT.md,
 * "Stops and auto-pass"). An automatic pass is a pass (CR 117.4); a controlled player's
 * priorities use their controller's stops and yield (CR 723.5).
 */
import type { PlayerId, Stop, TurnContext } from '../../machines/turn.types.js';
import { decider } from './control.js';
import { MAX_AUTO_PASSES } from './limits.js';

/** Whether one of a player's stops matches the current step ('own'/'others' seen from that player; no active player: 'others'). */
export function matchesStop(stops: readonly Stop[], ctx: Pick<TurnContext, 'step' | 'activePlayer'>, player: PlayerId): boolean {
  const own = ctx.activePlayer !== null && ctx.activePlayer === player;
  return stops.some((s) => s.step === ctx.step && (s.turn === 'any' || (s.turn === 'own') === own));
}

/**
 * Why the player holding priority passes automatically now, or null if they are asked: a
 * yield in force passes whatever the stack holds; with an empty stack, stops that match
 * nothing here pass. The loop guard asks anyway once automatic passes of one send have begun
 * as many turns as there are players, or reached MAX_AUTO_PASSES.
 */
export function autoPassReason(
  ctx: Pick<TurnContext, 'priority' | 'result' | 'controlledBy' | 'yields' | 'stops' | 'stack' | 'step' | 'activePlayer' | 'autoPasses' | 'autoPassTurns' | 'players' | 'priorityFresh'>,
): 'yield' | 'noStop' | null {
  const player = ctx.priority;
  // Decided as a player receives priority (a setting changed while they hold it applies from the next time).
  if (player === null || ctx.result !== null || !ctx.priorityFresh) return null;
  if (ctx.autoPassTurns >= ctx.players.length || ctx.autoPasses >= MAX_AUTO_PASSES) return null;
  const who = decider(ctx, player);
  if (ctx.yields[who] !== undefined) return 'yield';
  const stops = ctx.stops[who];
  if (stops === null || stops === undefined || ctx.stack.length > 0) return null;
  return matchesStop(stops, ctx, who) ? null : 'noStop';
}
