/**
 * `simulate({ workers?, games, setup, policy?, until?, seed? })` (issue 34, CONTRACT v4
 * "Simulation"): playouts of many games over a pool of worker threads (piscina, an optional peer
 * dependency). The games are cut into batches; each batch runs in whichever thread is free
 * (src/sim/task.ts) and the results are put back in game order. A game depends only on its
 * index and the simulation's seed, so the same seeds give the same results and hashes with any
 * number of workers, or none (`workers: 0` runs every game in this thread).
 *
 * Workers load the package's own modules, and the setup and policy by module path: functions
 * cannot cross to a thread. A path ending in `.ts` (the tests, a host writing TypeScript) makes
 * the workers load tsx (`--import tsx`, a dev dependency) to read it, as do this package's own
 * sources when they run through tsx or vitest; otherwise the threads start without tsx even when
 * this process has it (the built package run from a TypeScript host, as the bench does).
 *
 * `simulate` starts its threads and ends them; `createSimulator({ workers })` keeps them across
 * calls (warm: the engine loaded and compiled in each), for hosts that simulate often.
 */
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { readUse, namesOf } from '../game/module.js';
import type { ModuleName } from '../moduleNames.js';
import { failureOf, isModuleRef, MODULES, runTask, type TaskFailure, type GameSetup, type ModuleRef, type SimulatedGame, type SimulationTask } from './task.js';
import type { Until } from './playout.js';

/** Progress of a long run, after each batch. */
export interface SimulationProgress {
  /** Games played so far. */
  done: number;
  /** Games in the run. */
  games: number;
}

/** Options of {@link simulate}. */
export interface SimulateOptions {
  /** How many games (a whole number from 1). */
  games: number;
  /**
   * How each game is made: createGame's options as JSON (each game gets its own `seed`), or a
   * module whose export `(game: { index, seed }) => Game` makes it (a card game, hooks).
   */
  setup: GameSetup | ModuleRef;
  /** A module whose export is a {@link Policy} (default: playout's default, or a card game's bot). */
  policy?: ModuleRef;
  /** Where each playout stops (a partial view), else at the game's end or `maxEvents`. */
  until?: Until;
  /** The run's seed (a whole number from 0 to 2^32 - 1, default 1): game i's seed is `gameSeed(seed, i)`. */
  seed?: number;
  /** Worker threads (default: the machine's cores); 0 plays every game in this thread. */
  workers?: number;
  /** Games per batch sent to a worker (default: guided, each batch about a quarter of the games left per worker, from 4 to 64, so the threads finish together). */
  batch?: number;
  /** playout's cap on the events of one game (default 100,000). */
  maxEvents?: number;
  /** playout's default policy: the probability of a random legal action (default 0.1). */
  explore?: number;
  /** playout's default policy: whether a random action may be a concession. */
  allowConcede?: boolean;
  /** Called after each batch with the games played so far. */
  onProgress?: (progress: SimulationProgress) => void;
}

/** What {@link simulate} resolves to (plain JSON). */
export interface SimulationResults {
  /** Each game's result, in game order. */
  results: SimulatedGame[];
  /** Each game's final {@link stateHash}, in game order. */
  hashes: string[];
  /** The worker threads used (0: this thread). */
  workers: number;
}

/** This module's folder: `import.meta.url` in the ES module build and the sources (first: `node -e` has a global `__filename` of its own), `__filename` in the CommonJS build. */
function here(): { dir: string; ext: string } {
  const url = import.meta.url as string | undefined;
  const file = typeof url === 'string' ? fileURLToPath(url) : __filename;
  return { dir: dirname(file), ext: file.endsWith('.ts') ? '.ts' : '.js' };
}

/** A module reference made absolute (a file URL for paths, relative ones from the current folder): workers do not share the caller's folder. */
function resolveRef(ref: ModuleRef, field: string): ModuleRef {
  if (typeof ref.module !== 'string' || ref.module === '') throw invalid(`${field}.module`, 'must be a module path, file URL or package name');
  if (ref.export !== undefined && typeof ref.export !== 'string') throw invalid(`${field}.export`, 'must be the name of an export');
  const spec = ref.module;
  let module: string;
  if (spec.startsWith('file:')) module = spec;
  else if (isAbsolute(spec) || spec.startsWith('.')) module = pathToFileURL(resolve(spec)).href;
  else {
    // A package name, resolved from the caller's folder (the workers' own folder is the engine's).
    try {
      module = pathToFileURL(createRequire(join(process.cwd(), 'noop.js')).resolve(spec)).href;
    } catch {
      module = spec;
    }
  }
  return { module, ...(ref.export === undefined ? {} : { export: ref.export }) };
}

function invalid(field: string, what: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_OPTIONS, `simulate: ${field} ${what}`);
}

/** A JSON setup's `use` as the modules' names: the modules themselves, or their names ('table', 'grandMelee'); INVALID_OPTIONS naming the entry. */
function useNames(use: unknown): ModuleName[] {
  const list = Array.isArray(use) ? use.map((m: unknown) => (m === 'table' || m === 'grandMelee' ? MODULES[m] : m)) : use;
  return namesOf(readUse(list, 'options.setup.use')) ?? [];
}

const wholeIn = (n: unknown, min: number, max: number): n is number => typeof n === 'number' && Number.isInteger(n) && n >= min && n <= max;

/** Checks the options and makes them the tasks' JSON (module paths resolved); throws INVALID_OPTIONS naming the field. */
function taskBase(options: SimulateOptions): Omit<SimulationTask, 'from' | 'to'> {
  if (typeof options !== 'object' || options === null) throw invalid('options', 'must be an object');
  if (!wholeIn(options.games, 1, 1e9)) throw invalid('options.games', 'must be a whole number from 1');
  if (options.seed !== undefined && !wholeIn(options.seed, 0, 2 ** 32 - 1)) throw invalid('options.seed', 'must be a whole number from 0 to 2^32 - 1');
  if (options.workers !== undefined && !wholeIn(options.workers, 0, 1024)) throw invalid('options.workers', 'must be a whole number from 0 (0: this thread)');
  if (options.batch !== undefined && !wholeIn(options.batch, 1, 1e9)) throw invalid('options.batch', 'must be a whole number from 1');
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw invalid('options.onProgress', 'must be a function');
  if (typeof options.setup !== 'object' || options.setup === null) throw invalid('options.setup', "must be createGame's options (JSON) or { module, export? }");
  if (options.until !== undefined && (typeof options.until !== 'object' || options.until === null || Array.isArray(options.until))) throw invalid('options.until', 'must be a partial view (an object), e.g. { turn: 21 }');
  const setup = isModuleRef(options.setup) ? resolveRef(options.setup, 'options.setup') : options.setup;
  if (!isModuleRef(setup)) {
    // The options go to the workers as JSON: a function (hooks) would not arrive.
    if ('hooks' in setup || 'listeners' in setup) throw invalid('options.setup', 'cannot carry hooks or listeners to a worker: give a setup module ({ module, export? }) that makes the game');
  }
  return {
    // The modules go to the workers by name (a module's functions would not arrive), and each thread takes its own.
    setup: isModuleRef(setup) || setup.use === undefined ? setup : { ...setup, use: useNames(setup.use) },
    seed: options.seed ?? 1,
    ...(options.policy === undefined ? {} : { policy: resolveRef(options.policy, 'options.policy') }),
    ...(options.until === undefined ? {} : { until: options.until }),
    ...(options.maxEvents === undefined ? {} : { maxEvents: options.maxEvents }),
    ...(options.explore === undefined ? {} : { explore: options.explore }),
    ...(options.allowConcede === undefined ? {} : { allowConcede: options.allowConcede }),
  };
}

/** Whether the workers need tsx: this package runs from its TypeScript sources, or a module given is TypeScript. */
function needsTsx(base: Omit<SimulationTask, 'from' | 'to'>, ext: string): boolean {
  const ts = (ref: unknown) => isModuleRef(ref) && /\.[mc]?tsx?$/.test(ref.module);
  return ext === '.ts' || ts(base.setup) || ts(base.policy);
}

/**
 * The Node flags a worker of the built package starts with: this process's module flags
 * (`--import`, `--require`, `--loader`, `--conditions`; a thread takes no process-wide flag such
 * as `--expose-gc`) less tsx's loader (`--import tsx`, `--loader=tsx/esm`, ...). The threads need
 * no TypeScript, and a thread that inherits tsx's hooks (Node's default, as under
 * `node --import tsx bench/run.ts`) started slower and played at half speed.
 */
export function workerExecArgv(argv: readonly string[]): string[] {
  const isTsx = (v: string) => /^tsx(\/|$)/.test(v);
  const withValue = /^(--import|--require|-r|--loader|--experimental-loader|--conditions|-C)$/;
  const joined = /^--(import|require|loader|experimental-loader|conditions)=(.*)$/;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (withValue.test(a) && i + 1 < argv.length) {
      const v = argv[++i] as string;
      if (!isTsx(v) || a === '--conditions' || a === '-C') out.push(a, v);
      continue;
    }
    const eq = joined.exec(a);
    if (eq !== null && (eq[1] === 'conditions' || !isTsx(eq[2] as string))) out.push(a);
  }
  return out;
}

/**
 * The batches of a run: `batch` games each when given; else guided sizes, each about a quarter of
 * what is left per worker (at most 64, at least 4 or what is left), so that the threads start on
 * large batches and finish together on small ones.
 */
export function batchRanges(games: number, workers: number, batch: number | undefined): [number, number][] {
  const out: [number, number][] = [];
  const threads = Math.max(1, workers);
  for (let from = 0; from < games; ) {
    const size = batch ?? Math.max(Math.min(4, games - from), Math.min(64, Math.ceil((games - from) / (threads * 4))));
    const to = Math.min(games, from + size);
    out.push([from, to]);
    from = to;
  }
  return out;
}

/** The piscina pool class, loaded when a simulation first uses threads (an optional peer dependency). */
async function loadPiscina(): Promise<typeof import('piscina').Piscina> {
  try {
    const mod = await import('piscina');
    return mod.Piscina ?? (mod as unknown as { default: typeof import('piscina').Piscina }).default;
  } catch {
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, "simulate: worker threads need the package 'piscina' (npm install piscina), or pass workers: 0 to play in this thread");
  }
}

/** Options of {@link createSimulator}. */
export interface SimulatorOptions {
  /** Worker threads kept (default: the machine's cores); 0 plays every game in the calling thread. */
  workers?: number;
}

/**
 * A pool of worker threads kept across simulations ({@link createSimulator}): the threads start
 * once and stay warm (the engine loaded and compiled), so a host that simulates again and again
 * (a bot's every decision, a tuning loop) pays a thread's start once. Its `simulate` takes
 * {@link simulate}'s options less `workers`; `close()` ends the threads (a simulator closed, or
 * never used, holds none).
 */
export interface Simulator {
  /** The worker threads (0: the calling thread). */
  readonly workers: number;
  /** {@link simulate} on this simulator's threads; its `workers` option, if given, must equal the simulator's. */
  simulate(options: SimulateOptions): Promise<SimulationResults>;
  /** Ends the threads once the simulations under way have finished; a later `simulate` rejects. */
  close(): Promise<void>;
}

type Pool = InstanceType<typeof import('piscina').Piscina>;

/**
 * A simulator whose worker threads are kept across calls (see {@link Simulator}). The threads
 * start at the first simulation, with tsx when this package runs from its sources or that
 * simulation names a TypeScript module; a later one naming TypeScript on threads started without
 * it restarts them once with tsx. Throws INVALID_OPTIONS for a bad `workers`.
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  if (typeof options !== 'object' || options === null) throw invalid('options', 'must be an object');
  if (options.workers !== undefined && !wholeIn(options.workers, 0, 1024)) throw invalid('options.workers', 'must be a whole number from 0 (0: this thread)');
  const workers = options.workers ?? availableParallelism();
  let pool: Pool | null = null;
  let poolTsx = false;
  let closed = false;
  /** The simulations under way (close waits for them). */
  const running = new Set<Promise<unknown>>();
  /** The simulations using each pool: a pool replaced (restarted with tsx) ends when its last one is done. */
  const users = new Map<Pool, number>();
  const ending: Promise<void>[] = [];

  /**
   * The pool a simulation uses, taken in one synchronous step (no other simulation can replace it
   * meanwhile). The first simulation starts it: its batch count caps the threads started at once;
   * piscina adds the others up to `workers` as batches wait, and keeps them.
   */
  const acquire = (Piscina: typeof import('piscina').Piscina, tsx: boolean, tasks: number): Pool => {
    if (pool === null || (tsx && !poolTsx)) {
      if (pool !== null) retire(pool);
      const { dir, ext } = here();
      pool = new Piscina({
        filename: pathToFileURL(join(dir, `worker${ext}`)).href,
        name: 'runTask',
        minThreads: Math.max(1, Math.min(workers, tasks)),
        maxThreads: workers,
        // Kept: the threads stay until close().
        idleTimeout: Infinity,
        // Every batch waits for a free thread; none is refused.
        maxQueue: Infinity,
        execArgv: tsx ? ['--import', 'tsx'] : workerExecArgv(process.execArgv),
      });
      poolTsx = tsx;
    }
    users.set(pool, (users.get(pool) ?? 0) + 1);
    return pool;
  };
  /** Ends a pool that is no longer the simulator's once no simulation uses it. */
  const retire = (p: Pool) => {
    if ((users.get(p) ?? 0) > 0) return;
    users.delete(p);
    ending.push(p.destroy());
  };
  const release = (p: Pool) => {
    users.set(p, (users.get(p) ?? 1) - 1);
    if (p !== pool) retire(p);
  };

  const run = async (options: SimulateOptions): Promise<SimulationResults> => {
    const base = taskBase(options);
    if (options.workers !== undefined && options.workers !== workers) throw invalid('options.workers', `must be this simulator's (${workers}) or left out`);
    if (closed) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'simulate: this simulator is closed (createSimulator makes another)');
    const games = options.games;
    const tasks: SimulationTask[] = batchRanges(games, workers, options.batch).map(([from, to]) => ({ ...base, from, to }));
    const results: SimulatedGame[] = new Array<SimulatedGame>(games);
    let done = 0;
    const finished = (batchResults: SimulatedGame[]) => {
      for (const r of batchResults) results[r.index] = r;
      done += batchResults.length;
      options.onProgress?.({ done, games });
    };
    if (workers === 0) {
      for (const task of tasks) finished(await runTask(task));
    } else {
      const Piscina = await loadPiscina();
      const p = acquire(Piscina, needsTsx(base, here().ext), tasks.length);
      try {
        await Promise.all(tasks.map(async (task) => finished(failureOf((await p.run(task)) as SimulatedGame[] | TaskFailure))));
      } finally {
        release(p);
      }
    }
    return { results, hashes: results.map((r) => r.hash), workers };
  };

  return {
    workers,
    simulate(options) {
      const p = run(options);
      running.add(p);
      const forget = () => void running.delete(p);
      p.then(forget, forget);
      return p;
    },
    async close() {
      closed = true;
      await Promise.allSettled(running);
      const p = pool;
      pool = null;
      if (p !== null) retire(p);
      await Promise.allSettled(ending);
    },
  };
}

/**
 * Plays `options.games` games (see the module's comment) on threads started for this call and
 * ended after it (a host that simulates often keeps them: {@link createSimulator}); resolves to
 * their results and hashes in game order. Rejects with INVALID_OPTIONS for bad options (naming
 * the field) before any game is played, and with the error of a game that fails.
 */
export async function simulate(options: SimulateOptions): Promise<SimulationResults> {
  taskBase(options);
  if (options.workers !== undefined && !wholeIn(options.workers, 0, 1024)) throw invalid('options.workers', 'must be a whole number from 0 (0: this thread)');
  const simulator = createSimulator({ workers: options.workers ?? availableParallelism() });
  try {
    return await simulator.simulate(options);
  } finally {
    await simulator.close();
  }
}
