/**
 * Node-only helpers of the scenario runner (the `mtg-turn-engine/node` subpath): reading
 * scenario files and running folders of them. The main entry never imports this module.
 *
 * Files and folders are untrusted input (issue 22): only regular files are read, at most
 * {@link MAX_SCENARIO_FILE_BYTES} of them, and a FIFO or a device is refused without being
 * opened for a blocking read; folders are searched without following symbolic links, at most
 * {@link MAX_SCENARIO_FOLDER_DEPTH} levels deep. A path that cannot be run fails on its own
 * line, and the others still run.
 */
import { constants, type Stats } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runScenario, type RunOptions } from './runner.js';
import type { ScenarioResult } from './schema.js';

/** The largest scenario file read, in bytes (the shipped ones are under 16 KB). */
export const MAX_SCENARIO_FILE_BYTES = 1024 * 1024;

/** How many levels of folders are searched below a folder that is named. */
export const MAX_SCENARIO_FOLDER_DEPTH = 32;

/** What a file system entry is, in words (for messages). */
function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/**
 * Reads a scenario file's text: only a regular file (symbolic links to one are followed), of
 * at most {@link MAX_SCENARIO_FILE_BYTES}. The file is opened without blocking (a FIFO with no
 * writer does not hang) and checked before a byte is read; throws an Error saying why not.
 */
export async function readScenarioText(path: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`not a regular file (${kindOf(info)})`);
    if (info.size > MAX_SCENARIO_FILE_BYTES) throw new Error(`${info.size} bytes; a scenario file has at most ${MAX_SCENARIO_FILE_BYTES}`);
    // Read at most one byte past the cap: a file that grew since fstat is refused too.
    const buffer = Buffer.alloc(MAX_SCENARIO_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_SCENARIO_FILE_BYTES) throw new Error(`more than ${MAX_SCENARIO_FILE_BYTES} bytes; a scenario file has at most ${MAX_SCENARIO_FILE_BYTES}`);
    }
    return buffer.toString('utf8', 0, length);
  } finally {
    await handle.close();
  }
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Reads and runs a scenario file. A file that cannot be read or run fails at step -1, saying why; it never throws. */
export async function runScenarioFile(path: string, options: RunOptions = {}): Promise<ScenarioResult & { name: string }> {
  let data: unknown;
  try {
    data = JSON.parse(await readScenarioText(path));
  } catch (err) {
    return { name: path, ok: false, failures: [{ stepIndex: -1, message: `cannot read ${path}: ${message(err)}` }] };
  }
  const name = typeof data === 'object' && data !== null && typeof (data as { name?: unknown }).name === 'string' ? (data as { name: string }).name : path;
  try {
    return { name, ...runScenario(data, options) };
  } catch (err) {
    // runScenario bounds its input; this is the last guard that keeps the other files running.
    return { name, ok: false, failures: [{ stepIndex: -1, message: `the runner failed on ${path}: ${message(err)}` }] };
  }
}

/** A path found by `findScenarioPaths`: a file to run, or a folder that could not be searched (`problem` says why). */
export interface ScenarioPath {
  file: string;
  problem: string | null;
}

/** Searches a folder for *.json files, sorted by name, without following symbolic links (no loops). */
async function searchFolder(dir: string, depth: number, out: ScenarioPath[]): Promise<void> {
  if (depth > MAX_SCENARIO_FOLDER_DEPTH) {
    out.push({ file: dir, problem: `a folder nested deeper than ${MAX_SCENARIO_FOLDER_DEPTH} levels is not searched` });
    return;
  }
  let entries;
  try {
    entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  } catch (err) {
    out.push({ file: dir, problem: `cannot search the folder: ${message(err)}` });
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    // A symbolic link is never searched as a folder; one named *.json is read as a file.
    if (entry.isDirectory()) await searchFolder(path, depth + 1, out);
    else if (entry.name.endsWith('.json')) out.push({ file: path, problem: null });
  }
}

/**
 * The scenario files (*.json) named by paths: files as given (even when missing or not
 * regular files: running them says why), folders searched recursively, sorted by name, without
 * following symbolic links. A folder that cannot be read, or lies more than
 * {@link MAX_SCENARIO_FOLDER_DEPTH} levels deep, is listed with its problem. Never throws.
 */
export async function findScenarioPaths(paths: readonly string[]): Promise<ScenarioPath[]> {
  const out: ScenarioPath[] = [];
  for (const p of paths) {
    let folder = false;
    try {
      folder = (await stat(p)).isDirectory();
    } catch {
      // Missing, a symbolic link loop, ...: reading it reports the error, on its own line.
    }
    if (folder) await searchFolder(p, 0, out);
    else out.push({ file: p, problem: null });
  }
  return out;
}

/** The scenario files (*.json) named by paths: files as given, folders searched recursively, sorted (see `findScenarioPaths`). */
export async function collectScenarioFiles(paths: readonly string[]): Promise<string[]> {
  return (await findScenarioPaths(paths)).map((p) => p.file);
}

/** Runs a path that `findScenarioPaths` found: a folder it could not search fails on its own. */
export async function runScenarioPath(found: ScenarioPath, options: RunOptions = {}): Promise<ScenarioResult & { name: string; file: string }> {
  if (found.problem !== null) return { name: found.file, file: found.file, ok: false, failures: [{ stepIndex: -1, message: `${found.file}: ${found.problem}` }] };
  return { ...(await runScenarioFile(found.file, options)), file: found.file };
}

/** What {@link runScenarioFolder} found: one result per file, in order, and the counts. */
export interface FolderResult {
  results: (ScenarioResult & { name: string; file: string })[];
  passed: number;
  failed: number;
}

/** Runs every scenario file (*.json) under the given files and folders, sorted by path; a path that cannot be run fails on its own. */
export async function runScenarioFolder(paths: readonly string[], options: RunOptions = {}): Promise<FolderResult> {
  const results: FolderResult['results'] = [];
  for (const found of await findScenarioPaths(paths)) results.push(await runScenarioPath(found, options));
  const passed = results.filter((r) => r.ok).length;
  return { results, passed, failed: results.length - passed };
}
