/**
 * CONTRACT v3, "Serving games": two tables play a served game over real WebSockets (colyseus.js)
 * against a table server on 127.0.0.1: every accepted send is written to the store before its
 * update goes out, each table receives its seat's view and every event once, in `seq` order, and
 * the host's cards keep their state per game through the store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeatEvent } from '../../src/index.js';
import type { ServerMessage } from '../../src/client/protocol.js';
import { countingCards, join, playUntil, rawJoin, startServer } from './harness.js';
import type { MemoryStore, TableServer } from '../../src/server/index.js';

describe('two tables play a served game (CONTRACT v3, "Serving games")', () => {
  let server: TableServer;
  let store: MemoryStore;
  let url: string;
  const host = countingCards();
  beforeAll(async () => {
    ({ server, store, url } = await startServer({ cards: host.cards }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('plays three turns: both tables see the same game, every event once in seq order, every send in the store', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 7 });
    expect(Object.keys(tokens).sort()).toEqual(['A', 'B']);
    const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    const seen: Record<string, SeatEvent[]> = { A: [], B: [] };
    a.on('*', (e) => seen.A!.push(e));
    b.on('*', (e) => seen.B!.push(e));
    expect(a.getSnapshot().step).toBe('upkeep');
    expect(a.legalActions().map((x) => x.type)).toContain('PASS_PRIORITY');
    expect(b.legalActions().every((x) => x.player === 'B')).toBe(true);

    await playUntil([a, b], (v) => v.turn >= 4);
    const view = a.getSnapshot();
    expect(b.getSnapshot().version).toBe(view.version);
    expect(b.getSnapshot().turn).toBe(view.turn);
    for (const table of ['A', 'B']) {
      const seqs = seen[table]!.map((e) => e.seq);
      expect(seqs.length).toBeGreaterThan(10);
      expect(seqs).toEqual(seqs.slice().sort((x, y) => (x as number) - (y as number)));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(seqs.at(-1)).toBe(view.seq);
    }
    // Every accepted send is in the store, in order, with the game's version and seq.
    const stored = await store.loadGame(gameId);
    expect(stored?.version).toBe(view.version);
    expect(stored?.seq).toBe(view.seq);
    const sends = await store.sends(gameId);
    expect(sends.map((s) => s.version)).toEqual(Array.from({ length: view.version }, (_, i) => i + 1));
    expect(sends.every((s) => typeof s.at === 'number')).toBe(true);
    // The cards' state went with each send: the stored one counts every checkpoint the game asked.
    expect((stored?.hostState as { checkpoints: number }).checkpoints).toBeGreaterThan(0);
    expect(stored?.hostState).toEqual(host.current());
    await Promise.all([a.close(), b.close()]);
  });

  it('answers a send with the events it emitted, after the view that shows it', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 3 });
    const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    const before = a.getSnapshot().version;
    const result = await a.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(result.ok).toBe(true);
    expect(a.getSnapshot().version).toBe(before + 1);
    const refused = await a.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION' } });
    expect(a.getSnapshot().version).toBe(before + 1);
    await a.close();
  });

  it('answers an accepted send with the update it caused (one message, its events), a refused one with a result', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 4 });
    const raw = await rawJoin(url, { gameId, seat: 'A', token: tokens.A });
    await raw.next('welcome');
    raw.sendJson({ kind: 'send', id: 1, event: { type: 'PASS_PRIORITY', player: 'A' } });
    // After the welcome, an update is the change against it (CONTRACT v4, updates carry what changed).
    const update = (await raw.next('patch')) as Extract<ServerMessage, { kind: 'patch' }>;
    expect(update).toMatchObject({ answers: 1, patch: { view: { version: 1 } } });
    raw.sendJson({ kind: 'send', id: 2, event: { type: 'PASS_PRIORITY', player: 'A' } });
    expect(await raw.next('result')).toMatchObject({ id: 2, result: { ok: false, error: { code: 'ILLEGAL_ACTION' } } });
    // No result for the accepted send; the other seat's update answers nothing of it.
    expect(raw.messages.some((m) => m.kind === 'result' && m.id === 1)).toBe(false);
    const b = await rawJoin(url, { gameId, seat: 'B', token: tokens.B });
    await b.next('welcome');
    raw.sendJson({ kind: 'send', id: 3, event: { type: 'CONCEDE', player: 'A' } });
    expect(await raw.answer(3)).toMatchObject({ ok: true, events: expect.arrayContaining([expect.objectContaining({ type: 'playerLeft' })]) });
    expect(await b.next('patch')).not.toHaveProperty('answers');
    await Promise.all([raw.room.leave(), b.room.leave()]);
  });

  it('keeps the cards state of each game apart (loaded before the server works on a game)', async () => {
    const one = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const two = await server.createGame({ players: ['A', 'B'], seed: 2 });
    const t1 = await join(url, { gameId: one.gameId, seat: 'A', token: one.tokens.A as string });
    const t1b = await join(url, { gameId: one.gameId, seat: 'B', token: one.tokens.B as string });
    const t2 = await join(url, { gameId: two.gameId, seat: 'A', token: two.tokens.A as string });
    expect((await t1.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    expect((await t2.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    expect((await t1b.send({ type: 'PASS_PRIORITY', player: 'B' })).ok).toBe(true);
    const s1 = (await store.loadGame(one.gameId))?.hostState as { checkpoints: number };
    const s2 = (await store.loadGame(two.gameId))?.hostState as { checkpoints: number };
    // Each game's count is its own: game one asked its checkpoint more often than game two.
    expect(s1.checkpoints).toBeGreaterThan(s2.checkpoints);
    await Promise.all([t1.close(), t1b.close(), t2.close()]);
  });
});

