/**
 * The host's clock at the table (CONTRACT v3, "Playing between people"): what a send carrying
 * `at` does beside its event, over any turn logic. Pure state, no timers: the game's time state
 * ({@link TimeState}: the last `at`, the clocks, the seats) goes with the turn's state, is
 * persisted with it, and changes only in an accepted send.
 *
 * A send, in order: the time from the last `at` to this one passes (the clocks of the decisions
 * awaited are charged; every clock that runs out and every away grace that ends on the way takes
 * effect at its own instant, so a late TICK gives the same game as a punctual one); then the
 * event itself (a TICK, PAUSE_CLOCKS, RESUME_CLOCKS or SET_SEAT_STATUS here; any other event in
 * the turn, as ever); then what falls due now is answered for the players out of time or away;
 * then the clocks the game waits for run. One send is one `version`; if the event is refused
 * (after a time-out made it illegal, say), nothing changes at all.
 */
import type { AwayOptions, ClockOptions, EmittedEvent, PlayerId, TurnEvent, TurnView } from '../contract.js';
import type { TurnContext } from '../state.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { DECISIONS, TABLE_EVENTS, violationOf } from '../events/index.js';
import { refusal, seatOrGameOverRefusal, type Refusal } from '../gate.js';
import { plainestAnswerTo } from '../legal.js';
import { decider } from '../rules/control.js';
import { membersOf } from '../rules/units.js';
import { eventOrMessage } from '../schemas.js';
import { answerers, awayDueAt, seatViews, withSeatStatus } from './away.js';
import { awaitedMayTimeOut, awayOther, conceding, upcoming, voteDue } from './deadlines.js';
import type { TimedTurn, TimeState } from './timeState.js';
import { awaitedDecisions, chargeClocks, clockedDecisions, clockOf, clockViews, expectedRunning, flagClock, newClocks, settleClocks, undoIncrements, withoutEarned, type Awaited, type UnitContext } from './clocks.js';
import { ACTED_FOR, actedFor } from '../game/cardsPart.js';

// The time state's types (src/table/timeState.ts) and the deadlines (src/table/deadlines.ts), where the game reads them.
export type { TimedTurn, TimeState } from './timeState.js';
export { awayOther, deadlineOf, dueTick } from './deadlines.js';

/** Whether a value is a refusal (a step's result is a state, never with an `error` field). */
const refused = (out: object): out is Refusal => 'error' in out;

/** Most answers a send makes for players out of time or away (as the loop guard of automatic passes, CONTRACT "Stops"). */
export const MAX_TABLE_ANSWERS = 10_000;

/** The time state of a new game with these options, or null without them. */
export function newTime(clock: ClockOptions | undefined, away: AwayOptions | undefined, ctx: UnitContext): TimeState | null {
  if (clock === undefined && away === undefined) return null;
  const time: TimeState = { at: null };
  if (clock !== undefined) time.clock = newClocks(clock, ctx);
  if (away !== undefined) {
    time.away = { graceMs: away.graceMs, then: away.then };
    time.seats = {};
  }
  return time;
}

/** The time state once the turn has changed (a new game, a restore): the clocks the game waits for run. */
export function settledTime<S>(turn: TimedTurn<S>, state: S, time: TimeState | null): TimeState | null {
  if (time?.clock === undefined) return time;
  const { context } = turn.chart(state);
  return { ...time, clock: settleClocks(time.clock, clockedDecisions(turn.view(state), context), null, time.at !== null) };
}

/**
 * Whether a send takes the table's path: the game has time state, or the event carries `at`
 * (every table event does: without it, it is INVALID_EVENT at the gate). Reads `at` once, only
 * for a game without time state.
 */
export function isTimed(time: TimeState | null, raw: unknown): boolean {
  if (time !== null) return true;
  if (typeof raw !== 'object' || raw === null) return false;
  try {
    return (raw as { at?: unknown }).at !== undefined;
  } catch {
    // Unreadable: the gate says why.
    return false;
  }
}

/** A send under way: the turn's state, the time state and what was emitted, as they will be if it is accepted. */
interface Work<S> {
  readonly turn: TimedTurn<S>;
  state: S;
  time: TimeState;
  emitted: EmittedEvent[];
  /** What the time that passed did before the event (for the refusal's message). */
  happened: string[];
  answers: number;
  /** The steps the time made (answers, players leaving, undo requests declined): a round of {@link pass} that makes none ends the walk. */
  steps: number;
  /** Turns begun when the send made its first answer for a player (the loop guard counts the turns its answers begin). */
  turns: number | null;
}

/** Turns begun so far (every turn marker's in Grand Melee). */
function turnsBegun(view: TurnView): number {
  return view.turns === undefined ? view.turn : view.turns.reduce((n, t) => n + t.turn, 0);
}

/**
 * A send on the table's path: the parsed event (with `at`), the time it brings, the event, what
 * falls due. The new turn state, time state and what was emitted in order, or the refusal.
 */
export function sendTimed<S>(turn: TimedTurn<S>, state: S, time: TimeState | null, raw: unknown): { state: S; time: TimeState | null; emitted: EmittedEvent[] } | Refusal {
  const parsed = eventOrMessage(raw);
  if (typeof parsed === 'string') return refusal(ErrorCode.INVALID_EVENT, parsed);
  const { at, ...rest } = parsed;
  // A host event taken for a player's CARD_ACTION stays theirs on this path too (undo's horizons).
  const actedBy = actedFor(raw);
  const event = (actedBy === undefined ? rest : { ...rest, [ACTED_FOR]: actedBy }) as TurnEvent;
  const table = TABLE_EVENTS.has(event.type);
  if (table) {
    const no = tableRefusal(turn.chart(state), event);
    if (no !== null) return no;
  }
  const last = time?.at ?? null;
  if (at !== undefined && last !== null && at < last) {
    return refusal(ErrorCode.ILLEGAL_ACTION, `event.at: ${at} is earlier than the last at the game saw (${last})`);
  }
  if (time === null && at === undefined && !table) {
    // Nothing about time (the shell sends such events the usual way): the turn alone.
    const out = turn.step(state, event);
    return refused(out) ? out : { state: out.state, time, emitted: out.emitted };
  }
  const work: Work<S> = { turn, state, time: time ?? { at: null }, emitted: [], happened: [], answers: 0, steps: 0, turns: null };
  if (at !== undefined) pass(work, at);
  let decided: PlayerId | null = null;
  if (table) {
    // Taken after what the time brought (a TICK only makes the game look at the time).
    const no = event.type === 'TICK' ? null : tableRefusal(turn.chart(work.state), event);
    if (no !== null) return late(no, work, at);
    applyTableEvent(work, event, at as number);
  } else {
    const ctx = turn.chart(work.state).context;
    if (event.type === 'UNDO') {
      const away = awayOther(work.time, ctx, event.player);
      if (away !== null) return late(refusal(ErrorCode.ILLEGAL_ACTION, `${away} is away (view.seats.${away}.status = 'away'): no undo is requested while another player in the game is away (undo.answerMs would run out on them)`), work, at);
    }
    if (DECISIONS.has(event.type)) {
      const made = event as { player: PlayerId; by?: PlayerId };
      const unit = clockOf(ctx, made.by ?? decider(ctx, made.player));
      if (work.time.clock?.running[unit] !== undefined) decided = unit;
    }
    // CONTRACT v4: an undo request's answer time counts from its `at` (the last the game saw, for one without).
    const out = turn.step(work.state, event.type === 'UNDO' && work.time.at !== null ? { ...event, at: work.time.at } : event);
    if (refused(out)) return late(out, work, at);
    for (const e of out.emitted) turn.number(e);
    work.emitted.push(...out.emitted);
    work.state = out.state;
    for (const e of out.emitted) if (e.type === 'undone') undoneIncrements(work, e.toVersion);
  }
  answerDue(work);
  settle(work, decided);
  return { state: work.state, time: work.time, emitted: work.emitted };
}

/** What the gate refuses of a table event: a player it names who is not a seat, the game being over, its record's legality. */
function tableRefusal(chart: { status: string; context: TurnContext }, event: TurnEvent): Refusal | null {
  const no = seatOrGameOverRefusal(chart.context, chart.status, event);
  if (no !== null) return no;
  const v = violationOf(chart.context, null, event);
  return v === null ? null : refusal(ErrorCode.ILLEGAL_ACTION, v.message, v.rule);
}

/** An event refused after the time it brought changed the game: the refusal says what changed, and how to apply that alone. */
function late<S>(out: Refusal, work: Work<S>, at: number | undefined): Refusal {
  if (work.happened.length === 0) return out;
  const what = work.happened.length > 3 ? [...work.happened.slice(0, 3), `${work.happened.length - 3} more`] : work.happened;
  return { ok: false, error: { ...out.error, message: `${out.error.message} (before this event, at ${at}: ${what.join('; ')}; a send with this \`at\` commits that first, as an accepted step of its own, as { type: 'TICK', at: ${at} } does)` } };
}

/** TICK, PAUSE_CLOCKS, RESUME_CLOCKS, SET_SEAT_STATUS: the time has passed already; what each does beside. */
function applyTableEvent<S>(work: Work<S>, event: TurnEvent, at: number): void {
  const time = work.time;
  if (event.type === 'SET_SEAT_STATUS') work.time = { ...time, seats: withSeatStatus(time.seats ?? {}, event.player, event.status, at) };
  else if (time.clock !== undefined && event.type !== 'TICK') work.time = { ...time, clock: { ...time.clock, paused: event.type === 'PAUSE_CLOCKS' } };
}

/**
 * The host's clock goes from the last `at` to `at`: the running clocks are charged, and each
 * time-out on the way (a clock that runs out, an away grace that ends for a decision awaited)
 * takes effect at its own instant, the clocks then running from there. The first `at` starts the clocks.
 */
function pass<S>(work: Work<S>, at: number): void {
  if (work.time.at === null) {
    work.time = { ...work.time, at };
    return;
  }
  // Each round handles one instant; a round that changes nothing ends the walk (what it could not answer waits).
  for (let round = 0; round <= MAX_TABLE_ANSWERS; round++) {
    const now = work.time.at as number;
    const next = nextTimeOut(work);
    if (next === null || next.at > at) break;
    const when = Math.max(now, next.at);
    charge(work, when - now);
    const clock = work.time.clock;
    // The clock whose deadline this is runs out now, exactly (whatever rounding the charge made).
    if (next.unit !== undefined && clock !== undefined && !clock.flagged.includes(next.unit)) {
      work.time = { ...work.time, clock: flagClock(clock, next.unit) };
      work.happened.push(`${next.unit}'s clock ran out at ${when}`);
    }
    const before = work.steps;
    answerDue(work);
    settle(work, null);
    if (next.unit === undefined && work.steps === before) break;
  }
  charge(work, at - (work.time.at as number));
}

/** `elapsed` ms pass with nothing happening: the running clocks are charged (those that reach 0 run out). */
function charge<S>(work: Work<S>, elapsed: number): void {
  const time = work.time;
  const at = (time.at as number) + elapsed;
  if (time.clock === undefined) {
    work.time = { ...time, at };
    return;
  }
  const clock = chargeClocks(time.clock, elapsed);
  for (const unit of clock.flagged.slice(time.clock.flagged.length)) work.happened.push(`${unit}'s clock ran out at ${at}`);
  work.time = { ...time, at, clock };
}

/** The next time-out of the game as it stands: a running clock's, or an away grace's for a decision awaited. */
function nextTimeOut<S>(work: Work<S>): { at: number; player: PlayerId; unit?: PlayerId } | null {
  const { turn, state, time } = work;
  if (time.at === null) return null;
  const chart = turn.chart(state);
  if (chart.status !== 'active' || chart.context.result !== null) return null;
  return upcoming(time, awaitedMayTimeOut(time) ? awaitedDecisions(turn.view(state), chart.context) : [], chart.context, turn.vote(state));
}

/**
 * What falls due now, until nothing does: players whose clock ran out with 'lose' leave the game
 * (reason 'time'); the decisions of a clock that ran out with 'pass' are answered with the
 * plainest answer (autoPass reason 'time'); those of players away past their grace are answered
 * ('pass', reason 'away') or they leave ('concede', reason 'away'). At most as many turns begin
 * from these answers in one send as there are players, and at most MAX_TABLE_ANSWERS answers:
 * what is left waits for the next event.
 */
function answerDue<S>(work: Work<S>): void {
  for (;;) {
    const { turn } = work;
    const chart = turn.chart(work.state);
    const ctx = chart.context;
    if (chart.status !== 'active' || ctx.result !== null) return;
    const clock = work.time.clock;
    if (clock?.onTimeout === 'lose') {
      const losers = clock.flagged.flatMap((unit) => membersOf(ctx, unit));
      if (losers.length > 0 && leave(work, losers, 'time')) continue;
    }
    const now = work.time.at;
    if (now !== null) {
      // CONTRACT v4: an undo request not answered in time is declined for the player asked.
      const vote = turn.vote(work.state);
      const asked = voteDue(vote);
      if (vote !== null && asked !== null && asked <= now && declined(work, vote.player, asked)) continue;
      // 'concede': a player away past the grace leaves now, whether or not a decision of theirs is awaited.
      if (work.time.away?.then === 'concede' && ctx.players.some((p) => { const due = awayDueAt(work.time.away, work.time.seats, conceding(ctx, p)); return due !== null && due <= now && leave(work, conceding(ctx, p), 'away'); })) continue;
    }
    // Nothing below can answer a decision without a clock run out with 'pass' or an away policy that acts: no view to build.
    if (!(clock?.onTimeout === 'pass' && clock.flagged.length > 0) && (work.time.away === undefined || work.time.away.then === 'wait')) return;
    const view = turn.view(work.state);
    if (work.answers >= MAX_TABLE_ANSWERS || (work.turns !== null && turnsBegun(view) - work.turns >= ctx.players.length)) return;
    let acted = false;
    for (const a of awaitedDecisions(view, ctx)) {
      if (clock?.onTimeout === 'pass' && clock.flagged.includes(a.unit)) acted = answer(work, a, 'time');
      if (acted) break;
      const who = answerers(ctx, a);
      const due = work.time.at === null ? null : awayDueAt(work.time.away, work.time.seats, who);
      if (due === null || due > (work.time.at as number)) continue;
      acted = work.time.away?.then === 'concede' ? leave(work, who, 'away') : answer(work, a, 'away');
      if (acted) break;
    }
    if (!acted) return;
  }
}

/** The plainest answer to an awaited decision, made for its player (autoPass first, then what it causes). False if the turn refuses it. */
function answer<S>(work: Work<S>, a: Awaited, reason: 'time' | 'away'): boolean {
  const { turn } = work;
  const event = plainestAnswerTo(a.awaiting);
  if (a.turnMarker !== undefined) event.turnMarker = a.turnMarker;
  const view = turn.view(work.state);
  work.turns ??= turnsBegun(view);
  const announced: EmittedEvent = { type: 'autoPass', player: a.awaiting.player, turn: a.turn, step: a.step, reason };
  if (a.turnMarker !== undefined && (view.turns?.length ?? 0) > 1) announced.turnMarker = a.turnMarker;
  turn.number(announced);
  const out = turn.step(work.state, event);
  if (refused(out)) {
    turn.number(announced, true);
    return false;
  }
  for (const e of out.emitted) turn.number(e);
  work.emitted.push(announced, ...out.emitted);
  work.state = out.state;
  work.answers++;
  work.steps++;
  work.happened.push(`${a.awaiting.player}'s ${a.awaiting.kind} was answered for them (${reason})`);
  return true;
}

/** CONTRACT v4: the undo request's answer time ran out at `deadline`: declined for `player`, as their DECLINE_UNDO (with its events). False if refused. */
function declined<S>(work: Work<S>, player: PlayerId, deadline: number): boolean {
  const out = work.turn.step(work.state, { type: 'DECLINE_UNDO', player });
  if (refused(out)) return false;
  for (const e of out.emitted) work.turn.number(e);
  work.emitted.push(...out.emitted);
  work.state = out.state;
  work.steps++;
  work.happened.push(`${player}'s answer to the undo request ran out at ${deadline} (declined)`);
  return true;
}

/** Players leave the game (LOSE with the reason: playerLeft says it, CR 800.4). False if none could. */
function leave<S>(work: Work<S>, players: readonly PlayerId[], reason: 'time' | 'away'): boolean {
  let left = false;
  for (const player of players) {
    const out = work.turn.step(work.state, { type: 'LOSE', player, reason });
    if (refused(out)) continue;
    for (const e of out.emitted) work.turn.number(e);
    work.emitted.push(...out.emitted);
    work.state = out.state;
    work.steps++;
    left = true;
    if (reason === 'away') work.happened.push(`${player} was away past the grace period`);
  }
  return left;
}

/**
 * The clocks the game waits for now run (with the increment of the player who decided). With undo
 * the increment is logged with the version this send makes, and a turn begun forgets the log.
 */
function settle<S>(work: Work<S>, decided: PlayerId | null): void {
  let clock = work.time.clock;
  if (clock === undefined) return;
  if (clock.earned !== undefined && work.emitted.some((e) => e.type === 'turnBegan')) clock = withoutEarned(clock);
  const chart = work.turn.chart(work.state);
  const over = chart.status !== 'active' || chart.context.result !== null;
  const view = decided === null && over ? null : work.turn.view(work.state);
  const awaited = over || view === null ? [] : clockedDecisions(view, chart.context);
  const earnedAt = decided !== null && view !== null && view.undo !== null && view.undo !== undefined ? view.version + 1 : null;
  work.time = { ...work.time, clock: settleClocks(clock, awaited, decided, work.time.at !== null, earnedAt) };
}

/** CONTRACT v3, undo: "time spent stays spent", and a decision taken back gains nothing: the increments of the sends undone are taken back (a clock left with none has run out). */
function undoneIncrements<S>(work: Work<S>, to: number): void {
  const clock = work.time.clock;
  if (clock?.earned === undefined) return;
  const out = undoIncrements(clock, to);
  work.time = { ...work.time, clock: out.clock };
  for (const unit of out.flagged) work.happened.push(`${unit}'s clock ran out when the undo took back the increments of the decisions it undid`);
}

/** The view's `clocks` and `seats` (CONTRACT v3), set on a view of the turn. */
export function withTimeView(view: TurnView, time: TimeState, ctx: TurnContext): TurnView {
  if (time.clock !== undefined) view.clocks = clockViews(time.clock, ctx, time.at);
  if (time.seats !== undefined) view.seats = seatViews(time.seats, ctx.seats);
  return view;
}

/**
 * A validated persisted time state against the restored game (src/persistence/time.ts checks it
 * alone): the clocks it runs must be those of the decisions the game awaits, each with its
 * decision's name. Throws INVALID_SNAPSHOT saying what is wrong.
 */
export function restoredTime<S>(turn: TimedTurn<S>, state: S, time: TimeState): TimeState {
  const clock = time.clock;
  if (clock === undefined) return time;
  const chart = turn.chart(state);
  const over = chart.status !== 'active' || chart.context.result !== null;
  const expected = over ? new Map<PlayerId, string>() : expectedRunning(clock, clockedDecisions(turn.view(state), chart.context));
  const running = Object.keys(clock.running);
  // A game persisted mid-vote by v3 (which paused every clock for an undo request): the asked player's clock runs from here (v4).
  if (running.length === 0 && turn.vote(state)?.kind === 'undoConsent') return { ...time, clock: settleClocks(clock, clockedDecisions(turn.view(state), chart.context), null, time.at !== null) };
  const stray = running.find((u) => !expected.has(u));
  if (stray !== undefined) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, `time.clock.running.${stray}: the game does not wait for this clock`);
  for (const [unit, decision] of expected) {
    const r = clock.running[unit];
    if (r === undefined) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, `time.clock.running: the game waits for ${unit}'s clock (${decision}), which is not running`);
    if (r.decision !== decision) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, `time.clock.running.${unit}.decision: the game waits for ${decision}, not ${r.decision}`);
  }
  return time;
}

