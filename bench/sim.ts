/**
 * Issue 34, the simulation figures (`npm run bench -- --only sim`, and the full run): on the built
 * package (dist/src/sim), as hosts run it.
 *
 * - playouts to turn 20 per second on one core: a new 2-player game's fork played by
 *   `playout(fork, { until: { turn: 21 }, seed })` (turn 20 played to its end), this process's
 *   CPU time;
 * - the speed-up from 1 to 2 workers: the same 1,000 games (wall time, the only clock that sees
 *   two threads), 1 worker against 2, on pools kept warm (createSimulator: what a host that
 *   simulates often sees) and cold (`simulate` starting its threads in each call);
 * - µs per `fork({ seed })` of a mid-game 2-player game (in batches);
 * - µs per `stateHash` of a 2-player game: after each send along playouts (the states a
 *   transposition table sees: each one new, sharing most of its objects with the one before),
 *   as the difference of the same games' playout timings with and without it, and timed directly
 *   over a walk's kept states in the order reached, and of a state never hashed before (a copy of
 *   its objects: the worst case);
 * - the machine's load average (1, 5, 15 minutes) before and after: on a shared machine the
 *   worker figure is only as good as the cores left free.
 */
import os from 'node:os';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type * as Sim from '../src/sim/index.js';
import type * as Index from '../src/index.js';
import { batchFor, stat, timePerCall, type Clock, type Stat } from './measure.js';

const dist = (path: string) => new URL(`../dist/src/${path}`, import.meta.url).href;
const { createSimulator, playout, simulate, stateHash } = (await import(dist('sim/index.js'))) as typeof Sim;
const { createGame } = (await import(dist('index.js'))) as typeof Index;

/** What the simulation figures are. */
export interface SimFigures {
  playoutsPerSecond: Stat;
  /**
   * Wall ms of a simulation on a kept pool (createSimulator, warm) of 1 and 2 workers, their ratio
   * (the speed-up), each run's figures with the 1-minute load average before it, and the same
   * with `simulate` starting its threads in each call (`cold`).
   */
  workers: {
    games: number;
    oneWorkerMs: Stat;
    twoWorkersMs: Stat;
    speedUp: number;
    cores: number;
    runs: { one: number[]; two: number[]; loadAverage1: number[] };
    /**
     * Linux: the worker's CPU ms with 1 worker, the busier worker's with 2, and their ratio: how
     * the games divided between the threads (2 when evenly; a thread kept off its core by other
     * processes leaves more batches to the other); null where threads' CPU time cannot be read.
     */
    threadCpu: { oneMs: number[]; twoBusierMs: number[]; speedUp: number } | null;
    cold: { oneWorkerMs: Stat; twoWorkersMs: Stat; speedUp: number; runs: { one: number[]; two: number[] } };
  };
  forkSeedMicros: Stat;
  stateHashMicros: Stat;
  /** µs per stateHash over a walk's kept states, hashed in the order reached (timed directly). */
  stateHashWalkMicros: Stat;
  stateHashColdMicros: Stat;
  loadAverage: { before: number[]; after: number[] };
}

/** Measures the figures: `runs` runs of at least `minMs` each. */
export async function simFigures(runs: number, minMs: number, clock: Clock): Promise<SimFigures> {
  const before = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const fresh = createGame({ players: ['A', 'B'], seed: 1 });
  let seed = 1;
  const once = () => void playout(fresh.fork(), { until: { turn: 21 }, seed: seed++ });
  timePerCall(once, minMs, clock);
  const playoutsPerSecond = stat(Array.from({ length: runs }, () => 1000 / timePerCall(once, minMs * 2, clock)));

  const mid = createGame({ players: ['A', 'B'], seed: 2 });
  playout(mid, { until: { turn: 5, step: 'declareAttackers' }, seed: 2 });
  const batched = (f: () => void) => {
    const batch = batchFor(f, 1, clock);
    return stat(Array.from({ length: runs }, () => timePerCall(f, minMs / 2, clock, batch) * 1000));
  };
  let s = 0;
  const forkSeedMicros = batched(() => void mid.fork({ seed: s++ }));

  // stateHash after each send: the same games played with and without a hash after each send,
  // alternately (the order flipped each round), until each has taken minMs; the difference per
  // hash. (Different games for the two, as before, made the difference mostly the games' own.)
  const walk = (seed: number, hash: boolean) => {
    const g = createGame({ players: ['A', 'B'], seed });
    let sends = 0;
    for (let i = 0; i < 400; i++) {
      if (playout(g, { maxEvents: 1, seed: i }).events === 0) break;
      sends++;
      if (hash) stateHash(g);
    }
    return sends;
  };
  const afterEachSend = () => {
    let withMs = 0;
    let withoutMs = 0;
    let hashes = 0;
    for (let round = 0; withMs < minMs || withoutMs < minMs; round++) {
      const seed = 1000 + (round % 16);
      const first = round % 2 === 0;
      if (!first) withoutMs += timePerCall(() => void walk(seed, false), 0, clock);
      withMs += timePerCall(() => void (hashes += walk(seed, true)), 0, clock);
      if (first) withoutMs += timePerCall(() => void walk(seed, false), 0, clock);
    }
    return Math.max(0, ((withMs - withoutMs) * 1000) / hashes);
  };
  afterEachSend();
  const stateHashMicros = stat(Array.from({ length: runs }, afterEachSend));
  // The same states timed directly: the states of walks like the above, kept (a fork of each
  // shares its state) and hashed in the order they were reached, so that each shares most of
  // its objects with the one hashed before it, as after each send; no playout's time to subtract.
  const walked: object[] = [];
  for (let k = 0; k < 5; k++) {
    const g = createGame({ players: ['A', 'B'], seed: 100 + k });
    for (let i = 0; i < 400; i++) {
      if (playout(g, { maxEvents: 1, seed: i }).events === 0) break;
      walked.push(g.fork());
    }
  }
  const hashWalk = () => {
    for (const g of walked) stateHash(g);
  };
  timePerCall(hashWalk, minMs, clock);
  const stateHashWalkMicros = stat(Array.from({ length: runs }, () => (timePerCall(hashWalk, minMs, clock) * 1000) / walked.length));
  // A state never hashed: its objects copied (structuredClone), timed with the copy, less the copy alone.
  const state = (mid as unknown as { state: unknown }).state;
  const copyUs = batched(() => void structuredClone(state));
  const bothUs = batched(() => void stateHash({ state: structuredClone(state) }));
  const stateHashColdMicros = { median: Math.max(0, bothUs.median - copyUs.median), min: Math.max(0, bothUs.min - copyUs.max), max: Math.max(0, bothUs.max - copyUs.min), runs: bothUs.runs };

  // Workers: wall time of the same simulation with 1 and 2 threads, 1,000 games. Warm, as a host
  // that keeps a pool sees it (createSimulator: each pool's threads started and run once before
  // the timed calls), and cold (`simulate` starting and ending its threads in each call). The
  // runs alternate 1 and 2 threads; each run's load average is kept with it.
  const games = 1000;
  const options = { games, setup: { players: ['A', 'B'] }, until: { turn: 21 }, seed: 1 };
  const timed = async (f: () => Promise<unknown>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  // The busiest threads' CPU ms over a run (Linux: /proc/self/task; empty elsewhere): what each
  // worker thread did, beside the wall time (which other processes on a shared machine take from).
  const busiest = async (f: () => Promise<unknown>, n: number) => {
    const a = threadCpuMs();
    await f();
    const b = threadCpuMs();
    return Object.entries(b)
      .map(([t, ms]) => ms - (a[t] ?? 0))
      .sort((x, y) => y - x)
      .slice(0, n);
  };
  const count = Math.max(3, Math.min(runs, 5));
  const pools = [createSimulator({ workers: 1 }), createSimulator({ workers: 2 })] as const;
  const warm = { one: [] as number[], two: [] as number[] };
  const cold = { one: [] as number[], two: [] as number[] };
  const load: number[] = [];
  /** The worker thread's CPU ms with 1 worker; the busier thread's with 2 (separate runs, after the timed ones). */
  const cpu = { one: [] as number[], two: [] as number[] };
  try {
    for (const pool of pools) await pool.simulate(options);
    for (let i = 0; i < count; i++) {
      load.push(Math.round(os.loadavg()[0]! * 100) / 100);
      warm.one.push(await timed(() => pools[0].simulate(options)));
      warm.two.push(await timed(() => pools[1].simulate(options)));
    }
    for (let i = 0; i < count; i++) {
      cpu.one.push(...(await busiest(() => pools[0].simulate(options), 1)));
      cpu.two.push(Math.max(...(await busiest(() => pools[1].simulate(options), 2))));
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  for (let i = 0; i < count; i++) {
    cold.one.push(await timed(() => simulate({ ...options, workers: 1 })));
    cold.two.push(await timed(() => simulate({ ...options, workers: 2 })));
  }
  const oneWorkerMs = stat(warm.one);
  const twoWorkersMs = stat(warm.two);
  const coldOne = stat(cold.one);
  const coldTwo = stat(cold.two);
  const round = (xs: number[]) => xs.map((x) => Math.round(x));
  return {
    playoutsPerSecond,
    workers: {
      games,
      oneWorkerMs,
      twoWorkersMs,
      speedUp: oneWorkerMs.median / twoWorkersMs.median,
      cores: os.availableParallelism(),
      runs: { one: round(warm.one), two: round(warm.two), loadAverage1: load },
      threadCpu: cpu.one.length === 0 || cpu.two.some((x) => !Number.isFinite(x)) ? null : { oneMs: cpu.one, twoBusierMs: cpu.two, speedUp: stat(cpu.one).median / stat(cpu.two).median },
      cold: { oneWorkerMs: coldOne, twoWorkersMs: coldTwo, speedUp: coldOne.median / coldTwo.median, runs: { one: round(cold.one), two: round(cold.two) } },
    },
    forkSeedMicros,
    stateHashMicros,
    stateHashWalkMicros,
    stateHashColdMicros,
    loadAverage: { before, after: os.loadavg().map((l) => Math.round(l * 100) / 100) },
  };
}

/** CPU ms (user and system) of each thread of this process, by thread id (Linux's /proc; empty elsewhere). */
function threadCpuMs(): Record<string, number> {
  if (!existsSync('/proc/self/task')) return {};
  const out: Record<string, number> = {};
  for (const t of readdirSync('/proc/self/task')) {
    try {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th (clock ticks, 100 a second).
      const f = readFileSync(`/proc/self/task/${t}/stat`, 'utf8').split(') ')[1]!.split(' ');
      out[t] = (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out;
}
