/**
 * CONTRACT v3, "Serving games" with "Playing between people": the server marks a seat whose
 * table leaves away (SET_SEAT_STATUS), connected when it comes back, and its one timer sends
 * the TICK that makes the engine apply the away policy when the grace period is over. Runs once
 * the engine has clocks and seats (`nextDeadline`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGame } from '../../src/index.js';
import type { TableServer } from '../../src/server/index.js';
import { join, startServer, until } from './harness.js';

const hasSeats = typeof (createGame({ players: ['A', 'B'] }) as { nextDeadline?: unknown }).nextDeadline === 'function';

describe.runIf(hasSeats)('seats that drop, on a served game', () => {
  let server: TableServer;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await startServer());
  });
  afterAll(async () => {
    await server.close();
  });

  it('marks a seat away when its table leaves, connected when it is back, and concedes it by TICK when its grace is over', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 31, away: { graceMs: 300, then: 'concede' } } as never);
    const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    await a.close();
    await until(b, (v) => (v as { seats?: Record<string, { status: string }> | null }).seats?.A?.status === 'away');
    const back = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    await until(b, (v) => (v as { seats?: Record<string, { status: string }> | null }).seats?.A?.status === 'connected');
    await back.close();
    // Nobody sends anything: the server's timer ticks when A's grace is over, and A is conceded.
    const over = await until(b, (v) => v.gameOver !== null, 5000);
    expect(over.gameOver).toMatchObject({ winners: ['B'] });
    expect(over.gameOver?.reasons.A).toMatch(/away/);
    await b.close();
  });
});
