/**
 * The package as a new user gets it: `npm pack`, install the tarball in a scratch project,
 * import by name; and the command line, run through the package's bin.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const built = existsSync(join(root, 'dist/src/index.js'));
const scratch = mkdtempSync(join(tmpdir(), 'mtg-turn-engine-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

describe.runIf(built)('the built package', () => {
  it('installs from npm pack and imports by name', () => {
    const tarball = run('npm', ['pack', '--silent', '--pack-destination', scratch], root).trim().split('\n').pop() as string;
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
    run('npm', ['install', '--silent', '--no-audit', '--no-fund', join(scratch, tarball)], scratch);
    const script = [
      "import { createGame, restoreGame, runScenario, TurnEngineError } from 'mtg-turn-engine';",
      "const g = createGame({ players: ['A', 'B'] });",
      "const r = restoreGame(JSON.parse(JSON.stringify(g.persist())));",
      "const s = runScenario({ name: 'n', setup: { players: ['A', 'B'] }, steps: [{ expect: { step: 'upkeep' } }] });",
      "console.log(JSON.stringify({ step: r.view().step, ok: s.ok, err: typeof TurnEngineError }));",
    ].join('\n');
    writeFileSync(join(scratch, 'use.mjs'), script);
    expect(JSON.parse(run('node', ['use.mjs'], scratch))).toEqual({ step: 'upkeep', ok: true, err: 'function' });
  }, 180_000);

  it('the scenarios command prints one line per scenario and "N passed, 0 failed"', () => {
    const out = run('node', ['bin/mtg-turn-engine.js', 'scenarios', 'scenarios'], root);
    expect(out).toMatch(/^\d+ passed, 0 failed$/m);
    expect(out.split('\n').filter((l) => l.startsWith('ok ')).length).toBeGreaterThan(30);
  });

  it('simulate is deterministic for a seed and prints a summary', () => {
    const a = run('node', ['bin/mtg-turn-engine.js', 'simulate', '--seed', '42', '--players', '3'], root);
    const b = run('node', ['bin/mtg-turn-engine.js', 'simulate', '--seed', '42', '--players', '3'], root);
    expect(a).toBe(b);
    expect(a).toContain('Turn 3:');
    expect(a).toContain('Summary');
  });

  it('bad options are reported, not thrown', () => {
    let status = 0;
    try {
      run('node', ['bin/mtg-turn-engine.js', 'simulate', '--players', '9'], root);
    } catch (err) {
      status = (err as { status: number }).status;
    }
    expect(status).toBe(2);
  });
});
