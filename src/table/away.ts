/**
 * Seats that drop (CONTRACT v3, "Playing between people", the `away` option and
 * SET_SEAT_STATUS), as pure functions of plain state. A seat is 'connected' until the host says
 * otherwise; once an away player has been away `graceMs` (on the host's clock, paused clocks or
 * not), at their next decision the engine waits ('wait'), answers it with the plainest answer
 * ('pass', autoPass reason 'away') or makes them leave ('concede', reason 'away').
 */
import type { AwayOptions, PlayerId, SeatStatus, SeatView } from '../contract.js';
import type { TurnContext } from '../state.js';
import { TEAMMATE_MAY_ANSWER } from '../events/index.js';
import { decider } from '../rules/control.js';
import { membersOf, sharesTurns, unitOf } from '../rules/units.js';
import type { Awaited } from './clocks.js';

/** A seat whose status the host set: since when (the host's clock). Seats never set are connected. */
export interface SeatRecord {
  status: SeatStatus;
  since: number;
}

/** The seats the host set (SET_SEAT_STATUS), by player. */
export type Seats = Record<PlayerId, SeatRecord>;

/**
 * The seats after SET_SEAT_STATUS at `at`. A seat that already has that status keeps its `since`
 * (a player away since 10:00 is still away since 10:00); a seat back to 'connected' is set as such.
 */
export function withSeatStatus(seats: Seats, player: PlayerId, status: SeatStatus, at: number): Seats {
  if ((seats[player]?.status ?? 'connected') === status) return seats;
  return { ...seats, [player]: { status, since: at } };
}

/**
 * Who may make an awaited decision, each as the player who decides for them (CR 723.5): with
 * shared team turns, for a decision any member may answer (priority, blockers: CR 805.5,
 * 805.10), every member of the team still in the game; otherwise the one who decides for the
 * awaited player. The away policy applies only when all of them are away.
 */
export function answerers(ctx: Pick<TurnContext, 'teams' | 'variant' | 'players' | 'controlledBy'>, a: Awaited): PlayerId[] {
  if (!sharesTurns(ctx) || !TEAMMATE_MAY_ANSWER[a.awaiting.kind]) return [a.decider];
  const members = membersOf(ctx, unitOf(ctx, a.awaiting.player));
  return members.length === 0 ? [a.decider] : [...new Set(members.map((m) => decider(ctx, m)))];
}

/**
 * When the away policy falls due for a decision: once every one who may make it has been away
 * `graceMs` (the latest of them), or null (someone is connected, or the policy is to wait).
 */
export function awayDueAt(away: AwayOptions | undefined, seats: Seats | undefined, who: readonly PlayerId[]): number | null {
  if (away === undefined || away.then === 'wait' || seats === undefined || who.length === 0) return null;
  let due = -Infinity;
  for (const p of who) {
    const seat = seats[p];
    if (seat === undefined || seat.status !== 'away') return null;
    due = Math.max(due, seat.since + away.graceMs);
  }
  return due;
}

/** `view().seats`: every seat, 'connected' since 0 unless the host set it. */
export function seatViews(seats: Seats, all: readonly PlayerId[]): Record<PlayerId, SeatView> {
  const out: Record<PlayerId, SeatView> = {};
  for (const p of all) {
    const s = seats[p];
    out[p] = s === undefined ? { status: 'connected', since: 0 } : { status: s.status, since: s.since };
  }
  return out;
}
