/**
 * CONTRACT v3, "Serving games" (who may send what) and "Playing between people" (private seats),
 * as a hostile client meets them over real WebSockets: a client cannot act for another seat,
 * cannot send host events, cannot read another seat's private fields, cannot join without a valid
 * token; malformed, oversized and flooding messages get errors, never crash the room, and never
 * change the game.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameHooks, SeatEvent, Stop, TurnView } from '../../src/index.js';
import { MAX_MESSAGE_BYTES, MESSAGE_TYPE, type ServerMessage } from '../../src/client/protocol.js';
import type { MemoryStore, TableServer } from '../../src/server/index.js';
import { join, playUntil, rawJoin, settle, startServer, statesOf, until } from './harness.js';

/** Cards that give C control of D's next turn (CR 723) in games of C and D; nothing in others. */
function controllingCards() {
  let state = { given: false };
  return {
    hooks: {
      checkpoint: (view: TurnView) => {
        if (state.given || !view.players.includes('C')) return undefined;
        state = { given: true };
        return { events: [{ type: 'CONTROL_PLAYER', controller: 'C', player: 'D' }] };
      },
    } as GameHooks,
    saveState: () => state,
    loadState: (s: unknown) => {
      state = s === null ? { given: false } : (s as { given: boolean });
    },
  };
}

const HOST_EVENTS = [
  { type: 'WIN', player: 'A' },
  { type: 'LOSE', player: 'B' },
  { type: 'DRAW_GAME' },
  { type: 'ADD_MANA', player: 'A', amount: 10 },
  { type: 'END_TURN' },
  { type: 'TRIGGER', triggers: [{ id: 't', controller: 'A' }] },
  { type: 'CONTROL_PLAYER', controller: 'A', player: 'B' },
  { type: 'ADD_EXTRA_TURN', player: 'A' },
  { type: 'HAND_SIZE', player: 'A', size: 99 },
  { type: 'WIN' }, // malformed, still a host event
];

describe('the security of a served game (CONTRACT v3, "Serving games")', () => {
  let server: TableServer;
  let store: MemoryStore;
  let url: string;
  beforeAll(async () => {
    ({ server, store, url } = await startServer({ cards: controllingCards(), limits: { perSecond: 20, burst: 20, inFlight: 4 } }));
  });
  afterAll(async () => {
    await server.close();
  });

  const newGame = async (players = ['A', 'B']) => server.createGame({ players, seed: 5 });

  describe('joining', () => {
    it('refuses a join without a valid token (JOIN_REFUSED), and one for a game or seat that does not exist', async () => {
      const { gameId, tokens } = await newGame();
      const refusals = [
        { gameId, seat: 'A', token: 'not-the-token' },
        { gameId, seat: 'B', token: tokens.A as string }, // A's token for B's seat
        { gameId, seat: 'Z', token: tokens.A as string },
        { gameId: 'no-such-game', seat: 'A', token: tokens.A as string },
        { gameId, seat: 'A', token: '' },
      ];
      for (const as of refusals) {
        await expect(join(url, as)).rejects.toMatchObject({ name: 'TurnEngineError', code: 'JOIN_REFUSED' });
      }
      // Join options that are not a join at all.
      await expect(rawJoin(url, { gameId, seat: 'A' })).rejects.toThrow(/options/);
      await expect(rawJoin(url, { gameId: 42, spectator: true })).rejects.toThrow(/gameId/);
      // The store keeps only the tokens' hashes.
      const stored = JSON.stringify(await store.loadGame(gameId));
      expect(stored).not.toContain(tokens.A);
      expect(stored).not.toContain(tokens.B);
      expect((tokens.A as string).length).toBeGreaterThanOrEqual(22); // >= 128 bits, base64url
    });
  });

  describe('who may send what', () => {
    it("refuses another seat's decisions and settings (ILLEGAL_ACTION 723.5) and changes nothing", async () => {
      const { gameId, tokens } = await newGame();
      const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
      await a.send({ type: 'PASS_PRIORITY', player: 'A' });
      const before = a.getSnapshot();
      expect(before.priority).toBe('B');
      for (const event of [
        { type: 'PASS_PRIORITY', player: 'B' },
        { type: 'PASS_PRIORITY', player: 'B', by: 'A' },
        { type: 'PASS_PRIORITY', player: 'A', by: 'B' },
        { type: 'CONCEDE', player: 'B' },
        { type: 'SET_STOPS', player: 'B', stops: [] },
        { type: 'YIELD', player: 'B', until: 'endOfTurn' },
      ]) {
        expect(await a.send(event as unknown)).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '723.5' } });
      }
      await settle();
      expect(a.getSnapshot().version).toBe(before.version);
      expect((await store.loadGame(gameId))?.version).toBe(before.version);
      await a.close();
    });

    it('refuses every host event from a client (ILLEGAL_ACTION rule host), the server-only ones too', async () => {
      const { gameId, tokens } = await newGame();
      const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
      const before = a.getSnapshot().version;
      for (const event of HOST_EVENTS) expect(await a.send(event as unknown)).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: 'host' } });
      // TICK and SET_SEAT_STATUS come only from the server itself.
      for (const event of [{ type: 'TICK', at: Date.now() + 1e9 }, { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 1 }]) {
        expect((await a.send(event as unknown)).ok).toBe(false);
      }
      await settle();
      expect(a.getSnapshot().version).toBe(before);
      expect((await store.sends(gameId)).length).toBe(0);
      await a.close();
    });

    it("under 723 the controller decides for the controlled seat (with by), and the controlled seat's own client cannot", async () => {
      const { gameId, tokens } = await newGame(['C', 'D']);
      const c = await join(url, { gameId, seat: 'C', token: tokens.C as string });
      const d = await join(url, { gameId, seat: 'D', token: tokens.D as string });
      await playUntil([c, d], (v) => v.activePlayer === 'D' && v.priority === 'D');
      expect(c.getSnapshot().decidedBy.D).toBe('C');
      expect(d.legalActions().filter((x) => x.player === 'D' && x.type !== 'CONCEDE')).toEqual([]);
      expect(await d.send({ type: 'PASS_PRIORITY', player: 'D' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '723.5' } });
      const offered = c.legalActions('D').find((x) => x.type === 'PASS_PRIORITY');
      expect(offered).toMatchObject({ player: 'D', by: 'C' });
      expect(c.nextStop('D')).not.toBeNull();
      const version = c.getSnapshot().version;
      expect((await c.send({ type: 'PASS_PRIORITY', player: 'D', by: 'C' })).ok).toBe(true);
      expect(c.getSnapshot().version).toBe(version + 1);
      // A concession is always the player's own (723.6).
      expect(await c.send({ type: 'CONCEDE', player: 'D' })).toMatchObject({ ok: false, error: { rule: '723.5' } });
      await Promise.all([c.close(), d.close()]);
    });

    it('a spectator sends nothing', async () => {
      const { gameId } = await newGame();
      const watcher = await join(url, { gameId, spectator: true });
      expect(watcher.legalActions()).toEqual([]);
      // Its own rule name, not 723.5 (a spectator is no player another controls; issue 33).
      expect(await watcher.send({ type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: 'spectator', message: 'a spectator sends nothing: PASS_PRIORITY was not sent' } });
      expect(await watcher.send({ type: 'WIN', player: 'A' })).toMatchObject({ ok: false, error: { rule: 'host' } });
      expect(watcher.getSnapshot().version).toBe(0);
      await watcher.close();
    });
  });

  describe('private seats', () => {
    it("shows no seat another player's stops or the reason of their automatic passes, nor their next stop", async () => {
      const { gameId, tokens } = await newGame();
      const spy = await rawJoin(url, { gameId, seat: 'A', token: tokens.A });
      await spy.next('welcome');
      const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
      const watcher = await join(url, { gameId, spectator: true });
      const stops: Stop[] = [{ step: 'end', turn: 'any' }];
      expect((await b.send({ type: 'SET_STOPS', player: 'B', stops })).ok).toBe(true);
      expect(b.getSnapshot().stops.B).toEqual(stops);
      const bSaw: SeatEvent[] = [];
      b.on('autoPass', (e) => bSaw.push(e));
      // A passes: B, with stops set, passes automatically (no stop in upkeep).
      spy.sendJson({ kind: 'send', id: 1, event: { type: 'PASS_PRIORITY', player: 'A' } });
      expect(await spy.answer(1)).toMatchObject({ ok: true });
      await until(b, (v) => v.version === 2);
      await until(watcher, (v) => v.version === 2);
      const updates = statesOf(spy.messages);
      expect(updates.length).toBeGreaterThan(1);
      for (const m of updates) {
        expect(m.view.stops.B).toBeNull();
        expect(Object.keys(m.nextStop)).toEqual(['A']);
        expect(m.legalActions.every((x) => x.player === 'A')).toBe(true);
        for (const e of m.events) if (e.type === 'autoPass' && e.player === 'B') expect(e).not.toHaveProperty('reason');
      }
      const autoPassesOfB = updates.flatMap((m) => m.events).filter((e) => e.type === 'autoPass' && e.player === 'B');
      expect(autoPassesOfB.length).toBeGreaterThan(0);
      // B sees its own reason; the spectator sees no stops and no reasons.
      expect(bSaw.some((e) => e.type === 'autoPass' && e.player === 'B' && e.reason === 'noStop')).toBe(true);
      expect(watcher.getSnapshot().stops).toEqual({ A: null, B: null });
      expect(b.nextStop('A')).toBeNull();
      await Promise.all([b.close(), watcher.close(), spy.room.leave()]);
    });
  });

  describe('messages that are not what a table sends', () => {
    it('answers malformed and oversized messages with an error and changes nothing; the room plays on', async () => {
      const { gameId, tokens } = await newGame();
      const raw = await rawJoin(url, { gameId, seat: 'A', token: tokens.A });
      await raw.next('welcome');
      const bytes = (text: string) => new TextEncoder().encode(text);
      raw.room.sendBytes(MESSAGE_TYPE, bytes('{not json'));
      expect(await raw.next('error')).toMatchObject({ error: { code: 'INVALID_EVENT', message: expect.stringMatching(/JSON/) } });
      raw.room.sendBytes(MESSAGE_TYPE, new Uint8Array([0xff, 0xfe, 0x00]));
      expect(await raw.next('error')).toMatchObject({ error: { code: 'INVALID_EVENT' } });
      raw.sendJson({ kind: 'nothing' });
      expect(await raw.next('error')).toMatchObject({ error: { message: expect.stringMatching(/^message/) } });
      raw.sendJson({ kind: 'send', id: 7, event: 'PASS' });
      expect(await raw.next('result')).toMatchObject({ id: 7, result: { ok: false, error: { code: 'INVALID_EVENT' } } });
      raw.sendJson({ kind: 'send', id: 8, event: JSON.parse('{"__proto__":{"type":"WIN","player":"A"}}') });
      expect(await raw.next('result')).toMatchObject({ id: 8, result: { ok: false } });
      raw.sendJson({ kind: 'send', id: -1, event: { type: 'PASS_PRIORITY', player: 'A' } });
      expect(await raw.next('error')).toMatchObject({ error: { code: 'INVALID_EVENT' } });
      raw.room.send(MESSAGE_TYPE, { kind: 'send', id: 9, event: { type: 'PASS_PRIORITY', player: 'A' } }); // msgpack, not JSON bytes
      expect(await raw.next('error')).toMatchObject({ error: { message: expect.stringMatching(/bytes/) } });
      raw.room.sendBytes('another', bytes('{}'));
      expect(await raw.next('error')).toMatchObject({ error: { message: expect.stringMatching(/unknown type/) } });
      // An empty frame, a frame of a code Colyseus has no use for: unreadable too (Colyseus drops them without a word).
      raw.room.connection.send(new Uint8Array(0));
      expect(await raw.next('error')).toMatchObject({ error: { code: 'INVALID_EVENT', message: expect.stringMatching(/empty frame/) } });
      raw.room.connection.send(Uint8Array.of(99, 1, 2));
      expect(await raw.next('error')).toMatchObject({ error: { code: 'INVALID_EVENT', message: expect.stringMatching(/code 99/) } });
      // Over 64 KiB.
      raw.sendJson({ kind: 'send', id: 10, event: { type: 'PASS_PRIORITY', player: 'A', pad: 'x'.repeat(MAX_MESSAGE_BYTES) } });
      expect(await raw.next('error')).toMatchObject({ error: { message: expect.stringMatching(/over the limit/) } });
      await settle();
      expect((await store.loadGame(gameId))?.version).toBe(0);
      // The room still plays.
      raw.sendJson({ kind: 'send', id: 11, event: { type: 'PASS_PRIORITY', player: 'A' } });
      expect(await raw.answer(11)).toMatchObject({ ok: true });
      await raw.room.leave();
    });

    it('a message past the transport limit closes only its own connection', async () => {
      const { gameId, tokens } = await newGame();
      const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
      const raw = await rawJoin(url, { gameId, seat: 'A', token: tokens.A });
      await raw.next('welcome');
      const left = new Promise<number>((resolve) => raw.room.onLeave((code) => resolve(code)));
      raw.room.sendBytes(MESSAGE_TYPE, new Uint8Array(1024 * 1024));
      expect(await left).not.toBe(4000);
      const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
      expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
      await until(b, (v) => v.priority === 'B');
      await Promise.all([a.close(), b.close()]);
    });

    it('drops a flood (RATE_LIMITED) without changing the game; the room answers again once it has passed', async () => {
      const { gameId, tokens } = await newGame();
      const raw = await rawJoin(url, { gameId, seat: 'A', token: tokens.A });
      await raw.next('welcome');
      for (let id = 0; id < 300; id++) raw.sendJson({ kind: 'send', id, event: { type: 'PASS_PRIORITY', player: 'B' } });
      for (let i = 0; i < 100; i++) raw.room.sendBytes(MESSAGE_TYPE, new TextEncoder().encode('x'.repeat(1000)));
      await settle(500);
      const results = raw.messages.filter((m): m is Extract<ServerMessage, { kind: 'result' }> => m.kind === 'result');
      expect(results.some((m) => !m.result.ok && m.result.error.code === 'RATE_LIMITED')).toBe(true);
      expect(results.every((m) => !m.result.ok)).toBe(true);
      expect((await store.loadGame(gameId))?.version).toBe(0);
      await settle(1200);
      raw.sendJson({ kind: 'send', id: 1000, event: { type: 'PASS_PRIORITY', player: 'A' } });
      expect(await raw.answer(1000)).toMatchObject({ ok: true });
      await raw.room.leave();
    });
  });
});
