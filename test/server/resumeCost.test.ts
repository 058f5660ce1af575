/**
 * CONTRACT v4, "One client cannot hurt other games": a resume (or a join with `lastSeq`) from far
 * back costs the server a page, however far back it starts, and never one long run. Counted, not
 * timed: the stored sends each resume reads (and so replays), the snapshots it reads; the game's
 * own sends go on while a resume waits for the store (a read held by a promise the test holds).
 * A long paged resume still gives every event, in order, once, as the seat (or a spectator)
 * receives them, for a plain game and a card game.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EmittedEvent, Game, LegalAction, SeatEvent } from '../../src/index.js';
import { defineCards } from '../../src/cards/index.js';
import { servedCards, type ServedCards } from '../../src/server/cardGames.js';
import type { ServerMessage } from '../../src/client/protocol.js';
import { RESUME_PAGE_EVENTS } from '../../src/server/limits.js';
import { seatEvents } from '../../src/server/seatState.js';
import { MAX_PAGE_SENDS, ReplayBudget, StoredEvents } from '../../src/server/storedEvents.js';
import { KEEP_SNAPSHOT_EVERY } from '../../src/server/store/memory.js';
import { hashToken } from '../../src/server/tokens.js';
import { MemoryStore, type TableServer } from '../../src/server/index.js';
import type { StoredSend, StoredSnapshot } from '../../src/server/store/types.js';
import { plainest, rawJoin, settle, startServer, statesOf } from './harness.js';

let server: TableServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A MemoryStore that counts what is read of it, and holds its snapshot reads while `gate` is set. */
class CountingStore extends MemoryStore {
  /** Stored sends read (rows), and reads of them. */
  sendRows = 0;
  sendReads = 0;
  /** Reads of every kept snapshot, and of one. */
  allSnapshots = 0;
  oneSnapshot = 0;
  gate: Promise<void> | null = null;

  override async sends(gameId: string, afterVersion?: number, limit?: number): Promise<StoredSend[]> {
    const rows = await super.sends(gameId, afterVersion, limit);
    this.sendReads++;
    this.sendRows += rows.length;
    return rows;
  }

  override async snapshots(gameId: string): Promise<StoredSnapshot[]> {
    if (this.gate !== null) await this.gate;
    this.allSnapshots++;
    return super.snapshots(gameId);
  }

  override async snapshotBefore(gameId: string, at: { version: number; seq: number }): Promise<StoredSnapshot | null> {
    if (this.gate !== null) await this.gate;
    this.oneSnapshot++;
    return super.snapshotBefore(gameId, at);
  }

  reset(): void {
    this.sendRows = 0;
    this.sendReads = 0;
    this.allSnapshots = 0;
    this.oneSnapshot = 0;
  }
}

const TOKENS = { A: 'token-of-seat-A-0123456789abcdef', B: 'token-of-seat-B-0123456789abcdef' };

/** Cards without hooks (a plain game, as the server serves one), and a card game whose action emits two events. */
const NO_CARDS = { saveState: () => null, loadState: () => undefined };
const SPAM = defineCards<Record<string, never>>({
  name: 'spam@1',
  setup: () => ({}),
  actions: { spam: (ctx: { data?: unknown }) => [{ type: 'SET_DAY_NIGHT', value: Number(ctx.data) % 2 === 1 ? 'day' : 'night' }] },
} as never);

/**
 * A stored game of `sends` sends (`next` makes each), journaled as the server writes them (a
 * snapshot every KEEP_SNAPSHOT_EVERY versions), its lease free: the game and every event it emitted.
 */
async function storedGame(store: MemoryStore, gameId: string, served: ServedCards, sends: number, next: (game: Game, i: number) => unknown): Promise<{ game: Game; events: EmittedEvent[] }> {
  const game = served.create({ players: ['A', 'B'], seed: 3 });
  const tokenHashes = { A: hashToken(TOKENS.A), B: hashToken(TOKENS.B) };
  await store.createGame({ gameId, setup: { players: ['A', 'B'], seed: 3 }, snapshot: game.persist(), version: 0, seq: game.getSnapshot().seq, hostState: served.stored(game), tokenHashes, createdAt: 1 });
  await store.acquireLease(gameId, 'me', Date.now(), 600_000);
  const events: EmittedEvent[] = [];
  for (let i = 0; i < sends; i++) {
    const before = game.getSnapshot().version;
    const event = next(game, i);
    const result = game.send(event as never);
    if (!result.ok) throw new Error(result.error.message);
    events.push(...result.events);
    const after = game.getSnapshot();
    const snapshot = after.version % KEEP_SNAPSHOT_EVERY === 0 ? { snapshot: game.persist() } : {};
    const written = await store.appendSend(gameId, before, 'me', Date.now(), { send: { version: after.version, seq: after.seq, event, results: [], at: null }, ...snapshot, hostState: served.stored(game), finished: false });
    if (!written.ok) throw new Error(written.reason);
  }
  await store.releaseLease(gameId, 'me');
  return { game, events };
}

const plainSend = (game: Game) => plainest(game.legalActions().find((a) => a.type !== 'CONCEDE') as LegalAction);
const spamSend = (_game: Game, i: number) => ({ type: 'CARD_ACTION', player: i % 2 === 0 ? 'A' : 'B', action: 'spam', data: i });

type Welcome = Extract<ServerMessage, { kind: 'welcome' }>;
const json = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** Pages through a resume from `lastSeq` (the join's, or a resume's): every page's events, and the pages. */
async function pageThrough(raw: Awaited<ReturnType<typeof rawJoin>>, first: Welcome): Promise<{ events: SeatEvent[]; pages: Welcome[] }> {
  const pages = [first];
  for (;;) {
    const page = pages.at(-1) as Welcome;
    expect(page.gap).toBe(false);
    expect(page.events.length).toBeLessThanOrEqual(RESUME_PAGE_EVENTS);
    if (page.more !== true) break;
    raw.sendJson({ kind: 'resume', lastSeq: page.events.at(-1)?.seq });
    pages.push((await raw.next('welcome')) as Welcome);
  }
  return { events: pages.flatMap((p) => p.events), pages };
}

describe('a resume from far back costs a page (CONTRACT v4)', () => {
  it('reads one snapshot and at most a page of stored sends per resume, however far back it starts; the same resume again reads none', async () => {
    const store = new CountingStore();
    const { events } = await storedGame(store, 'long', servedCards(NO_CARDS), 3000, plainSend);
    expect(events.length).toBeGreaterThan(2 * RESUME_PAGE_EVENTS + 500);
    const started = await startServer({ store, cards: NO_CARDS });
    server = started.server;
    const raw = await rawJoin(started.url, { gameId: 'long', spectator: true });
    await raw.next('welcome');
    const resume = async (lastSeq: number) => {
      store.reset();
      raw.sendJson({ kind: 'resume', lastSeq });
      const page = (await raw.next('welcome')) as Welcome;
      return { page, sendRows: store.sendRows, allSnapshots: store.allSnapshots, oneSnapshot: store.oneSnapshot };
    };
    const start = (events[0]?.seq as number) - 1;
    const first = await resume(start);
    expect(first.page.events.map((e) => e.seq)).toEqual(events.slice(0, RESUME_PAGE_EVENTS).map((e) => e.seq));
    expect(first.page.more).toBe(true);
    // One snapshot read (not every kept one), and the sends of a page (not every send to the game's end).
    expect(first.allSnapshots).toBe(0);
    expect(first.oneSnapshot).toBe(1);
    expect(first.sendRows).toBeLessThanOrEqual(MAX_PAGE_SENDS);
    // The same resume again (a flood of them): answered from where the replay reached, nothing read.
    const again = await resume(start);
    expect(again.page.events).toEqual(first.page.events);
    expect(again.sendRows).toBe(0);
    expect(again.oneSnapshot).toBe(0);
    // From elsewhere far back: a page again, not the game from there to its end.
    const middle = events[1200]?.seq as number;
    const there = await resume(middle);
    expect(there.page.events.map((e) => e.seq)).toEqual(events.slice(1201, 1201 + RESUME_PAGE_EVENTS).map((e) => e.seq));
    expect(there.allSnapshots).toBe(0);
    expect(there.sendRows).toBeLessThanOrEqual(MAX_PAGE_SENDS);
    // The next page goes on from where the replay reached: each stored send read once more at most, not the game again.
    const next = await resume(there.page.events.at(-1)?.seq as number);
    expect(next.page.events.map((e) => e.seq)).toEqual(events.slice(1201 + RESUME_PAGE_EVENTS, 1201 + 2 * RESUME_PAGE_EVENTS).map((e) => e.seq));
    expect(next.oneSnapshot).toBe(0);
    expect(next.sendRows).toBeLessThanOrEqual(RESUME_PAGE_EVENTS + KEEP_SNAPSHOT_EVERY);
    await raw.room.leave();
  });

  it('counts a join with lastSeq as a resume: one snapshot, a page of sends, and the game sends on while the store is read', async () => {
    const store = new CountingStore();
    const { events } = await storedGame(store, 'long', servedCards(NO_CARDS), 2500, plainSend);
    const started = await startServer({ store, cards: NO_CARDS });
    server = started.server;
    const seatA = await rawJoin(started.url, { gameId: 'long', seat: 'A', token: TOKENS.A });
    const seatB = await rawJoin(started.url, { gameId: 'long', seat: 'B', token: TOKENS.B });
    await seatA.next('welcome');
    await seatB.next('welcome');
    await settle(200); // the seats' status sends are written
    store.reset();
    // The store's snapshot reads are held: a resume from far back waits for them.
    let release!: () => void;
    store.gate = new Promise<void>((done) => (release = done));
    const joined = await rawJoin(started.url, { gameId: 'long', spectator: true, lastSeq: (events[0]?.seq as number) - 1 });
    await settle(100);
    // Meanwhile the game's seats play on: a send is answered while the resume waits for the store.
    const mine = [seatA, seatB].find((t) => (statesOf(t.messages).at(-1)?.legalActions ?? []).some((a) => a.type !== 'CONCEDE'));
    if (mine === undefined) throw new Error('no seat may act');
    const action = statesOf(mine.messages).at(-1)?.legalActions.find((a) => a.type !== 'CONCEDE') as LegalAction;
    mine.sendJson({ kind: 'send', id: 1, event: plainest(action) });
    const answered = await Promise.race([mine.answer(1), settle(20_000).then(() => 'held' as const)]);
    expect(answered).not.toBe('held');
    expect(joined.messages.filter((m) => m.kind === 'welcome')).toHaveLength(0);
    store.gate = null;
    release();
    const first = (await joined.next('welcome')) as Welcome;
    // The join read one snapshot and a page of sends for its first page, as a resume does.
    expect([store.allSnapshots, store.oneSnapshot]).toEqual([0, 1]);
    expect(store.sendRows).toBeLessThanOrEqual(MAX_PAGE_SENDS);
    const paged = await pageThrough(joined, first);
    // Every event, in order, once: the stored ones, the seats' and the send's after them.
    const seqs = paged.events.map((e) => e.seq as number);
    expect(seqs.slice(0, events.length)).toEqual(events.map((e) => e.seq));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => (seqs[0] as number) + i));
    expect(seqs.at(-1)).toBe(paged.pages.at(-1)?.view.seq);
    await Promise.all([seatA.room.leave(), seatB.room.leave(), joined.room.leave()]);
  });
});

describe('a long paged resume gives every event, in order, once (CONTRACT v4)', () => {
  it('a plain game: a spectator joining with the lastSeq before the first send pages to the end', async () => {
    const store = new CountingStore();
    const served = servedCards(NO_CARDS);
    const { game, events } = await storedGame(store, 'plain', served, 2600, plainSend);
    const started = await startServer({ store, cards: NO_CARDS });
    server = started.server;
    const from = (events[0]?.seq as number) - 1;
    const raw = await rawJoin(started.url, { gameId: 'plain', spectator: true, lastSeq: from });
    const { events: got, pages } = await pageThrough(raw, (await raw.next('welcome')) as Welcome);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const expected = seatEvents(events, { spectator: true }, game);
    expect(got.map((e) => e.seq)).toEqual(expected.map((e) => e.seq));
    expect(json(got)).toEqual(json(expected));
    // Paged without replaying from the start each page: each stored send read about once.
    expect(store.sendRows).toBeLessThanOrEqual(2600 + pages.length * KEEP_SNAPSHOT_EVERY);
    await raw.room.leave();
  });

  it('a card game: a seat joining with lastSeq pages to the end, each event as that seat receives it', async () => {
    const store = new CountingStore();
    const served = servedCards(SPAM);
    const { game, events } = await storedGame(store, 'cards', served, 1300, spamSend);
    expect(events.length).toBeGreaterThan(2 * RESUME_PAGE_EVENTS);
    const started = await startServer({ store, cards: SPAM });
    server = started.server;
    const from = events[10]?.seq as number;
    const raw = await rawJoin(started.url, { gameId: 'cards', seat: 'B', token: TOKENS.B, lastSeq: from });
    const { events: got, pages } = await pageThrough(raw, (await raw.next('welcome')) as Welcome);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    // The stored events, then the seat's own SET_SEAT_STATUS (B connected) at the end, if written by then.
    const expected = seatEvents(events, { seat: 'B' }, game).filter((e) => (e.seq ?? 0) > from);
    expect(json(got.slice(0, expected.length))).toEqual(json(expected));
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: got.length }, (_, i) => from + 1 + i));
    // Paged without replaying from the start each page (nor reading every kept snapshot).
    expect(store.sendRows).toBeLessThanOrEqual(1300 + pages.length * KEEP_SNAPSHOT_EVERY);
    expect(store.allSnapshots).toBe(0);
    await raw.room.leave();
  });
});

describe('the replay budget', () => {
  it('counts the replayed sends of every page, and makes a replay beyond it wait', async () => {
    const store = new MemoryStore();
    const served = servedCards(NO_CARDS);
    const { events } = await storedGame(store, 'g', served, 1500, plainSend);
    let now = 0;
    const waits: number[] = [];
    const budget = new ReplayBudget(1000, 1200, () => now, async (ms) => {
      waits.push(ms);
      now += ms;
    });
    const stored = new StoredEvents('g', store, served, budget);
    const page = await stored.page((events[0]?.seq as number) - 1, 1500);
    expect(page?.events.map((e) => e.seq)).toEqual(events.slice(0, RESUME_PAGE_EVENTS + 1).map((e) => e.seq));
    const first = budget.spent;
    expect(first).toBeGreaterThan(RESUME_PAGE_EVENTS);
    expect(first).toBeLessThanOrEqual(MAX_PAGE_SENDS + KEEP_SNAPSHOT_EVERY);
    expect(waits).toEqual([]);
    // The next page is over the burst: it waits for the budget (simulated time), then replays.
    const next = await stored.page(page?.events[RESUME_PAGE_EVENTS - 1]?.seq as number, 1500);
    expect(next?.events[0]?.seq).toBe(events[RESUME_PAGE_EVENTS]?.seq);
    expect(next?.through).toBe(events.at(-1)?.seq);
    expect(waits.length).toBeGreaterThan(0);
    // One restore, and each stored send once: the second page went on from where the first stopped.
    expect(budget.spent).toBe(KEEP_SNAPSHOT_EVERY + 1500);
  });
});
