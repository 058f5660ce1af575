/**
 * Chess clocks (CONTRACT v3, "Playing between people", the `clock` option), as pure functions of
 * plain state: the engine owns no timer and reads no clock but the `at` its events carry.
 *
 * Whose clock runs: the game's decisions awaited now (one per running Grand Melee turn, CR 807.5)
 * each run the clock of the player who makes it: the awaited player, or their controller (CR
 * 723.5); with shared team turns (CR 805.5) one clock per team, its primary player's (805.2), so
 * a teammate's decision runs the team's clock. Each decision first uses up `delayMs` (not
 * charged); a player who completes a decision gains `incrementMs`.
 */
import type { Awaiting, ClockOptions, ClockView, PlayerId, StepName, TurnView } from '../contract.js';
import type { TurnContext } from '../state.js';
import { unitOf } from '../rules/units.js';

/** What the clock rules read of the game: who the teams are (CR 805), who is still in the game. */
export type UnitContext = Pick<TurnContext, 'teams' | 'variant' | 'players' | 'seats'>;

/** A clock that runs now: what is left of its decision's delay, and which decision that is. */
export interface RunningClock {
  delayMsLeft: number;
  /** Names the decision (see `Awaited.decision` in src/table/clocks.ts): a host event leaves it the same, and its delay goes on. */
  decision: string;
}

/** The clocks of a game: the options, then plain state (persisted as it is). */
export interface ClockState {
  initialMs: number;
  incrementMs: number;
  delayMs: number;
  onTimeout: 'lose' | 'pass';
  /** PAUSE_CLOCKS until RESUME_CLOCKS: no clock is charged. */
  paused: boolean;
  /** Time left on each clock (ms), by unit: a player, or with shared team turns a team's primary player (CR 805.2). */
  ms: Record<PlayerId, number>;
  /** The clocks that ran out, in the order they did. */
  flagged: PlayerId[];
  /** The clocks the game waits for now (those that ran out excluded). */
  running: Record<PlayerId, RunningClock>;
  /**
   * With undo: the increments gained this turn, each with the version the send that gained it
   * made (what `undone.toVersion` is compared with), oldest first; absent when there are none.
   * An undo takes back the increments of the sends it undid (CONTRACT v3: time spent stays spent;
   * a decision taken back gains nothing).
   */
  earned?: { version: number; unit: PlayerId }[];
}

/** The most increments a turn's log keeps for undo (the oldest go first: no undo reaches that far back). */
export const MAX_EARNED = 1000;

/** A decision the game awaits now: what, where, who makes it and whose clock it runs. */
export interface Awaited {
  awaiting: Awaiting;
  /** Grand Melee: the turn marker whose turn awaits it (CR 807.4). */
  turnMarker?: number;
  turn: number;
  step: StepName;
  /** Who makes it: the awaited player, or their controller (CR 723.5). */
  decider: PlayerId;
  /** Whose clock it runs: the decider's unit (their team's primary player with shared team turns, CR 805.5). */
  unit: PlayerId;
  /** The decision's name: the turn marker, turn, step, kind and awaited player. */
  decision: string;
}

/** The clock a player's decisions run: their unit's (CR 805.2, 805.5). */
export function clockOf(ctx: Pick<TurnContext, 'teams' | 'variant'>, player: PlayerId): PlayerId {
  return unitOf(ctx, player);
}

/** The clocks of a new game: one per unit of its seats, each at `initialMs`; nothing runs yet. */
export function newClocks(options: ClockOptions, ctx: UnitContext): ClockState {
  const ms: Record<PlayerId, number> = {};
  for (const seat of ctx.seats) ms[clockOf(ctx, seat)] = options.initialMs;
  return { initialMs: options.initialMs, incrementMs: options.incrementMs ?? 0, delayMs: options.delayMs ?? 0, onTimeout: options.onTimeout, paused: false, ms, flagged: [], running: {} };
}

/** The decisions the game awaits now, with whose clock each runs (one per running Grand Melee turn, in marker order). */
export function awaitedDecisions(view: TurnView, ctx: UnitContext): Awaited[] {
  const out: Awaited[] = [];
  const add = (awaiting: Awaiting | null, turn: number, step: StepName, turnMarker?: number) => {
    if (awaiting === null) return;
    const decider = view.decidedBy[awaiting.player] ?? awaiting.player;
    const decision = `${turnMarker ?? 0}/${turn}/${step}/${awaiting.kind}/${awaiting.player}`;
    const a: Awaited = { awaiting, turn, step, decider, unit: clockOf(ctx, decider), decision };
    if (turnMarker !== undefined) a.turnMarker = turnMarker;
    out.push(a);
  };
  // An undo request (the table's, src/table/tableLogic.ts) holds every turn: only its answer is awaited (in Grand Melee too).
  if (view.turns === undefined || view.awaiting?.kind === 'undoConsent') add(view.awaiting, view.turn, view.step);
  else for (const t of view.turns) add(t.awaiting, t.turn, t.step, t.turnMarker);
  return out;
}

/**
 * The awaited decisions whose clocks run: every one, an undo request's answer included (CONTRACT
 * v4: the clock of the player asked runs while they are asked, so that no request stops time; v3
 * paused every clock).
 */
export function clockedDecisions(view: TurnView, ctx: UnitContext): Awaited[] {
  return awaitedDecisions(view, ctx);
}

/** Each unit the game waits for, with the name of its decisions (a unit awaited in several Grand Melee turns: all of them, in order). */
function awaitedUnits(awaited: readonly Awaited[]): Map<PlayerId, string> {
  const units = new Map<PlayerId, string>();
  for (const a of awaited) units.set(a.unit, units.has(a.unit) ? `${units.get(a.unit) as string}+${a.decision}` : a.decision);
  return units;
}

/**
 * The clocks after `elapsed` ms of the host's clock in which nothing happened: each running clock
 * first uses up its decision's delay, then is charged the rest, down to 0 at most; a clock that
 * reaches 0 has run out (flagged). Nothing is charged while the clocks are paused.
 */
export function chargeClocks(c: ClockState, elapsed: number): ClockState {
  if (c.paused || elapsed <= 0) return c;
  const units = Object.keys(c.running);
  if (units.length === 0) return c;
  const ms = { ...c.ms };
  const running: Record<PlayerId, RunningClock> = {};
  const flagged = [...c.flagged];
  for (const unit of units) {
    const r = c.running[unit] as RunningClock;
    const delay = Math.min(elapsed, r.delayMsLeft);
    const charged = elapsed - delay;
    const left = Math.max(0, (ms[unit] ?? 0) - charged);
    ms[unit] = left;
    if (left === 0) flagged.push(unit);
    else running[unit] = { delayMsLeft: r.delayMsLeft - delay, decision: r.decision };
  }
  return { ...c, ms, running, flagged };
}

/** A clock runs out now (the host's clock reached its deadline): exactly 0 left, whatever rounding the charges made. */
export function flagClock(c: ClockState, unit: PlayerId): ClockState {
  if (c.flagged.includes(unit)) return c;
  const { [unit]: _gone, ...running } = c.running;
  return { ...c, ms: { ...c.ms, [unit]: 0 }, running, flagged: [...c.flagged, unit] };
}

/** When the first running clock runs out if nothing happens: `at` + its delay left + its time left; null when none runs (or they are paused). */
export function nextFlag(c: ClockState, at: number): { unit: PlayerId; at: number } | null {
  if (c.paused) return null;
  let next: { unit: PlayerId; at: number } | null = null;
  for (const unit in c.running) {
    const when = at + (c.running[unit] as RunningClock).delayMsLeft + (c.ms[unit] ?? 0);
    if (next === null || when < next.at) next = { unit, at: when };
  }
  return next;
}

/**
 * The clocks after the game changed: the player who completed a decision (`decided`, the unit
 * whose clock it ran) gains `incrementMs` once the clocks have started; then the clocks the game
 * waits for now run, each going on with its decision's delay when it waits for the same decision
 * (a host event came between) and with a new `delayMs` otherwise. A clock that ran out does not run.
 */
export function settleClocks(c: ClockState, awaited: readonly Awaited[], decided: PlayerId | null, started: boolean, earnedAt: number | null = null): ClockState {
  let ms = c.ms;
  let earned = c.earned;
  if (decided !== null && started && c.incrementMs > 0 && !c.flagged.includes(decided) && ms[decided] !== undefined) {
    ms = { ...ms, [decided]: (ms[decided] as number) + c.incrementMs };
    if (earnedAt !== null) earned = [...(earned ?? []).slice(-(MAX_EARNED - 1)), { version: earnedAt, unit: decided }];
  }
  const running: Record<PlayerId, RunningClock> = {};
  for (const [unit, decision] of awaitedUnits(awaited)) {
    if (c.flagged.includes(unit) || ms[unit] === undefined) continue;
    const was = c.running[unit];
    running[unit] = was !== undefined && was.decision === decision && unit !== decided ? was : { delayMsLeft: c.delayMs, decision };
  }
  if (earned === undefined) return { ...c, ms, running };
  return { ...c, ms, running, earned };
}

/**
 * The clocks after an undo returned to the state the game had at version `to`: each increment
 * gained by a send after it is taken back (the time spent stays spent). A clock left with no time
 * has run out ({@link flagClock}); the units whose clocks did are returned with it.
 */
export function undoIncrements(c: ClockState, to: number): { clock: ClockState; flagged: PlayerId[] } {
  const earned = c.earned ?? [];
  const kept = earned.filter((e) => e.version <= to);
  if (kept.length === earned.length) return { clock: c, flagged: [] };
  const ms = { ...c.ms };
  for (const e of earned) if (e.version > to && ms[e.unit] !== undefined && !c.flagged.includes(e.unit)) ms[e.unit] = (ms[e.unit] as number) - c.incrementMs;
  let clock: ClockState = { ...c, ms };
  if (kept.length > 0) clock.earned = kept;
  else delete clock.earned;
  const flagged: PlayerId[] = [];
  for (const unit in ms) {
    if ((ms[unit] as number) > 0 || clock.flagged.includes(unit)) continue;
    clock = flagClock(clock, unit);
    flagged.push(unit);
  }
  return { clock, flagged };
}

/** The clocks once a turn began: no undo goes back past it, so the increments of the turn before are forgotten. */
export function withoutEarned(c: ClockState): ClockState {
  if (c.earned === undefined) return c;
  const { earned: _gone, ...rest } = c;
  return rest;
}

/** The units whose clocks the game waits for now, as {@link settleClocks} would run them (for the restore's check). */
export function expectedRunning(c: ClockState, awaited: readonly Awaited[]): Map<PlayerId, string> {
  const units = awaitedUnits(awaited);
  for (const unit of [...units.keys()]) if (c.flagged.includes(unit) || c.ms[unit] === undefined) units.delete(unit);
  return units;
}

/** `view().clocks`: every seat's clock (a team's under each member), as of `at`. */
export function clockViews(c: ClockState, ctx: UnitContext, at: number | null): Record<PlayerId, ClockView> {
  const out: Record<PlayerId, ClockView> = {};
  for (const seat of ctx.seats) {
    const unit = clockOf(ctx, seat);
    const r = c.running[unit];
    const running = at !== null && !c.paused && r !== undefined;
    out[seat] = { msLeft: c.ms[unit] ?? 0, running, flagged: c.flagged.includes(unit), delayMsLeft: running ? r.delayMsLeft : 0, at };
  }
  return out;
}
