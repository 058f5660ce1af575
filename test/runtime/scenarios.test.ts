/**
 * Conformance scenarios: every file in ../shared/scenarios (when present) and in the
 * project's scenarios/ folder passes through the project's own runner.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectScenarioFiles, runScenarioFile } from '../../src/scenarios/files.js';

const folders = ['../shared/scenarios', 'scenarios'].filter((f) => existsSync(f));
const files = await collectScenarioFiles(folders);

describe('conformance scenarios', () => {
  it('finds the shared and the project scenarios', () => {
    expect(folders).toContain('scenarios');
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s', async (file) => {
    const result = await runScenarioFile(file);
    expect(result.failures).toEqual([]);
    expect(result.ok).toBe(true);
  });
});
