/**
 * Issue 34, CONTRACT v4 "Simulation": `simulate` plays games over a pool of worker threads
 * (piscina); the same seeds give the same results and hashes with 2 workers, 1, or none, in
 * game order, with progress after each batch. The workers read the TypeScript sources through
 * tsx here (src/sim/simulate.ts), and the built package after `npm run build`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulate, type SimulationProgress } from '../../src/sim/index.js';
import { TurnEngineError } from '../../src/index.js';
import { table } from '../../src/tableEntry.js';

const fixtures = join(import.meta.dirname, 'fixtures');

describe('simulate over worker threads (issue 34)', () => {
  it('gives the same results and hashes with 2 workers as with 1 and with none, in game order', async () => {
    const options = { games: 12, setup: { players: ['A', 'B'] }, until: { turn: 4 }, seed: 7, batch: 2 };
    const progress: SimulationProgress[] = [];
    const two = await simulate({ ...options, workers: 2, onProgress: (p) => progress.push(p) });
    const one = await simulate({ ...options, workers: 1 });
    const none = await simulate({ ...options, workers: 0 });
    expect(two.workers).toBe(2);
    expect(two.results).toEqual(one.results);
    expect(two.results).toEqual(none.results);
    expect(two.hashes).toEqual(one.hashes);
    expect(two.results.map((r) => r.index)).toEqual([...Array(12).keys()]);
    expect(two.hashes).toEqual(two.results.map((r) => r.hash));
    for (const r of two.results) expect(r).toMatchObject({ stopped: 'until', turn: 4 });
    // Different games: their seeds (and so their hashes) differ.
    expect(new Set(two.results.map((r) => r.seed)).size).toBe(12);
    expect(new Set(two.hashes).size).toBeGreaterThan(1);
    // Progress after each batch of 2, up to every game.
    expect(progress.map((p) => p.done)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(progress.every((p) => p.games === 12)).toBe(true);
    // The results are plain JSON.
    expect(JSON.parse(JSON.stringify(two))).toEqual(two);
  });

  it('loads a setup module and a policy module by path in each worker; another seed gives other games', async () => {
    const options = {
      games: 6,
      setup: { module: join(fixtures, 'setup.ts'), export: 'threePlayers' },
      policy: { module: join(fixtures, 'policy.ts') },
      until: { turn: 3 },
      seed: 3,
    };
    const two = await simulate({ ...options, workers: 2 });
    const none = await simulate({ ...options, workers: 0 });
    expect(two.results).toEqual(none.results);
    expect(two.results.every((r) => r.stopped === 'until' && r.turn === 3)).toBe(true);
    const other = await simulate({ ...options, seed: 4, workers: 0 });
    expect(other.results.map((r) => r.seed)).not.toEqual(none.results.map((r) => r.seed));
  });

  it('plays a JSON setup that needs a module, given in `use` as the module or by name, the same with 2 workers as with none', async () => {
    const options = { games: 3, setup: { players: ['A', 'B'], clock: { initialMs: 60_000, onTimeout: 'lose' as const }, use: [table] }, until: { turn: 3 }, seed: 5 };
    const none = await simulate({ ...options, workers: 0 });
    const two = await simulate({ ...options, workers: 2 });
    expect(two.results).toEqual(none.results);
    expect(none.results.every((r) => r.stopped === 'until')).toBe(true);
    const named = await simulate({ ...options, setup: { ...options.setup, use: ['table'] }, workers: 2 });
    expect(named.hashes).toEqual(none.hashes);
    // Without the module, the option's refusal names the import, whatever the workers.
    for (const workers of [0, 2]) {
      await expect(simulate({ ...options, setup: { players: ['A', 'B'], clock: options.setup.clock }, workers })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining("'mtg-turn-engine/table'") });
    }
    await expect(simulate({ ...options, setup: { ...options.setup, use: ['tables'] as never } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.setup.use[0]') });
  });

  it("a game that fails is named by index and seed, with the error's code, the same with 2 workers as with none", async () => {
    for (const workers of [0, 2]) {
      const refused = await simulate({ games: 4, setup: { module: join(fixtures, 'setup.ts'), export: 'badThirdGame' }, until: { turn: 2 }, workers, batch: 1 }).catch((e: unknown) => e);
      expect(refused, `workers: ${workers}`).toBeInstanceOf(TurnEngineError);
      expect(refused).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/^simulate: game 2 \(seed \d+\): options\.players/) });
      // One game: with two, each fails and either may be the first reported.
      const broke = await simulate({ games: 1, setup: { players: ['A', 'B'] }, policy: { module: join(fixtures, 'policy.ts'), export: 'failsOnTurn3' }, until: { turn: 4 }, workers }).catch((e: unknown) => e);
      expect(broke, `workers: ${workers}`).toBeInstanceOf(Error);
      expect((broke as Error).message).toMatch(/^simulate: game 0 \(seed \d+\): .*the bot broke on turn 3/);
    }
  });

  it('refuses bad options naming the field, before any game is played', async () => {
    const setup = { players: ['A', 'B'] };
    await expect(simulate({ games: 0, setup })).rejects.toThrow(/options\.games/);
    await expect(simulate({ games: 1, setup, workers: -1 })).rejects.toThrow(/options\.workers/);
    await expect(simulate({ games: 1, setup, seed: 1.5 })).rejects.toThrow(/options\.seed/);
    await expect(simulate({ games: 1, setup: null as never })).rejects.toThrow(/options\.setup/);
    await expect(simulate({ games: 1, setup: { players: ['A', 'B'], hooks: {} } as never })).rejects.toThrow(/hooks or listeners/);
    await expect(simulate({ games: 1, setup, workers: 0, policy: { module: join(fixtures, 'policy.ts'), export: 'nothing' } })).rejects.toThrow(/no function exported as 'nothing'/);
    await expect(simulate({ games: 1, setup, workers: 0, policy: { module: join(fixtures, 'missing.ts') } })).rejects.toThrow(/cannot load/);
  });
});
