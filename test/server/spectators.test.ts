/**
 * CONTRACT v3, "Serving games": a spectator receives the spectator view (no player's private
 * fields) and the events, `spectatorDelayMs` after the seats; a spectator that joins sees the
 * game as it was that long ago.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeatEvent } from '../../src/index.js';
import type { TableServer } from '../../src/server/index.js';
import { join, startServer, until } from './harness.js';

const DELAY_MS = 400;

describe('spectators (CONTRACT v3, "Serving games")', () => {
  let server: TableServer;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await startServer({ spectatorDelayMs: DELAY_MS }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('shows spectators the game spectatorDelayMs late, events included, with nobody\'s private fields', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 21 });
    const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    const watcher = await join(url, { gameId, spectator: true });
    const seen: SeatEvent[] = [];
    watcher.on('*', (e) => seen.push(e));
    await a.send({ type: 'SET_STOPS', player: 'A', stops: [{ step: 'upkeep', turn: 'any' }] });
    const sentAt = Date.now();
    // The seat sees its send at once; the spectator does not yet.
    expect(a.getSnapshot().version).toBe(1);
    expect(watcher.getSnapshot().version).toBe(0);
    await until(watcher, (v) => v.version === 1);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(DELAY_MS - 50);
    expect(watcher.getSnapshot().stops).toEqual({ A: null, B: null });
    await a.send({ type: 'PASS_PRIORITY', player: 'A' });
    const late = await join(url, { gameId, spectator: true });
    expect(late.getSnapshot().version).toBe(1);
    await until(watcher, (v) => v.version === 2);
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => (seen[0]?.seq as number) + i));
    await Promise.all([a.close(), watcher.close(), late.close()]);
  });
});
