/**
 * Issue 34's worker figure on the built package (`npm run build` first; skipped without dist/),
 * as the bench and a TypeScript host run it: `node --expose-gc --import tsx` importing
 * dist/src/sim. Its threads start with the process's module flags less tsx (a thread refuses
 * process-wide flags such as `--expose-gc`: inheriting them explicitly failed), give the calling
 * thread's results, and a kept pool restarts with tsx when a simulation names a TypeScript module.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const built = existsSync(join(root, 'dist/src/sim/index.js'));

describe('createSimulator on the built package (issue 34)', () => {
  it.skipIf(!built)('runs under node --expose-gc --import tsx, equal to the calling thread, and restarts its threads with tsx for a TypeScript setup', () => {
    const sim = pathToFileURL(join(root, 'dist/src/sim/index.js')).href;
    const fixtures = join(root, 'test/sim/fixtures');
    const script = `
      const { createSimulator, simulate } = await import(${JSON.stringify(sim)});
      const options = { games: 6, setup: { players: ['A', 'B'] }, until: { turn: 3 }, seed: 2 };
      const ts = { games: 3, setup: { module: ${JSON.stringify(join(fixtures, 'setup.ts'))}, export: 'threePlayers' }, policy: { module: ${JSON.stringify(join(fixtures, 'policy.ts'))} }, until: { turn: 3 }, seed: 3 };
      const simulator = createSimulator({ workers: 2 });
      try {
        const same = (a, b) => JSON.stringify(a.results) === JSON.stringify(b.results);
        const plain = same(await simulator.simulate(options), await simulate({ ...options, workers: 0 }));
        const typescript = same(await simulator.simulate(ts), await simulate({ ...ts, workers: 0 }));
        const again = same(await simulator.simulate(options), await simulate({ ...options, workers: 0 }));
        console.log(JSON.stringify({ plain, typescript, again }));
      } finally {
        await simulator.close();
      }`;
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ plain: true, typescript: true, again: true });
  }, 150_000);
});
