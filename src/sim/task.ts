/**
 * One batch of {@link simulate}'s games, the same in a worker thread and in the calling thread:
 * game `index` is made by the setup with its own seed, played out, and reported as plain JSON
 * with its {@link stateHash}. Nothing here depends on which thread runs it or on the other
 * games: the same seeds give the same results with any number of workers.
 */
import { fileURLToPath } from 'node:url';
import { createGame } from '../game/create.js';
import type { Game, GameOptions } from '../game/types.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { playout, type Policy, type PlayoutResult, type Until } from './playout.js';
import { stateHash } from './hash.js';
import type { ModuleName } from '../moduleNames.js';
import type { GameModule } from '../game/module.js';
import { grandMelee, table } from '../allModules.js';

/** The engine's modules by name: a JSON setup's `use` crosses to a worker thread as names, and each thread gives its games its own. */
export const MODULES: Readonly<Record<ModuleName, GameModule>> = { table, grandMelee };

/** A module a worker loads: a file path or URL (resolved by simulate before it is sent) or a package name, and the export to use (default `default`). */
export interface ModuleRef {
  module: string;
  export?: string;
}

/**
 * The options of a new game (createGame's, as JSON: no hooks or listeners); each game gets its own
 * `seed`. `use` may name the modules (`['table', 'grandMelee']`) as well as give them.
 */
export type GameSetup = Omit<GameOptions, 'hooks' | 'listeners' | 'seed' | 'use'> & { use?: (NonNullable<GameOptions['use']>[number] | ModuleName)[] };

/** A setup module's export: the game for one index and seed (a card game: `createCardGame(cards, { ..., seed })`). */
export type SetupFunction = (game: { index: number; seed: number }) => Game | Promise<Game>;

/** One batch of games, as sent to a worker (plain JSON). */
export interface SimulationTask {
  setup: GameSetup | ModuleRef;
  policy?: ModuleRef;
  until?: Until;
  seed: number;
  maxEvents?: number;
  explore?: number;
  allowConcede?: boolean;
  /** The games of the batch: indices from `from` to `to` - 1. */
  from: number;
  to: number;
}

/** One game's result (plain JSON). */
export interface SimulatedGame extends PlayoutResult {
  /** The game's index (0 to games - 1). */
  index: number;
  /** The game's seed: of the setup (createGame's `seed`) and of the playout. */
  seed: number;
  /** {@link stateHash} of the game where the playout stopped. */
  hash: string;
}

/** The seed of game `index` of a simulation seeded `seed`: a 32-bit mix of both (runs with nearby seeds share no game). */
export function gameSeed(seed: number, index: number): number {
  let h = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h >>> 0;
}

const loaded = new Map<string, Promise<unknown>>();

/** The export a module reference names (loaded once per thread). */
export async function loadExport(ref: ModuleRef, field: string): Promise<unknown> {
  const name = ref.export ?? 'default';
  let mod = loaded.get(ref.module);
  if (mod === undefined) loaded.set(ref.module, (mod = importModule(ref.module)));
  let ns: Record<string, unknown>;
  try {
    ns = (await mod) as Record<string, unknown>;
  } catch (err) {
    loaded.delete(ref.module);
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `${field}.module: cannot load '${ref.module}': ${err instanceof Error ? err.message : String(err)}`);
  }
  // A CommonJS module loaded by import(): its exports are the namespace's default.
  const value = ns[name] ?? (ns.default as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== 'function') throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `${field}: '${ref.module}' has no function exported as '${name}'`);
  return value;
}

/**
 * Imports a module by specifier; a TypeScript file that this thread's loader cannot read by URL
 * (a test runner that transforms imports by path, as vitest does) is imported by its path.
 */
async function importModule(spec: string): Promise<unknown> {
  try {
    return await import(spec);
  } catch (err) {
    if (!spec.startsWith('file:')) throw err;
    try {
      return await import(fileURLToPath(spec));
    } catch {
      // A worker thread whose loader hooks do not reach this import: tsx's own API (a dev dependency) reads TypeScript.
      if (!/\.[mc]?tsx?$/.test(spec)) throw err;
      const tsx = (await import('tsx/esm/api').catch(() => null)) as { tsImport(spec: string, parent: string): Promise<unknown> } | null;
      if (tsx === null) throw err;
      return tsx.tsImport(spec, spec);
    }
  }
}

/** Whether a setup names a module rather than giving createGame's options. */
export function isModuleRef(value: unknown): value is ModuleRef {
  return typeof value === 'object' && value !== null && typeof (value as ModuleRef).module === 'string';
}

/** createGame's options of a JSON setup: the modules it names (simulate sends them by name) given as the modules. */
function jsonSetup(setup: GameSetup, seed: number): GameOptions {
  const { use, ...options } = setup;
  return { ...options, seed, ...(use === undefined ? {} : { use: use.map((m) => (typeof m === 'string' ? MODULES[m] : m)) }) };
}

/** Plays the batch's games in order. */
export async function runTask(task: SimulationTask): Promise<SimulatedGame[]> {
  const setup = isModuleRef(task.setup) ? ((await loadExport(task.setup, 'options.setup')) as SetupFunction) : null;
  const policy = task.policy === undefined ? undefined : ((await loadExport(task.policy, 'options.policy')) as Policy);
  const out: SimulatedGame[] = [];
  for (let index = task.from; index < task.to; index++) {
    const seed = gameSeed(task.seed, index);
    try {
      const game = setup === null ? createGame(jsonSetup(task.setup as GameSetup, seed)) : await setup({ index, seed });
      const result = playout(game, {
        seed,
        ...(policy === undefined ? {} : { policy }),
        ...(task.until === undefined ? {} : { until: task.until }),
        ...(task.maxEvents === undefined ? {} : { maxEvents: task.maxEvents }),
        ...(task.explore === undefined ? {} : { explore: task.explore }),
        ...(task.allowConcede === undefined ? {} : { allowConcede: task.allowConcede }),
      });
      out.push({ index, seed, ...result, hash: stateHash(game) });
    } catch (err) {
      // The game that failed, by index and seed (a playout of that seed shows it again), with the error's code.
      const at = `simulate: game ${index} (seed ${seed}): `;
      if (isEngineError(err)) throw new TurnEngineError(err.code, at + err.message, err.rule);
      throw new Error(at + (err instanceof Error ? err.message : String(err)), { cause: err });
    }
  }
  return out;
}

/** A TurnEngineError, of this copy of the engine or of another (a setup module may load its own copy: a worker reading TypeScript does). */
function isEngineError(err: unknown): err is TurnEngineError {
  return err instanceof TurnEngineError || (err instanceof Error && err.name === 'TurnEngineError' && typeof (err as { code?: unknown }).code === 'string');
}

/** A batch's failure as it crosses from a worker thread (an error's class and code do not survive the copy). */
export interface TaskFailure {
  failure: { code?: ErrorCode; rule?: string; message: string };
}

/** runTask in a worker: the batch's games, or its failure as plain JSON ({@link failureOf} makes it an error again). */
export async function runTaskInWorker(task: SimulationTask): Promise<SimulatedGame[] | TaskFailure> {
  try {
    return await runTask(task);
  } catch (err) {
    if (isEngineError(err)) return { failure: { code: err.code, message: err.message, ...(err.rule === undefined ? {} : { rule: err.rule }) } };
    return { failure: { message: err instanceof Error ? err.message : String(err) } };
  }
}

/** A worker's answer: the games, or the error it reported, thrown as it was (a TurnEngineError with its code, else an Error). */
export function failureOf(answer: SimulatedGame[] | TaskFailure): SimulatedGame[] {
  if (Array.isArray(answer)) return answer;
  const { code, message, rule } = answer.failure;
  throw code === undefined ? new Error(message) : new TurnEngineError(code, message, rule);
}
