/**
 * `npm start` (issue 33): builds what changed, then runs `mtg-turn-engine serve --demo` with the
 * arguments given (`npm start -- --port 3000`), serving the example card game (issue 32:
 * `--cards examples/cards/definition.ts`, loaded through tsx as the repository's sources are;
 * `npm start -- --cards OTHER` serves another definition). Two builds, each skipped when its inputs are what
 * they were at its last build: the package (`npm run build`: dist/src, dist/machines, dist/cjs)
 * and the pages (`npm run build:web`: dist/web). "What they were" is a SHA-256 of the inputs'
 * paths and contents (not their times: a checkout or a copy that keeps the contents rebuilds
 * nothing), written beside the outputs after a build that succeeded.
 *
 *   node --import tsx scripts/start.ts [serve options...]
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/** Folders never read as inputs: outputs, dependencies, data. */
const SKIPPED = new Set(['node_modules', 'dist', '.data', '.git', 'test-results']);

/** One build: its inputs (files or folders, relative to `root`), the outputs it must leave, where its stamp goes, and how to run it. */
export interface Build {
  name: string;
  inputs: readonly string[];
  outputs: readonly string[];
  stamp: string;
  run: () => void | Promise<void>;
}

/** Every file under the inputs (folders recursively, without SKIPPED ones), sorted, relative to `base` with '/'. */
function inputFiles(base: string, inputs: readonly string[]): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    if (!existsSync(path)) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        if (entry.isDirectory() && SKIPPED.has(entry.name)) continue;
        walk(join(path, entry.name));
      }
    } else {
      files.push(relative(base, path).split(sep).join('/'));
    }
  };
  for (const input of inputs) walk(join(base, input));
  return [...new Set(files)].sort();
}

/** The SHA-256 of the inputs' paths and contents. */
export function inputsHash(base: string, inputs: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of inputFiles(base, inputs)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(join(base, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Runs the build unless its outputs exist and its inputs hash as at its last build; true when it ran. */
export async function buildIfChanged(build: Build, base = root, log: (line: string) => void = console.log): Promise<boolean> {
  const stamp = join(base, build.stamp);
  const before = inputsHash(base, build.inputs);
  const fresh = build.outputs.every((o) => existsSync(join(base, o))) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === before;
  if (fresh) {
    log(`${build.name}: up to date`);
    return false;
  }
  log(`${build.name}: building (its inputs changed since its last build)`);
  await build.run();
  // The build may write inputs of its own (the chart's generated plans): the stamp is of what it left.
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${inputsHash(base, build.inputs)}\n`);
  return true;
}

/** Runs an npm script, throwing when it fails. */
function npmRun(script: string): void {
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', script, '--silent'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm run ${script} failed (${result.signal ?? `exit code ${result.status}`})`);
}

/** The two builds of `npm start`. */
export const BUILDS: readonly Build[] = [
  {
    name: 'the package (npm run build)',
    inputs: ['src', 'machines', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/generate-plans.ts', 'scripts/build-cjs.mjs'],
    outputs: ['dist/src/index.js', 'dist/cjs/src/index.js', 'dist/src/cli/main.js'],
    stamp: 'dist/.build-inputs',
    run: () => npmRun('build'),
  },
  {
    name: 'the pages (npm run build:web)',
    inputs: ['src', 'machines', 'examples/table', 'examples/cards', 'inspector', 'package.json', 'scripts/build-web.ts'],
    outputs: ['dist/web/table/index.html', 'dist/web/inspector/index.html'],
    stamp: 'dist/web-inputs',
    run: () => npmRun('build:web'),
  },
];

/** The example card game's definition, which `npm start` serves (it is no part of the installed package: loaded through tsx). */
export const EXAMPLE_CARDS = join(root, 'examples', 'cards', 'definition.ts');

/** The arguments of the server `npm start` runs (node's, then the command line's): serve --demo with the example cards unless `args` name other cards. */
export function serveArgs(args: readonly string[]): string[] {
  const cards = args.some((a) => a === '--cards' || a.startsWith('--cards=')) ? [] : ['--cards', EXAMPLE_CARDS];
  return ['--import', import.meta.resolve('tsx'), join(root, 'bin', 'mtg-turn-engine.js'), 'serve', '--demo', ...cards, ...args];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const build of BUILDS) await buildIfChanged(build);
  const server = spawn(process.execPath, serveArgs(process.argv.slice(2)), { cwd: process.cwd(), stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
}
