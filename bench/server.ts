/**
 * `npm run bench:server` (issue 25, figures): the table server under load, and a cluster's
 * recovery after SIGKILL. Wall-clock figures on a shared machine; not a test.
 *
 * 1. One server process (bench/server-host.ts: the built package, dist/, as deployed), 500 concurrent 2-player games, each seat played
 *    by a bot over a loopback WebSocket (`connectTable`, all in this process): accepted sends per
 *    second, the time from a send to the view that shows it on both seats' tables (p50, p99),
 *    the server's CPU per send and how busy its event loop was, and its memory per open game
 *    (after a full GC: right after the tables joined, and after the run). Three loads: as fast as
 *    the server answers (each game's next send once its last is shown), 2,000 sends a second
 *    offered (the goal, spread over the games), and 1,000. With PGlite (on disk), with PostgreSQL
 *    (a real server started as the tests start theirs, with PostgreSQL's default durability:
 *    fsync on), and with a MemoryStore (the server alone, no database).
 *    The floor (bench/floor-host.ts, a bare Colyseus room echoing an update of the mean size) is
 *    open beside the MemoryStore server: at 1,000 sends a second the two are measured in slices
 *    taken in turn (server, floor, floor, server, ...), after each has played --first-warmup
 *    seconds at that rate, so that both are measured warm and see the shared machine's load
 *    of the same minutes; their ratio is `server.vsFloor`. The bots' CPU (this process) is
 *    reported apart and never counted as the server's.
 * 2. Recovery: two `serve` processes sharing that PostgreSQL and a real Redis, games owned by one
 *    of them played by bots; the owner is killed with SIGKILL, and the time until every table is
 *    back on the other process at the store's version and seq is measured (3 kills).
 *
 * Writes its figures into bench/results.json under `server` (the other keys are kept).
 *
 *   npm run bench:server
 *   node --import tsx bench/server.ts --games 100 --seconds 10 --only pglite --no-write
 *
 * Environment, to find where the time goes: BENCH_GC=1 prints each slice's GC pauses and heap,
 * and how late the bots' own event loop ran; BENCH_HOST_ARGS adds node options to the server
 * processes, BENCH_SERVER_ARGS to the table server's alone (BENCH_HOST_STDOUT=1 shows what they
 * print, e.g. `--trace-gc`); BENCH_PROFILE_DIR=DIR profiles each measured slice (then
 * bench/perSend.ts DIR), its CPU, or with BENCH_PROFILE_KIND=alloc what it allocated;
 * BENCH_FLOOR_ROOT=/other/checkout puts that checkout's built table server in the floor's place (an
 * A/B of two builds; with BENCH_FLOOR_ROOT=. and BENCH_SERVER_ARGS, an A/B of node options).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client, type Room } from 'colyseus.js';
import type { Table } from '../src/client/index.js';
import type { StateDoc } from '../src/client/patch.js';
import type { LegalAction } from '../src/index.js';
import { concreteEvent, seededRandom } from '../src/simulation.js';
import { PostgresStore } from '../src/server/index.js';
import { Bot, pidOfOwner, postGame, startClusterProcess, type ServeProcess } from '../test/server/cluster.js';
import { findPostgresBin, freePort, startPostgres, startRedis, type PostgresServer } from '../test/server/services.js';
import { fmt, table } from './measure.js';
import { builtModule } from './built.js';
import { lateness } from './hostCommands.js';

// The bots' tables run the built client (dist/), as a page or a Node host runs the package.
const { connectTable } = await builtModule<typeof import('../src/client/index.js')>('src/client/index.js');
const { applyDocChange } = await builtModule<typeof import('../src/client/patch.js')>('src/client/patch.js');
const { MESSAGE_TYPE, ROOM_NAME, decodeServerMessage, encodeMessage } = await builtModule<typeof import('../src/client/protocol.js')>('src/client/protocol.js');

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '3' },
    /** Seconds each process plays at 1,000 sends a second before the interleaved slices (its code compiled, its heap grown): the first slice measures it warm too. */
    'first-warmup': { type: 'string', default: '10' },
    only: { type: 'string' },
    kills: { type: 'string', default: '3' },
    /** A PostgreSQL server of your own (its database is used as is) instead of one started here. */
    'pg-url': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
    /** MemoryStore and the floor only, at 1,000 sends a second offered (under 3 minutes). */
    quick: { type: 'boolean', default: false },
  },
});
const QUICK = values.quick;
const GAMES = Number(values.games);
const SECONDS = QUICK && process.argv.every((a) => !a.startsWith('--seconds')) ? 15 : Number(values.seconds);
const WARMUP = Number(values.warmup);
const FIRST_WARMUP = Number(values['first-warmup']);
const KILLS = Number(values.kills);
const ADMIN_KEY = 'bench-admin-key-0123456789';
const root = fileURLToPath(new URL('..', import.meta.url));
/** How late this process (the bots) ran a timer, per slice (printed with BENCH_GC): a send's latency includes the bots' own stalls. */
const BOTS_LAG_RESOLUTION_MS = 5;
const botsLag = monitorEventLoopDelay({ resolution: BOTS_LAG_RESOLUTION_MS });
botsLag.enable();

/** BENCH_PROFILE_DIR: each measured slice's CPU profile of the server process goes there (with its sends in FILE.sends). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
let profiles = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `work` on every item, `limit` at a time. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i] as T, i);
      }
    }),
  );
  return out;
}

/** The p-th percentile (0..100) of some samples. */
function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** The server process (the table server with `store`, or the floor): started, with its `mem` and `cpu` answers. */
async function startHost(store: string, floorBytes?: number) {
  // BENCH_HOST_ARGS: more node options for the server process (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof).
  // BENCH_SERVER_ARGS: node options for the table server's process alone (not the floor's): with BENCH_FLOOR_ROOT=. an A/B of node options.
  const extra = [...(process.env.BENCH_HOST_ARGS ?? '').split(' '), ...(floorBytes === undefined ? (process.env.BENCH_SERVER_ARGS ?? '').split(' ') : [])].filter((a) => a !== '');
  // BENCH_FLOOR_ROOT: the "floor" is the table server (MemoryStore) of another checkout, built: an A/B of two builds side by side.
  const other = floorBytes === undefined ? undefined : process.env.BENCH_FLOOR_ROOT;
  const script = floorBytes === undefined || other !== undefined ? ['bench/server-host.ts', '--store', other !== undefined ? 'memory' : store, '--admin-key', ADMIN_KEY] : ['bench/floor-host.ts', '--bytes', String(floorBytes)];
  const child = spawn(process.execPath, [...extra, '--expose-gc', '--import', 'tsx', ...script], { cwd: other ?? root, stdio: ['pipe', 'pipe', 'pipe'] });
  // What the server reports goes on to stderr; the games it gave up (it must give up none) are counted.
  let dropped = 0;
  createInterface({ input: child.stderr }).on('line', (line) => {
    if (line.includes('the game is given up here')) dropped++;
    else console.error(line);
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: { prefix: string; resolve: (rest: string) => void }[] = [];
  lines.on('line', (line) => {
    const w = waiting.findIndex((x) => line.startsWith(`${x.prefix} `));
    if (w < 0) {
      if (process.env.BENCH_HOST_STDOUT !== undefined) console.error(`host: ${line}`);
      return;
    }
    const entry = waiting.splice(w, 1)[0]!;
    entry.resolve(line.slice(entry.prefix.length + 1));
  });
  const next = (prefix: string) => new Promise<string>((resolve) => waiting.push({ prefix, resolve }));
  const listening = next('listening');
  const port = Number(await listening);
  const ask = async <T>(what: string, prefix = what): Promise<T> => {
    const answer = next(prefix);
    child.stdin.write(`${what}\n`);
    return JSON.parse(await answer) as T;
  };
  return {
    port,
    dropped: () => dropped,
    mem: () => ask<{ heapUsed: number; rss: number }>('mem'),
    /** Starts or stops (writing `file`) a CPU profile of the main thread (BENCH_PROFILE_DIR). */
    prof: (file?: string) => ask<boolean>(file === undefined ? (process.env.BENCH_PROFILE_KIND === 'alloc' ? 'prof-start alloc' : 'prof-start') : `prof-stop ${file}`, 'prof'),
    cpu: () => ask<{ user: number; system: number; loopActive: number; loopIdle: number; lag: { p99: number; max: number }; gc: { minor: number; major: number; incremental: number; count: number }; heapUsed: number }>('cpu'),
    async stop() {
      child.stdin.write('quit\n');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** The decision a bench bot sends for its seat now, or null (attack with one creature, block with none, pass). */
function decision(t: Table, seat: string): Record<string, unknown> | null {
  const action = t.legalActions().find((a) => a.type === 'DECLARE_ATTACKERS' || a.type === 'DECLARE_BLOCKERS' || a.type === 'DISCARD' || a.type === 'PASS_PRIORITY');
  if (action === undefined) return null;
  const { choose, ...event } = action as LegalAction & Record<string, unknown>;
  const view = t.getSnapshot();
  for (const field of choose as string[]) {
    if (field === 'attackers') event.attackers = [{ id: `${seat}-c${view.turn}`, defender: view.players.find((p) => p !== seat) }];
    else if (field === 'blockers') event.blockers = [];
  }
  return event;
}

/** The figures of one phase of the load run. */
interface PhaseFigures {
  /** The sends a second the bots offered (null: as fast as the server answers). */
  offeredPerSecond: number | null;
  seconds: number;
  acceptedSends: number;
  acceptedPerSecond: number;
  refused: number;
  /** From a send to the view that shows it on both seats' tables. */
  latencyMs: { p50: number; p99: number; max: number; samples: number };
  /** The server process's CPU seconds per second. */
  serverCpuPerSecond: number;
  /** The server's CPU milliseconds per accepted send (what one core does: 1000 ÷ this sends a second). */
  serverCpuMsPerSend: number;
  /** The share of the time the server's event loop was busy (1: it could do no more). */
  serverLoopBusy: number;
  /** This process's (the bots' and their tables') CPU seconds per second. */
  botsCpuPerSecond: number;
  /** How late the server's event loop ran a timer (ms; p99 and max, of the worst slice): its stalls. */
  serverLoopLagMs: { p99: number; max: number };
}

interface LoadFigures {
  store: string;
  games: number;
  /** As fast as the server answers: each game's next send as soon as its last is shown (not in --quick). */
  saturated?: PhaseFigures;
  /** At the goal's rate (2,000 sends a second offered, spread over the games; not in --quick). */
  paced?: PhaseFigures;
  /** At half of it (1,000 sends a second offered): the latency of a server that is not saturated. */
  half?: PhaseFigures;
  /** Heap and RSS bytes of the server per open game (after a full GC), right after the tables joined, and after the run. */
  bytesPerOpenGame: { heapUsed: number; rss: number };
  bytesPerOpenGameAfterRun: { heapUsed: number; rss: number };
  joinSeconds: number;
  /** Games the server gave up during the run (a lease lost, a write refused): 0 expected. */
  droppedGames: number;
}

const GOAL_SENDS_PER_SECOND = 2000;

/** A seat of a bench game, as the load driver sees it: a table of the table server, or a client of the floor's echo room. */
interface BenchSeat {
  /** The version of the game this seat has been shown. */
  version(): number;
  connected(): boolean;
  /** What this seat sends now, or null. */
  decision(): unknown;
  /** Sends; resolves with whether it was accepted. */
  send(event: unknown): Promise<boolean>;
  subscribe(listener: () => void): void;
  close(): Promise<void>;
}

/** A table as a bench seat: it sends the bench's decision for its seat. */
function tableSeat(t: Table, seat: string): BenchSeat {
  return {
    version: () => t.getSnapshot().version,
    connected: () => t.status === 'connected',
    decision: () => decision(t, seat),
    send: async (event) => (await t.send(event as never)).ok,
    subscribe: (listener) => void t.subscribe(listener),
    close: () => t.close(),
  };
}

/** The floor's two clients of one echo room: the seat whose turn it is sends a message as a table's send; each echo is a version. */
async function floorSeats(url: string): Promise<BenchSeat[]> {
  const client = new Client(url);
  const first = await client.create('echo');
  const second = await client.joinById(first.roomId);
  let sent = 0;
  const bytes = encodeMessage({ kind: 'send', id: 0, event: { type: 'PASS_PRIORITY', player: 'A' } });
  return [first, second].map((room, i) => {
    let version = 0;
    const listeners: (() => void)[] = [];
    let answer: ((ok: boolean) => void) | null = null;
    let open = true;
    room.onMessage('turn', () => {
      version++;
      const resolve = answer;
      answer = null;
      resolve?.(true);
      for (const l of listeners) l();
    });
    room.onLeave(() => (open = false));
    return {
      version: () => version,
      connected: () => open,
      decision: () => (sent % 2 === i ? bytes : null),
      send: (event) =>
        new Promise<boolean>((resolve) => {
          sent++;
          answer = resolve;
          room.sendBytes('turn', event as Uint8Array);
        }),
      subscribe: (listener) => void listeners.push(listener),
      close: () => room.leave(true).then(() => undefined),
    };
  });
}

/** The phases of a load run: as fast as the server answers, the goal's rate, half of it. */
const PHASES: (number | null)[] = QUICK ? [GOAL_SENDS_PER_SECOND / 2] : [null, GOAL_SENDS_PER_SECOND, GOAL_SENDS_PER_SECOND / 2];

/** What one measured slice of a phase gave (slices of one phase are merged into its figures). */
interface Slice {
  offered: number | null;
  seconds: number;
  accepted: number;
  refused: number;
  latencies: number[];
  /** The server's CPU seconds, and its event loop's busy and idle milliseconds, over the slice. */
  serverCpu: number;
  loopActive: number;
  loopIdle: number;
  /** This process's CPU seconds over the slice. */
  ownCpu: number;
  /** How late the server's event loop ran a timer over the slice (ms: p99, max). */
  lag: { p99: number; max: number };
}

/** The figures of a phase from its slices (one, or several interleaved with another server's). */
function phaseFigures(slices: readonly Slice[]): PhaseFigures {
  const sum = (f: (s: Slice) => number) => slices.reduce((a, s) => a + f(s), 0);
  const seconds = sum((s) => s.seconds);
  const accepted = sum((s) => s.accepted);
  const serverCpu = sum((s) => s.serverCpu);
  const latencies = slices.flatMap((s) => s.latencies);
  return {
    offeredPerSecond: slices[0]?.offered ?? null,
    seconds,
    acceptedSends: accepted,
    acceptedPerSecond: accepted / seconds,
    refused: sum((s) => s.refused),
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: percentile(latencies, 100), samples: latencies.length },
    serverCpuPerSecond: serverCpu / seconds,
    serverCpuMsPerSend: (serverCpu * 1000) / Math.max(1, accepted),
    serverLoopBusy: sum((s) => s.loopActive) / (sum((s) => s.loopActive) + sum((s) => s.loopIdle)),
    botsCpuPerSecond: sum((s) => s.ownCpu) / seconds,
    serverLoopLagMs: { p99: Math.max(...slices.map((s) => s.lag.p99)), max: Math.max(...slices.map((s) => s.lag.max)) },
  };
}

function printPhase(name: string, f: PhaseFigures, note = ''): void {
  console.log(
    `${name}, ${f.offeredPerSecond === null ? 'saturated' : `${f.offeredPerSecond} sends/s offered`}${note}: ${fmt(f.acceptedPerSecond)} sends/s, p50 ${fmt(f.latencyMs.p50)} ms, p99 ${fmt(f.latencyMs.p99)} ms; server CPU ${fmt(f.serverCpuPerSecond)} s/s (${fmt(f.serverCpuMsPerSend)} ms per send), its event loop busy ${fmt(100 * f.serverLoopBusy)}%, late by ${fmt(f.serverLoopLagMs.p99)} ms at p99 (${fmt(f.serverLoopLagMs.max)} ms at most); bots CPU ${fmt(f.botsCpuPerSecond)} s/s`,
  );
}

/** A load run under way: one server process, GAMES games, bots on every seat; measured a slice at a time. */
interface OpenLoad {
  readonly name: string;
  /** Plays at `offered` sends a second (null: as fast as the server answers) for `warmup` s, then measures `seconds` s; the bots then stop until the next slice. */
  slice(offered: number | null, seconds: number, warmup: number): Promise<Slice>;
  /** The server's CPU seconds per second over `seconds` s with every table open and no send (timers, pings: what it costs to hold the games). */
  idle(seconds: number): Promise<number>;
  /** Stops the bots, closes everything: the run's memory figures. */
  finish(): Promise<Omit<LoadFigures, 'saturated' | 'paced' | 'half'>>;
}

/** Starts a server process (the table server, or the floor: `floorBytes`) and joins bots on GAMES games. */
async function openLoad(name: string, store: string, floorBytes?: number): Promise<OpenLoad> {
  const host = await startHost(store, floorBytes);
  const url = `ws://127.0.0.1:${host.port}`;
  const seatsOpen: BenchSeat[] = [];
  const closeAll = async () => {
    await Promise.all(seatsOpen.map((t) => t.close().catch(() => undefined)));
    await host.stop();
  };
  try {
    const created =
      floorBytes === undefined || process.env.BENCH_FLOOR_ROOT !== undefined
        ? await pool(
            Array.from({ length: GAMES }, (_, i) => i),
            16,
            (i) => postGame(`http://127.0.0.1:${host.port}`, ADMIN_KEY, { players: ['A', 'B'], seed: i }),
          )
        : Array.from({ length: GAMES }, () => null);
    const before = await host.mem();
    const joinStart = performance.now();
    const games = await pool(created, 32, async (made) => {
      const seats =
        made === null
          ? await floorSeats(url)
          : (await Promise.all(['A', 'B'].map((seat) => connectTable(url, { gameId: made.gameId, seat, token: made.tokens[seat] as string }, { joinTimeoutMs: 120_000 })))).map((t, i) => tableSeat(t, i === 0 ? 'A' : 'B'));
      seatsOpen.push(...seats);
      return seats;
    });
    const joinSeconds = (performance.now() - joinStart) / 1000;
    const open = await host.mem();

    let measuring = false;
    /** Whether the bots stop (between slices, and at the end): a send under way still finishes. */
    let stopping = true;
    /** Milliseconds between two sends of one game (0: at once). */
    let interval = 0;
    let accepted = 0;
    let refused = 0;
    let latencies: number[] = [];
    /** Per game: sends what its seats may send; spreads its next send over one interval. */
    const kicks: { act: () => void; spread: () => void }[] = [];
    for (const seats of games) {
      let pending: { target: number; at: number } | null = null;
      let lastSend = -Infinity;
      let timer: NodeJS.Timeout | null = null;
      const shown = () => {
        if (pending !== null && seats.every((t) => t.version() >= pending!.target)) {
          if (measuring) latencies.push(performance.now() - pending.at);
          pending = null;
        }
      };
      const busy = new Set<BenchSeat>();
      const act = () => {
        if (stopping || timer !== null) return;
        const wait = lastSend + interval - performance.now();
        if (wait > 0) {
          timer = setTimeout(() => {
            timer = null;
            act();
          }, wait);
          return;
        }
        for (const t of seats) {
          if (busy.has(t) || !t.connected()) continue;
          const event = t.decision();
          if (event === null) continue;
          busy.add(t);
          lastSend = performance.now();
          if (pending === null) pending = { target: t.version() + 1, at: lastSend };
          void t.send(event).then((ok) => {
            busy.delete(t);
            if (measuring) {
              if (ok) accepted++;
              else refused++;
            }
            act();
          });
          return;
        }
      };
      for (const t of seats)
        t.subscribe(() => {
          shown();
          act();
        });
      // A send shown after its slice ended is not counted in the next one.
      kicks.push({ act, spread: () => ((lastSend = performance.now() - Math.random() * interval), (pending = null)) });
    }
    return {
      name,
      async slice(offered, seconds, warmup) {
        interval = offered === null ? 0 : (1000 * GAMES) / offered;
        stopping = false;
        // The games' sends spread over the interval, not all at once.
        for (const kick of kicks) kick.spread();
        for (const kick of kicks) kick.act();
        await sleep(warmup * 1000);
        accepted = 0;
        refused = 0;
        latencies = [];
        const profiling = PROFILE_DIR !== undefined && seconds > 0;
        if (profiling) await host.prof();
        const cpu0 = await host.cpu();
        const own0 = process.cpuUsage();
        const t0 = performance.now();
        botsLag.reset();
        measuring = true;
        await sleep(seconds * 1000);
        measuring = false;
        const elapsed = (performance.now() - t0) / 1000;
        const own = process.cpuUsage(own0);
        const cpu1 = await host.cpu();
        if (profiling) {
          const file = join(PROFILE_DIR, `${store === 'floor' ? 'floor' : 'server'}-${offered ?? 'saturated'}-${++profiles}.${process.env.BENCH_PROFILE_KIND === 'alloc' ? 'heapprofile' : 'cpuprofile'}`);
          await host.prof(file);
          // The sends of the slice, for `bench/cpuprofile.ts --per-send`.
          await writeFile(`${file}.sends`, String(accepted));
        }
        if (process.env.BENCH_GC !== undefined) console.error(`${name}: GC pauses over ${fmt(elapsed)} s: minor ${fmt(cpu1.gc.minor - cpu0.gc.minor)} ms, major ${fmt(cpu1.gc.major - cpu0.gc.major)} ms, incremental ${fmt(cpu1.gc.incremental - cpu0.gc.incremental)} ms (${cpu1.gc.count - cpu0.gc.count}); heap ${fmt(cpu1.heapUsed / 1e6)} MB; CPU ${fmt((cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6)} s; the bots' own event loop late by ${fmt(lateness(botsLag.percentile(99), BOTS_LAG_RESOLUTION_MS))} ms at p99 (${fmt(lateness(botsLag.max, BOTS_LAG_RESOLUTION_MS))} at most)`);
        stopping = true;
        // The sends under way are answered before another server's slice begins.
        await sleep(300);
        return {
          offered,
          seconds: elapsed,
          accepted,
          refused,
          latencies,
          serverCpu: (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6,
          loopActive: cpu1.loopActive - cpu0.loopActive,
          loopIdle: cpu1.loopIdle - cpu0.loopIdle,
          ownCpu: (own.user + own.system) / 1e6,
          lag: cpu1.lag,
        };
      },
      async idle(seconds) {
        stopping = true;
        await sleep(300);
        const cpu0 = await host.cpu();
        const t0 = performance.now();
        await sleep(seconds * 1000);
        const cpu1 = await host.cpu();
        return (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6 / ((performance.now() - t0) / 1000);
      },
      async finish() {
        stopping = true;
        await sleep(500);
        const after = await host.mem();
        await closeAll();
        return {
          store: name,
          games: GAMES,
          bytesPerOpenGame: { heapUsed: (open.heapUsed - before.heapUsed) / GAMES, rss: (open.rss - before.rss) / GAMES },
          bytesPerOpenGameAfterRun: { heapUsed: (after.heapUsed - before.heapUsed) / GAMES, rss: (after.rss - before.rss) / GAMES },
          joinSeconds,
          droppedGames: host.dropped(),
        };
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** Sets a phase's figures in their slot (saturated, the goal's rate, half of it). */
function setPhase(figures: Partial<Pick<LoadFigures, 'saturated' | 'paced' | 'half'>>, f: PhaseFigures): void {
  if (f.offeredPerSecond === null) figures.saturated = f;
  else if (f.offeredPerSecond === GOAL_SENDS_PER_SECOND) figures.paced = f;
  else figures.half = f;
}

/** One server process's load run, its phases one after the other (PHASES, or `phases`). */
async function load(name: string, store: string, floorBytes?: number, phases: readonly (number | null)[] = PHASES): Promise<LoadFigures> {
  const run = await openLoad(name, store, floorBytes);
  const figures: Partial<Pick<LoadFigures, 'saturated' | 'paced' | 'half'>> = {};
  for (const offered of phases) {
    const f = phaseFigures([await run.slice(offered, SECONDS, WARMUP)]);
    printPhase(name, f);
    setPhase(figures, f);
  }
  return { ...(await run.finish()), ...figures };
}

/** Slices of the comparison at 1,000 sends a second: the table server and the floor take turns, so that both see the machine as it is. */
const INTERLEAVED_SLICES = 3;

/**
 * The table server (MemoryStore) and the floor, both open at once: each one's other phases in
 * turn, then the comparison at 1,000 sends a second offered in INTERLEAVED_SLICES slices taken
 * in turn (ABBAAB...), each after its own warm-up, which make one figure for each (a shared
 * 2-core machine's load changes from one minute to the next: both are measured in the same minutes).
 */
async function compared(floorBytes: number): Promise<{ memory: LoadFigures; floor: LoadFigures }> {
  const memory = await openLoad('MemoryStore (no database)', 'memory');
  let floor: OpenLoad;
  try {
    floor = await openLoad('floor (bare Colyseus echo)', 'floor', floorBytes);
  } catch (err) {
    await memory.finish();
    throw err;
  }
  try {
    const half = GOAL_SENDS_PER_SECOND / 2;
    const phases = { memory: {} as Partial<Pick<LoadFigures, 'saturated' | 'paced' | 'half'>>, floor: {} as Partial<Pick<LoadFigures, 'saturated' | 'paced' | 'half'>> };
    for (const [key, run] of [['memory', memory], ['floor', floor]] as const) {
      for (const offered of PHASES.filter((p) => p !== half)) {
        const f = phaseFigures([await run.slice(offered, SECONDS, WARMUP)]);
        printPhase(run.name, f);
        setPhase(phases[key], f);
      }
    }
    // Steady state first: a process that has just joined its tables is still compiling its code
    // (the table server has far more of it than the floor: about 12% of its CPU went to the
    // optimizing compiler in the first seconds); a server runs for days.
    for (const run of [memory, floor]) await run.slice(half, 0, FIRST_WARMUP);
    for (const run of [memory, floor]) console.log(`${run.name}: ${fmt(await run.idle(5))} CPU s/s with no send`);
    const slices: { memory: Slice[]; floor: Slice[] } = { memory: [], floor: [] };
    for (let i = 0; i < INTERLEAVED_SLICES; i++) {
      const order = i % 2 === 0 ? (['memory', 'floor'] as const) : (['floor', 'memory'] as const);
      for (const key of order) slices[key].push(await (key === 'memory' ? memory : floor).slice(half, SECONDS / INTERLEAVED_SLICES, WARMUP));
    }
    for (const [key, run] of [['memory', memory], ['floor', floor]] as const) {
      const f = phaseFigures(slices[key]);
      printPhase(run.name, f, ` (${INTERLEAVED_SLICES} slices, in turn with the ${key === 'memory' ? 'floor' : 'table server'})`);
      setPhase(phases[key], f);
    }
    return { memory: { ...(await memory.finish()), ...phases.memory }, floor: { ...(await floor.finish()), ...phases.floor } };
  } catch (err) {
    await Promise.all([memory.finish().catch(() => undefined), floor.finish().catch(() => undefined)]);
    throw err;
  }
}

/**
 * `server.updateBytes`: the mean WebSocket payload a seat receives per accepted send after its
 * first update (Colyseus framing included), over 2-player games of random legal actions (the
 * simulator's player: the awaited seat passes most of the time, more as the stack grows), played
 * over raw colyseus.js rooms against the table server (MemoryStore).
 */
async function updateBytes(sends: number): Promise<{ meanBytes: number; updates: number; games: number }> {
  const host = await startHost('memory');
  const url = `ws://127.0.0.1:${host.port}`;
  const random = seededRandom(31);
  const sizes: number[] = [];
  let played = 0;
  let games = 0;
  try {
    while (played < sends) {
      const { gameId, tokens } = await postGame(`http://127.0.0.1:${host.port}`, ADMIN_KEY, { players: ['A', 'B'], seed: 500 + games++ });
      const seats = await Promise.all(['A', 'B'].map((seat) => RawSeat.join(url, { gameId, seat, token: tokens[seat] as string })));
      for (let id = 1; played < sends; id++) {
        const docs = seats.map((s) => s.doc!);
        if (docs[0]!.view.gameOver !== null) break;
        const seat = seats.find((_, i) => docs[i]!.legalActions.some((a) => a.type !== 'CONCEDE'));
        if (seat === undefined) break;
        const doc = seat.doc!;
        const actions = doc.legalActions.filter((a) => a.type !== 'CONCEDE');
        const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
        const action = pass !== undefined && random() < Math.min(0.98, 0.8 + 0.05 * doc.view.stack.length) ? pass : (actions[Math.floor(random() * actions.length)] as LegalAction);
        const version = doc.view.version;
        seat.send({ kind: 'send', id, event: concreteEvent(action, doc.view, random, id) });
        await Promise.all(seats.map((s) => s.reach(version + 1)));
        played++;
      }
      for (const s of seats) sizes.push(...s.sizes.slice(1));
      await Promise.all(seats.map((s) => s.room.leave(true)));
    }
  } finally {
    await host.stop();
  }
  return { meanBytes: sizes.reduce((a, b) => a + b, 0) / sizes.length, updates: sizes.length, games };
}

/** A seat over a raw colyseus.js room: the state it was told (patches applied), the payload bytes of each message. */
class RawSeat {
  doc: StateDoc | null = null;
  readonly sizes: number[] = [];
  #waiting: (() => void) | null = null;
  private constructor(readonly room: Room) {
    const ws = (room.connection as unknown as { transport: { ws: WebSocket } }).transport.ws;
    ws.addEventListener('message', (e: MessageEvent) => this.sizes.push((e.data as ArrayBuffer).byteLength));
    room.onMessage(MESSAGE_TYPE, (bytes: unknown) => {
      const m = decodeServerMessage(bytes);
      if (m === null) return;
      if (m.kind === 'welcome' || m.kind === 'update') this.doc = { view: m.view, legalActions: m.legalActions, nextStop: m.nextStop };
      else if (m.kind === 'patch' && this.doc !== null) this.doc = applyDocChange(this.doc, m);
      else if (m.kind === 'result' && !m.result.ok) throw new Error(`updateBytes: a send was refused: ${m.result.error.message}`);
      this.#waiting?.();
    });
  }

  static async join(url: string, options: Record<string, unknown>): Promise<RawSeat> {
    const seat = new RawSeat(await new Client(url).joinOrCreate(ROOM_NAME, options));
    await seat.reach(0);
    return seat;
  }

  send(message: unknown): void {
    this.room.sendBytes(MESSAGE_TYPE, encodeMessage(message as never));
  }

  async reach(version: number): Promise<void> {
    while (this.doc === null || this.doc.view.version < version) await new Promise<void>((resolve) => (this.#waiting = resolve));
  }
}

interface RecoveryFigures {
  games: number;
  kills: number;
  recoveryMs: number[];
  medianMs: number;
  maxMs: number;
}

/** Two `serve` processes sharing PostgreSQL and Redis; games owned by the first played by bots; the first killed: ms until every table is back. */
async function recovery(pg: PostgresServer): Promise<RecoveryFigures> {
  const redis = await startRedis();
  const storeUrl = await pg.createDatabase('bench_cluster');
  const store = new PostgresStore({ connectionString: storeUrl, max: 4 });
  const ports = [await freePort(), await freePort()];
  const processes: ServeProcess[] = [];
  const recoveryMs: number[] = [];
  const games = 20;
  try {
    for (const port of ports) processes.push(await startClusterProcess({ store: storeUrl, redis: redis.url, port, adminKey: ADMIN_KEY }));
    const urls = ports.map((p) => `ws://127.0.0.1:${p}`);
    for (let kill = 0; kill < KILLS; kill++) {
      let paused = false;
      const bots: Bot[] = [];
      const ids: string[] = [];
      await pool(
        Array.from({ length: games }, (_, i) => i),
        8,
        async (i) => {
          const { gameId, tokens } = await postGame(urls[0]!.replace('ws:', 'http:'), ADMIN_KEY, { players: ['A', 'B'], seed: kill * 1000 + i });
          ids.push(gameId);
          for (const seat of ['A', 'B']) bots.push(new Bot(await connectTable(urls, { gameId, seat, token: tokens[seat] as string }, { joinTimeoutMs: 60_000 }), seat, () => paused, () => false));
        },
      );
      for (const b of bots) b.kick();
      await sleep(1500);
      const owner = processes[0]!;
      const owned = (await Promise.all(ids.map(async (id) => pidOfOwner((await store.loadGame(id))?.owner ?? null)))).filter((pid) => pid === owner.pid).length;
      paused = true;
      owner.child.kill('SIGKILL');
      const killedAt = performance.now();
      for (;;) {
        const stored = await Promise.all(ids.map((id) => store.loadGame(id)));
        const byId = new Map(stored.map((s) => [s?.gameId, s]));
        const back = bots.every((b) => {
          const s = byId.get(b.table.gameId);
          return b.table.status === 'connected' && !b.busy && pidOfOwner(s?.owner ?? null) === processes[1]!.pid && b.table.getSnapshot().version === s?.version && b.table.getSnapshot().seq === s?.seq;
        });
        if (back) break;
        if (performance.now() - killedAt > 60_000) throw new Error('recovery: the tables did not come back within 60 s');
        await sleep(10);
      }
      recoveryMs.push(performance.now() - killedAt);
      console.log(`recovery ${kill + 1}: ${owned} of ${games} games moved, every table back in ${fmt(recoveryMs.at(-1)!)} ms`);
      for (const b of bots) b.stop();
      await Promise.all(bots.map((b) => b.table.close()));
      await owner.exited;
      processes[0] = await startClusterProcess({ store: storeUrl, redis: redis.url, port: ports[0]!, adminKey: ADMIN_KEY });
    }
  } finally {
    for (const p of processes) p.child.kill('SIGKILL');
    await store.close();
    await redis.stop();
  }
  const sorted = [...recoveryMs].sort((a, b) => a - b);
  return { games, kills: KILLS, recoveryMs, medianMs: sorted[Math.floor(sorted.length / 2)] as number, maxMs: sorted.at(-1) as number };
}

const started = performance.now();
let only = values.only?.split(',');
const wants = (part: string) => only === undefined || only.includes(part);
const figures: { memory?: LoadFigures; floor?: LoadFigures; pglite?: LoadFigures; postgres?: LoadFigures; recovery?: RecoveryFigures } = {};
const dir = await mkdtemp(join(tmpdir(), 'mtg-bench-server-'));
let pg: PostgresServer | null = null;
let updates: Awaited<ReturnType<typeof updateBytes>> | null = null;
try {
  // The mean update first: the floor echoes updates of that size.
  if (QUICK || wants('memory') || wants('floor')) {
    updates = await updateBytes(400);
    console.log(`updates: ${fmt(updates.meanBytes)} bytes on average after the first (${updates.updates} updates, ${updates.games} games of random legal actions)`);
  }
  // The server alone (no database): what the rest costs; then the floor, a bare Colyseus room echoing updates of the same size.
  const floorBytes = Math.round(updates?.meanBytes ?? 400);
  if (QUICK || (wants('memory') && wants('floor'))) Object.assign(figures, await compared(floorBytes));
  else if (wants('memory')) figures.memory = await load('MemoryStore (no database)', 'memory');
  else if (wants('floor')) figures.floor = await load('floor (bare Colyseus echo)', 'floor', floorBytes);
  if (QUICK) only = [];
  if (wants('pglite')) figures.pglite = await load('PGlite (on disk)', `pglite:${join(dir, 'pglite')}`);
  if ((wants('postgres') || wants('recovery')) && findPostgresBin() === null && values['pg-url'] === undefined) console.log('PostgreSQL: skipped (no initdb/pg_ctl; install postgresql)');
  else if (values['pg-url'] !== undefined && wants('postgres')) figures.postgres = await load('PostgreSQL (given)', values['pg-url']);
  else if (wants('postgres') || wants('recovery')) {
    pg = await startPostgres({ durable: true });
    if (wants('postgres')) figures.postgres = await load('PostgreSQL (fsync on)', await pg.createDatabase('bench_load'));
    if (wants('recovery')) figures.recovery = await recovery(pg);
  }
} finally {
  await pg?.stop();
  await rm(dir, { recursive: true, force: true });
}

const rows: string[][] = [];
for (const f of [figures.memory, figures.floor, figures.pglite, figures.postgres]) {
  if (f === undefined) continue;
  for (const [label, p] of [['saturated', f.saturated], [`${GOAL_SENDS_PER_SECOND}/s offered`, f.paced], [`${GOAL_SENDS_PER_SECOND / 2}/s offered`, f.half]] as const) {
    if (p === undefined) continue;
    rows.push([
      `${f.store}, ${label}`,
      fmt(p.acceptedPerSecond),
      fmt(p.latencyMs.p50),
      fmt(p.latencyMs.p99),
      `${fmt(p.serverCpuMsPerSend)} (${fmt(100 * p.serverLoopBusy)}%)`,
      p === (f.saturated ?? f.half) ? `${fmt(f.bytesPerOpenGame.heapUsed / 1024)} / ${fmt(f.bytesPerOpenGame.rss / 1024)}` : p === f.half ? `${fmt(f.bytesPerOpenGameAfterRun.heapUsed / 1024)} / ${fmt(f.bytesPerOpenGameAfterRun.rss / 1024)} after the run` : '',
    ]);
  }
}
console.log(`\n${GAMES} games, ${SECONDS} s per figure (after ${WARMUP} s of warm-up); load average ${os.loadavg().map((l) => fmt(l)).join(' ')}`);
console.log(table(['store, load', 'accepted sends/s', 'p50 ms', 'p99 ms', 'server CPU ms per send (loop busy)', 'KiB per open game (heap / RSS)'], rows));
/** The table server (MemoryStore) against the floor at 1,000 sends a second offered: CPU per send and p99, table server ÷ floor. */
const vsFloor =
  figures.memory?.half !== undefined && figures.floor?.half !== undefined
    ? { cpuPerSend: figures.memory.half.serverCpuMsPerSend / figures.floor.half.serverCpuMsPerSend, p99: figures.memory.half.latencyMs.p99 / figures.floor.half.latencyMs.p99 }
    : null;
if (vsFloor !== null) console.log(`against the floor (1,000 sends/s offered): CPU per send ${fmt(vsFloor.cpuPerSend)}x (goal <= 3), p99 ${fmt(vsFloor.p99)}x (goal <= 2); updates ${fmt(updates?.meanBytes ?? NaN)} bytes (goal <= 600)`);
for (const f of [figures.memory, figures.floor, figures.pglite, figures.postgres]) if (f !== undefined) console.log(`${f.store}: ${f.droppedGames} games given up by the server during the run (0 expected); tables joined in ${fmt(f.joinSeconds)} s`);
if (figures.recovery !== undefined) console.log(`recovery after SIGKILL (${figures.recovery.games} games, ${figures.recovery.kills} kills): median ${fmt(figures.recovery.medianMs)} ms, max ${fmt(figures.recovery.maxMs)} ms`);

if (!values['no-write']) {
  const out = fileURLToPath(new URL('./results.json', import.meta.url));
  const results = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>;
  // --quick replaces what it measured and keeps the rest of the last full run.
  const previous = QUICK ? ((results.server ?? {}) as Record<string, unknown>) : {};
  results.server = {
    ...previous,
    ...figures,
    ...(vsFloor !== null ? { vsFloor } : {}),
    ...(updates !== null ? { updateBytes: updates.meanBytes } : {}),
    quick: QUICK,
    goals: { acceptedPerSecondPostgres: 2000, p99Ms: 50, recoveryMs: 5000, vsFloor: { cpuPerSend: 3, p99: 2 }, updateBytes: 600 },
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.availableParallelism(), memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}`, loadAverage: os.loadavg() },
    date: new Date().toISOString(),
    seconds: (performance.now() - started) / 1000,
  };
  await writeFile(out, JSON.stringify(results, null, 2) + '\n');
  console.log(`wrote the figures as server in ${out}`);
}
