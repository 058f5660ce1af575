/**
 * The durable store of served games (issue 25; CONTRACT v3, "Serving games"): one suite run
 * against the three stores (MemoryStore, PGliteStore in memory, PostgresStore on a real
 * PostgreSQL server this file starts on 127.0.0.1), then what only the SQL stores do: two
 * PostgresStores on one database racing for one game, a write that fails inside the database
 * rolled back whole, PGlite on disk (reopened, locked to one store).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameExistsError, KEEP_SNAPSHOT_EVERY, MIGRATIONS, MemoryStore, PGliteStore, PostgresStore } from '../../src/server/store/index.js';
import { loadOptional } from '../../src/server/store/driver.js';
import type { GameStore, NewStoredGame, SendWrite } from '../../src/server/store/types.js';
import type { SqlDriver } from '../../src/server/store/sql.js';
import { postgresAvailable, startPostgres, type PostgresServer } from './services.js';

const withPostgres = postgresAvailable();
let server: PostgresServer | null = null;
let databases = 0;

beforeAll(async () => {
  if (withPostgres) server = await startPostgres();
});
afterAll(async () => {
  await server?.stop();
});

/** A new, empty database on the file's PostgreSQL server. */
async function newDatabase(): Promise<string> {
  if (server === null) throw new Error('no PostgreSQL server');
  return server.createDatabase(`store_${process.pid}_${++databases}`);
}

const HASH = 'a'.repeat(64);
let ids = 0;
const newId = () => `game-${++ids}-${randomUUID().slice(0, 8)}`;

function newGame(overrides: Partial<NewStoredGame> = {}): NewStoredGame {
  return {
    gameId: newId(),
    setup: { players: ['p1', 'p2'], seed: 42 },
    snapshot: { version: overrides.version ?? 0, state: 'start' },
    version: 0,
    seq: 0,
    hostState: { cards: [] },
    tokenHashes: { p1: HASH, p2: 'b'.repeat(64) },
    createdAt: 1_700_000_000_000,
    ...overrides,
  };
}

/** The write of the send that brings a game to `version`. */
function sendTo(version: number, extra: { event?: unknown; at?: number | null; finished?: boolean } = {}): SendWrite {
  return {
    send: { version, seq: version * 3, event: extra.event ?? { type: 'PASS_PRIORITY', player: 'p1', n: version }, results: [{ version }], at: extra.at ?? null },
    snapshot: { version, state: `after ${version}` },
    hostState: { cards: [version] },
    finished: extra.finished ?? false,
  };
}

/** A game created, leased to `owner` (at now = 1000 for an hour). */
async function leasedGame(store: GameStore, owner = 'owner-1', overrides: Partial<NewStoredGame> = {}): Promise<NewStoredGame> {
  const game = newGame(overrides);
  await store.createGame(game);
  expect(await store.acquireLease(game.gameId, owner, 1000, 3_600_000)).toBe(true);
  return game;
}

const NOW = 2000;

interface Kind {
  readonly name: string;
  /** A new, empty store. */
  make(): Promise<GameStore>;
  readonly available: boolean;
}

const kinds: Kind[] = [
  { name: 'MemoryStore', make: async () => new MemoryStore(), available: true },
  { name: 'PGliteStore', make: async () => new PGliteStore({ dataDir: 'memory://' }), available: true },
  { name: 'PostgresStore', make: async () => new PostgresStore({ connectionString: await newDatabase() }), available: withPostgres },
];

describe.each(kinds)('$name: the GameStore of served games (CONTRACT v3, "Serving games")', (kind) => {
  let store: GameStore;
  beforeAll(async () => {
    if (!kind.available) return;
    store = await kind.make();
    await store.init();
  });
  afterAll(async () => {
    await store?.close();
  });
  const test = it.skipIf(!kind.available);

  test('init is idempotent (the migrations run once)', async () => {
    await store.init();
    await store.init();
    expect(await store.listGames()).toEqual(expect.any(Array));
  });

  test('creates a game and loads it as created: no owner, not finished, its first snapshot kept', async () => {
    const game = newGame({ version: 3, seq: 7, snapshot: { at: 'v3' } });
    await store.createGame(game);
    expect(await store.loadGame(game.gameId)).toEqual({ ...game, owner: null, leaseUntil: 0, finished: false, instant: null });
    expect(await store.snapshots(game.gameId)).toEqual([{ version: 3, seq: 7, snapshot: { at: 'v3' } }]);
    expect(await store.sends(game.gameId)).toEqual([]);
  });

  test('loads null for a game it does not hold', async () => {
    expect(await store.loadGame('no-such-game')).toBeNull();
    expect(await store.sends('no-such-game')).toEqual([]);
    expect(await store.snapshots('no-such-game')).toEqual([]);
  });

  test('refuses a second game with the same id (GameExistsError) and keeps the first as it was', async () => {
    const game = newGame();
    await store.createGame(game);
    await expect(store.createGame({ ...game, setup: { other: true }, version: 9 })).rejects.toThrow(GameExistsError);
    await expect(store.createGame(game)).rejects.toMatchObject({ code: 'GAME_EXISTS', gameId: game.gameId });
    expect(await store.loadGame(game.gameId)).toMatchObject({ setup: game.setup, version: 0 });
    expect(await store.snapshots(game.gameId)).toHaveLength(1);
  });

  test('appendSend writes the send, the snapshot, version, seq and host state (the happy path)', async () => {
    const game = await leasedGame(store);
    expect(await store.appendSend(game.gameId, 0, 'owner-1', NOW, sendTo(1, { at: 1500 }))).toEqual({ ok: true });
    expect(await store.appendSend(game.gameId, 1, 'owner-1', NOW, sendTo(2, { finished: true }))).toEqual({ ok: true });
    expect(await store.loadGame(game.gameId)).toMatchObject({
      version: 2,
      seq: 6,
      snapshot: { version: 2, state: 'after 2' },
      hostState: { cards: [2] },
      finished: true,
      owner: 'owner-1',
      setup: game.setup,
    });
    expect(await store.sends(game.gameId)).toEqual([sendTo(1, { at: 1500 }).send, sendTo(2).send]);
  });

  test("refuses a write at a version that is not the stored one ('version') and writes nothing", async () => {
    const game = await leasedGame(store);
    await store.appendSend(game.gameId, 0, 'owner-1', NOW, sendTo(1));
    const before = await store.loadGame(game.gameId);
    expect(await store.appendSend(game.gameId, 0, 'owner-1', NOW, sendTo(1, { event: { type: 'LATE' } }))).toEqual({ ok: false, reason: 'version' });
    expect(await store.appendSend(game.gameId, 5, 'owner-1', NOW, sendTo(6))).toEqual({ ok: false, reason: 'version' });
    expect(await store.loadGame(game.gameId)).toEqual(before);
    expect((await store.sends(game.gameId)).map((s) => s.event)).toEqual([sendTo(1).send.event]);
  });

  test("refuses a write without the lease ('lease'): never leased, another owner's, expired; a lease taken over after it expired", async () => {
    const free = newGame();
    await store.createGame(free);
    expect(await store.appendSend(free.gameId, 0, 'owner-1', NOW, sendTo(1))).toEqual({ ok: false, reason: 'lease' });

    const game = await leasedGame(store, 'a'); // 'a' holds it until 1000 + 1 h
    const until = 1000 + 3_600_000;
    expect(await store.appendSend(game.gameId, 0, 'b', NOW, sendTo(1))).toEqual({ ok: false, reason: 'lease' });
    expect(await store.appendSend(game.gameId, 0, 'a', until + 1, sendTo(1))).toEqual({ ok: false, reason: 'lease' });
    expect(await store.acquireLease(game.gameId, 'b', until, 1000)).toBe(false); // not expired yet at `until`
    expect(await store.acquireLease(game.gameId, 'b', until + 1, 1000)).toBe(true);
    expect(await store.loadGame(game.gameId)).toMatchObject({ owner: 'b', leaseUntil: until + 1001 });
    // 'a' still thinks its lease holds (its clock says so): refused all the same
    expect(await store.appendSend(game.gameId, 0, 'a', NOW, sendTo(1))).toEqual({ ok: false, reason: 'lease' });
    expect(await store.appendSend(game.gameId, 0, 'b', until + 2, sendTo(1))).toEqual({ ok: true });
    expect(await store.sends(game.gameId)).toHaveLength(1);
    expect(await store.sends(free.gameId)).toEqual([]);
  });

  test("refuses a write to a game it does not hold ('missing')", async () => {
    expect(await store.appendSend('no-such-game', 0, 'owner-1', NOW, sendTo(1))).toEqual({ ok: false, reason: 'missing' });
    expect(await store.acquireLease('no-such-game', 'owner-1', NOW, 1000)).toBe(false);
  });

  test("recordInstants (CONTRACT v4) writes each game's instant for the games the owner holds, never backwards", async () => {
    const mine = newGame();
    const theirs = newGame();
    await store.createGame(mine);
    await store.createGame(theirs);
    expect(await store.acquireLease(mine.gameId, 'me', Date.now(), 60_000)).toBe(true);
    expect(await store.acquireLease(theirs.gameId, 'them', Date.now(), 60_000)).toBe(true);
    await store.recordInstants!('me', [{ gameId: mine.gameId, at: 1_000.5 }, { gameId: theirs.gameId, at: 5_000 }]);
    expect((await store.loadGame(mine.gameId))?.instant).toBe(1_000.5);
    expect((await store.loadGame(theirs.gameId))?.instant).toBeNull();
    await store.recordInstants!('me', [{ gameId: mine.gameId, at: 900 }]);
    expect((await store.loadGame(mine.gameId))?.instant).toBe(1_000.5);
    await store.recordInstants!('me', [{ gameId: mine.gameId, at: 2_000 }]);
    expect((await store.loadGame(mine.gameId))?.instant).toBe(2_000);
    await expect(store.recordInstants!('me', [{ gameId: mine.gameId, at: Number.NaN }])).rejects.toThrow(/instants\[0\]\.at/);
    expect((await store.loadGame(mine.gameId))?.instant).toBe(2_000);
  });

  test('renews and releases a lease: only its owner releases it', async () => {
    const game = await leasedGame(store, 'a');
    expect(await store.acquireLease(game.gameId, 'a', 5000, 100)).toBe(true); // renewed by its holder
    expect(await store.loadGame(game.gameId)).toMatchObject({ owner: 'a', leaseUntil: 5100 });
    await store.releaseLease(game.gameId, 'b');
    expect(await store.loadGame(game.gameId)).toMatchObject({ owner: 'a', leaseUntil: 5100 });
    await store.releaseLease(game.gameId, 'a');
    expect(await store.loadGame(game.gameId)).toMatchObject({ owner: null, leaseUntil: 0 });
    expect(await store.appendSend(game.gameId, 0, 'a', 5050, sendTo(1))).toEqual({ ok: false, reason: 'lease' });
    expect(await store.acquireLease(game.gameId, 'b', 5050, 100)).toBe(true);
  });

  test('writes many games at once (the SQL stores: in one statement), each conditional on its own version and lease, each answered alone', async () => {
    const games = await Promise.all(Array.from({ length: 12 }, () => leasedGame(store, 'many')));
    const odd = { type: 'PASS_PRIORITY', player: 'p1', text: 'quotes " and \\ backslash, ünïcødé ♠, 𝄞', nested: { list: [1, 2.5, -0.125, null, true] } };
    const writes = games.map((g, i) => {
      // 0-6 good; 7: a stale version; 8: not the lease holder; 9: a game that does not exist; 10-11 good, null host state, unusual `at`
      if (i === 7) return store.appendSend(g.gameId, 3, 'many', NOW, sendTo(4));
      if (i === 8) return store.appendSend(g.gameId, 0, 'someone-else', NOW, sendTo(1));
      if (i === 9) return store.appendSend('no-such-game-at-all', 0, 'many', NOW, sendTo(1));
      const write = sendTo(1, { event: { ...odd, i }, at: i === 10 ? 1e21 : i === 11 ? -3.5 : 1700000000123 });
      return store.appendSend(g.gameId, 0, 'many', NOW, i >= 10 ? { ...write, hostState: null } : write);
    });
    const results = await Promise.all(writes);
    expect(results).toEqual(games.map((_, i) => (i === 7 ? { ok: false, reason: 'version' } : i === 8 ? { ok: false, reason: 'lease' } : i === 9 ? { ok: false, reason: 'missing' } : { ok: true })));
    for (const [i, g] of games.entries()) {
      const sends = await store.sends(g.gameId);
      if (i === 7 || i === 8 || i === 9) {
        expect(sends).toEqual([]);
        expect(await store.loadGame(g.gameId)).toMatchObject({ version: 0, hostState: g.hostState });
        continue;
      }
      expect(sends).toEqual([{ ...sendTo(1).send, event: { ...odd, i }, at: i === 10 ? 1e21 : i === 11 ? -3.5 : 1700000000123 }]);
      expect(await store.loadGame(g.gameId)).toMatchObject({ version: 1, seq: 3, snapshot: { version: 1, state: 'after 1' }, hostState: i >= 10 ? null : { cards: [1] } });
    }
  });

  test('acquireLeases takes or renews many leases at once: the ids held after (not a live lease of another owner, not a missing game)', async () => {
    const mine = await leasedGame(store, 'a'); // held by 'a' until 1000 + 1 h
    const free = newGame();
    await store.createGame(free);
    const theirs = await leasedGame(store, 'b');
    const expired = newGame();
    await store.createGame(expired);
    expect(await store.acquireLease(expired.gameId, 'b', 0, 10)).toBe(true); // 'b' until 10
    const held = await store.acquireLeases!([mine.gameId, free.gameId, theirs.gameId, expired.gameId, 'no-such-game'], 'a', NOW, 500);
    expect([...held].sort()).toEqual([mine.gameId, free.gameId, expired.gameId].sort());
    for (const g of [mine, free, expired]) expect(await store.loadGame(g.gameId)).toMatchObject({ owner: 'a', leaseUntil: NOW + 500 });
    expect(await store.loadGame(theirs.gameId)).toMatchObject({ owner: 'b', leaseUntil: 1000 + 3_600_000 });
    expect(await store.acquireLeases!([], 'a', NOW, 500)).toEqual([]);
    await expect(store.acquireLeases!('x' as never, 'a', NOW, 500)).rejects.toThrow(/acquireLeases: gameIds must be an array/);
    await expect(store.acquireLeases!([''], 'a', NOW, 500)).rejects.toThrow(/acquireLeases: gameIds\[0\]/);
    await expect(store.acquireLeases!([mine.gameId], 'a', NOW, -1)).rejects.toThrow(/acquireLeases: ttlMs/);
  });

  test('sends(afterVersion) gives the sends after that version, in order', async () => {
    const game = await leasedGame(store);
    for (let v = 1; v <= 5; v++) expect(await store.appendSend(game.gameId, v - 1, 'owner-1', NOW, sendTo(v))).toEqual({ ok: true });
    const versions = async (after?: number) => (await store.sends(game.gameId, after)).map((s) => s.version);
    expect(await versions()).toEqual([1, 2, 3, 4, 5]);
    expect(await versions(0)).toEqual([1, 2, 3, 4, 5]);
    expect(await versions(3)).toEqual([4, 5]);
    expect(await versions(5)).toEqual([]);
    expect(await versions(-1)).toEqual([1, 2, 3, 4, 5]);
  });

  test('sends(afterVersion) over a long journal: every send as written, whatever the version asked from', async () => {
    // Past several of MemoryStore's packs of 64 rows: the reads that start inside a pack, at its edges and after the last.
    const game = await leasedGame(store);
    const written: SendWrite['send'][] = [];
    for (let v = 1; v <= 200; v++) {
      const { snapshot, ...journaled } = sendTo(v, { at: v % 3 === 0 ? null : 1_700_000_000_000 + v * 1.5, event: { type: 'PASS_PRIORITY', player: 'p1', text: `"quoted" \u2028 ${v}`, list: [v, { deep: v % 2 === 0 }] } });
      const result = await store.appendSend(game.gameId, v - 1, 'owner-1', NOW, v % KEEP_SNAPSHOT_EVERY === 0 ? { ...journaled, snapshot } : journaled);
      if (!result.ok) throw new Error(`appendSend at ${v} refused: ${result.reason}`);
      written.push(journaled.send);
    }
    for (const after of [undefined, -1, 0, 1, 63, 64, 65, 127, 128, 129, 150, 191, 192, 193, 199, 200, 250]) {
      expect(await store.sends(game.gameId, after)).toEqual(written.filter((s) => s.version > (after ?? 0)));
    }
    // With a limit (a resume reads a slice at a time): the first `limit` of them, across the packs too.
    for (const [after, limit] of [[0, 1], [0, 16], [60, 16], [63, 64], [100, 200], [195, 16], [200, 5]] as const) {
      expect(await store.sends(game.gameId, after, limit)).toEqual(written.filter((s) => s.version > after).slice(0, limit));
    }
    await expect(store.sends(game.gameId, 0, 0)).rejects.toThrow(/sends: limit must be a positive integer/);
  });

  test('keeps a snapshot every 16 versions (and the first), each as written with its seq; a send without one is journaled only', async () => {
    expect(KEEP_SNAPSHOT_EVERY).toBe(16);
    const game = await leasedGame(store, 'owner-1', { version: 250, seq: 750, snapshot: { version: 250, state: 'first' } });
    for (let v = 251; v <= 300; v++) {
      // As the owner writes (issue 31): a full snapshot only every 16 versions.
      const { snapshot, ...journaled } = sendTo(v);
      const result = await store.appendSend(game.gameId, v - 1, 'owner-1', NOW, v % KEEP_SNAPSHOT_EVERY === 0 ? { ...journaled, snapshot } : journaled);
      if (!result.ok) throw new Error(`appendSend at ${v} refused: ${result.reason}`);
    }
    expect(await store.snapshots(game.gameId)).toEqual([
      { version: 250, seq: 750, snapshot: { version: 250, state: 'first' } },
      { version: 256, seq: 768, snapshot: { version: 256, state: 'after 256' } },
      { version: 272, seq: 816, snapshot: { version: 272, state: 'after 272' } },
      { version: 288, seq: 864, snapshot: { version: 288, state: 'after 288' } },
    ]);
    // One of them, by version and seq (a resume from far back reads that one only).
    const before = store.snapshotBefore?.bind(store);
    expect(before).toBeDefined();
    expect(await before!(game.gameId, { version: 300, seq: 900 })).toEqual({ version: 288, seq: 864, snapshot: { version: 288, state: 'after 288' } });
    expect(await before!(game.gameId, { version: 271, seq: 900 })).toMatchObject({ version: 256 });
    expect(await before!(game.gameId, { version: 300, seq: 815 })).toMatchObject({ version: 256 });
    expect(await before!(game.gameId, { version: 300, seq: 750 })).toMatchObject({ version: 250 });
    expect(await before!(game.gameId, { version: 300, seq: 749 })).toBeNull();
    expect(await before!('no-such-game', { version: 300, seq: 900 })).toBeNull();
    // The game's version, seq and host state are the last send's; its snapshot the latest kept.
    expect(await store.loadGame(game.gameId)).toMatchObject({ version: 300, seq: 900, hostState: { cards: [300] }, snapshot: { version: 288, state: 'after 288' } });
    expect(await store.sends(game.gameId)).toHaveLength(50);
  });

  test('lists games newest first (then by id, descending), at most `limit` (default 100)', async () => {
    const own = await kind.make();
    try {
      expect(await own.listGames()).toEqual([]);
      for (const [gameId, createdAt] of [['g1', 10], ['g3', 30], ['g2', 20], ['g2b', 20], ['g0', 0]] as const)
        await own.createGame(newGame({ gameId, createdAt }));
      expect(await own.listGames()).toEqual(['g3', 'g2b', 'g2', 'g1', 'g0']);
      expect(await own.listGames(2)).toEqual(['g3', 'g2b']);
      expect(await own.listGames(0)).toEqual([]);
      for (let i = 0; i < 101; i++) await own.createGame(newGame({ gameId: `many-${i}`, createdAt: 100 + i }));
      expect(await own.listGames()).toHaveLength(100);
      expect((await own.listGames(1000)).length).toBe(106);
    } finally {
      await own.close();
    }
  });

  test('round-trips events, results and `at` as JSON (nested values, unicode, floats, null at)', async () => {
    const game = await leasedGame(store);
    const event = {
      type: 'DECLARE_ATTACKERS',
      player: 'p1',
      attackers: [{ id: 'c1', defender: 'p2' }, { id: 'ç—🐉', defender: 'pw:"quoted"\\' }],
      nested: { empty: {}, list: [], n: -12.5, big: 2 ** 53 - 1, yes: true, no: false, none: null },
      at: 1_712_345_678_901.25,
    };
    const results = [{ events: [{ type: 'TRIGGER', triggers: [{ id: 't', controller: 'p1' }] }] }, null, 'pass', 3];
    const write = sendTo(1, { event, at: event.at });
    expect(await store.appendSend(game.gameId, 0, 'owner-1', NOW, { ...write, send: { ...write.send, results } })).toEqual({ ok: true });
    expect(await store.appendSend(game.gameId, 1, 'owner-1', NOW, sendTo(2, { event: { type: 'PASS', undefinedDropped: undefined }, at: null }))).toEqual({ ok: true });
    const [first, second] = await store.sends(game.gameId);
    expect(first).toEqual({ version: 1, seq: 3, event, results, at: 1_712_345_678_901.25 });
    expect(second).toEqual({ version: 2, seq: 6, event: { type: 'PASS' }, results: [{ version: 2 }], at: null });
    expect(Object.keys(second?.event as object)).toEqual(['type']);
  });

  test('returns copies: changing what it returned changes nothing stored', async () => {
    const game = await leasedGame(store);
    await store.appendSend(game.gameId, 0, 'owner-1', NOW, sendTo(1));
    const loaded = await store.loadGame(game.gameId);
    (loaded?.snapshot as { state: string }).state = 'mutated';
    const sends = await store.sends(game.gameId);
    (sends[0]?.event as { type: string }).type = 'mutated';
    expect(await store.loadGame(game.gameId)).toMatchObject({ snapshot: { state: 'after 1' } });
    expect((await store.sends(game.gameId))[0]?.event).toEqual(sendTo(1).send.event);
  });

  test('a write that fails leaves nothing: a U+0000 the database cannot hold, a value that is not JSON', async () => {
    const game = await leasedGame(store);
    await store.appendSend(game.gameId, 0, 'owner-1', NOW, sendTo(1));
    const before = { game: await store.loadGame(game.gameId), sends: await store.sends(game.gameId), snapshots: await store.snapshots(game.gameId) };
    await expect(store.appendSend(game.gameId, 1, 'owner-1', NOW, sendTo(2, { event: { type: 'NAME', name: 'a\u0000b' } }))).rejects.toThrow(
      /appendSend: write\.send\.event holds the character U\+0000/,
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(store.appendSend(game.gameId, 1, 'owner-1', NOW, { ...sendTo(2), snapshot: cyclic })).rejects.toThrow(/appendSend: write\.snapshot is not JSON/);
    await expect(store.appendSend(game.gameId, 1, 'owner-1', NOW, { ...sendTo(2), hostState: { n: 1n } })).rejects.toThrow(/write\.hostState is not JSON/);
    expect({ game: await store.loadGame(game.gameId), sends: await store.sends(game.gameId), snapshots: await store.snapshots(game.gameId) }).toEqual(before);
    // a literal backslash-u0000 is text, not U+0000
    expect(await store.appendSend(game.gameId, 1, 'owner-1', NOW, sendTo(2, { event: { type: 'NAME', name: '\\u0000' } }))).toEqual({ ok: true });
    expect((await store.sends(game.gameId, 1))[0]?.event).toEqual({ type: 'NAME', name: '\\u0000' });
  });

  test('refuses bad arguments with an error naming the field, and writes nothing', async () => {
    const game = await leasedGame(store);
    await expect(store.appendSend(game.gameId, 0, 'owner-1', NOW, sendTo(2))).rejects.toThrow(/write\.send\.version must be expectedVersion \+ 1 = 1 \(got 2\)/);
    await expect(store.appendSend(game.gameId, -1, 'owner-1', NOW, sendTo(0))).rejects.toThrow(/appendSend: expectedVersion must be an integer/);
    await expect(store.appendSend(game.gameId, 0, '', NOW, sendTo(1))).rejects.toThrow(/appendSend: owner must be a non-empty string/);
    await expect(store.appendSend(game.gameId, 0, 'owner-1', NOW, sendTo(1, { at: Number.NaN }))).rejects.toThrow(/write\.send\.at must be a finite number or null/);
    await expect(store.appendSend(game.gameId, 0, 'owner-1', NOW, { ...sendTo(1), finished: 'no' as unknown as boolean })).rejects.toThrow(/write\.finished must be a boolean/);
    await expect(store.createGame(newGame({ tokenHashes: { p1: 'plain-token' } }))).rejects.toThrow(/game\.tokenHashes\.p1 must be a sha-256 hex digest/);
    await expect(store.createGame(newGame({ version: 2 ** 31 }))).rejects.toThrow(/createGame: game\.version must be an integer from 0 to 2147483647/);
    await expect(store.createGame(newGame({ gameId: '' }))).rejects.toThrow(/createGame: game\.gameId must be a non-empty string/);
    await expect(store.acquireLease(game.gameId, 'x', NOW, -5)).rejects.toThrow(/acquireLease: ttlMs must be an integer/);
    await expect(store.listGames(-1)).rejects.toThrow(/listGames: limit must be a non-negative integer/);
    await expect(store.sends(game.gameId, 1.5)).rejects.toThrow(/sends: afterVersion must be an integer/);
    expect(await store.loadGame(game.gameId)).toMatchObject({ version: 0, owner: 'owner-1' });
    expect(await store.sends(game.gameId)).toEqual([]);
  });

  test('refuses every call once closed', async () => {
    const own = await kind.make();
    await own.init();
    await own.close();
    await expect(own.loadGame('x')).rejects.toThrow(/loadGame: the store is closed/);
  });
});

/** Records the text of every statement the store runs. */
function watched<T extends PGliteStore | PostgresStore>(store: T): { store: T; texts: string[] } {
  const texts: string[] = [];
  const connect = (store as unknown as { connect: () => Promise<SqlDriver> }).connect.bind(store);
  (store as unknown as { connect: () => Promise<SqlDriver> }).connect = async () => {
    const driver = await connect();
    return { ...driver, query: (text: string, params?: readonly unknown[]) => (texts.push(text), driver.query(text, params)) } as SqlDriver;
  };
  return { store, texts };
}

describe.each(kinds.filter((k) => k.name !== 'MemoryStore'))('$name: the writes of many games go in one statement', (kind) => {
  it.skipIf(!kind.available)('writes that come while others are written go together (one statement, each its own conditional write), none alone again', async () => {
    const { store, texts } = watched((await kind.make()) as PGliteStore | PostgresStore);
    try {
      const games = await Promise.all(Array.from({ length: 30 }, () => leasedGame(store, 'w')));
      texts.length = 0;
      const results = await Promise.all(games.map((g) => store.appendSend(g.gameId, 0, 'w', NOW, sendTo(1))));
      expect(results).toEqual(games.map(() => ({ ok: true })));
      const together = texts.filter((t) => t.includes('jsonb_array_elements($1::jsonb)'));
      const alone = texts.filter((t) => t.includes('WHERE game_id = $1 AND version = $2::integer'));
      expect(together.length).toBeGreaterThanOrEqual(1);
      // The first writes start alone (as many as may run at once); the rest wait and go together.
      expect(alone.length).toBeLessThanOrEqual(4);
      expect(alone.length + together.length).toBeLessThan(games.length);
      for (const g of games) expect(await store.loadGame(g.gameId)).toMatchObject({ version: 1, seq: 3 });
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!withPostgres)('PostgresStore: two processes on one database never both advance one game', () => {
  let url: string;
  let a: PostgresStore;
  let b: PostgresStore;
  beforeAll(async () => {
    url = await newDatabase();
    a = new PostgresStore({ connectionString: url });
    b = new PostgresStore({ connectionString: url });
    await Promise.all([a.init(), b.init()]); // migrating together: one waits for the other
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('migrates once when two stores start together', async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await client.end();
    }
  });

  it('gives a free game to exactly one of two owners asking at once', async () => {
    for (let round = 0; round < 10; round++) {
      const game = newGame();
      await a.createGame(game);
      const got = await Promise.all([a.acquireLease(game.gameId, 'A', NOW, 1000), b.acquireLease(game.gameId, 'B', NOW, 1000)]);
      expect(got.filter(Boolean)).toHaveLength(1);
      const owner = (await a.loadGame(game.gameId))?.owner;
      expect(owner).toBe(got[0] ? 'A' : 'B');
    }
  });

  it('accepts exactly one of concurrent writes at the same version, from either store, round after round', async () => {
    const game = await leasedGame(a, 'shared');
    const rounds = 25;
    const winners: unknown[] = [];
    for (let v = 1; v <= rounds; v++) {
      const writers = [a, b, a, b].map((store, i) => store.appendSend(game.gameId, v - 1, 'shared', NOW, sendTo(v, { event: { type: 'PASS', writer: i, v } })));
      const results = await Promise.all(writers);
      const ok = results.flatMap((r, i) => (r.ok ? [i] : []));
      expect(ok).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'version' }, { ok: false, reason: 'version' }, { ok: false, reason: 'version' }]);
      winners.push({ type: 'PASS', writer: ok[0], v });
    }
    const sends = await b.sends(game.gameId);
    expect(sends.map((s) => s.version)).toEqual(Array.from({ length: rounds }, (_, i) => i + 1));
    expect(sends.map((s) => s.event)).toEqual(winners);
    expect(await b.loadGame(game.gameId)).toMatchObject({ version: rounds });
  });

  it("refuses the old owner's writes once another process took over its expired lease", async () => {
    const game = await leasedGame(a, 'A');
    expect(await a.appendSend(game.gameId, 0, 'A', NOW, sendTo(1))).toEqual({ ok: true });
    const expired = 1000 + 3_600_000 + 1;
    expect(await b.acquireLease(game.gameId, 'B', expired, 10_000)).toBe(true);
    // 'A' still thinks its lease holds (its clock says NOW): refused
    expect(await a.appendSend(game.gameId, 1, 'A', NOW, sendTo(2))).toEqual({ ok: false, reason: 'lease' });
    // both at once: only the new owner's write goes in (the old one's is refused whichever
    // commits first: for the lease, or for the version if the new owner's write came first)
    const [late, fresh] = await Promise.all([a.appendSend(game.gameId, 1, 'A', NOW, sendTo(2)), b.appendSend(game.gameId, 1, 'B', expired, sendTo(2, { event: { type: 'B' } }))]);
    expect(late.ok).toBe(false);
    expect(fresh).toEqual({ ok: true });
    expect(await a.appendSend(game.gameId, 2, 'A', NOW, sendTo(3))).toEqual({ ok: false, reason: 'lease' });
    expect((await a.sends(game.gameId)).map((s) => s.event)).toEqual([sendTo(1).send.event, { type: 'B' }]);
  });

  it("a write that fails inside the database keeps no other game's write of the same statement from being written", async () => {
    const others = await Promise.all(Array.from({ length: 20 }, () => leasedGame(a, 'A')));
    const broken = await leasedGame(a, 'A', { version: 255, seq: 1 });
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`INSERT INTO snapshots (game_id, version, seq, snapshot) VALUES ($1, 256, 0, '"planted"')`, [broken.gameId]);
    } finally {
      await client.end();
    }
    // All at once: the writes that queue behind the first ones go in one statement, the broken one last among them.
    const results = await Promise.allSettled([...others.map((g) => a.appendSend(g.gameId, 0, 'A', NOW, sendTo(1))), a.appendSend(broken.gameId, 255, 'A', NOW, sendTo(256))]);
    expect(results.slice(0, -1).map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual(others.map(() => ({ ok: true })));
    expect(results.at(-1)).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/duplicate key/) }) });
    for (const g of others) expect((await a.sends(g.gameId)).map((s) => s.version)).toEqual([1]);
    expect(await a.sends(broken.gameId)).toEqual([]);
    expect(await a.loadGame(broken.gameId)).toMatchObject({ version: 255 });
  });

  it('renewing many leases while many games are written never deadlocks (both lock the rows in the order of their ids)', async () => {
    const games = await Promise.all(Array.from({ length: 60 }, () => leasedGame(a, 'R')));
    const ids = games.map((g) => g.gameId);
    // The ids in another order than the store's: the renewals lock them in id order all the same.
    const shuffled = [...ids].reverse();
    for (let v = 1; v <= 15; v++) {
      const writes = games.map((g) => a.appendSend(g.gameId, v - 1, 'R', NOW, sendTo(v)));
      const renewals = [b.acquireLeases(shuffled, 'R', NOW, 3_600_000), a.acquireLeases(ids, 'R', NOW, 3_600_000), b.acquireLeases(shuffled.slice(10), 'R', NOW, 3_600_000)];
      const [written, held] = await Promise.all([Promise.all(writes), Promise.all(renewals)]);
      expect(written.every((r) => r.ok)).toBe(true);
      expect(held.map((h) => h.length)).toEqual([60, 60, 50]);
    }
  });

  it('rolls back a write that fails inside the database: no send row, no kept snapshot, the game as it was', async () => {
    // A snapshot row already at 256 (put there behind the store's back) makes the last insert
    // of the write to 256 fail after the update and the send row were done.
    const game = await leasedGame(a, 'A', { version: 255, seq: 1 });
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`INSERT INTO snapshots (game_id, version, seq, snapshot) VALUES ($1, 256, 0, '"planted"')`, [game.gameId]);
    } finally {
      await client.end();
    }
    const before = await a.loadGame(game.gameId);
    await expect(a.appendSend(game.gameId, 255, 'A', NOW, sendTo(256))).rejects.toThrow(/duplicate key/);
    expect(await a.loadGame(game.gameId)).toEqual(before);
    expect(await a.sends(game.gameId)).toEqual([]);
    expect((await a.snapshots(game.gameId)).map((s) => s.snapshot)).toEqual([game.snapshot, 'planted']);
  });
});

describe('PGliteStore on disk: one process, one store per folder', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mtg-pglite-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates its folder, keeps games across a reopen, refuses a second store on the folder while the first is open', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const first = new PGliteStore({ dataDir });
    const game = await leasedGame(first, 'A');
    expect(await first.appendSend(game.gameId, 0, 'A', NOW, sendTo(1))).toEqual({ ok: true });
    expect(readFileSync(join(dataDir, 'store.lock'), 'utf8').trim()).toBe(String(process.pid));
    const second = new PGliteStore({ dataDir });
    await expect(second.init()).rejects.toThrow(/held by another PGliteStore of this process: one store per folder/);
    await first.close();
    expect(existsSync(join(dataDir, 'store.lock'))).toBe(false);

    const reopened = new PGliteStore({ dataDir });
    try {
      expect(await reopened.loadGame(game.gameId)).toMatchObject({ version: 1, owner: 'A', snapshot: sendTo(1).snapshot });
      expect(await reopened.sends(game.gameId)).toEqual([sendTo(1).send]);
    } finally {
      await reopened.close();
    }
  });

  it("takes over a lock left by a process that died, and refuses one held by a live process", async () => {
    const dataDir = join(dir, 'locks');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dataDir, { recursive: true });
    // a pid that is not running (pid_max is at most 2^22 on Linux)
    writeFileSync(join(dataDir, 'store.lock'), `${2 ** 22 + 1}\n`);
    const store = new PGliteStore({ dataDir });
    await store.init();
    await store.close();
    // pid 1 is always alive
    writeFileSync(join(dataDir, 'store.lock'), '1\n');
    await expect(new PGliteStore({ dataDir }).init()).rejects.toThrow(/in use by process 1 .*use PostgresStore to share games between processes/);
  });

  it('rolls back a write that fails inside the database (a snapshot row planted at 256)', async () => {
    const dataDir = join(dir, 'atomic');
    const store = new PGliteStore({ dataDir });
    const game = await leasedGame(store, 'A', { version: 255, seq: 1 });
    await store.close();
    const { PGlite } = await import('@electric-sql/pglite');
    const raw = await PGlite.create(join(dataDir, 'pglite'));
    await raw.query(`INSERT INTO snapshots (game_id, version, seq, snapshot) VALUES ($1, 256, 0, '"planted"')`, [game.gameId]);
    await raw.close();
    const again = new PGliteStore({ dataDir });
    try {
      const before = await again.loadGame(game.gameId);
      await expect(again.appendSend(game.gameId, 255, 'A', NOW, sendTo(256))).rejects.toThrow(/duplicate key/);
      expect(await again.loadGame(game.gameId)).toEqual(before);
      expect(await again.sends(game.gameId)).toEqual([]);
      expect(await again.appendSend(game.gameId, 255, 'B', NOW, sendTo(256))).toEqual({ ok: false, reason: 'lease' });
    } finally {
      await again.close();
    }
  });

  it('says which package to install when a store lacks its database package', async () => {
    const load = () => import(/* @vite-ignore */ ['no-such-package', 'for-mtg-turn-engine'].join('-'));
    await expect(loadOptional('@electric-sql/pglite', 'PGliteStore', load)).rejects.toThrow(
      'PGliteStore needs the package @electric-sql/pglite, which is not installed: npm install @electric-sql/pglite',
    );
  });

  it("refuses options without a dataDir, naming the option", () => {
    expect(() => new PGliteStore({} as { dataDir: string })).toThrow(/options\.dataDir must be a folder path or 'memory:\/\/'/);
    expect(() => new PostgresStore({ connectionString: 'mysql://x' })).toThrow(/options\.connectionString must be a postgres:\/\//);
  });
});
