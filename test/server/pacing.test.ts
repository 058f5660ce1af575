/**
 * CONTRACT v4, "One client cannot hurt other games", from the well-behaved side: the server gives
 * each connection its message budget in the welcome, and `connectTable` paces its sends within it
 * (src/client/pacing.ts), so a client that sends more than the budget at once has every send
 * answered, in time, and is never dropped or closed 4429. Real sockets on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CLOSE_OVER_BUDGET, DEFAULT_MESSAGE_BUDGET, type ServerMessage } from '../../src/client/protocol.js';
import type { TableSendResult } from '../../src/client/index.js';
import { ErrorCode } from '../../src/errors.js';
import type { TableServer } from '../../src/server/index.js';
import { Pacer, clientBucket } from '../../src/client/pacing.js';
import { ConnectionBudget, DEFAULT_LIMITS } from '../../src/server/limits.js';
import { seededRandom } from '../../src/simulation.js';
import { join, rawJoin, startServer } from './harness.js';

let server: TableServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('the client bucket against the server budget (src/client/pacing.ts, src/server/limits.ts)', () => {
  it('a client that sends whenever its pacer allows is never dropped by the server, its messages arriving up to 200 ms late and bunched', () => {
    for (const budget of [DEFAULT_LIMITS, { perSecond: 5, burst: 10, inFlight: 4 }, { perSecond: 1000, burst: 1000, inFlight: 16 }]) {
      const random = seededRandom(7);
      let now = 0;
      const pacer = new Pacer(budget, () => now);
      const server = new ConnectionBudget(budget, 0);
      let arrived = 0;
      let taken = 0;
      // 30 simulated seconds: the client tries to send at random moments, as much as it may.
      while (now < 30_000) {
        now += random() * 40;
        while (pacer.wait(0) === 0) {
          pacer.spend();
          // Delivered in order, each up to 200 ms after it left (a late one holds back those behind it).
          arrived = Math.max(arrived, now + random() * 200);
          expect(server.spend(arrived).take).toBe(true);
          taken++;
        }
      }
      // And it used most of the budget: the burst, then close to the rate.
      const { burst } = clientBucket(budget);
      expect(taken).toBeGreaterThan(burst + 0.9 * budget.perSecond * 30);
    }
  });

  it('waits for an in-flight place: no more sends out at once than the server takes', () => {
    const pacer = new Pacer({ perSecond: 20, burst: 100, inFlight: 16 }, () => 0);
    expect(pacer.wait(15)).toBe(0);
    expect(pacer.wait(16)).toBe(Infinity);
  });
});

describe('a table paces its sends within the server budget (CONTRACT v4)', () => {
  it('the welcome gives the connection its budget', async () => {
    const started = await startServer({ limits: { perSecond: 30, burst: 60 } });
    server = started.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const raw = await rawJoin(started.url, { gameId, seat: 'A', token: tokens.A });
    const welcome = (await raw.next('welcome')) as Extract<ServerMessage, { kind: 'welcome' }>;
    expect(welcome.budget).toEqual({ perSecond: 30, burst: 60, inFlight: DEFAULT_MESSAGE_BUDGET.inFlight });
    await raw.room.leave(true);
  });

  it('a burst of 300 sends from connectTable is answered in full, none dropped, no 4429 (default budget: 20/s, bursts of 100)', async () => {
    const started = await startServer();
    server = started.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 2 });
    const a = await join(started.url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(started.url, { gameId, seat: 'B', token: tokens.B as string });
    const statuses: string[] = [];
    a.onStatus((s) => statuses.push(s));
    // 300 at once: the first A's priority pass is accepted, B's priority then refuses the rest (rule errors, each answered).
    const sent = Date.now();
    const results: TableSendResult[] = await Promise.all(Array.from({ length: 300 }, () => a.send({ type: 'PASS_PRIORITY', player: 'A' })));
    const seconds = (Date.now() - sent) / 1000;
    expect(results).toHaveLength(300);
    const codes = new Set(results.map((r) => (r.ok ? 'ok' : r.error.code)));
    expect(codes.has(ErrorCode.DISCONNECTED)).toBe(false);
    expect(codes.has(ErrorCode.RATE_LIMITED)).toBe(false);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    // Paced: beyond the burst the sends went out at about the server's rate (200 over 20 a second), not at once.
    expect(seconds).toBeGreaterThan(5);
    expect(a.status).toBe('connected');
    expect(statuses).toEqual([]);
    expect(started.logs.filter((l) => l.includes(`${CLOSE_OVER_BUDGET}`))).toEqual([]);
    // The game goes on: B passes, and A's next send is answered at once from what is left.
    expect((await b.send({ type: 'PASS_PRIORITY', player: 'B' })).ok).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('sends queued behind the budget are answered DISCONNECTED when the table closes (never left waiting)', async () => {
    const started = await startServer({ limits: { perSecond: 20, burst: 20 } });
    server = started.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 3 });
    const a = await join(started.url, { gameId, seat: 'A', token: tokens.A as string });
    const pending = Array.from({ length: 60 }, () => a.send({ type: 'PASS_PRIORITY', player: 'B' }));
    await a.close();
    const results = await Promise.all(pending);
    expect(results).toHaveLength(60);
    const late = results.filter((r) => !r.ok && r.error.code === ErrorCode.DISCONNECTED);
    expect(late.length).toBeGreaterThan(0);
  });
});
