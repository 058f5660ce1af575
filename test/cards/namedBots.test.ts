/**
 * Bots that plan (docs/cards.md, "Bots that plan"; issue 34, point 3): a definition's named
 * `bots` are checked by `defineCards` naming the field, and `botWorlds(game, cards)` makes the
 * worlds a planner tries decisions in: the game's turn with a cards' state the planner gives and
 * new random streams, never the game's own state, history or random position.
 */
import { describe, expect, it } from 'vitest';
import { botWorlds, createCardGame, defineCards } from '../../src/cards/index.js';
import { exampleCards, type ExampleState } from '../../examples/cards/definition.js';
import { table } from '../../src/tableEntry.js';
import { actor, chooser, nextDecision } from './play.js';

const setup = () => ({ n: 0 });

describe("a definition's named bots", () => {
  it('refuses bots that are not functions by name, and the name random (the definition\'s `bot`)', () => {
    expect(() => defineCards({ name: 'b@1', setup, bots: 5 as never })).toThrow(/cards\.bots: must be an object/);
    expect(() => defineCards({ name: 'b@1', setup, bots: { plan: 'no' as never } })).toThrow(/cards\.bots\.plan: must be a function/);
    expect(() => defineCards({ name: 'b@1', setup, bots: { random: () => undefined } })).toThrow(/cards\.bots\.random: the name 'random'/);
    expect(Object.keys(defineCards({ name: 'b@1', setup, bots: { plan: () => undefined } }).bots ?? {})).toEqual(['plan']);
  });
});

describe('botWorlds', () => {
  it("makes games in the game's turn with the state given and new random streams; the game is untouched", () => {
    const game = createCardGame(exampleCards, { players: ['alice', 'bob'], seed: 8, undo: { mode: 'own' }, use: [table] });
    const random = chooser(8);
    for (let i = 0; i < 80 && actor(game) !== null; i++) game.send(nextDecision(game, random));
    const real = game.cards();
    const made: ExampleState = JSON.parse(JSON.stringify(real)) as ExampleState;
    (made.sides.bob as ExampleState['sides'][string]).hand.reverse();
    const worlds = botWorlds(game, exampleCards, { use: [table] });
    const world = worlds.world(made, 3);
    expect(world.cards()).toEqual(made);
    expect(world.view()).toEqual(game.view());
    const persisted = world.persist() as unknown as { cards: { random: number; history?: [number, number, unknown][] } };
    expect(persisted.cards.random).not.toBe((game.persist() as unknown as { cards: { random: number } }).cards.random);
    // None of the real cards' history: at each version undo may return to, the state given.
    expect(persisted.cards.history?.length).toBeGreaterThan(0);
    for (const [, , state] of persisted.cards.history ?? []) expect(state).toEqual(made);
    // Two seeds, two streams; the same seed, the same world.
    expect(JSON.stringify(worlds.world(made, 3).persist())).toBe(JSON.stringify(world.persist()));
    expect(JSON.stringify(worlds.world(made, 4).persist())).not.toBe(JSON.stringify(world.persist()));
    // A world plays on by itself.
    const player = actor(world);
    if (player !== null) expect(world.send(nextDecision(world, chooser(1))).ok).toBe(true);
    expect(game.cards()).toEqual(real);
    expect(() => worlds.world(made, 1.5)).toThrow(/seed must be a whole number/);
    expect(() => worlds.world({ bad: 1n } as never, 1)).toThrow(/persisted\.cards\.state/);
  });
});
