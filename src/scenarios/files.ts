/**
 * Node-only helpers of the scenario runner (the `mtg-turn-engine/node` subpath): reading
 * scenario files and running folders of them. The main entry never imports this module.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runScenario, type RunOptions } from './runner.js';
import type { ScenarioResult } from './schema.js';

/** Reads and runs a scenario file. */
export async function runScenarioFile(path: string, options: RunOptions = {}): Promise<ScenarioResult & { name: string }> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    return { name: path, ok: false, failures: [{ stepIndex: -1, message: `cannot read ${path}: ${err instanceof Error ? err.message : String(err)}` }] };
  }
  const name = typeof data === 'object' && data !== null && typeof (data as { name?: unknown }).name === 'string' ? (data as { name: string }).name : path;
  return { name, ...runScenario(data, options) };
}

/** The scenario files (*.json) named by paths: files as given, folders searched recursively, sorted. */
export async function collectScenarioFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const info = await stat(p);
    if (info.isDirectory()) {
      const entries = (await readdir(p, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
      out.push(...(await collectScenarioFiles(entries.filter((e) => e.isDirectory() || e.name.endsWith('.json')).map((e) => join(p, e.name)))));
    } else {
      out.push(p);
    }
  }
  return out;
}

/** What {@link runScenarioFolder} found: one result per file, in order, and the counts. */
export interface FolderResult {
  results: (ScenarioResult & { name: string; file: string })[];
  passed: number;
  failed: number;
}

/** Runs every scenario file (*.json) under the given files and folders, sorted by path. */
export async function runScenarioFolder(paths: readonly string[], options: RunOptions = {}): Promise<FolderResult> {
  const results: FolderResult['results'] = [];
  for (const file of await collectScenarioFiles(paths)) results.push({ ...(await runScenarioFile(file, options)), file });
  const passed = results.filter((r) => r.ok).length;
  return { results, passed, failed: results.length - passed };
}
