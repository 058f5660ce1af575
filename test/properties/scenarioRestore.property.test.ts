/**
 * Every conformance scenario (../shared/scenarios and scenarios/) still passes when the game
 * is persisted, sent through JSON and restored before a random step (CONTRACT.md:
 * restoreGame returns a game "in exactly the persisted state"; its future is the same).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectScenarioFiles } from '../../src/scenarios/files.js';
import { runScenario } from '../../src/index.js';
import { assertProperty } from './seeds.js';

const folders = ['../shared/scenarios', 'scenarios'].filter((f) => existsSync(f));
const files = await collectScenarioFiles(folders);
const scenarios = await Promise.all(files.map(async (file) => [file, JSON.parse(await readFile(file, 'utf8')) as { steps: unknown[] }] as const));

describe('scenarios pass with a persist/restore inserted at a random step', () => {
  it('finds scenarios', () => {
    expect(scenarios.length).toBeGreaterThan(0);
  });

  it.each(scenarios)('%s', (_file, scenario) => {
    expect(runScenario(scenario).failures).toEqual([]);
    assertProperty(
      fc.property(fc.integer({ min: 0, max: scenario.steps.length }), (restoreBefore) => {
        const result = runScenario(scenario, { restoreBefore });
        expect(result.failures, `restored before step ${restoreBefore}`).toEqual([]);
      }),
      { numRuns: 4 },
    );
  });
});
