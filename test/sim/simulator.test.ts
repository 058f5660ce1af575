/**
 * Issue 34's worker figure: `createSimulator({ workers })` keeps a pool of worker threads across
 * simulations (src/sim/simulate.ts); its results are `simulate`'s for the same seeds, with any
 * number of threads. The default batches are guided (large first, small last) and cover every
 * game once, in order; the threads of the built package start without tsx's loader.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSimulator, simulate } from '../../src/sim/index.js';
import { batchRanges, workerExecArgv } from '../../src/sim/simulate.js';

const fixtures = join(import.meta.dirname, 'fixtures');

describe('createSimulator: a pool kept across simulations (issue 34)', () => {
  it('gives simulate’s results call after call on the same threads, then closes', async () => {
    const options = { games: 10, setup: { players: ['A', 'B'] }, until: { turn: 4 }, seed: 5 };
    const none = await simulate({ ...options, workers: 0 });
    const simulator = createSimulator({ workers: 2 });
    expect(simulator.workers).toBe(2);
    try {
      const first = await simulator.simulate(options);
      const again = await simulator.simulate({ ...options, workers: 2 });
      expect(first.results).toEqual(none.results);
      expect(again.results).toEqual(none.results);
      expect(first.workers).toBe(2);
      // Two at once on the same threads, and a TypeScript setup module (threads restarted with tsx when needed).
      const ts = { games: 4, setup: { module: join(fixtures, 'setup.ts'), export: 'threePlayers' }, policy: { module: join(fixtures, 'policy.ts') }, until: { turn: 3 }, seed: 3 };
      const [a, b] = await Promise.all([simulator.simulate(options), simulator.simulate(ts)]);
      expect(a.results).toEqual(none.results);
      expect(b.results).toEqual((await simulate({ ...ts, workers: 0 })).results);
      await expect(simulator.simulate({ ...options, workers: 1 })).rejects.toThrow(/options\.workers/);
    } finally {
      await simulator.close();
    }
    await expect(simulator.simulate(options)).rejects.toThrow(/closed/);
    await simulator.close();
  });

  it('plays in the calling thread with workers: 0 and refuses a bad workers count', async () => {
    const simulator = createSimulator({ workers: 0 });
    const run = await simulator.simulate({ games: 3, setup: { players: ['A', 'B'] }, until: { turn: 2 }, seed: 1 });
    expect(run.workers).toBe(0);
    expect(run.results.map((r) => r.index)).toEqual([0, 1, 2]);
    await simulator.close();
    expect(() => createSimulator({ workers: -1 })).toThrow(/options\.workers/);
    expect(() => createSimulator({ workers: 1.5 })).toThrow(/options\.workers/);
  });
});

describe('batches and thread flags (issue 34)', () => {
  it('cuts the games into guided batches: every game once, in order, large first and small last', () => {
    for (const [games, workers] of [[1000, 2], [1000, 1], [7, 2], [1, 4], [130, 3]] as const) {
      const ranges = batchRanges(games, workers, undefined);
      expect(ranges[0]![0]).toBe(0);
      expect(ranges.at(-1)![1]).toBe(games);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]![0]).toBe(ranges[i - 1]![1]);
      const sizes = ranges.map(([from, to]) => to - from);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(64);
      for (let i = 1; i < sizes.length; i++) expect(sizes[i]).toBeLessThanOrEqual(sizes[i - 1]!);
      if (games >= 4) expect(sizes.slice(0, -1).every((s) => s >= 4)).toBe(true);
    }
    // 1,000 games on 2 threads: the last batches are small, so neither thread waits long for the other.
    expect(batchRanges(1000, 2, undefined).at(-1)).toEqual(expect.arrayContaining([1000]));
    expect(Math.max(...batchRanges(1000, 2, undefined).slice(-4).map(([f, t]) => t - f))).toBeLessThanOrEqual(4);
    expect(batchRanges(12, 2, 5)).toEqual([[0, 5], [5, 10], [10, 12]]);
  });

  it('starts the threads without tsx’s loader or process-wide flags, keeping the module flags', () => {
    expect(workerExecArgv(['--expose-gc', '--import', 'tsx', '--max-old-space-size=4096'])).toEqual([]);
    expect(workerExecArgv(['--import=tsx', '--loader', 'tsx/esm', '--require', 'tsx/cjs', '--import', './other.js', '-C', 'dev', '--conditions=x'])).toEqual(['--import', './other.js', '-C', 'dev', '--conditions=x']);
    expect(workerExecArgv([])).toEqual([]);
  });
});
