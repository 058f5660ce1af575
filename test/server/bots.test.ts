/**
 * Bot seats (issue 32, "play against a bot"): a seat the server plays itself with random legal
 * actions. It has no token (no client can join it), its moves go through the seat's own
 * pipeline, and bots alone play games to their end while a spectator watches.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTable } from '../../src/client/index.js';
import type { TableServer } from '../../src/server/index.js';
import type { SeatEvent } from '../../src/index.js';
import { join, plainest, startServer, until } from './harness.js';

describe('bot seats (issue 32)', () => {
  let server: TableServer;
  let url: string;
  let logs: string[];
  beforeAll(async () => {
    ({ server, url, logs } = await startServer());
  });
  afterAll(async () => {
    await server.close();
  });

  it('gives a bot seat no token and refuses every join to it', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['Alice', 'Bob'], seed: 3, bots: ['Bob'] });
    expect(Object.keys(tokens)).toEqual(['Alice']);
    await expect(connectTable(url, { gameId, seat: 'Bob', token: 'bot' })).rejects.toMatchObject({ code: 'JOIN_REFUSED' });
    await expect(server.createGame({ players: ['Alice', 'Bob'], bots: ['Carol'] })).rejects.toThrow(/options\.bots: must be a list of seats of the game/);
  });

  it('plays its seat: the person answers only their own decisions and the game goes on', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['Alice', 'Bob'], seed: 4, bots: ['Bob'] });
    const alice = await join(url, { gameId, seat: 'Alice', token: tokens.Alice as string });
    const bobsMoves: SeatEvent[] = [];
    alice.on('*', (e) => {
      if ((e as { player?: string }).player === 'Bob') bobsMoves.push(e);
    });
    let sent = 0;
    for (let i = 0; i < 300; i++) {
      const view = alice.getSnapshot();
      if (view.gameOver !== null || view.turn >= 4) break;
      const action = alice.legalActions('Alice').find((a) => a.type !== 'CONCEDE');
      if (action === undefined) {
        // Bob's to decide: the bot moves.
        await until(alice, (v) => v.version > view.version, 10_000);
        continue;
      }
      const result = await alice.send(plainest(action));
      expect(result.ok).toBe(true);
      sent++;
    }
    const view = alice.getSnapshot();
    expect(view.gameOver !== null || view.turn >= 4).toBe(true);
    expect(sent).toBeGreaterThan(0);
    expect(bobsMoves.length).toBeGreaterThan(0);
    await alice.close();
  });

  it('plays games bot against bot through the server to their end (the v3 shape: random legal actions)', async () => {
    for (let n = 0; n < 5; n++) {
      const { gameId, tokens } = await server.createGame({ players: ['Alice', 'Bob'], seed: 100 + n, bots: ['Alice', 'Bob'] });
      expect(tokens).toEqual({});
      // A spectator opens the game's room: the bots play until the game is over.
      const watcher = await join(url, { gameId, spectator: true });
      const end = await until(watcher, (v) => v.gameOver !== null, 60_000);
      expect(end.gameOver).not.toBeNull();
      await watcher.close();
    }
    expect(logs.filter((l) => /bot/.test(l))).toEqual([]);
  });
});
