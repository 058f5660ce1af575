/**
 * Issue 31 (one client cannot slow every game): the connections' heartbeat is spread over its
 * interval. Each connection is still pinged once per interval and closed after two unanswered
 * pings (Colyseus' `pingMaxRetries`), but each tick pings a slice of the connections instead of
 * all of them in one loop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PING_SLICES, SlicedPinger, type Pingable } from '../../src/server/heartbeat.js';
import type { TableServer } from '../../src/server/index.js';
import { rawJoin, startServer } from './harness.js';

class FakeClient implements Pingable {
  pingCount = 0;
  pings = 0;
  terminated = false;
  constructor(readonly answers: boolean) {}
  ping(): void {
    this.pings++;
    // A live connection's pong comes back (Colyseus sets the count to 0).
    if (this.answers) this.pingCount = 0;
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('SlicedPinger: the heartbeat spread over its interval', () => {
  it('pings each connection once per PING_SLICES ticks, at most a slice of them per tick', () => {
    const clients = new Set(Array.from({ length: 1000 }, () => new FakeClient(true)));
    const pinger = new SlicedPinger(() => clients, 2);
    const perTick: number[] = [];
    for (let pass = 0; pass < 3; pass++) {
      for (let t = 0; t < PING_SLICES; t++) {
        const before = [...clients].reduce((n, c) => n + c.pings, 0);
        pinger.tick();
        perTick.push([...clients].reduce((n, c) => n + c.pings, 0) - before);
      }
      expect([...clients].every((c) => c.pings === pass + 1)).toBe(true);
    }
    expect(Math.max(...perTick)).toBe(Math.ceil(1000 / PING_SLICES));
    expect([...clients].some((c) => c.terminated)).toBe(false);
  });

  it('closes a connection at its third turn after two unanswered pings, as Colyseus does, and never pings it again', () => {
    const silent = new FakeClient(false);
    const clients = new Set<FakeClient>([new FakeClient(true), silent, new FakeClient(true)]);
    const pinger = new SlicedPinger(() => clients, 2);
    const pass = () => {
      for (let t = 0; t < PING_SLICES; t++) pinger.tick();
    };
    pass();
    pass();
    expect(silent.pings).toBe(2);
    expect(silent.terminated).toBe(false);
    pass();
    expect(silent.terminated).toBe(true);
    expect(silent.pings).toBe(2);
    expect([...clients].filter((c) => c !== silent).every((c) => c.pings === 3 && !c.terminated)).toBe(true);
  });

  it('pings a few connections once per pass, not once per tick', () => {
    const clients = new Set([new FakeClient(true), new FakeClient(true)]);
    const pinger = new SlicedPinger(() => clients, 2);
    for (let t = 0; t < 2 * PING_SLICES; t++) pinger.tick();
    expect([...clients].map((c) => c.pings)).toEqual([2, 2]);
  });

  it('pings connections that join during a pass in that pass, skips those that left, and does nothing without connections', () => {
    const clients = new Set<FakeClient>();
    const pinger = new SlicedPinger(() => clients, 2);
    pinger.tick();
    const first = new FakeClient(true);
    const gone = new FakeClient(true);
    clients.add(first).add(gone);
    for (let t = 1; t < PING_SLICES; t++) pinger.tick();
    // Both joined during the first pass (begun with none): pinged at its last tick.
    expect([first.pings, gone.pings]).toEqual([1, 1]);
    pinger.tick(); // the second pass begins: one each tick
    expect(first.pings).toBe(2);
    clients.delete(gone);
    const late = new FakeClient(true);
    clients.add(late);
    for (let t = 1; t < PING_SLICES; t++) pinger.tick();
    expect([first.pings, gone.pings, late.pings]).toEqual([2, 1, 1]);
  });
});

describe('the table server spreads its heartbeat (real sockets)', () => {
  let server: TableServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  it('pings a seated connection within the interval, and closes one that stops answering after two unanswered pings', async () => {
    const started = await startServer();
    server = started.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const live = await rawJoin(started.url, { gameId, seat: 'A', token: tokens.A });
    const silent = await rawJoin(started.url, { gameId, seat: 'B', token: tokens.B });
    await Promise.all([live.next('welcome'), silent.next('welcome')]);
    // colyseus.js over the `ws` package in Node: its socket answers pings by itself unless told not to.
    const socketOf = (r: typeof live) => (r.room.connection as unknown as { transport: { ws: { on(e: 'ping', f: () => void): void; _autoPong: boolean } } }).transport.ws;
    let livePings = 0;
    socketOf(live).on('ping', () => livePings++);
    socketOf(silent)._autoPong = false;
    const silentLeft = new Promise<number>((resolve) => silent.room.onLeave((code) => resolve(code)));
    const since = Date.now();
    await silentLeft;
    // Two pings unanswered (one per 3 s interval), closed at its third turn: 6 to 9 s.
    expect(Date.now() - since).toBeGreaterThan(3_000);
    expect(Date.now() - since).toBeLessThan(12_000);
    expect(livePings).toBeGreaterThanOrEqual(2);
    expect(live.room.connection.isOpen).toBe(true);
  }, 30_000);
});
