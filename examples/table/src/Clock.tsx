/**
 * A player's chess clock (CONTRACT v3, `view().clocks`): the time left, counted down on this
 * screen while the clock runs (the engine owns no timer: its numbers are as of `at`, the host's
 * clock at the last event, and the delay of the decision is used up first), the running clock
 * highlighted, a flag when it ran out.
 */
import { useEffect, useState } from 'react';
import type { ClockView } from 'mtg-turn-engine';

/** Re-renders every `ms` while `active`; returns the time now, by `clock` (the game's time: a networked table's `now()`; default the wall clock). */
export function useNow(active: boolean, ms = 200, clock: () => number = Date.now): number {
  const [now, setNow] = useState(clock);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(clock()), ms);
    return () => clearInterval(timer);
  }, [active, ms, clock]);
  return active ? clock() : now;
}

/** What is left of a clock at `now` (the host's clock): its delay first, then its time. */
export function timeLeft(clock: ClockView, now: number): number {
  if (!clock.running || clock.at === null) return clock.msLeft;
  const spent = Math.max(0, now - clock.at - clock.delayMsLeft);
  return Math.max(0, clock.msLeft - spent);
}

/** `m:ss` (rounded up: 0:00 only when the time is out). */
export function formatClock(ms: number): string {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function Clock({ player, clock, now: gameNow }: { player: string; clock: ClockView; now?: () => number }) {
  // The game's time (a networked table's `now()`: after a server restart it runs behind the wall clock by the downtime, charged to no one).
  const now = useNow(clock.running, 200, gameNow);
  return (
    <span className="clock" data-testid={`clock-${player}`} data-running={String(clock.running)} data-flagged={String(clock.flagged)} title={clock.running ? 'running' : 'stopped'}>
      {clock.flagged ? '⚑ ' : ''}
      {formatClock(timeLeft(clock, now))}
    </span>
  );
}
