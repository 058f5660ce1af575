/**
 * `npm start` (issue 33, papercuts): it builds once and then only what changed, so a second start
 * does not rebuild (it was 98 s every time): each build runs unless its outputs exist and its
 * inputs' contents hash as they did at its last build. The pages' build asks Rolldown for no
 * timing warnings (`[PLUGIN_TIMINGS]`, from the inspector's chart layout).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WEB_BUILD_CHECKS } from '../../scripts/build-web.js';
import { BUILDS, buildIfChanged, EXAMPLE_CARDS, inputsHash, serveArgs, type Build } from '../../scripts/start.js';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mtg-start-'));
  mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 2;\n');
  mkdirSync(join(dir, 'src', 'node_modules'), { recursive: true });
  writeFileSync(join(dir, 'src', 'node_modules', 'ignored.js'), '1');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A build into dir/out that counts its runs. */
function counted(): Build & { runs: number } {
  const build = {
    name: 'the test build',
    inputs: ['src', 'config.json'],
    outputs: ['out/index.js'],
    stamp: 'out/.inputs',
    runs: 0,
    run: () => {
      build.runs++;
      mkdirSync(join(dir, 'out'), { recursive: true });
      writeFileSync(join(dir, 'out', 'index.js'), `// build ${build.runs}\n`);
    },
  };
  return build;
}

describe('npm start builds only what changed (issue 33)', () => {
  it('builds the first time, not the second; again after a content change, an added file or lost outputs; not after a touch that keeps the contents', async () => {
    const build = counted();
    const lines: string[] = [];
    const log = (line: string) => void lines.push(line);
    expect(await buildIfChanged(build, dir, log)).toBe(true);
    expect(await buildIfChanged(build, dir, log)).toBe(false);
    expect(lines).toEqual(['the test build: building (its inputs changed since its last build)', 'the test build: up to date']);
    // The same contents written again (a new mtime): nothing to build.
    writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
    expect(await buildIfChanged(build, dir, log)).toBe(false);
    writeFileSync(join(dir, 'src', 'deep', 'b.ts'), 'export const b = 3;\n');
    expect(await buildIfChanged(build, dir, log)).toBe(true);
    writeFileSync(join(dir, 'config.json'), '{}');
    expect(await buildIfChanged(build, dir, log)).toBe(true);
    expect(await buildIfChanged(build, dir, log)).toBe(false);
    rmSync(join(dir, 'out', 'index.js'));
    expect(await buildIfChanged(build, dir, log)).toBe(true);
    // What node_modules holds is not an input.
    writeFileSync(join(dir, 'src', 'node_modules', 'ignored.js'), '2');
    expect(await buildIfChanged(build, dir, log)).toBe(false);
    expect(build.runs).toBe(4);
  });

  it('a build that fails writes no stamp: the next start builds again', async () => {
    const build = { ...counted(), run: () => { throw new Error('tsc failed'); } };
    await expect(buildIfChanged(build, dir, () => {})).rejects.toThrow('tsc failed');
    const good = counted();
    expect(await buildIfChanged(good, dir, () => {})).toBe(true);
    expect(readFileSync(join(dir, 'out', '.inputs'), 'utf8').trim()).toBe(inputsHash(dir, good.inputs));
  });

  it('hashes paths and contents: a renamed file changes the hash, the order files are found in does not', () => {
    const before = inputsHash(dir, ['src']);
    expect(inputsHash(dir, ['src', 'src/a.ts'])).toBe(before);
    writeFileSync(join(dir, 'src', 'c.ts'), 'export const a = 1;\n');
    rmSync(join(dir, 'src', 'a.ts'));
    expect(inputsHash(dir, ['src'])).not.toBe(before);
  });

  it("npm start runs scripts/start.ts: the package's build and the pages', each with the inputs that make it, then serve --demo", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node --import tsx scripts/start.ts');
    expect(BUILDS.map((b) => b.name)).toEqual(['the package (npm run build)', 'the pages (npm run build:web)']);
    for (const build of BUILDS) expect(build.inputs).toEqual(expect.arrayContaining(['src', 'machines', 'package.json']));
    expect(BUILDS[1]?.inputs).toEqual(expect.arrayContaining(['examples/table', 'examples/cards', 'inspector']));
    // Issue 32: it serves the example card game (loaded through tsx), unless the arguments name other cards.
    const args = serveArgs(['--port', '3000']);
    expect(args.slice(2)).toEqual([join(root, 'bin', 'mtg-turn-engine.js'), 'serve', '--demo', '--cards', EXAMPLE_CARDS, '--port', '3000']);
    expect(args.slice(0, 2)).toEqual(['--import', expect.stringMatching(/tsx/)]);
    expect(EXAMPLE_CARDS).toBe(join(root, 'examples', 'cards', 'definition.ts'));
    expect(serveArgs(['--cards', 'mine.js'])).not.toContain(EXAMPLE_CARDS);
    // Rolldown's timing warnings are off for the pages' build.
    expect(WEB_BUILD_CHECKS).toEqual({ bundlerTimings: false, pluginTimings: false });
  });
});
