/**
 * CONTRACT v3, "Serving games": a table that drops is held for reconnection and, when it comes
 * back (the same room, or a new join once the room is gone and the game reloaded from the
 * store), gives the last `seq` it saw and receives every event it missed, then its view; a new
 * join for a connected seat replaces the old connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeatEvent } from '../../src/index.js';
import { connectTable, type Table } from '../../src/client/index.js';
import { freePort } from './services.js';
import type { MemoryStore, TableServer } from '../../src/server/index.js';
import { join, playUntil, settle, startProxy, startServer } from './harness.js';

/** Waits until the table's status is `status`. */
function statusOf(table: Table, status: Table['status'], timeoutMs = 60_000): Promise<void> {
  if (table.status === status) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the table stayed ${table.status}, not ${status}`)), timeoutMs);
    const off = table.onStatus((s) => {
      if (s !== status) return;
      off();
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Resolves when both tables show the same version and it holds a moment (the server's own sends, seat status included, are done). */
async function inStep(a: Table, b: Table): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const version = b.getSnapshot().version;
    if (a.getSnapshot().version === version) {
      await settle(100);
      if (a.getSnapshot().version === b.getSnapshot().version && b.getSnapshot().version === version) return;
    }
    await settle(50);
  }
  throw new Error(`the tables stayed apart: ${a.getSnapshot().version} and ${b.getSnapshot().version}`);
}

/** The seqs of events, checked to be contiguous from `from + 1`. */
function contiguous(events: SeatEvent[], from: number): boolean {
  return events.every((e, i) => e.seq === from + 1 + i);
}

describe('tables that drop and rejoin (CONTRACT v3, "Serving games")', () => {
  let server: TableServer;
  let store: MemoryStore;
  let url: string;
  beforeAll(async () => {
    ({ server, store, url } = await startServer({ reconnectSeconds: 1 }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('a table whose connection is cut reconnects with its last seq and receives every event it missed, in order', async () => {
    const proxy = await startProxy(server.port);
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 11 });
    const a = await join(proxy.url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    const seen: SeatEvent[] = [];
    a.on('*', (e) => seen.push(e));
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    const lastSeen = a.getSnapshot().seq;

    proxy.blocked = true;
    proxy.cut();
    await statusOf(a, 'reconnecting');
    expect(await a.send({ type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    // While A is away, B passes: the step ends and the game moves on (events A has not seen).
    expect((await b.send({ type: 'PASS_PRIORITY', player: 'B' })).ok).toBe(true);
    const moved = b.getSnapshot();
    expect(moved.seq).toBeGreaterThan(lastSeen);

    proxy.blocked = false;
    await statusOf(a, 'connected');
    await inStep(a, b);
    const missed = seen.filter((e) => (e.seq as number) > lastSeen);
    expect(missed.map((e) => e.seq)).toContain(moved.seq);
    expect(missed.at(-1)?.seq).toBe(b.getSnapshot().seq);
    expect(contiguous(missed, lastSeen)).toBe(true);
    expect(a.getSnapshot()).toEqual({ ...b.getSnapshot(), stops: a.getSnapshot().stops });
    // And the table plays on.
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    await Promise.all([a.close(), b.close(), proxy.close()]);
  });

  it('rejoins with a new join once the reconnection hold is over, and receives what it missed', async () => {
    const proxy = await startProxy(server.port);
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 12 });
    const a = await join(proxy.url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    const seen: SeatEvent[] = [];
    a.on('*', (e) => seen.push(e));
    await a.send({ type: 'PASS_PRIORITY', player: 'A' });
    const lastSeen = a.getSnapshot().seq;
    proxy.blocked = true;
    proxy.cut();
    await b.send({ type: 'PASS_PRIORITY', player: 'B' });
    // The hold (reconnectSeconds: 1) runs out before A can come back.
    await settle(1500);
    proxy.blocked = false;
    await statusOf(a, 'connected');
    await inStep(a, b);
    const missed = seen.filter((e) => (e.seq as number) > lastSeen);
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.at(-1)?.seq).toBe(b.getSnapshot().seq);
    expect(contiguous(missed, lastSeen)).toBe(true);
    await Promise.all([a.close(), b.close(), proxy.close()]);
  });

  it('a game whose room is gone is loaded again from the store (replayed) for the next join, with the events a rejoin missed', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 13 });
    let a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    let b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    await playUntil([a, b], (v) => v.turn >= 2);
    const mid = a.getSnapshot();
    await playUntil([a, b], (v) => v.turn >= 3);
    await Promise.all([a.close(), b.close()]);
    // Nobody is left: the room goes, and the game's lease with it.
    await settle(300);
    const end = (await store.loadGame(gameId)) as { owner: string | null; version: number; seq: number };
    expect(end.owner).toBeNull();
    // A joins again as a table that saw the game up to `mid` would: it receives every event after it.
    const { rawJoin } = await import('./harness.js');
    const raw = await rawJoin(url, { gameId, seat: 'A', token: tokens.A, lastSeq: mid.seq });
    const welcome = await raw.next('welcome');
    expect(welcome).toMatchObject({ kind: 'welcome', seat: 'A', gap: false });
    const events = (welcome as { events: SeatEvent[] }).events;
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: end.seq - mid.seq }, (_, i) => mid.seq + 1 + i));
    expect((welcome as { view: { version: number } }).view.version).toBeGreaterThanOrEqual(end.version);
    await raw.room.leave();
    a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    await playUntil([a, b], (v) => v.turn >= 4);
    await Promise.all([a.close(), b.close()]);
  });

  it('with the addresses of several processes, joins through the first that answers and, when its address is lost, rejoins through the next', async () => {
    const proxy = await startProxy(server.port);
    const nobody = `ws://127.0.0.1:${await freePort()}`; // a process that is gone: nothing listens
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 15 });
    const a = await connectTable([nobody, proxy.url, url], { gameId, seat: 'A', token: tokens.A as string }, { joinTimeoutMs: 5000, retryMs: { min: 50, max: 200 } });
    const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    const seen: SeatEvent[] = [];
    a.on('*', (e) => seen.push(e));
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    const lastSeen = a.getSnapshot().seq;
    // A's address goes for good (its process died, as the table sees it): it rejoins through the next one.
    proxy.blocked = true;
    proxy.cut();
    await statusOf(a, 'reconnecting');
    expect((await b.send({ type: 'PASS_PRIORITY', player: 'B' })).ok).toBe(true);
    await statusOf(a, 'connected');
    await inStep(a, b);
    const missed = seen.filter((e) => (e.seq as number) > lastSeen);
    expect(missed.at(-1)?.seq).toBe(b.getSnapshot().seq);
    expect(contiguous(missed, lastSeen)).toBe(true);
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    await Promise.all([a.close(), b.close(), proxy.close()]);
  });

  it('fails at once, saying nothing listens, when every address refuses the connection (ECONNREFUSED), not after joinTimeoutMs (issue 33)', async () => {
    // Waits that would outlast the test: only a join that fails at once passes.
    const patient = { joinTimeoutMs: 3_600_000, retryMs: { min: 3_600_000, max: 3_600_000 } };
    const nobody = `ws://127.0.0.1:${await freePort()}`;
    const failed = await connectTable(nobody, { gameId: 'g', seat: 'A', token: 't' }, patient).catch((err: unknown) => err);
    expect(failed).toMatchObject({ code: 'DISCONNECTED', message: expect.stringMatching(/^connectTable: nothing listens at the address \(connection refused: .*ECONNREFUSED.*\); is the server running\?$/) });
    const nobodyElse = `http://127.0.0.1:${await freePort()}`;
    await expect(connectTable([nobody, nobodyElse], { gameId: 'g', spectator: true }, patient)).rejects.toMatchObject({ code: 'DISCONNECTED', message: expect.stringMatching(/nothing listens at any of the 2 addresses/) });
  });

  it('refuses an empty list of addresses (INVALID_OPTIONS)', async () => {
    await expect(connectTable([], { gameId: 'g', seat: 'A', token: 't' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/url/) });
  });

  it('a new join for a connected seat replaces the old connection, which stays closed', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 14 });
    const first = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    const second = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    await statusOf(first, 'closed');
    await settle(200);
    expect(first.status).toBe('closed');
    expect((await second.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    expect(await first.send({ type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ ok: false, error: { code: 'DISCONNECTED' } });
    await second.close();
  });
});
