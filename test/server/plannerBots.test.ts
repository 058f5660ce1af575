/**
 * Bot seats of a planning kind (issue 34, point 3: "play against a Monte Carlo bot"): a seat made
 * with `{ seat, bot: 'montecarlo' }` is played by the definition's `bots.montecarlo` (the example's
 * flat Monte Carlo planner) through the server to the game's end; its kind is stored with the game
 * (a restart keeps it); an unknown kind is refused naming the field; `bots: ['Bob']` stays random.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exampleCards, type ExampleSeatView } from '../../examples/cards/definition.js';
import { montecarlo } from '../../examples/cards/montecarlo.js';
import { defineCards, type Cards, type CardsDefinition } from '../../src/cards/index.js';
import { MemoryStore, type TableServer } from '../../src/server/index.js';
import { join, startServer, until } from './harness.js';

/** The example's cards with its planner counted per player (who it decided for, how often). */
function countedCards(calls: string[]): Cards<unknown> {
  const { __cards: _brand, ...definition } = exampleCards as unknown as CardsDefinition<unknown> & { __cards: true };
  return defineCards({
    ...definition,
    bots: {
      montecarlo: (view, seen, player, random, worlds) => {
        calls.push(player);
        return montecarlo(view, seen, player, random, worlds as never);
      },
    },
  });
}

describe('planner bot seats (issue 34)', () => {
  let server: TableServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('refuses a kind the definition has not, naming the field; a seat alone is the random bot', async () => {
    const started = await startServer({ cards: exampleCards });
    server = started.server;
    await expect(server.createGame({ players: ['Alice', 'Bob'], bots: [{ seat: 'Bob', bot: 'nope' }] })).rejects.toThrow(/options\.bots\[0\]\.bot: must be one of 'random', 'montecarlo'/);
    await expect(server.createGame({ players: ['Alice', 'Bob'], bots: [{ seat: 'Carol', bot: 'montecarlo' }] })).rejects.toThrow(/options\.bots: must be a list of seats of the game/);
    await expect(server.createGame({ players: ['Alice', 'Bob'], bots: ['Bob', { seat: 'Bob', bot: 'montecarlo' }] })).rejects.toThrow(/options\.bots\[1\]: Bob is named twice/);
    const { gameId } = await server.createGame({ players: ['Alice', 'Bob'], seed: 1, bots: ['Bob', { seat: 'Alice', bot: 'montecarlo' }] });
    expect((await started.store.loadGame(gameId))?.setup).toMatchObject({ bots: { Bob: 'random', Alice: 'montecarlo' } });
  });

  it('plans in games made with the lobby\'s settings too (undo and clocks: the worlds get the game\'s modules)', async () => {
    const calls: string[] = [];
    const started = await startServer({ cards: countedCards(calls) });
    server = started.server;
    const { gameId } = await server.createGame({ players: ['Alice', 'Bob'], seed: 12, undo: { mode: 'own' }, clock: { initialMs: 600_000, onTimeout: 'lose' }, bots: ['Alice', { seat: 'Bob', bot: 'montecarlo' }] });
    const watcher = await join(started.url, { gameId, spectator: true });
    await until(watcher, (v) => v.turn >= 3 || v.gameOver !== null, 300_000);
    await watcher.close();
    expect(calls.length).toBeGreaterThan(0);
    expect(started.logs).toEqual([]);
  });

  it('plays a game to its end through the server: the planner for its seat only, and a restart keeps its kind', async () => {
    const store = new MemoryStore();
    const calls: string[] = [];
    const first = await startServer({ store, cards: countedCards(calls) });
    server = first.server;
    const { gameId } = await server.createGame({ players: ['Alice', 'Bob'], seed: 11, bots: [{ seat: 'Alice', bot: 'montecarlo' }, 'Bob'] });
    const watcher = await join(first.url, { gameId, spectator: true });
    await until(watcher, (v) => v.turn >= 3 || v.gameOver !== null, 300_000);
    await watcher.close();
    await server.close();
    server = null;
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls)).toEqual(new Set(['Alice']));

    // Another process (a restart): the stored kinds, not the code's defaults, say who plans.
    const after: string[] = [];
    const second = await startServer({ store, cards: countedCards(after) });
    server = second.server;
    const again = await join(second.url, { gameId, spectator: true });
    const end = await until(again, (v) => v.gameOver !== null, 600_000);
    expect(end.gameOver).not.toBeNull();
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(after)).toEqual(new Set(['Alice']));
    const seen = again.cards() as ExampleSeatView;
    expect(seen.hand).toBeUndefined();
    await again.close();
    expect(second.logs).toEqual([]);
  });
});
