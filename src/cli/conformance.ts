/**
 * `mtg-turn-engine conformance list|run|serve-self`: the conformance kit on the command line
 * (CONTRACT.md, "Conformance kit"; docs/conformance.md).
 * - `list [--features a,b] [--source s,t] [--json]`: the shipped scenarios with the features each needs;
 * - `run --engine "<command>" [files...] [--features a,b] [--timeout ms] [--startup-timeout ms] [--scenario-timeout ms] [--json] [--quiet] [--trace file]`:
 *   plays them against an engine process, one line per scenario, then `N passed, M failed, K skipped`;
 * - `serve-self [--features a,b]`: this engine behind the protocol, on stdin and stdout.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CORPUS_SOURCES, conformanceCorpus, type CorpusSource } from '../conformance/corpus.js';
import { FEATURE_NAMES, FEATURES, missingFeatures } from '../conformance/features.js';
import { DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../conformance/rpc.js';
import { DEFAULT_SCENARIO_TIMEOUT_MS, runConformance, type ConformanceResult } from '../conformance/runner.js';
import { serveSelf } from '../conformance/serve.js';
import { printable, type Command } from './command.js';

/** A comma-separated list of feature tags; unknown ones are refused, naming the known ones. */
export function featureList(value: string | undefined, option = '--features'): string[] | undefined {
  if (value === undefined) return undefined;
  const features = value.split(',').map((f) => f.trim()).filter((f) => f.length > 0);
  const unknown = features.filter((f) => !(f in FEATURES));
  if (unknown.length > 0) throw new Error(`${option}: unknown feature '${unknown.join("', '")}'; the features are ${FEATURE_NAMES.join(', ')}`);
  return features;
}

/** A step shown in a line: its JSON, cut short. */
function shortStep(step: unknown): string {
  if (step === undefined) return '';
  const text = JSON.stringify(step);
  return ` ${text.length > 160 ? `${text.slice(0, 157)}...` : text}`;
}

/** The line printed for one result. */
export function resultLine(r: ConformanceResult): string {
  const where = `${printable(r.name)}  (${printable(r.path)})`;
  if (r.status === 'passed') return `ok    ${where}`;
  if (r.status === 'skipped') return `skip  ${where}  needs ${r.missing?.join(', ') ?? ''}`;
  return `FAIL  ${where}  step ${r.stepIndex}${printable(shortStep(r.step))}: ${printable(r.message ?? '')}`;
}

/** The sources of the shipped scenarios. */
const SHIPPED_SOURCES: readonly string[] = CORPUS_SOURCES.filter((f) => f !== 'given');

/** A comma-separated list of the shipped scenarios' sources; unknown ones are refused, naming the known ones. */
export function sourceList(value: string | undefined): CorpusSource[] | undefined {
  if (value === undefined) return undefined;
  const sources = value.split(',').map((f) => f.trim()).filter((f) => f.length > 0);
  const unknown = sources.filter((f) => !SHIPPED_SOURCES.includes(f));
  if (unknown.length > 0) throw new Error(`--source: unknown source '${unknown.join("', '")}'; the sources are ${SHIPPED_SOURCES.join(', ')}`);
  return sources as CorpusSource[];
}

async function list(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: false, options: { features: { type: 'string' }, source: { type: 'string' }, json: { type: 'boolean', default: false } } });
  void positionals;
  const features = featureList(values.features);
  const sources = sourceList(values.source);
  const all = await conformanceCorpus();
  const shown = all.filter((e) => (features === undefined || missingFeatures(e.features, features).length === 0) && (sources === undefined || sources.includes(e.source)));
  if (values.json) {
    console.log(JSON.stringify(shown.map((e) => ({ path: e.path, source: e.source, name: e.name, features: e.features })), null, 2));
    return 0;
  }
  for (const e of shown) console.log(`${printable(e.path)}  [${e.features.join(', ')}]  ${printable(e.name)}`);
  const from = sources === undefined ? '' : ` (from ${sources.join(', ')})`;
  const need = features === undefined ? '' : ` need only ${features.length === 0 ? 'the core' : `the core and ${features.join(', ')}`}`;
  console.log(features === undefined && sources === undefined ? `${all.length} scenarios` : `${shown.length} of ${all.length} scenarios${from}${need}`);
  return 0;
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      engine: { type: 'string' },
      features: { type: 'string' },
      timeout: { type: 'string' },
      'startup-timeout': { type: 'string' },
      'scenario-timeout': { type: 'string' },
      json: { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
      trace: { type: 'string' },
    },
  });
  if (values.engine === undefined || values.engine.trim().length === 0) throw new Error('--engine "<command>" is required: the shell command that starts the engine');
  const features = featureList(values.features);
  const millis = (name: string, given: string | undefined, fallback: number): number => {
    if (given === undefined) return fallback;
    const ms = Number(given);
    if (!Number.isInteger(ms) || ms < 1 || ms > 3_600_000) throw new Error(`--${name} must be a whole number of milliseconds from 1 to 3600000; got '${given}'`);
    return ms;
  };
  const timeoutMs = millis('timeout', values.timeout, DEFAULT_TIMEOUT_MS);
  const startupTimeoutMs = millis('startup-timeout', values['startup-timeout'], DEFAULT_STARTUP_TIMEOUT_MS);
  const scenarioTimeoutMs = millis('scenario-timeout', values['scenario-timeout'], DEFAULT_SCENARIO_TIMEOUT_MS);
  const traceFd = values.trace === undefined ? null : openSync(values.trace, 'w');
  try {
    const result = await runConformance({
      engine: values.engine,
      ...(positionals.length > 0 ? { files: positionals } : {}),
      ...(features === undefined ? {} : { features }),
      timeoutMs,
      startupTimeoutMs,
      scenarioTimeoutMs,
      ...(traceFd === null ? {} : { trace: (direction: '>' | '<', line: string) => void writeSync(traceFd, `${direction} ${line}\n`) }),
      onResult: (r) => {
        if (values.json) return;
        if (!values.quiet || r.status === 'failed') console.log(resultLine(r));
      },
    });
    if (values.json) console.log(JSON.stringify(result, null, 2));
    else console.log(`${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`);
    return result.failed === 0 ? 0 : 1;
  } finally {
    if (traceFd !== null) closeSync(traceFd);
  }
}

async function serve(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { features: { type: 'string' } } });
  serveSelf(undefined, featureList(values.features));
  return 0;
}

export const conformanceCommand: Command = {
  summary: 'the conformance kit: list the shipped scenarios, run them against an engine process, serve this engine',
  usage: 'conformance list [--features a,b] [--source s,t] [--json] | run --engine "<command>" [files...] [--features a,b] [--timeout ms] [--startup-timeout ms] [--scenario-timeout ms] [--json] [--quiet] [--trace file] | serve-self [--features a,b]',
  options: [
    'list               the shipped scenarios, each with the features it needs, then their count',
    'run                plays scenarios against the engine, one line per scenario, then "N passed, M failed, K skipped"',
    'serve-self         this engine behind the protocol on stdin and stdout (docs/conformance.md)',
    '--engine <cmd>     run: the shell command that starts the engine (required)',
    '[files...]         run: scenario files or folders (default: the shipped scenarios)',
    '--features <a,b>   list: only the scenarios an engine with these features can play; run: play only those (the rest are skipped); serve-self: declare only these (default all)',
    '--source <s,t>     list: only the scenarios from these sources (project, shared, generated, recorded)',
    `--timeout <ms>     run: the time-out of one message, from the request to its answer (default ${DEFAULT_TIMEOUT_MS}); the engine's checkpoint requests do not restart it; past it the scenario fails and the engine is restarted`,
    `--startup-timeout <ms>  run: the time-out of the engine's start-up, to its answer to initialize (default ${DEFAULT_STARTUP_TIMEOUT_MS}); not counted against any scenario`,
    `--scenario-timeout <ms> run: the time limit of one scenario, all its messages (default ${DEFAULT_SCENARIO_TIMEOUT_MS})`,
    '--json             list, run: print JSON instead of lines',
    '--quiet            run: print only failures and the closing count (default: one line per scenario)',
    "--trace <file>     run: write every protocol line to the file ('>' to the engine, '<' from it)",
  ],
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'list') return list(rest);
    if (sub === 'run') return run(rest);
    if (sub === 'serve-self') return serve(rest);
    throw new Error(`conformance: name list, run or serve-self${sub === undefined ? '' : `; got '${sub}'`}`);
  },
};
