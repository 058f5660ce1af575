/**
 * The two adapters of the conformance kit (issue 26, CONTRACT "Conformance kit"), each played
 * through the stdio protocol by the runner:
 * - `conformance serve-self`, this engine behind the protocol, passes every shipped scenario;
 * - the small engine in Python (examples/conformance-python/, standard library only, two or
 *   more players in free-for-all, every rules era, no variants or teams) passes every scenario
 *   its declared features allow and is skipped on the others. Skipped, saying so, where
 *   `python3` is not installed.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformanceCorpus, missingFeatures, runConformance } from '../../src/conformance.js';

const root = resolve(import.meta.dirname, '../..');
const SELF = `"${process.execPath}" --import tsx scripts/cli.ts conformance serve-self`;
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' }).status === 0;
if (!python) console.warn('\n!! test/contract/conformance-adapters.test.ts: python3 is not installed; the Python example engine is SKIPPED.\n');

const failures = (run: Awaited<ReturnType<typeof runConformance>>) => run.results.filter((r) => r.status === 'failed').map((r) => `${r.path} step ${r.stepIndex}: ${r.message}`);

describe('the conformance adapters, through the protocol', () => {
  it('serve-self (this engine) passes 100% of the shipped corpus', async () => {
    const corpus = await conformanceCorpus();
    const run = await runConformance({ engine: SELF, cwd: root, timeoutMs: 60_000 });
    expect(failures(run)).toEqual([]);
    expect(run.engine.name).toBe('mtg-turn-engine');
    expect([run.passed, run.failed, run.skipped]).toEqual([corpus.length, 0, 0]);
  });

  it.runIf(python)('the Python example passes every scenario tagged for its features, and is skipped on the rest', async () => {
    const run = await runConformance({ engine: 'python3 examples/conformance-python/engine.py', cwd: root, timeoutMs: 60_000 });
    expect(failures(run)).toEqual([]);
    expect(run.engine).toMatchObject({ name: 'conformance-python', protocolVersion: 1 });
    const corpus = await conformanceCorpus();
    const playable = corpus.filter((e) => missingFeatures(e.features, run.engine.features).length === 0);
    expect(run.passed).toBe(playable.length);
    expect(run.skipped).toBe(corpus.length - playable.length);
    // Free-for-all without variants or teams, in every rules era: every scenario it plays is one of those.
    for (const e of playable) expect(e.features.filter((f) => ['variants', 'teams'].includes(f))).toEqual([]);
    expect(run.engine.features).toEqual(expect.arrayContaining(['multiplayer', 'eras:m10', 'eras:classic', 'effects', 'stops', 'extraPhases', 'skips', 'extraTurns']));
    // Issue 26: "a few hundred" scenarios; 289 of the 468 shipped when this was written.
    expect(run.passed).toBeGreaterThanOrEqual(289);
    expect(run.results.filter((r) => r.status === 'skipped').every((r) => (r.missing?.length ?? 0) > 0)).toBe(true);
  });
});
