/**
 * Stops, yields and automatic passes: where each player wants to be asked (CONTRACT.md,
 * "Stops and auto-pass"). An automatic pass is a pass (CR 117.4); a controlled player's
 * priorities use their controller's stops and yield (CR 723.5). With shared team turns a team
 * holds priority (805.5) and passes automatically only when every member would: any member
 * who wants to be asked is asked for the team.
 */
import type { PlayerId, Stop } from '../contract.js';
import type { TurnContext } from '../state.js';
import { decider } from './control.js';
import { MAX_AUTO_PASSES } from './limits.js';
import { membersOf, unitOf } from './units.js';

/**
 * Whether one of a player's stops matches the current step ('own'/'others' seen from that
 * player, their team's turn being their own, 805.4; no active player: 'others').
 */
export function matchesStop(stops: readonly Stop[], ctx: Pick<TurnContext, 'step' | 'activePlayer' | 'teams' | 'variant'>, player: PlayerId): boolean {
  const own = ctx.activePlayer !== null && unitOf(ctx, player) === ctx.activePlayer;
  return stops.some((s) => s.step === ctx.step && (s.turn === 'any' || (s.turn === 'own') === own));
}

/**
 * Whether the player holding priority may pass automatically now, by their settings or by the
 * host's `hooks.autoPass`: decided as a player receives priority (a setting changed while they
 * hold it applies from the next time), within the loop guard.
 */
export function mayPassAutomatically(ctx: Pick<TurnContext, 'priority' | 'result' | 'autoPasses' | 'autoPassTurns' | 'players' | 'priorityFresh'>): boolean {
  if (ctx.priority === null || ctx.result !== null || !ctx.priorityFresh) return false;
  return ctx.autoPassTurns < ctx.players.length && ctx.autoPasses < MAX_AUTO_PASSES;
}

/**
 * Why the settings of `who` (the player deciding for `player`: themselves, or their controller,
 * CR 723.5) pass for `player` now, or null if they want to be asked. 'own' and 'others' are seen
 * from `player`: a controller plays the controlled player's turn as that player.
 */
function passesFor(ctx: Pick<TurnContext, 'yields' | 'stops' | 'stack' | 'step' | 'activePlayer' | 'teams' | 'variant'>, who: PlayerId, player: PlayerId): 'yield' | 'noStop' | null {
  if (ctx.yields[who] !== undefined) return 'yield';
  const stops = ctx.stops[who];
  if (stops === null || stops === undefined || ctx.stack.length > 0) return null;
  return matchesStop(stops, ctx, player) ? null : 'noStop';
}

/**
 * Why the player holding priority passes automatically now, or null if they are asked: a
 * yield in force passes whatever the stack holds; with an empty stack, stops that match
 * nothing here pass. The loop guard asks anyway once automatic passes of one send have begun
 * as many turns as there are players, or reached MAX_AUTO_PASSES.
 */
export function autoPassReason(
  ctx: Pick<TurnContext, 'priority' | 'result' | 'controlledBy' | 'yields' | 'stops' | 'stack' | 'step' | 'activePlayer' | 'autoPasses' | 'autoPassTurns' | 'players' | 'priorityFresh' | 'teams' | 'variant'>,
): 'yield' | 'noStop' | null {
  const player = ctx.priority;
  if (player === null || !mayPassAutomatically(ctx)) return null;
  // CR 805.5: a team passes only when the settings of whoever decides for each member all pass.
  const members = membersOf(ctx, player);
  const reasons = (members.length > 0 ? members : [player]).map((m) => passesFor(ctx, decider(ctx, m), m));
  if (reasons.some((r) => r === null)) return null;
  return reasons.every((r) => r === 'yield') ? 'yield' : 'noStop';
}
