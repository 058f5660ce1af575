/**
 * Day and night.
 * CR 703.4b, 731.2, 731.2a.
 */
import type { TurnContext } from '../../machines/turn.types.js';

/**
 * The day/night check of the untap step (CR 731.2): if it's day and the previous turn's
 * active player cast no spells during that turn, it becomes night; if it's night and that
 * player cast two or more, it becomes day. Without a designation, or before turn 2, nothing.
 */
export function dayNightChange(ctx: Pick<TurnContext, 'dayNight' | 'previousTurnSpells'>): 'day' | 'night' | null {
  if (ctx.dayNight === null || ctx.previousTurnSpells === null) return null;
  if (ctx.dayNight === 'day' && ctx.previousTurnSpells === 0) return 'night';
  if (ctx.dayNight === 'night' && ctx.previousTurnSpells >= 2) return 'day';
  return null;
}
