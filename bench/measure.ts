/**
 * Timing and statistics for the benchmark: medians of several runs, with min and max.
 */

/** A figure measured over several runs. */
export interface Stat {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** The median, min and max of some samples. */
export function stat(samples: readonly number[]): Stat {
  const sorted = [...samples].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { median: NaN, min: NaN, max: NaN, runs: 0 };
  const median = n % 2 === 1 ? (sorted[(n - 1) / 2] as number) : ((sorted[n / 2 - 1] as number) + (sorted[n / 2] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted[n - 1] as number, runs: n };
}

/** The clock figures are taken with: this process's CPU time (default) or wall time. */
export type Clock = 'cpu' | 'wall';

function now(clock: Clock): number {
  if (clock === 'wall') return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * Runs `once` repeatedly for at least `minMs` (and at least once); returns the mean
 * milliseconds per call. With the 'cpu' clock, time this process spends descheduled (on a
 * machine shared with other work) does not count.
 *
 * The clock is read once per `batch` calls: reading it costs about 2.4 µs ('cpu':
 * `process.cpuUsage()`), which would otherwise be most of what a call taking a few
 * microseconds or less is measured at (a fork takes a few hundredths of one).
 */
export function timePerCall(once: () => void, minMs: number, clock: Clock = 'cpu', batch = 1): number {
  let calls = 0;
  const start = now(clock);
  let elapsed = 0;
  do {
    for (let i = 0; i < batch; i++) once();
    calls += batch;
    elapsed = now(clock) - start;
  } while (elapsed < minMs);
  return elapsed / calls;
}

/** A batch size for {@link timePerCall} that makes one batch last about `batchMs` (at least 1 call): from a first estimate of the time per call. */
export function batchFor(once: () => void, batchMs = 1, clock: Clock = 'cpu'): number {
  // Twice: the first estimate (one clock read per call) is too high for the fastest calls.
  let batch = 1;
  for (let i = 0; i < 2; i++) batch = Math.max(1, Math.round(batchMs / Math.max(timePerCall(once, 20, clock, batch), 1e-6)));
  return batch;
}

/** Rounds for printing: 3 significant digits. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1000) return Math.round(n).toLocaleString('en-US');
  return Number(n.toPrecision(3)).toString();
}

/** A median with its range, for the table. */
export function fmtStat(s: Stat, unit = ''): string {
  return `${fmt(s.median)}${unit} (${fmt(s.min)}–${fmt(s.max)})`;
}

/** A plain-text table with aligned columns. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
