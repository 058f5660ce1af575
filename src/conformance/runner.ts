/**
 * The conformance runner: plays scenario files against another engine's process through the
 * stdio protocol (docs/conformance.md). The steps mean what they mean to `runScenario`: both
 * drive the one generator of src/scenarios/play.ts. Scenarios needing a feature the engine
 * does not declare are skipped; a scenario the engine crashes or hangs on fails alone, and
 * the next one gets a fresh engine process.
 */
import { playScenario, type GameRequest, type ScenarioAutoPass, type ScenarioCheckpoint } from '../scenarios/play.js';
import type { ScenarioResult } from '../scenarios/schema.js';
import { conformanceCorpus, loadScenarios, type CorpusEntry, type CorpusSource } from './corpus.js';
import { FEATURE_NAMES, missingFeatures } from './features.js';
import { initializeProblem, PROTOCOL_VERSION, sendProblem, viewProblem, type InitializeResult } from './protocol.js';
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, EngineFailure, EngineProcess, RpcCallError } from './rpc.js';

/** The default time limit of one scenario (all its messages), in milliseconds. */
export const DEFAULT_SCENARIO_TIMEOUT_MS = 120_000;

/** Options of {@link runConformance}. */
export interface ConformanceOptions {
  /** The shell command that starts the engine (it speaks the protocol on its stdin and stdout). */
  engine: string;
  /** Scenario files and folders (default: the shipped corpus). */
  files?: readonly string[];
  /** Play only the scenarios whose features are all among these (and the engine's); the others are skipped. */
  features?: readonly string[];
  /** The time-out of one message in milliseconds, counted from the request (default {@link DEFAULT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** The time-out of the engine's start-up, to its answer to `initialize` (default {@link DEFAULT_STARTUP_TIMEOUT_MS}, and never less than `timeoutMs`): a restart's start-up never counts against a scenario's messages. */
  startupTimeoutMs?: number;
  /** The time limit of one scenario, all its messages together, in milliseconds (default {@link DEFAULT_SCENARIO_TIMEOUT_MS}). */
  scenarioTimeoutMs?: number;
  /** The engine's working folder (default: the runner's). */
  cwd?: string;
  /** Sees every protocol line: '>' to the engine, '<' from it. */
  trace?: (direction: '>' | '<', line: string) => void;
  /** Called with each result as soon as it is known (for printing as the run goes). */
  onResult?: (result: ConformanceResult) => void;
}

/** The result of one scenario. */
export interface ConformanceResult {
  /** The file (relative to the shipped scenarios/ folder for the shipped ones). */
  path: string;
  /** Where the file comes from ('project', 'shared', 'generated', 'recorded'; 'given' for a file the package does not ship). */
  source: CorpusSource;
  name: string;
  /** The features the scenario needs. */
  features: string[];
  status: 'passed' | 'failed' | 'skipped';
  /** Skipped: the features it needs that the engine lacks (or that --features leaves out). */
  missing?: string[];
  /** Failed: the index of the first step that failed (-1: the file or its setup) ... */
  stepIndex?: number;
  /** ... the step itself ... */
  step?: unknown;
  /** ... and what differs (expected and got) or went wrong. */
  message?: string;
}

/** The result of a run. */
export interface ConformanceRun {
  /** What the engine answered to `initialize`. */
  engine: InitializeResult;
  results: ConformanceResult[];
  passed: number;
  failed: number;
  skipped: number;
}

/** Starts the engine and asks `initialize`; throws an Error saying why not. */
async function startEngine(options: ConformanceOptions): Promise<{ process: EngineProcess; info: InitializeResult }> {
  const process = EngineProcess.start({ command: options.engine, cwd: options.cwd, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, trace: options.trace });
  try {
    // The start-up has its own time-out: a slow start (a loaded machine, a JVM) is not a slow answer.
    const startup = Math.max(options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const result = await process.request('initialize', { protocolVersion: PROTOCOL_VERSION, runner: { name: 'mtg-turn-engine conformance', features: FEATURE_NAMES } }, startup);
    const problem = initializeProblem(result);
    if (problem !== null) throw new Error(`the engine's answer to initialize is not { name, version, features }: ${problem}`);
    return { process, info: result as InitializeResult };
  } catch (err) {
    process.kill();
    throw err;
  }
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Answers one request of the scenario's play through the protocol. */
async function answer(engine: EngineProcess, request: GameRequest, setHooks: (hook: ScenarioCheckpoint | null, autoPass: ScenarioAutoPass | null) => void): Promise<unknown> {
  switch (request.op) {
    case 'create': {
      const autoPass = request.autoPass ?? null;
      setHooks(request.checkpoint, autoPass);
      try {
        await engine.request('createGame', { options: request.options, checkpoint: request.checkpoint !== null, ...(autoPass === null ? {} : { autoPass: true }) });
        return { error: null };
      } catch (err) {
        if (err instanceof RpcCallError) return { error: err.error.message };
        throw err;
      }
    }
    case 'send': {
      const result = await engine.request('send', { event: request.event });
      const problem = sendProblem(result);
      if (problem !== null) throw new Error(`the engine's answer to send is not { ok, error?, events }: ${problem}`);
      return result;
    }
    case 'view': {
      const result = await engine.request('view', {});
      const problem = viewProblem(result);
      if (problem !== null) throw new Error(`the engine's answer to view: ${problem}`);
      return result;
    }
    case 'persist':
      return engine.request('persist', {});
    case 'restore':
      return engine.request('restore', { persisted: request.persisted });
    case 'nextStop':
      return engine.request('nextStop', request.player === undefined ? {} : { player: request.player });
  }
}

/**
 * Plays one scenario on the engine; a failure of the engine or of the protocol fails the scenario
 * at the step it happened. The scenario has `limitMs` in all: past it the engine is stopped.
 */
async function playRemote(engine: EngineProcess, scenario: unknown, features: readonly string[], limitMs: number): Promise<ScenarioResult> {
  const progress = { stepIndex: -1 };
  const play = playScenario(scenario, { canPersist: features.includes('persist') }, progress);
  let hook: ScenarioCheckpoint | null = null;
  let autoPassHook: ScenarioAutoPass | null = null;
  let created = false;
  const limit = setTimeout(() => engine.abort(`the scenario did not finish within ${limitMs} ms (the time limit of one scenario)`), limitMs);
  engine.onRequest = (method, params) => {
    if (method === 'autoPass') {
      // Likewise an engine told nothing of autoPass: the scenario has no answers for it.
      if (autoPassHook === null) {
        engine.abort(`the engine asked autoPass ${created ? 'though createGame did not say autoPass: true' : 'before createGame'} (the runner answers autoPass only for a game created with autoPass: true)`);
        return false;
      }
      const p = params as { view?: unknown; player?: unknown } | null;
      if (typeof p?.view !== 'object' || p.view === null || Array.isArray(p.view)) throw new Error('autoPass: params.view must be the TurnView (an object)');
      if (typeof p.player !== 'string') throw new Error('autoPass: params.player must be the player asked about (a string)');
      return autoPassHook(p.view as never, p.player);
    }
    // An engine told `checkpoint: false` (or asked before createGame) gets no answer: it broke the protocol.
    if (hook === null) {
      engine.abort(`the engine asked checkpoint ${created ? 'though createGame said checkpoint: false' : 'before createGame'} (the runner answers checkpoint only for a game created with checkpoint: true)`);
      return {};
    }
    const view = (params as { view?: unknown } | null)?.view;
    if (typeof view !== 'object' || view === null || Array.isArray(view)) throw new Error('checkpoint: params.view must be the TurnView (an object)');
    return hook(view as never) ?? {};
  };
  const setHooks = (h: ScenarioCheckpoint | null, a: ScenarioAutoPass | null) => {
    hook = h;
    autoPassHook = a;
    created = true;
  };
  try {
    let next = play.next();
    while (next.done !== true) next = play.next(await answer(engine, next.value, setHooks));
    return next.value;
  } catch (err) {
    return { ok: false, failures: [{ stepIndex: progress.stepIndex, message: messageOf(err) }] };
  } finally {
    clearTimeout(limit);
  }
}

/** The step a failure names, or undefined (step -1). */
function stepOf(scenario: unknown, index: number): unknown {
  const steps = (scenario as { steps?: unknown } | null)?.steps;
  return index >= 0 && Array.isArray(steps) ? steps[index] : undefined;
}

/**
 * Runs scenario files (default: the shipped corpus) against an engine process. Throws only
 * when the engine cannot be started and initialized at all; everything after that is a result.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceRun> {
  const entries: CorpusEntry[] = options.files === undefined ? await conformanceCorpus() : await loadScenarios(options.files);
  const started = await startEngine(options);
  const info = started.info;
  let engine: EngineProcess | null = started.process;
  const results: ConformanceResult[] = [];
  const report = (r: ConformanceResult) => {
    results.push(r);
    options.onResult?.(r);
  };
  try {
    for (const entry of entries) {
      const base = { path: entry.path, source: entry.source, name: entry.name, features: entry.features };
      if (entry.problem !== null) {
        report({ ...base, status: 'failed', stepIndex: -1, message: entry.problem });
        continue;
      }
      const missing = [...new Set([...missingFeatures(entry.features, info.features), ...(options.features === undefined ? [] : missingFeatures(entry.features, options.features))])];
      if (missing.length > 0) {
        report({ ...base, status: 'skipped', missing });
        continue;
      }
      if (engine === null || engine.failed !== null) {
        engine?.kill();
        engine = null;
        try {
          ({ process: engine } = await startEngine(options));
        } catch (err) {
          report({ ...base, status: 'failed', stepIndex: -1, message: `cannot restart the engine: ${messageOf(err)}` });
          continue;
        }
      }
      const result = await playRemote(engine, entry.scenario, info.features, options.scenarioTimeoutMs ?? DEFAULT_SCENARIO_TIMEOUT_MS);
      const failure = result.failures[0];
      if (result.ok || failure === undefined) report({ ...base, status: 'passed' });
      else report({ ...base, status: 'failed', stepIndex: failure.stepIndex, step: stepOf(entry.scenario, failure.stepIndex), message: failure.message });
      if (engine.failed !== null) {
        // Crashed, hung or broke the protocol: the next scenario gets a new process.
        engine.kill();
        engine = null;
      }
    }
  } finally {
    await engine?.close();
  }
  const count = (status: ConformanceResult['status']) => results.filter((r) => r.status === status).length;
  return { engine: info, results, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}

export { EngineFailure };
