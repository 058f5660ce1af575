/**
 * CONTRACT v4, "Serving games": a token binds one seat of one game, on every route. A join to a
 * game's room with the token of the same-named seat of another game is refused (JOIN_REFUSED,
 * code 4401), whether by room id (`joinById`), by `join`, or by `joinOrCreate`, and the connection
 * holding the seat is untouched: it plays on and is never closed.
 */
import { Client } from 'colyseus.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_REFUSED_CODE, ROOM_NAME } from '../../src/client/protocol.js';
import type { MemoryStore, TableServer } from '../../src/server/index.js';
import { join, settle, startServer, until } from './harness.js';

describe('a token binds one seat of one game (CONTRACT v4)', () => {
  let server: TableServer;
  let store: MemoryStore;
  let url: string;
  beforeAll(async () => {
    ({ server, store, url } = await startServer());
  });
  afterAll(async () => {
    await server.close();
  });

  it("refuses A's token of one game in another game's room by every route, and leaves the seat's connection alone", async () => {
    const victim = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const mine = await server.createGame({ players: ['A', 'B'], seed: 2 });
    const a = await join(url, { gameId: victim.gameId, seat: 'A', token: victim.tokens.A as string });
    const b = await join(url, { gameId: victim.gameId, seat: 'B', token: victim.tokens.B as string });
    const statuses: string[] = [];
    a.onStatus((s) => statuses.push(s));
    const client = new Client(url);
    const forged = { gameId: mine.gameId, seat: 'A', token: mine.tokens.A };
    // By room id: the room is the victim's (its room id is its game id), the options name my game.
    await expect(client.joinById(victim.gameId, forged)).rejects.toMatchObject({ code: JOIN_REFUSED_CODE });
    // By the matchmaking routes, with the victim's id and my token: the token is checked against the game named.
    await expect(client.join(ROOM_NAME, { ...forged, gameId: victim.gameId })).rejects.toMatchObject({ code: JOIN_REFUSED_CODE });
    await expect(client.joinOrCreate(ROOM_NAME, { ...forged, gameId: victim.gameId })).rejects.toMatchObject({ code: JOIN_REFUSED_CODE });
    await settle(200);
    // The real A is still connected and plays; nothing was sent for the forger.
    expect(statuses).toEqual([]);
    expect(a.status).toBe('connected');
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    await until(b, (v) => v.priority === 'B');
    expect((await store.sends(victim.gameId)).map((s) => (s.event as { type: string }).type)).toEqual(['PASS_PRIORITY']);
    // My own game is mine by every route (the same token, the right room).
    const room = await client.joinOrCreate(ROOM_NAME, forged);
    await room.leave();
    await Promise.all([a.close(), b.close()]);
  });
});
