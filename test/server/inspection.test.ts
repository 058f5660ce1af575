/**
 * Issue 25, point 5: "the inspector can watch any game the server holds". The table server's
 * extra routes (`createTableServer({ routes })`) and the inspection routes on them: every game the
 * store holds, each read as a recording that `replayGame` takes to the stored version with the
 * same view, only with a key (the inspect key or the admin key), never a change to a game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TurnView } from '../../src/index.js';
import { defineCards, replayGame as replayCardGame } from '../../src/cards/index.js';
import { V3_CARDS_NAME, v3Definition } from '../../src/server/cards.js';
import { allModules } from '../../src/allModules.js';
import { MemoryStore, createTableServer, inspectionRoutes, storedRecording, type TableServer } from '../../src/server/index.js';
import { ADMIN_KEY, countingCards, join, playUntil } from './harness.js';

const INSPECT_KEY = 'inspect-key-0123456789abcdef';

describe('the inspection routes (issue 25, point 5)', () => {
  let server: TableServer;
  let store: MemoryStore;
  let base: string;
  const logs: string[] = [];
  const cards = countingCards();
  beforeAll(async () => {
    store = new MemoryStore();
    const inspect = inspectionRoutes({ store, keys: [INSPECT_KEY, ADMIN_KEY], hooks: cards.cards.hooks });
    const routes = async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
      if (req.url === '/boom') throw new Error('a route that fails');
      return inspect(req, res);
    };
    server = await createTableServer({ store, cards: cards.cards, port: 0, adminKey: ADMIN_KEY, routes, log: (line) => logs.push(line) });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
  });

  const get = (path: string, key: string | null = INSPECT_KEY, method = 'GET') => fetch(`${base}${path}`, { method, headers: key === null ? {} : { Authorization: `Bearer ${key}` } });

  it('401 without a key it knows; 405 for anything but GET; a bad path or an unknown game 404', async () => {
    const { gameId } = await server.createGame({ players: ['A', 'B'] });
    for (const key of [null, 'wrong-key-wrong-key-wrong', `${INSPECT_KEY}x`]) {
      const res = await get('/inspect/games', key);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(JSON.stringify(await res.json())).not.toContain(gameId);
    }
    expect((await get(`/inspect/games/${gameId}/recording`, null)).status).toBe(401);
    expect((await get('/inspect/games', INSPECT_KEY, 'POST')).status).toBe(405);
    expect((await get('/inspect/games/no-such-game')).status).toBe(404);
    expect((await get(`/inspect/games/${gameId}/other`)).status).toBe(404);
    expect((await get('/inspect/games/..%2F..%2Fetc')).status).toBe(404);
    // The scheme's name in any case (RFC 7235).
    const lower = await fetch(`${base}/inspect/games`, { headers: { Authorization: `bearer ${INSPECT_KEY}` } });
    expect(lower.status).toBe(200);
  });

  it('lists the games the store holds (newest first), with the inspect key or the admin key', async () => {
    const { gameId } = await server.createGame({ players: ['Ann', 'Ben', 'Cat'] });
    for (const key of [INSPECT_KEY, ADMIN_KEY]) {
      const res = await get('/inspect/games', key);
      expect(res.status).toBe(200);
      const { games } = (await res.json()) as { games: { gameId: string; players: string[]; version: number; finished: boolean }[] };
      expect(games[0]).toMatchObject({ gameId, players: ['Ann', 'Ben', 'Cat'], version: 0, finished: false });
      expect(games.map((g) => g.gameId).sort()).toEqual((await store.listGames()).sort());
    }
  });

  it('reads a game played through tables as a recording: replayGame reaches its version with the same view as a seat sees, hooks answered from the store', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 3 });
    const a = await join(`ws://127.0.0.1:${server.port}`, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(`ws://127.0.0.1:${server.port}`, { gameId, seat: 'B', token: tokens.B as string });
    await playUntil([a, b], (v) => v.turn === 2 && v.step === 'draw');
    const seen = a.getSnapshot();
    const res = await get(`/inspect/games/${gameId}/recording`);
    expect(res.status).toBe(200);
    const recording = await res.json();
    // CONTRACT v4: a served game is a card game (the v3 shape served as a definition): the cards' replayGame runs the definition again.
    expect(recording.cards).toEqual({ name: V3_CARDS_NAME });
    // The server gives every game every module, and the recording names them (CONTRACT v4): the replay is given them.
    expect(recording.use).toEqual(allModules.map((m) => m.module));
    const game = replayCardGame(recording, { cards: defineCards(v3Definition(countingCards().cards)), use: allModules });
    const view: TurnView = game.getSnapshot({ seat: 'A' });
    expect(view.version).toBe(seen.version);
    expect(view).toEqual(seen);
    expect((await get(`/inspect/games/${gameId}`)).status).toBe(200);
    expect(((await (await get(`/inspect/games/${gameId}`)).json()) as { version: number }).version).toBe(seen.version);
    // Reading changed nothing: the tables play on.
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'B' })).ok).toBe(false);
    await a.close();
    await b.close();
    expect(await storedRecording(store, 'no-such-game')).toBeNull();
  });


  it('leaves POST /games and Colyseus to the server; a route that throws is answered 500 and reported', async () => {
    const created = await fetch(`${base}/games`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN_KEY}` }, body: JSON.stringify({ players: ['X', 'Y'] }) });
    expect(created.status).toBe(200);
    const boom = await fetch(`${base}/boom`);
    expect(boom.status).toBe(500);
    expect(logs.some((l) => l.includes('a route that fails'))).toBe(true);
  });

  it('createTableServer refuses routes that are not a function, naming the field', async () => {
    await expect(createTableServer({ store: new MemoryStore(), cards: countingCards().cards, port: 0, adminKey: ADMIN_KEY, routes: 'pages' as never })).rejects.toThrow(/options\.routes/);
    expect(() => inspectionRoutes({ store, keys: ['short'] })).toThrow(/keys/);
  });
});
