/**
 * `mtg-turn-engine generate --out <dir>`: writes the model's covering paths as scenario files
 * (deterministic: the same bytes on every run). It never writes through a symbolic link
 * (issue 22): `--out` and every file it would replace must be a real folder and regular files,
 * checked before the first byte is written, and each file is opened with O_NOFOLLOW.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateScenarios, scenarioText } from '../model/export.js';
import { MODEL_CONFIGS, type ModelConfig } from '../model/model.js';
import type { Command } from './command.js';

/** The configurations named by --config (a comma-separated list; all by default). */
export function selectConfigs(names: string | undefined): ModelConfig[] {
  if (names === undefined) return [...MODEL_CONFIGS];
  const wanted = names.split(',').map((n) => n.trim());
  const unknown = wanted.filter((n) => !MODEL_CONFIGS.some((c) => c.name === n));
  if (unknown.length > 0) throw new Error(`--config: unknown configuration '${unknown.join("', '")}'; the configurations are ${MODEL_CONFIGS.map((c) => c.name).join(', ')}`);
  return MODEL_CONFIGS.filter((c) => wanted.includes(c.name));
}

/** Refuses an --out that is a symbolic link or not a folder (one that does not exist yet is made, when `missingOk`). */
async function checkFolder(dir: string, missingOk: boolean): Promise<void> {
  const info = await lstat(dir).catch((err: NodeJS.ErrnoException) => {
    if (missingOk && err.code === 'ENOENT') return null;
    throw err;
  });
  if (info !== null && !info.isDirectory()) throw new Error(`--out: '${dir}' is ${info.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; name a real folder (generate never writes through a symbolic link)`);
}

/**
 * Writes scenario files into `dir` (made if missing), never through a symbolic link: `dir` and
 * every file it would replace are checked before the first byte is written (a symbolic link, a
 * FIFO or a folder where a file goes refuses the whole write), then each file is opened with
 * O_NOFOLLOW, so a link made in between is refused too.
 */
export async function writeScenarioFiles(dir: string, files: readonly { file: string; text: string }[]): Promise<void> {
  await checkFolder(dir, true);
  await mkdir(dir, { recursive: true });
  await checkFolder(dir, false);
  for (const { file } of files) await checkWritable(join(dir, file));
  for (const { file, text } of files) await writeNoFollow(join(dir, file), text);
}

/** Refuses a path that exists as anything but a regular file (a symbolic link, a FIFO, a folder...). */
async function checkWritable(path: string): Promise<void> {
  const info = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (info !== null && !info.isFile()) throw new Error(`--out: '${path}' exists and is ${info.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; nothing was written (generate never writes through a symbolic link)`);
}

/** Writes a file without following a symbolic link at its name (O_NOFOLLOW), and without blocking on a FIFO. */
async function writeNoFollow(path: string, text: string): Promise<void> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  const handle = await open(path, flags, 0o644);
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`--out: '${path}' is not a regular file`);
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

export const generateCommand: Command = {
  summary: 'write model-based test paths of the statechart as scenario files',
  usage: 'generate --out <dir> [--config NAME[,NAME...]] [--max N]',
  options: [
    '--out <dir>        where to write the files (required)',
    `--config <names>   configurations, comma-separated (default: all: ${MODEL_CONFIGS.map((c) => c.name).join(', ')}; 10p-grandMelee writes none: its paths send BEGIN_MARKER_TURN, which no host can send)`,
    '--max <n>          at most n scenarios per configuration (default: the whole covering set)',
  ],
  async run(args) {
    const { values } = parseArgs({ args, options: { out: { type: 'string' }, config: { type: 'string' }, max: { type: 'string' } } });
    if (values.out === undefined) throw new Error('--out <dir> is required');
    await checkFolder(values.out, true); // before the long generation
    const max = values.max === undefined ? undefined : Number(values.max);
    if (max !== undefined && (!Number.isInteger(max) || max < 1)) throw new Error(`--max must be a whole number of at least 1; got '${values.max}'`);
    const scenarios = generateScenarios({ configs: selectConfigs(values.config), ...(max === undefined ? {} : { max }) });
    await writeScenarioFiles(values.out, scenarios.map(({ file, scenario }) => ({ file, text: scenarioText(scenario) })));
    console.log(`wrote ${scenarios.length} scenario(s) to ${values.out}`);
    return 0;
  },
};
