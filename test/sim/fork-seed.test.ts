/**
 * Issue 34, CONTRACT v4 "Simulation": `game.fork({ seed })` gives the fork a new random stream
 * (the engine's seeded generator, src/rules/random.ts: the planar die of CR 901.9 here); a fork
 * without a seed draws what the original would.
 */
import { describe, expect, it } from 'vitest';
import { allModules } from '../../src/allModules.js';
import { createGame, restoreGame, type Game } from '../../src/index.js';
import { playout } from '../../src/sim/index.js';
import { createInterpreterGame } from '../support/logics.js';
import { rolls } from '../support/planarDie.js';

/** The persisted context (the compact form's fields). */
const ctx = (game: Game) => (game.persist().context ?? {}) as Record<string, unknown>;

/** A planechase game in A's first main phase, with mana for the rolls. */
function atMain(seed: number): Game {
  const game = createGame({ players: ['A', 'B'], variant: 'planechase', seed });
  expect(playout(game, { until: { step: 'main' }, explore: 0 }).stopped).toBe('until');
  expect(game.send({ type: 'ADD_MANA', player: 'A', amount: 100 }).ok).toBe(true);
  return game;
}

/** A planechase game in A's first main phase whose generator starts at `seed` there (a fork of seed 1's, reseeded), with mana for the rolls. */
function createGameAtMainWithSeed(seed: number): Game {
  return atMain(1).fork({ seed });
}

describe('fork({ seed }) reseeds every random draw of the fork (issue 34)', () => {
  it('forks with equal seeds draw the same; a fork without a seed draws what the original draws', () => {
    const game = atMain(1);
    expect(rolls(game.fork({ seed: 7 }), 12)).toEqual(rolls(game.fork({ seed: 7 }), 12));
    expect(rolls(game.fork(), 12)).toEqual(rolls(game.fork({}), 12));
    expect(rolls(game.fork(), 12)).toEqual(rolls(game, 12));
  });

  it('forks with different seeds diverge, and differ from the original', () => {
    const game = atMain(1);
    const original = rolls(game.fork(), 12).join();
    const streams = new Set([1, 2, 3, 4, 5, 6].map((seed) => rolls(game.fork({ seed }), 12).join()));
    expect(streams.size).toBeGreaterThan(1);
    // A 12-roll stream of a six-sided die: a reseeded fork repeating the original's is about 6^-12.
    expect([...streams].filter((s) => s !== original).length).toBeGreaterThan(0);
  });

  it('a reseeded fork starts the generator as createGame starts that seed', () => {
    const game = atMain(1);
    const fork = game.fork({ seed: 99 });
    const fresh = createGame({ players: ['A', 'B'], variant: 'planechase', seed: 99 });
    expect(ctx(fork).rng).toBe(ctx(fresh).rng);
    // Everything but the generator is the original's; the original is not changed.
    const { rng: _forkRng, ...forkRest } = ctx(fork);
    const { rng: _gameRng, ...gameRest } = ctx(game);
    expect(forkRest).toEqual(gameRest);
    expect(ctx(game).rng).not.toBe(ctx(fork).rng);
  });

  it('reseeds Grand Melee (every turn marker shares the generator) and a game at the table', () => {
    const melee = createGame({ players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], variant: 'grandMelee', seed: 1, use: allModules });
    const fork = melee.fork({ seed: 5 });
    // The logic's state (the shell's `state`, for tests and tools): one compiled turn per marker.
    const markers = (fork as unknown as { state: { turn: { context: { rng: number } } }[] }).state;
    expect(markers.length).toBeGreaterThan(1);
    const expected = ctx(createGame({ players: ['A', 'B'], seed: 5 })).rng;
    for (const m of markers) expect(m.turn.context.rng).toBe(expected);
    for (const m of (melee as unknown as { state: typeof markers }).state) expect(m.turn.context.rng).not.toBe(expected);
    expect(restoreGame(JSON.parse(JSON.stringify(fork.persist())), { use: allModules }).view().turn).toBe(melee.view().turn);
    // At the table (undo keeps states): the turn's generator is reseeded.
    const table = createGame({ players: ['A', 'B'], seed: 1, undo: { mode: 'own' }, use: allModules });
    table.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(ctx(table.fork({ seed: 5 })).rng).toBe(expected);
    expect(ctx(table.fork()).rng).toBe(ctx(table).rng);
  });

  it("an undo in a reseeded fork stays on the fork's stream: the states undo returns to are reseeded too", () => {
    const game = createGame({ players: ['A', 'B'], variant: 'planechase', seed: 1, undo: { mode: 'own' }, use: allModules });
    expect(playout(game, { until: { step: 'main' }, explore: 0 }).stopped).toBe('until');
    const main = game.view().version;
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    const fork = game.fork({ seed: 5 });
    const fresh = ctx(createGame({ players: ['A', 'B'], seed: 5 })).rng;
    expect(fork.send({ type: 'UNDO', player: 'A', to: main }).ok).toBe(true);
    expect(ctx(fork).rng).toBe(fresh);
    // The original's undo returns to its own stream, and a fork without a seed to the original's.
    const same = game.fork();
    expect(game.send({ type: 'UNDO', player: 'A', to: main }).ok).toBe(true);
    expect(same.send({ type: 'UNDO', player: 'A', to: main }).ok).toBe(true);
    expect(ctx(game).rng).not.toBe(fresh);
    expect(ctx(same).rng).toBe(ctx(game).rng);
    for (const g of [game, fork]) expect(g.send({ type: 'ADD_MANA', player: 'A', amount: 100 }).ok).toBe(true);
    expect(rolls(fork, 12)).toEqual(rolls(createGameAtMainWithSeed(5), 12));
  });

  it('refuses a seed that is not a finite number (INVALID_OPTIONS naming options.seed), and a logic that cannot be reseeded', () => {
    const game = createGame({ players: ['A', 'B'], seed: 1 });
    for (const seed of [Number.NaN, Infinity, '3', null]) {
      expect(() => game.fork({ seed } as never)).toThrow(/options\.seed/);
    }
    expect(() => createInterpreterGame({ players: ['A', 'B'] }).fork({ seed: 1 })).toThrow(/cannot be reseeded/);
    expect(createInterpreterGame({ players: ['A', 'B'] }).fork().view().turn).toBe(1);
  });
});
