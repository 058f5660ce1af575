/**
 * CONTRACT v4, "Serving games" (one client cannot hurt other games), as an attacker meets it over
 * real sockets: each connection has a message budget (20 a second sustained, bursts of 100);
 * beyond it messages are dropped unanswered, and a connection over budget for 5 s, or that sent
 * 256 unreadable messages, is closed 4429. A `resume` answers at most 1,000 events at a time, and
 * a table that rejoins far behind follows the pages to the end. HTTP bodies over 64 KiB are
 * refused 413 before they are read, on `POST /games` and on the matchmaking routes.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmittedEvent, Game, LegalAction, SeatEvent } from '../../src/index.js';
import { servedCards } from '../../src/server/cardGames.js';
import { CLOSE_OVER_BUDGET, MESSAGE_TYPE, type ServerMessage } from '../../src/client/protocol.js';
import { MAX_UNREADABLE, OVER_BUDGET_CLOSE_MS, RESUME_PAGE_EVENTS } from '../../src/server/limits.js';
import { MemoryStore, type TableServer } from '../../src/server/index.js';
import { ADMIN_KEY, join, plainest, rawJoin, settle, startServer } from './harness.js';
import { freePort } from './services.js';

let server: TableServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 404: 'Not Found', 413: 'Payload Too Large' };
const bytes = (text: string) => new TextEncoder().encode(text);
const closed = (room: { onLeave(cb: (code: number) => void): void }) => new Promise<number>((resolve) => room.onLeave((code) => resolve(code)));

describe('message budgets (CONTRACT v4)', () => {
  it('drops messages beyond the burst unanswered, and closes a connection still over budget after 5 s with 4429', async () => {
    const started = await startServer();
    server = started.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const b = await join(started.url, { gameId, seat: 'B', token: tokens.B as string });
    const raw = await rawJoin(started.url, { gameId, seat: 'A', token: tokens.A });
    await raw.next('welcome');
    const left = closed(raw.room);
    // 300 readable sends at once (each refused: B's decision): the burst of 100 is answered, the rest dropped unanswered.
    for (let id = 0; id < 300; id++) raw.sendJson({ kind: 'send', id, event: { type: 'PASS_PRIORITY', player: 'B' } });
    await settle(500);
    const answered = raw.messages.filter((m) => m.kind === 'result').length;
    expect(answered).toBeGreaterThanOrEqual(90); // the join's own messages spend from the burst too
    expect(answered).toBeLessThan(140);
    // Keep flooding (200 a second): closed 4429 after 5 s over budget, not before.
    const since = Date.now();
    let code: number | null = null;
    void left.then((c) => (code = c));
    while (code === null && Date.now() - since < OVER_BUDGET_CLOSE_MS + 5000) {
      for (let i = 0; i < 10; i++) raw.sendJson({ kind: 'send', id: 1000, event: { type: 'PASS_PRIORITY', player: 'B' } });
      await settle(50);
    }
    expect(code).toBe(CLOSE_OVER_BUDGET);
    expect(Date.now() - since).toBeGreaterThanOrEqual(OVER_BUDGET_CLOSE_MS - 600);
    expect(started.logs.filter((l) => l.includes(`${CLOSE_OVER_BUDGET}`))).toHaveLength(1);
    // The game changed nothing, and its other seat plays on; A may join again with its token.
    expect((await started.store.sends(gameId)).map((x) => (x.event as { type: string }).type)).toEqual(['SET_SEAT_STATUS']); // A shown away, nothing else
    expect(b.status).toBe('connected');
    const a = await join(started.url, { gameId, seat: 'A', token: tokens.A as string });
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });

  it('closes a connection that sent 256 unreadable messages (empty frames too) with 4429 (each dropped before it is parsed further)', async () => {
    const started = await startServer({ limits: { perSecond: 10_000, burst: 10_000 } });
    server = started.server;
    const { gameId } = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const raw = await rawJoin(started.url, { gameId, spectator: true });
    await raw.next('welcome');
    const left = closed(raw.room);
    // Not JSON, not a message, an empty frame: each answered with an error, and counted.
    for (let i = 0; i < MAX_UNREADABLE - 1; i++) {
      if (i % 3 === 2) raw.room.connection.send(new Uint8Array(0));
      else raw.room.sendBytes(MESSAGE_TYPE, bytes(i % 3 === 0 ? '{not json' : '{"kind":"nothing"}'));
    }
    await raw.waitFor(() => raw.messages.filter((m) => m.kind === 'error').length === MAX_UNREADABLE - 1);
    raw.room.sendBytes('another type', bytes('{}'));
    expect(await left).toBe(CLOSE_OVER_BUDGET);
  });
});

/** Cards without hooks: the stored games below were played without any. */
const NO_CARDS = { saveState: () => null, loadState: () => undefined };
/** The served games of those cards, as the server makes and stores them. */
const SERVED = servedCards(NO_CARDS);

/** Plays `sends` plainest sends on `game` and journals each as the server does (the lease taken, then given up): the events. */
async function playStored(store: MemoryStore, gameId: string, game: Game, sends: number): Promise<EmittedEvent[]> {
  await store.acquireLease(gameId, 'me', Date.now(), 60_000);
  const events: EmittedEvent[] = [];
  for (let i = 0; i < sends; i++) {
    const before = game.getSnapshot().version;
    const event = plainest(game.legalActions().find((a) => a.type !== 'CONCEDE') as LegalAction);
    const result = game.send(event);
    if (!result.ok) throw new Error(result.error.message);
    events.push(...result.events);
    const after = game.getSnapshot();
    // The send as sent (the server's journal): a reload sends it again.
    const written = await store.appendSend(gameId, before, 'me', Date.now(), { send: { version: after.version, seq: after.seq, event, results: [], at: null }, snapshot: game.persist(), hostState: SERVED.stored(game), finished: false });
    if (!written.ok) throw new Error(written.reason);
  }
  await store.releaseLease(gameId, 'me');
  return events;
}

/** A stored game of `sends` plainest sends (about one event each), its lease free: as a server left it. */
async function storedGame(store: MemoryStore, gameId: string, sends: number): Promise<EmittedEvent[]> {
  // As the server makes it: a card game of the v3 cards NO_CARDS (src/server/cardGames.ts).
  const game = SERVED.create({ players: ['A', 'B'], seed: 3 });
  await store.createGame({ gameId, setup: { players: ['A', 'B'], seed: 3 }, snapshot: game.persist(), version: 0, seq: game.getSnapshot().seq, hostState: SERVED.stored(game), tokenHashes: {}, createdAt: 1 });
  return playStored(store, gameId, game, sends);
}

describe('resume is paged (CONTRACT v4)', () => {
  it('answers at most 1,000 events per resume; a client asks again from its last seq until it has them all', async () => {
    const store = new MemoryStore();
    const events = await storedGame(store, 'long', 1300);
    expect(events.length).toBeGreaterThan(RESUME_PAGE_EVENTS + 100);
    const started = await startServer({ store, cards: NO_CARDS });
    server = started.server;
    const raw = await rawJoin(started.url, { gameId: 'long', spectator: true, lastSeq: (events[0]?.seq ?? 1) - 1 });
    const pages: Extract<ServerMessage, { kind: 'welcome' }>[] = [];
    for (;;) {
      const page = (await raw.next('welcome')) as Extract<ServerMessage, { kind: 'welcome' }>;
      pages.push(page);
      expect(page.events.length).toBeLessThanOrEqual(RESUME_PAGE_EVENTS);
      if (page.more !== true) break;
      raw.sendJson({ kind: 'resume', lastSeq: page.events.at(-1)?.seq });
    }
    expect(pages.map((p) => p.events.length)).toEqual([RESUME_PAGE_EVENTS, events.length - RESUME_PAGE_EVENTS]);
    expect(pages[0]?.more).toBe(true);
    expect(pages.flatMap((p) => p.events).map((e) => e.seq)).toEqual(events.map((e) => e.seq));
    await raw.room.leave();
  });

  it('a table that rejoins far behind follows the pages: every event, in order, once', async () => {
    const store = new MemoryStore();
    const game = SERVED.create({ players: ['A', 'B'], seed: 3 });
    await store.createGame({ gameId: 'g', setup: { players: ['A', 'B'], seed: 3 }, snapshot: game.persist(), version: 0, seq: game.getSnapshot().seq, hostState: SERVED.stored(game), tokenHashes: {}, createdAt: 1 });
    const [port1, port2] = [await freePort(), await freePort()];
    const first = await startServer({ store, port: port1, cards: NO_CARDS });
    server = first.server;
    const urls = [`ws://127.0.0.1:${port1}`, `ws://127.0.0.1:${port2}`];
    const { connectTable } = await import('../../src/client/index.js');
    const watcher = await connectTable(urls, { gameId: 'g', spectator: true }, { retryMs: { min: 20, max: 100 } });
    const seen: SeatEvent[] = [];
    watcher.on('*', (e) => seen.push(e));
    await first.server.close();
    server = null;
    // Meanwhile the game went on by 1,300 sends (as another server would have written them).
    await store.acquireLease('g', 'me', Date.now(), 60_000);
    await store.releaseLease('g', 'me');
    const more = await extend(store, 'g', 1300);
    server = (await startServer({ store, port: port2, cards: NO_CARDS })).server;
    const end = Date.now() + 20_000;
    while ((watcher.status !== 'connected' || seen.at(-1)?.seq !== more.at(-1)?.seq) && Date.now() < end) await settle(50);
    expect(watcher.status).toBe('connected');
    expect(seen.map((e) => e.seq)).toEqual(more.map((e) => e.seq));
    await watcher.close();
  });
});

/** Appends `sends` plainest sends to a stored game (its lease free before and after). */
async function extend(store: MemoryStore, gameId: string, sends: number): Promise<EmittedEvent[]> {
  const { rebuildCardGame } = await import('../../src/server/cardReload.js');
  const stored = (await store.loadGame(gameId))!;
  const { game } = await rebuildCardGame(store, stored, SERVED);
  return playStored(store, gameId, game, sends);
}

/** A raw HTTP POST: the status, or 'reset' when the server closed the connection before answering. */
function post(port: number, path: string, headers: Record<string, string | number>, body: Buffer | Buffer[]): Promise<number | 'reset'> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve('reset'));
    for (const chunk of Array.isArray(body) ? body : [body]) req.write(chunk);
    req.end();
  });
}

/** What a raw client read of its request's answer, how the connection ended, and how many body bytes it sent meanwhile. */
interface Streamed {
  answer: string;
  /** The server's FIN came (an orderly close). */
  ended: boolean;
  /** The connection was reset (an error on the socket). */
  reset: boolean;
  sent: number;
}

/**
 * A raw POST of `path` with a chunked body: `body` bytes are written at once (then the client waits),
 * or with `body` null, 64 KiB chunks are streamed as fast as the server takes them, until the
 * server closes the connection or `limit` bytes are sent. Never ends the request itself.
 */
function postChunked(port: number, path: string, headers: Record<string, string>, body: number | null, limit = 64 * 1024 * 1024): Promise<Streamed> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    const out: Streamed = { answer: '', ended: false, reset: false, sent: 0 };
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve(out);
    };
    socket.on('data', (d: Buffer) => (out.answer += d.toString('latin1')));
    socket.on('end', () => {
      out.ended = true;
      finish();
    });
    socket.on('error', () => {
      out.reset = true;
      finish();
    });
    socket.on('close', finish);
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    const frame = (size: number) => Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), Buffer.alloc(size, 0x20), Buffer.from('\r\n')]);
    socket.on('connect', () => {
      socket.write(head);
      if (body !== null) {
        socket.write(frame(body));
        out.sent = body;
        return;
      }
      const chunk = frame(64 * 1024);
      const pump = () => {
        while (!done && out.sent < limit) {
          out.sent += 64 * 1024;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
        if (!done) finish(); // the limit: the server read it all, and went on reading
      };
      pump();
    });
  });
}

describe('HTTP bodies (CONTRACT v4)', () => {
  it('closes the connection of a request answered without reading its body, once the answer is out (the answer reaches the client)', async () => {
    const started = await startServer();
    server = started.server;
    const port = server.port;
    const cases: [string, Record<string, string>, number][] = [
      ['/games', {}, 401],
      ['/games', { Authorization: `Bearer ${ADMIN_KEY}` }, 413],
      ['/nothing-here', {}, 404],
      ['/matchmake/joinOrCreate/turn', {}, 413],
    ];
    for (const [path, headers, status] of cases) {
      // Streamed without end: answered, then the server's FIN (no reset), long before 64 MiB.
      const streamed = await postChunked(port, path, headers, null);
      expect([path, streamed.answer.split('\r\n')[0], streamed.ended, streamed.reset]).toEqual([path, `HTTP/1.1 ${status} ${STATUS_TEXT[status]}`, true, false]);
      expect(streamed.answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(streamed.sent).toBeLessThan(64 * 1024 * 1024);
      // 1 MiB at once, the client waiting: the answer, then an orderly close.
      const sent = await postChunked(port, path, headers, 1024 * 1024);
      expect([path, sent.answer.split('\r\n')[0], sent.ended, sent.reset]).toEqual([path, `HTTP/1.1 ${status} ${STATUS_TEXT[status]}`, true, false]);
    }
  });


  it('refuses a body over 64 KiB with 413 before reading it, on POST /games and the matchmaking routes', async () => {
    const started = await startServer();
    server = started.server;
    const port = server.port;
    const big = Buffer.alloc(300 * 1024, 0x20);
    const before = process.memoryUsage().heapUsed;
    for (const path of ['/matchmake/joinOrCreate/turn', '/matchmake/join/turn', '/matchmake/joinById/abc', '/games']) {
      expect(await post(port, path, { 'Content-Type': 'application/json', 'Content-Length': big.length, Authorization: `Bearer ${ADMIN_KEY}` }, big)).toBe(413);
    }
    // Without a length (chunked): cut at the limit, the 413 read before the connection closes.
    const chunks = Array.from({ length: 40 }, () => Buffer.alloc(8 * 1024, 0x20));
    expect(await post(port, '/matchmake/joinOrCreate/turn', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, chunks)).toBe(413);
    // POST /games without the key: 401, its body never read (no JSON error about it).
    expect(await post(port, '/games', { 'Content-Length': 9 }, Buffer.from('{not json'))).toBe(401);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024);
    // A body within the limit still works.
    const { gameId } = await server.createGame({ players: ['A', 'B'] });
    const ok = await fetch(`http://127.0.0.1:${port}/matchmake/joinOrCreate/turn`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ gameId, spectator: true }) });
    expect(((await ok.json()) as { sessionId?: string }).sessionId).toEqual(expect.any(String));
  });
});
