/**
 * When the next time-out of a game falls (CONTRACT v3 `nextDeadline()`; v4 "Time-outs are facts
 * of time"): a running clock's, an away grace's, an undo request's answer time; and the TICK a
 * send carrying `at` past it commits first. Pure functions of the time state and the turn.
 */
import type { Deadline, PlayerId, TurnEvent } from '../contract.js';
import type { TurnContext } from '../state.js';
import { membersOf, sharesTurns, unitOf } from '../rules/units.js';
import { answerers, awayDueAt } from './away.js';
import { awaitedDecisions, nextFlag, type Awaited } from './clocks.js';
import type { TableVote, TimedTurn, TimeState } from './timeState.js';

/** CONTRACT v4: when an undo request awaiting `vote.player` is declined for them, or null. */
export function voteDue(vote: TableVote | null): number | null {
  return vote?.kind === 'undoConsent' && vote.deadline !== undefined ? vote.deadline : null;
}

/** Who concedes together when `player` is away past the grace with `then: 'concede'`: the player; with shared team turns their team, once every member is away. */
export function conceding(ctx: TurnContext, player: PlayerId): PlayerId[] {
  return sharesTurns(ctx) ? membersOf(ctx, unitOf(ctx, player)) : [player];
}

/**
 * The earliest time-out still to come: a clock's (`unit` set), an away grace's for a decision
 * awaited ('pass') or for any player in the game ('concede': they leave at once, CONTRACT "or at
 * once, with TICK"), or an undo request's answer time (CONTRACT v4).
 */
export function upcoming(time: TimeState, awaited: readonly Awaited[], ctx: TurnContext, vote: TableVote | null): { at: number; player: PlayerId; unit?: PlayerId } | null {
  let next: { at: number; player: PlayerId; unit?: PlayerId } | null = null;
  const clock = time.clock;
  if (clock !== undefined && time.at !== null) {
    const flag = nextFlag(clock, time.at);
    if (flag !== null) next = { at: flag.at, player: awaited.find((a) => a.unit === flag.unit)?.decider ?? flag.unit, unit: flag.unit };
  }
  // An away grace that ended already was answered then, or could not be (the loop guard): it waits for the next event.
  for (const a of awaited) {
    const due = awayDueAt(time.away, time.seats, answerers(ctx, a));
    if (due !== null && time.at !== null && due > time.at && (next === null || due < next.at)) next = { at: due, player: a.decider };
  }
  if (time.away?.then === 'concede' && time.at !== null) {
    for (const p of ctx.players) {
      const due = awayDueAt(time.away, time.seats, conceding(ctx, p));
      if (due !== null && due > time.at && (next === null || due < next.at)) next = { at: due, player: p };
    }
  }
  // An undo request's answer time, due already or not (a restored request past it is declined at the next send).
  const asked = voteDue(vote);
  if (asked !== null && vote !== null && (next === null || asked < next.at)) next = { at: asked, player: vote.player };
  return next;
}

/**
 * Whether a decision awaited can time out: a clock is kept, or an away policy answers ('pass') or
 * concedes for a player away. Without either only an undo request's answer time can fall, and no
 * view need be built to look for the decisions awaited (issue 31, point 6: the server asks at
 * every send).
 */
export function awaitedMayTimeOut(time: TimeState): boolean {
  return time.clock !== undefined || (time.away !== undefined && time.away.then !== 'wait');
}

/** `game.nextDeadline()`: the next clock or away time-out still to come on the host's clock, or null (no clock or away policy, the clocks not started or paused, the game over). */
export function deadlineOf<S>(turn: TimedTurn<S>, state: S, time: TimeState | null): Deadline | null {
  if (time === null || time.at === null) return null;
  const chart = turn.chart(state);
  if (chart.status !== 'active' || chart.context.result !== null) return null;
  const awaited = awaitedMayTimeOut(time) ? awaitedDecisions(turn.view(state), chart.context) : [];
  const next = upcoming(time, awaited, chart.context, turn.vote(state));
  return next === null ? null : { player: next.player, at: next.at };
}

/** CONTRACT v4: another player in the game who is away now (grace period or not), who blocks `player`'s undo requests; null when none. */
export function awayOther(time: TimeState | null, ctx: Pick<TurnContext, 'players'>, player: PlayerId): PlayerId | null {
  const seats = time?.seats;
  if (seats === undefined) return null;
  return ctx.players.find((p) => p !== player && seats[p]?.status === 'away') ?? null;
}

/**
 * CONTRACT v4, "Time-outs are facts of time": the TICK a send carrying `at` at or past the game's
 * next deadline commits first, as an accepted step of its own (the time-outs due at or before
 * `at`), before its own event is gated; null when no time-out is due (or the event is a TICK, or
 * its `at` cannot be read: the send's own gate says why).
 */
export function dueTick<S>(turn: TimedTurn<S>, state: S, time: TimeState | null, raw: unknown): TurnEvent | null {
  if (time === null || time.at === null || typeof raw !== 'object' || raw === null) return null;
  let at: unknown;
  try {
    if ((raw as { type?: unknown }).type === 'TICK') return null;
    at = (raw as { at?: unknown }).at;
  } catch {
    return null;
  }
  if (typeof at !== 'number' || !Number.isFinite(at) || at < time.at) return null;
  const deadline = deadlineOf(turn, state, time);
  return deadline === null || at < deadline.at ? null : { type: 'TICK', at };
}
