/**
 * CONTRACT v4, "Serving games": updates carry what changed. After the first update of a
 * connection, each update is a JSON merge patch (RFC 7386) of the seat's view, legal actions and
 * `nextStop` against the previous update to that connection, with the events in full; the state
 * a client builds from the patches is the same as a full update's, null fields included; and a
 * seat receives at most 600 WebSocket payload bytes per accepted send on average (Colyseus
 * framing included) over 200 random legal actions of a 2-player game without cards. Real sockets
 * on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concreteEvent, seededRandom } from '../../src/simulation.js';
import type { ServerMessage } from '../../src/client/protocol.js';
import { applyDocChange, applyMergePatch, docChange, type StateDoc } from '../../src/client/patch.js';
import { seatDoc } from '../../src/server/deliver.js';
import { rebuildCardGame } from '../../src/server/cardReload.js';
import { servedCards } from '../../src/server/cardGames.js';
import type { MemoryStore, TableServer } from '../../src/server/index.js';
import { rawJoin, startServer } from './harness.js';

/** Cards with no hooks and no state: a game "without cards". */
const noCards = { saveState: () => null, loadState: () => undefined };

type Raw = Awaited<ReturnType<typeof rawJoin>>;

/** A seat's raw connection: the state it was told (patches applied) and the payload bytes of each message. */
interface Seat {
  readonly seat: string;
  readonly raw: Raw;
  readonly bytes: number[];
  doc: StateDoc | null;
  /** How many messages were applied to `doc`. */
  applied: number;
}

async function seatOf(url: string, gameId: string, seat: string, token: string): Promise<Seat> {
  const raw = await rawJoin(url, { gameId, seat, token });
  const out: Seat = { seat, raw, bytes: [], doc: null, applied: 0 };
  // The WebSocket's own messages: the payload bytes as received, Colyseus framing included.
  const ws = (raw.room.connection as unknown as { transport: { ws: WebSocket } }).transport.ws;
  ws.addEventListener('message', (e: MessageEvent) => out.bytes.push((e.data as ArrayBuffer).byteLength));
  await raw.next('welcome');
  return out;
}

/** Applies the messages not applied yet; the state now. */
function stateOf(seat: Seat): StateDoc {
  for (; seat.applied < seat.raw.messages.length; seat.applied++) {
    const m = seat.raw.messages[seat.applied] as ServerMessage;
    if (m.kind === 'welcome' || m.kind === 'update') seat.doc = { view: m.view, legalActions: m.legalActions, nextStop: m.nextStop };
    else if (m.kind === 'patch') seat.doc = applyDocChange(seat.doc as StateDoc, m);
  }
  return seat.doc as StateDoc;
}

async function reach(seat: Seat, version: number): Promise<StateDoc> {
  const end = Date.now() + 10_000;
  for (;;) {
    const doc = stateOf(seat);
    if (doc.view.version >= version) return doc;
    if (Date.now() > end) throw new Error(`${seat.seat} never saw version ${version}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** What a full update of `seat` says now: the game rebuilt from the store (its latest snapshot and the sends after it), as a welcome is made. */
async function fullState(store: MemoryStore, gameId: string, seat: string): Promise<StateDoc> {
  const stored = await store.loadGame(gameId);
  const { game } = await rebuildCardGame(store, stored!, servedCards(noCards));
  return JSON.parse(JSON.stringify(seatDoc(game, seat, { view: game.view(), legalActions: game.legalActions() }))) as StateDoc;
}

describe('updates carry what changed (CONTRACT v4, "Serving games")', () => {
  let server: TableServer;
  let store: MemoryStore;
  let url: string;
  beforeAll(async () => {
    ({ server, store, url } = await startServer({ cards: noCards }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('over 200 random legal actions (as the simulator plays): each seat\'s state from the patches equals a full update (nulls included), and the mean update is at most 600 bytes', async () => {
    const random = seededRandom(31);
    const sizes: number[] = [];
    let sends = 0;
    let wholes = 0;
    let nullsKept = 0;
    for (let g = 0; sends < 200; g++) {
      const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 100 + g });
      const seats = [await seatOf(url, gameId, 'A', tokens.A as string), await seatOf(url, gameId, 'B', tokens.B as string)];
      for (const s of seats) s.bytes.length = 0; // the first update (the welcome) is not counted
      let id = 0;
      while (sends < 200) {
        const docs = seats.map(stateOf);
        if (docs[0]!.view.gameOver !== null) break;
        // The simulator's random player (src/simulation.ts): the awaited seat passes most of the
        // time (more as the stack grows), else takes any of its legal actions; never concedes.
        const seat = seats.find((_, i) => docs[i]!.legalActions.some((a) => a.type !== 'CONCEDE'));
        if (seat === undefined) throw new Error(`no seat may act at version ${docs[0]!.view.version}`);
        const doc = stateOf(seat);
        const actions = doc.legalActions.filter((a) => a.type !== 'CONCEDE');
        const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
        const action = pass !== undefined && random() < Math.min(0.98, 0.8 + 0.05 * doc.view.stack.length) ? pass : actions[Math.floor(random() * actions.length)]!;
        const version = doc.view.version;
        const before = seats.map((s) => s.bytes.length);
        seat.raw.sendJson({ kind: 'send', id: ++id, event: concreteEvent(action, doc.view, random, id) });
        const answer = await seat.raw.answer(id);
        expect(answer, JSON.stringify(action)).toMatchObject({ ok: true });
        sends++;
        for (const [i, s] of seats.entries()) {
          const now = await reach(s, version + 1);
          // One message per seat per accepted send.
          expect(s.bytes.length - before[i]!).toBe(1);
          sizes.push(s.bytes.at(-1)!);
          const full = await fullState(store, gameId, s.seat);
          expect(now).toStrictEqual(full);
        }
        for (const s of seats) {
          const last = s.raw.messages.at(-1) as ServerMessage;
          expect(last.kind).toBe('patch');
          if (last.kind === 'patch' && last.whole !== undefined) wholes++;
        }
        const view = stateOf(seats[0]!).view;
        if (view.priority === null || view.combat === null || view.awaiting === null) nullsKept++;
      }
      await Promise.all(seats.map((s) => s.raw.room.leave()));
    }
    // Fields became null and stayed null (sent whole), and the updates were small.
    expect(wholes).toBeGreaterThan(0);
    expect(nullsKept).toBeGreaterThan(0);
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    expect(sizes.length).toBe(400);
    expect(mean).toBeLessThanOrEqual(600);
  });
});

describe('the change of a state document (src/client/patch.ts)', () => {
  const base = (view: Record<string, unknown>): StateDoc => ({ view: view as never, legalActions: [], nextStop: {} });

  it('RFC 7386: a null removes a key, an object merges, anything else replaces; the target is not changed', () => {
    const target = Object.freeze({ a: 1, b: Object.freeze({ c: 2, d: 3 }), e: [1, 2] });
    expect(applyMergePatch(target, { a: null, b: { c: 5, f: 6 }, e: [3] })).toEqual({ b: { c: 5, d: 3, f: 6 }, e: [3] });
    expect(target).toEqual({ a: 1, b: { c: 2, d: 3 }, e: [1, 2] });
  });

  it('sends a field whole when it becomes null or gains a null, and patches inside the others', () => {
    const before = base({ version: 1, priority: 'A', stops: { A: [{ step: 'end' }], B: null }, combat: { attackers: [] }, manaPool: { A: 0, B: 0 } });
    const after = base({ version: 2, priority: null, stops: { A: null, B: null }, combat: { attackers: [] }, manaPool: { A: 3, B: 0 } });
    const change = docChange(before, after, null);
    expect(change.patch).toEqual({ view: { version: 2, manaPool: { A: 3 } } });
    expect(change.whole).toEqual({ view: { priority: null, stops: { A: null, B: null } } });
    expect(applyDocChange(before, change)).toStrictEqual(after);
  });

  it('looks only at the fields the engine says may have changed', () => {
    const before = base({ version: 1, turn: 1, phase: 'beginning' });
    const after = base({ version: 2, turn: 2, phase: 'beginning' });
    expect(docChange(before, after, new Set(['turn', 'phase'])).patch).toEqual({ view: { version: 2 } });
    expect(docChange(before, after, null).patch).toEqual({ view: { version: 2, turn: 2 } });
  });
});
