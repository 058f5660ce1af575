/**
 * Day and night.
 * CR 703.4b, 731.2, 731.2a, 731.2b, 731.2c.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { sharesTurns } from './units.js';

/**
 * The number the day/night check looks at (CR 731.2a-b): the most spells any one player of
 * the turn's active player (with shared team turns, its active team) cast during the turn.
 * "No player cast a spell" is a count of 0; "any player cast two or more" is 2 or more, so
 * two teammates casting one spell each count 1, not 2. A player who left during the turn still
 * counts: their spells of the turn are kept until it ends (800.4i: the last known information).
 */
export function dayNightSpellCount(ctx: Pick<TurnContext, 'teams' | 'variant' | 'players' | 'spellsCast'>, active: PlayerId): number {
  const team = sharesTurns(ctx) ? ctx.teams?.find((t) => t.players.includes(active)) : undefined;
  const casters = team === undefined ? [active] : team.players;
  return Math.max(...casters.map((p) => ctx.spellsCast[p] ?? 0));
}

/**
 * The day/night check of the untap step (CR 731.2): if it's day and the previous turn's
 * active player (team) cast no spells during that turn, it becomes night; if it's night and
 * that player (any one player of that team) cast two or more, it becomes day. Without a
 * designation, or before turn 2, nothing (731.2c).
 */
export function dayNightChange(ctx: Pick<TurnContext, 'dayNight' | 'previousTurnSpells'>): 'day' | 'night' | null {
  if (ctx.dayNight === null || ctx.previousTurnSpells === null) return null;
  if (ctx.dayNight === 'day' && ctx.previousTurnSpells === 0) return 'night';
  if (ctx.dayNight === 'night' && ctx.previousTurnSpells >= 2) return 'day';
  return null;
}
