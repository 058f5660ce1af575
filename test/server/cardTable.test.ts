/**
 * CONTRACT v4, "Served card games" (issue 32): a table server with the example's card definition
 * as `cards`. Each seat is sent its seatView with its updates (never the other seat's hand), the
 * cards' state S is written with every send, a server restart mid-game continues with the same S,
 * and bots play whole games of the example through the server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { exampleCards, type ExampleSeatView, type ExampleState } from '../../examples/cards/definition.js';
import type { Table } from '../../src/client/index.js';
import { MemoryStore, type TableServer } from '../../src/server/index.js';
import { botRandom } from '../../src/server/bots.js';
import { join, plainest, startServer, until } from './harness.js';

/** The card ids in `seat`'s hand and library now, from S as the store keeps it. */
async function secretsOf(store: MemoryStore, gameId: string, seat: string): Promise<string[]> {
  const state = (await store.loadGame(gameId))?.hostState as ExampleState;
  const side = state.sides[seat]!;
  return [...side.hand, ...side.library];
}

/** Whether a card view names any of `ids` (as a whole JSON string). */
function shows(view: unknown, ids: readonly string[]): string[] {
  const json = JSON.stringify(view);
  return ids.filter((id) => json.includes(`"${id}"`));
}

/** One move of `seat` through its table, chosen by the definition's bot from what the seat sees (a plain legal action, else). */
async function move(table: Table, seat: string, n: number): Promise<void> {
  const view = table.getSnapshot();
  const chosen = exampleCards.bot?.(view, table.cards(), seat, botRandom(table.gameId, view.version, n));
  const legal = table.legalActions(seat).find((a) => a.type !== 'CONCEDE');
  const event = chosen ?? (legal === undefined ? undefined : plainest(legal));
  if (event === undefined) return;
  const result = await table.send(event as never);
  if (!result.ok && legal !== undefined) await table.send(plainest(legal) as never);
}

/** Plays `seat` (against a bot seat) until `done`, checking after every update that its card view shows nothing of the other seat's hand or library. */
async function playAs(table: Table, seat: string, other: string, store: MemoryStore, done: (v: ReturnType<Table['getSnapshot']>) => boolean): Promise<number> {
  let checks = 0;
  for (let n = 0; n < 3000 && !done(table.getSnapshot()); n++) {
    const view = table.getSnapshot();
    const mine = table.cards() as ExampleSeatView;
    expect(mine.seat).toBe(seat);
    expect(shows(mine, await secretsOf(store, table.gameId, other))).toEqual([]);
    checks++;
    if (table.legalActions(seat).length > 0 || view.priority === seat) await move(table, seat, n);
    else await until(table, (v) => v.version > view.version || done(v), 20_000);
  }
  return checks;
}

describe('served card games (CONTRACT v4, "Served card games")', () => {
  let server: TableServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('sends each seat its seatView, keeps S with every send, and a restart mid-game goes on with the same cards', async () => {
    const store = new MemoryStore();
    const first = await startServer({ store, cards: exampleCards });
    server = first.server;
    const { gameId, tokens } = await server.createGame({ players: ['Alice', 'Bob'], seed: 7, bots: ['Bob'] });
    const alice = await join(first.url, { gameId, seat: 'Alice', token: tokens.Alice as string });
    const start = alice.cards() as ExampleSeatView;
    expect(start.hand).toHaveLength(7);
    expect(start.players.Bob?.handCount).toBe(7);
    await playAs(alice, 'Alice', 'Bob', store, (v) => v.turn >= 4 || v.gameOver !== null);

    // The server stops mid-game: S in the store is the game's.
    const before = await store.loadGame(gameId);
    const seen = JSON.stringify(alice.cards());
    const statuses: string[] = [];
    const back = new Promise<void>((resolve) =>
      alice.onStatus((status) => {
        statuses.push(status);
        if (status === 'connected') resolve();
      }),
    );
    await server.close();
    server = null;
    // Its bot waits a moment before it moves, so that the game is seen as the restart found it.
    const second = await startServer({ store, cards: exampleCards, port: first.server.port, botDelayMs: 1000 });
    server = second.server;
    // The table rejoins by itself; the game and its cards are as they were.
    await back;
    expect(statuses).toEqual(['reconnecting', 'connected']);
    const reloaded = await store.loadGame(gameId);
    expect(reloaded?.version).toBe(before!.version);
    expect(reloaded?.hostState).toEqual(before!.hostState);
    expect(JSON.stringify(alice.cards())).toBe(seen);
    // And it goes on from there: the cards draw as they would have.
    const turn = alice.getSnapshot().turn;
    const checks = await playAs(alice, 'Alice', 'Bob', store, (v) => v.turn >= turn + 2 || v.gameOver !== null);
    expect(checks).toBeGreaterThan(0);
    await alice.close();
  });

  it('plays 20 games of the example bot against bot through the server to their end; a spectator sees no hand', async () => {
    const started = await startServer({ cards: exampleCards });
    server = started.server;
    for (let n = 0; n < 20; n++) {
      const { gameId } = await server.createGame({ players: ['Alice', 'Bob'], seed: 500 + n, bots: ['Alice', 'Bob'] });
      const watcher = await join(started.url, { gameId, spectator: true });
      const end = await until(watcher, (v) => v.gameOver !== null, 120_000);
      expect(end.gameOver).not.toBeNull();
      const seen = watcher.cards() as ExampleSeatView;
      expect(seen.seat).toBeNull();
      expect(seen.hand).toBeUndefined();
      await watcher.close();
    }
    expect(started.logs).toEqual([]);
  });
});
