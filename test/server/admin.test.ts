/**
 * CONTRACT v3, "Serving games": `POST /games` with `Authorization: Bearer <adminKey>` and the
 * createGame options as JSON answers `{ gameId, tokens }` (401 without the key, 400 with a message
 * naming the field for bad options); `createTableServer` checks its own options (INVALID_OPTIONS
 * naming the field) and listens on 127.0.0.1 unless told otherwise.
 */
import { LocalDriver } from '@colyseus/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore, createTableServer, type TableServer } from '../../src/server/index.js';
import { ADMIN_KEY, countingCards, join, startServer } from './harness.js';

describe('POST /games (CONTRACT v3, "Serving games")', () => {
  let server: TableServer;
  let store: MemoryStore;
  let base: string;
  beforeAll(async () => {
    ({ server, store } = await startServer());
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
  });

  const post = (body: string, headers: Record<string, string> = { Authorization: `Bearer ${ADMIN_KEY}` }, path = '/games', method = 'POST') =>
    fetch(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', ...headers }, ...(method === 'GET' ? {} : { body }) });

  it('listens on 127.0.0.1 by default', () => {
    expect(server.hostname).toBe('127.0.0.1');
  });

  it('401 without the admin key, or with another one; nothing is created', async () => {
    const body = JSON.stringify({ players: ['A', 'B'] });
    for (const headers of [{}, { Authorization: 'Bearer wrong-key-wrong-key-wrong' }, { Authorization: ADMIN_KEY }, { Authorization: `Basic ${ADMIN_KEY}` }]) {
      const res = await post(body, headers as Record<string, string>);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    }
    expect(await store.listGames()).toEqual([]);
  });

  it('400 with a message naming the field for bad options, and for a body that is not JSON', async () => {
    const cases: [string, RegExp][] = [
      [JSON.stringify({ players: ['A'] }), /players/],
      [JSON.stringify({ players: ['A', 'A'] }), /players\[1\]/],
      [JSON.stringify({ players: ['A', 'B'], rules: 'future' }), /rules/],
      [JSON.stringify({ players: ['A', 'B'], startingPlayer: 'C' }), /startingPlayer/],
      [JSON.stringify({ players: ['A', 'B'], hooks: {} }), /hooks/],
      [JSON.stringify(['A', 'B']), /options/],
      ['{players:', /body: not JSON/],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe('INVALID_OPTIONS');
      expect(error.message).toMatch(field);
    }
    expect(await store.listGames()).toEqual([]);
  });

  it('200 with the game id and one token per seat; the tokens join their seats', async () => {
    const res = await post(JSON.stringify({ players: ['A', 'B', 'C'], seed: 4, record: false }));
    expect(res.status).toBe(200);
    const { gameId, tokens } = (await res.json()) as { gameId: string; tokens: Record<string, string> };
    expect(Object.keys(tokens).sort()).toEqual(['A', 'B', 'C']);
    expect(new Set(Object.values(tokens)).size).toBe(3);
    expect(await store.listGames()).toEqual([gameId]);
    // Served games are recorded: the stored setup is the recording's options, the seed included.
    expect((await store.loadGame(gameId))?.setup).toMatchObject({ players: ['A', 'B', 'C'], seed: 4 });
    const c = await join(`ws://127.0.0.1:${server.port}`, { gameId, seat: 'C', token: tokens.C as string });
    expect(c.getSnapshot().players).toEqual(['A', 'B', 'C']);
    await c.close();
  });

  it('405 for another method, 404 for another path, 413 for a body past 64 KiB', async () => {
    expect((await post('', undefined, '/games', 'GET')).status).toBe(405);
    expect((await post('{}', undefined, '/other')).status).toBe(404);
    expect((await post(JSON.stringify({ players: ['A', 'B'], pad: 'x'.repeat(70 * 1024) }))).status).toBe(413);
  });

  it('takes the scheme of the key in any case (RFC 7235: `bearer`, `BEARER`)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      const res = await post(JSON.stringify({ players: ['A', 'B'] }), { Authorization: `${scheme} ${ADMIN_KEY}` });
      expect([scheme, res.status]).toEqual([scheme, 200]);
    }
  });

  it('createTableServer refuses bad options with INVALID_OPTIONS naming the field, and a second server in one process', async () => {
    const good = { store: new MemoryStore(), cards: countingCards().cards, port: 0, adminKey: ADMIN_KEY };
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ adminKey: 'short' }, /adminKey/],
      [{ port: -1 }, /port/],
      [{ store: {} }, /store/],
      [{ cards: { saveState: () => null } }, /cards\.loadState/],
      [{ cards: { saveState: () => null, loadState: () => undefined, hooks: { checkpoint: 1 } } }, /cards\.hooks\.checkpoint/],
      [{ spectatorDelayMs: -5 }, /spectatorDelayMs/],
      [{ publicAddress: 'ws://somewhere:2567' }, /publicAddress: must be 'host:port'/],
      // One of many processes (a shared driver) on port 0: clients could not be sent to it.
      [{ driver: new LocalDriver() }, /publicAddress: a process of a cluster/],
    ];
    for (const [change, field] of bad) {
      await expect(createTableServer({ ...good, ...change } as never)).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(field) });
    }
    await expect(createTableServer(good)).rejects.toThrow(/runs in this process already/);
  });
});
