/**
 * The host events the server itself sends, and the game's next deadline (CONTRACT v3, "Playing
 * between people"): `TICK` when a clock or away time-out falls, `SET_SEAT_STATUS` when a seat's
 * client drops or comes back, `game.nextDeadline()` for when to look again. One function each,
 * so that the server has one call site for each.
 */
import type { Game } from '../game/types.js';

/** `{ type: 'TICK', at }`: the engine looks at the time (a clock ran out, an away seat's grace ended). */
export function tickEvent(at: number): unknown {
  return { type: 'TICK', at };
}

/** `{ type: 'SET_SEAT_STATUS', player, status, at }`: the seat's client dropped ('away') or is back ('connected'). */
export function seatStatusEvent(player: string, status: 'connected' | 'away', at: number): unknown {
  return { type: 'SET_SEAT_STATUS', player, status, at };
}

/**
 * When the game next needs a TICK (`game.nextDeadline()`'s `at`, in the host's clock: the
 * server's `Date.now()`), or null: no clock and no away policy, or an engine without
 * `nextDeadline` (then nothing is ever ticked).
 */
export function deadlineOf(game: Game): number | null {
  const next = (game as { nextDeadline?: () => { at: number } | null }).nextDeadline;
  if (typeof next !== 'function') return null;
  const deadline = next.call(game);
  return deadline === null || typeof deadline.at !== 'number' ? null : deadline.at;
}

/** The seat's status in the view (`view.seats`, with the away option or after any SET_SEAT_STATUS), or null. */
export function seatStatusOf(view: object, player: string): 'connected' | 'away' | null {
  const seats = (view as { seats?: Record<string, { status?: unknown }> | null }).seats;
  const status = seats?.[player]?.status;
  return status === 'connected' || status === 'away' ? status : null;
}
