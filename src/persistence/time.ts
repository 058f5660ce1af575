/**
 * The persisted time state (CONTRACT v3, "Playing between people": `time` in `persist()`): its
 * schema, and the facts that tie it to the rest of the snapshot. A snapshot whose clocks or seats
 * contradict each other or the game (a negative clock, a clock that ran out with time left, a
 * seat changed after the last `at`, a player who ran out of time with 'lose' still in the game)
 * is refused (INVALID_SNAPSHOT). Whether the clocks it runs are those of the decisions the game
 * awaits is checked once the turn is restored (src/table/time.ts, `restoredTime`).
 */
import * as z from 'zod/mini';
import type { TurnContext } from '../state.js';
import type { TimeState } from '../table/time.js';
import { MAX_CLOCK_MS, MAX_PLAYERS, PlayerIdSchema, int, lengthIn } from '../schemas.js';
import { unitOf } from '../rules/units.js';
import { MAX_EARNED } from '../table/clocks.js';

/** The schema of `time`, built with the snapshot's (on first use). */
export function buildTimeSchema() {
  const finite = (message: string) => z.number().check(z.refine((v) => Number.isFinite(v), message));
  const At = finite('must be a finite number (the host clock, in milliseconds)');
  const Ms = z.number().check(z.refine((v) => Number.isFinite(v) && v >= 0, 'must be a finite number of milliseconds from 0 (a clock is never negative)'));
  const Players = z.array(PlayerIdSchema).check(lengthIn(0, MAX_PLAYERS));
  return z.strictObject({
    at: z.nullable(At),
    clock: z.optional(
      z.strictObject({
        initialMs: int(1, MAX_CLOCK_MS),
        incrementMs: int(0, MAX_CLOCK_MS),
        delayMs: int(0, MAX_CLOCK_MS),
        onTimeout: z.enum(['lose', 'pass']),
        paused: z.boolean(),
        ms: z.record(PlayerIdSchema, Ms),
        flagged: Players,
        running: z.record(PlayerIdSchema, z.strictObject({ delayMsLeft: Ms, decision: z.string().check(lengthIn(1, 4096)) })),
        earned: z.optional(z.array(z.strictObject({ version: int(0, Number.MAX_SAFE_INTEGER), unit: PlayerIdSchema })).check(lengthIn(1, MAX_EARNED))),
      }),
    ),
    away: z.optional(z.strictObject({ graceMs: int(0, MAX_CLOCK_MS), then: z.enum(['wait', 'pass', 'concede']) })),
    seats: z.optional(z.record(PlayerIdSchema, z.strictObject({ status: z.enum(['connected', 'away']), since: At }))),
  });
}

/** The first contradiction of a persisted time state with itself or with the game's context, or null. */
export function timeProblem(time: TimeState, ctx: TurnContext, version: number = Number.MAX_SAFE_INTEGER): string | null {
  const { at, clock, seats } = time;
  if (seats !== undefined) {
    for (const [player, seat] of Object.entries(seats)) {
      if (!ctx.seats.includes(player)) return `time.seats.${player}: not a player of the game`;
      if (at === null || seat.since > at) return `time.seats.${player}.since: after the last at the game saw (${at ?? 'none'})`;
    }
  }
  if (time.away !== undefined && seats === undefined) return 'time.seats: a game with the away option has its seats';
  if (clock === undefined) return null;
  const units = [...new Set(ctx.seats.map((p) => unitOf(ctx, p)))];
  const keys = Object.keys(clock.ms);
  if (keys.length !== units.length || units.some((u) => clock.ms[u] === undefined)) return `time.clock.ms: needs one clock for each of ${units.join(', ')} (with shared team turns, one per team), and no other`;
  if (new Set(clock.flagged).size !== clock.flagged.length) return 'time.clock.flagged: a clock appears twice';
  for (const unit of keys) {
    const out = clock.flagged.includes(unit);
    if (out !== (clock.ms[unit] === 0)) return `time.clock.ms.${unit}: ${out ? 'a clock that ran out has no time left' : 'a clock with no time left has run out (time.clock.flagged)'}`;
    // With 'lose' a player whose clock ran out has left the game (reason 'time').
    if (out && clock.onTimeout === 'lose' && ctx.players.some((p) => unitOf(ctx, p) === unit)) return `time.clock.flagged: ${unit}'s clock ran out with onTimeout 'lose', but ${unit} is still in the game`;
  }
  if (clock.flagged.some((u) => clock.ms[u] === undefined)) return 'time.clock.flagged: a clock the game does not have';
  for (const [unit, r] of Object.entries(clock.running)) {
    if (clock.ms[unit] === undefined || clock.flagged.includes(unit)) return `time.clock.running.${unit}: not a clock that can run`;
    if (r.delayMsLeft > clock.delayMs) return `time.clock.running.${unit}.delayMsLeft: more than the delay of a decision (${clock.delayMs})`;
  }
  if (clock.earned !== undefined) {
    // The increments gained this turn: one clock's each, in the order of the versions that gained them, none after the snapshot's.
    let last = -1;
    for (const [i, e] of clock.earned.entries()) {
      if (clock.ms[e.unit] === undefined) return `time.clock.earned[${i}].unit: ${e.unit} has no clock`;
      if (e.version <= last || e.version > version) return `time.clock.earned[${i}].version: the versions go up, none after the snapshot's (${version})`;
      last = e.version;
    }
    if (clock.incrementMs === 0) return 'time.clock.earned: no increment is gained without incrementMs';
  }
  if (at === null) {
    // Before the first `at` the clocks have not started: nothing was charged, nothing paused.
    if (keys.some((u) => clock.ms[u] !== clock.initialMs)) return 'time.clock.ms: the clocks have not started (time.at is null), so each has its initialMs';
    if (clock.paused) return 'time.clock.paused: the clocks have not started (time.at is null)';
    if (Object.values(clock.running).some((r) => r.delayMsLeft !== clock.delayMs)) return 'time.clock.running: the clocks have not started (time.at is null), so each decision has its whole delay';
  }
  return null;
}
