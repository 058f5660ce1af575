/**
 * The conformance corpus: the scenario files the package ships (scenarios/: the project's own,
 * shared/ from the shared conformance suite, generated/ from the chart, recorded/ exported from
 * recorded games), each with the features it needs and where it comes from, and the scenario
 * JSON Schema (schema/scenario.schema.json). Node only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findScenarioPaths, readScenarioText } from '../scenarios/files.js';
import { missingFeatures, scenarioFeatures, type Feature } from './features.js';

declare const __dirname: string | undefined;

/**
 * The folder of this module: `import.meta.url` in the ES module build (esbuild leaves it undefined
 * in the CommonJS build), else `__dirname`. Asked in that order: a process may have a global
 * `__dirname` of its own (`node -e`, a REPL: '.').
 */
function moduleFolder(): string {
  const url = import.meta.url as string | undefined;
  return typeof url === 'string' ? dirname(fileURLToPath(url)) : (__dirname as string);
}

let root: string | undefined;

/**
 * The package's folder (where package.json, scenarios/ and schema/ are): found by going up
 * from this module (src/conformance/, dist/src/conformance/ or dist/cjs/src/conformance/).
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = moduleFolder();
  for (let up = 0; up < 6; up++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && existsSync(join(dir, 'scenarios'))) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 'mtg-turn-engine') return (root = dir);
      } catch {
        // Not the package's manifest: go on up.
      }
    }
    dir = dirname(dir);
  }
  throw new Error(`cannot find the mtg-turn-engine package (with its scenarios/ folder) above ${moduleFolder()}`);
}

/** The folder of the shipped scenario files. */
export function corpusFolder(): string {
  return join(packageRoot(), 'scenarios');
}

/** The path of the scenario JSON Schema file shipped with the package. */
export function scenarioSchemaPath(): string {
  return join(packageRoot(), 'schema', 'scenario.schema.json');
}

/** The scenario JSON Schema (draft 2020-12), as shipped in schema/scenario.schema.json. */
export function scenarioSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(scenarioSchemaPath(), 'utf8')) as Record<string, unknown>;
}

/**
 * Where a scenario file comes from: the project's own ('project', scenarios/), the shared
 * conformance suite ('shared', scenarios/shared/), generated from the chart ('generated',
 * scenarios/generated/), exported from recorded games with `recordingToScenario` ('recorded',
 * scenarios/recorded/), or a file given that the package does not ship ('given').
 */
export type CorpusSource = 'project' | 'shared' | 'generated' | 'recorded' | 'given';

/** Every source, in the order the corpus lists them. */
export const CORPUS_SOURCES: readonly CorpusSource[] = ['project', 'shared', 'generated', 'recorded', 'given'];

/** The source of a file by its path relative to the package's scenarios/ folder (null: outside it). */
function sourceOf(shipped: string | null): CorpusSource {
  if (shipped === null) return 'given';
  const folder = shipped.includes('/') ? shipped.slice(0, shipped.indexOf('/')) : '';
  return folder === 'shared' || folder === 'generated' || folder === 'recorded' ? folder : 'project';
}

/** One scenario file with what it needs. */
export interface CorpusEntry {
  /** The file's path: relative to the package's scenarios/ folder (with `/`) for the shipped ones, else as given. */
  path: string;
  /** Where it comes from ({@link CorpusSource}). */
  source: CorpusSource;
  /** The file's absolute (or given) path, to read it. */
  file: string;
  /** The scenario's name (the path when the file has none or cannot be read). */
  name: string;
  /** The features it needs ({@link scenarioFeatures}). */
  features: Feature[];
  /** The parsed file, or null when it cannot be read (`problem` says why). */
  scenario: unknown;
  problem: string | null;
}

/** Options of {@link loadScenarios} and {@link conformanceCorpus}. */
export interface CorpusOptions {
  /** Only the scenarios an engine with these features can play (every feature they need is among them). */
  features?: readonly string[];
  /** Only the scenarios from these sources. */
  source?: readonly CorpusSource[];
}

/**
 * Reads scenario files and folders (folders searched recursively, sorted, without following
 * symbolic links, as the `scenarios` command does) with the features each needs and its source.
 * A file that cannot be read is listed with its problem and no features. Never throws.
 */
export async function loadScenarios(paths: readonly string[], options: CorpusOptions = {}): Promise<CorpusEntry[]> {
  const base = corpusFolderOrNull();
  const out: CorpusEntry[] = [];
  for (const found of await findScenarioPaths(paths)) {
    const shipped = base !== null && found.file.startsWith(base + sep) ? relative(base, found.file).split(sep).join('/') : null;
    const shown = shipped ?? found.file;
    const source = sourceOf(shipped);
    if (options.source !== undefined && !options.source.includes(source)) continue;
    let scenario: unknown = null;
    let problem = found.problem;
    if (problem === null) {
      try {
        scenario = JSON.parse(await readScenarioText(found.file));
      } catch (err) {
        problem = `cannot read ${found.file}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    const named = typeof scenario === 'object' && scenario !== null && typeof (scenario as { name?: unknown }).name === 'string' ? (scenario as { name: string }).name : shown;
    const features = problem === null ? scenarioFeatures(scenario) : [];
    if (options.features !== undefined && missingFeatures(features, options.features).length > 0) continue;
    out.push({ path: shown, source, file: found.file, name: named, features, scenario, problem });
  }
  return out;
}

function corpusFolderOrNull(): string | null {
  try {
    return corpusFolder();
  } catch {
    return null;
  }
}

/**
 * The shipped scenarios (the package's scenarios/ folder), each with the features it needs and
 * its source; with `features`, only those an engine with them can play; with `source`, only
 * those from these sources.
 */
export async function conformanceCorpus(options: CorpusOptions = {}): Promise<CorpusEntry[]> {
  return loadScenarios([corpusFolder()], options);
}
