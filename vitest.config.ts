import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `npm test`. Two groups, one after the other:
 * - every test file but the few below, over two workers (this project's CI machine has two cores);
 * - then, alone on the machine, the files whose verdict compares timings measured in one run (a
 *   flood against the same game unflooded, games at scale): no other test file runs beside them.
 * No verdict depends on how fast the machine is: waits are generous (a test fails on what it saw,
 * not on how long it took), loops are sized by count (test/support/scale.ts), figures are benchmarks.
 */
const ALONE = ['test/server/flood.test.ts', 'test/server/scale.test.ts', 'test/server/restartClocks.test.ts'];

/**
 * The files that take longest start first (vitest's own order on a fresh clone, with no timings
 * cached, is by file size: the model's one-line files came last and left one worker idle).
 */
const LONGEST_FIRST = ['test/runtime/model/', 'test/runtime/lockstep', 'test/e2e/', 'test/server/store', 'test/contract/package', 'test/properties/recordings'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => (LONGEST_FIRST.some((part) => file.moduleId.includes(part)) ? 0 : 1);
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

/** Fifteen minutes: a test that waits this long is stuck, not slow (the longest, a whole card game in three browser pages, takes about a minute on an idle machine). */
const STUCK_MS = 900_000;

const shared = { testTimeout: STUCK_MS, hookTimeout: STUCK_MS, teardownTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { ...shared, name: 'tests', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ALONE, maxWorkers: 2, sequence: { groupOrder: 0, sequencer: LongestFirst } },
      },
      {
        extends: true,
        test: { ...shared, name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
