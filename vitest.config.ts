import { defineConfig } from 'vitest/config';

/**
 * `npm test`. Two groups, one after the other:
 * - every test file but the few below, over two workers (this project's CI machine has two cores);
 * - then, alone on the machine, the files whose verdict compares timings measured in one run (a
 *   flood against the same game unflooded, games at scale): no other test file runs beside them.
 * No verdict depends on how fast the machine is: waits are generous (a test fails on what it saw,
 * not on how long it took), loops are sized by count (test/support/scale.ts), figures are benchmarks.
 */
const ALONE = ['test/server/flood.test.ts', 'test/server/scale.test.ts', 'test/server/restartClocks.test.ts'];

/** Fifteen minutes: a test that waits this long is stuck, not slow (the longest, a whole card game in three browser pages, takes about a minute on an idle machine). */
const STUCK_MS = 900_000;

const shared = { testTimeout: STUCK_MS, hookTimeout: STUCK_MS, teardownTimeout: 60_000 };

export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: { ...shared, name: 'tests', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ALONE, maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { ...shared, name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
