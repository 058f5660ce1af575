/**
 * `MemoryStore`: the GameStore in this process's memory, for tests and for a server that may
 * lose its games when it stops. It behaves as the SQL stores do (the same checks, the same
 * refusals, the same JSON round trip: what it returns is a fresh copy parsed from the JSON it
 * kept), but only within one process: two processes never share a MemoryStore.
 */
import { GameExistsError, checkAfter, checkAppend, checkBefore, checkSendsLimit, checkId, checkInstants, checkLease, checkLeases, checkLimit, checkNewGame, toJson } from './checks.js';
import type { GameInstant, GameStore, NewStoredGame, SendWrite, StoredGame, StoredSend, StoredSnapshot, WriteResult } from './types.js';

/**
 * The journal's rows are packed this many to a string (the JSON text of the list) once written: a store
 * holding a million sends holds some sixteen thousand strings, not a million objects each with
 * its strings and its boxed clock, which every full collection of the heap would have to mark
 * (issue 31: in the table server's benchmark the journal was most of the objects on the heap).
 */
const ROWS_PER_PACK = 64;

/**
 * A full snapshot is written and kept every this many versions (and the first one, at
 * createGame); the sends between are journaled: a reload replays at most 15 (issue 31, point 6).
 */
export const KEEP_SNAPSHOT_EVERY = 16;

/** A send as journaled, its event and results as JSON text. */
interface Journaled {
  version: number;
  seq: number;
  event: string;
  results: string;
  at: number | null;
}

/** A journaled send as the JSON text of a {@link StoredSend} (its event and results are JSON already). */
const rowText = (r: Journaled): string => `{"version":${r.version},"seq":${r.seq},"event":${r.event},"results":${r.results},"at":${r.at === null ? 'null' : JSON.stringify(r.at)}}`;

interface Row {
  gameId: string;
  setup: string;
  snapshot: string;
  version: number;
  seq: number;
  hostState: string;
  tokenHashes: string;
  owner: string | null;
  leaseUntil: number;
  finished: boolean;
  createdAt: number;
  instant: number | null;
  /** The sends journaled, as packs of ROWS_PER_PACK rows: the JSON text of a list of {@link StoredSend}. */
  packs: string[];
  /** The version of each pack's last row. */
  packEnds: number[];
  /** The rows not yet packed (their event and results as JSON text). */
  rows: Journaled[];
  /** The version of the last row of `rows`. */
  rowsEnd: number;
  snapshots: { version: number; seq: number; snapshot: string }[];
}

const parse = (text: string): unknown => JSON.parse(text) as unknown;

/** The GameStore in memory (one process). */
export class MemoryStore implements GameStore {
  private readonly games = new Map<string, Row>();
  private closed = false;

  async init(): Promise<void> {
    this.open('init');
  }

  async createGame(game: NewStoredGame): Promise<void> {
    this.open('createGame');
    checkNewGame(game);
    const row: Row = {
      gameId: game.gameId,
      setup: toJson('createGame', 'game.setup', game.setup),
      snapshot: toJson('createGame', 'game.snapshot', game.snapshot),
      version: game.version,
      seq: game.seq,
      hostState: toJson('createGame', 'game.hostState', game.hostState),
      tokenHashes: toJson('createGame', 'game.tokenHashes', game.tokenHashes),
      owner: null,
      leaseUntil: 0,
      finished: false,
      createdAt: game.createdAt,
      instant: null,
      packs: [],
      packEnds: [],
      rows: [],
      rowsEnd: 0,
      snapshots: [],
    };
    if (this.games.has(game.gameId)) throw new GameExistsError(game.gameId);
    row.snapshots.push({ version: row.version, seq: row.seq, snapshot: row.snapshot });
    this.games.set(game.gameId, row);
  }

  async loadGame(gameId: string): Promise<StoredGame | null> {
    this.open('loadGame');
    checkId('loadGame', 'gameId', gameId);
    const row = this.games.get(gameId);
    if (row === undefined) return null;
    return {
      gameId: row.gameId,
      setup: parse(row.setup),
      snapshot: parse(row.snapshot),
      version: row.version,
      seq: row.seq,
      hostState: parse(row.hostState),
      tokenHashes: parse(row.tokenHashes) as Record<string, string>,
      createdAt: row.createdAt,
      owner: row.owner,
      leaseUntil: row.leaseUntil,
      finished: row.finished,
      instant: row.instant,
    };
  }

  async appendSend(gameId: string, expectedVersion: number, owner: string, now: number, write: SendWrite): Promise<WriteResult> {
    this.open('appendSend');
    checkAppend(gameId, expectedVersion, owner, now, write);
    // Everything is serialized and checked before the first change: nothing is half written.
    const event = toJson('appendSend', 'write.send.event', write.send.event);
    const results = toJson('appendSend', 'write.send.results', write.send.results);
    const snapshot = write.snapshot === undefined ? null : toJson('appendSend', 'write.snapshot', write.snapshot);
    const hostState = toJson('appendSend', 'write.hostState', write.hostState);
    const row = this.games.get(gameId);
    if (row === undefined) return { ok: false, reason: 'missing' };
    if (row.version !== expectedVersion) return { ok: false, reason: 'version' };
    if (row.owner !== owner || row.leaseUntil < now) return { ok: false, reason: 'lease' };
    const { version, seq, at } = write.send;
    row.rows.push({ version, seq, event, results, at });
    row.rowsEnd = version;
    if (row.rows.length === ROWS_PER_PACK) {
      // One flat string for the 64 rows, as `sends` parses it back.
      row.packs.push(`[${row.rows.map(rowText).join(',')}]`);
      row.packEnds.push(version);
      row.rows = [];
    }
    if (snapshot !== null) {
      if (version % KEEP_SNAPSHOT_EVERY === 0) row.snapshots.push({ version, seq, snapshot });
      row.snapshot = snapshot;
    }
    row.hostState = hostState;
    row.version = version;
    row.seq = seq;
    row.finished = write.finished;
    return { ok: true };
  }

  async sends(gameId: string, afterVersion?: number, limit?: number): Promise<StoredSend[]> {
    this.open('sends');
    checkId('sends', 'gameId', gameId);
    const after = checkAfter(afterVersion);
    const most = checkSendsLimit(limit) ?? Infinity;
    const row = this.games.get(gameId);
    if (row === undefined) return [];
    const out: StoredSend[] = [];
    const keep = (s: StoredSend) => {
      if (s.version > after && out.length < most) out.push(s);
    };
    // Only the packs that end after `after` are read back, until `limit` sends are had.
    for (let i = 0; i < row.packs.length && out.length < most; i++) if ((row.packEnds[i] as number) > after) for (const s of parse(row.packs[i] as string) as StoredSend[]) keep(s);
    if (row.rowsEnd > after) for (const r of row.rows) if (out.length < most) keep({ version: r.version, seq: r.seq, event: parse(r.event), results: parse(r.results) as unknown[], at: r.at });
    return out;
  }

  async snapshots(gameId: string): Promise<StoredSnapshot[]> {
    this.open('snapshots');
    checkId('snapshots', 'gameId', gameId);
    const row = this.games.get(gameId);
    return (row?.snapshots ?? []).map((s) => ({ version: s.version, seq: s.seq, snapshot: parse(s.snapshot) }));
  }

  async snapshotBefore(gameId: string, at: { readonly version: number; readonly seq: number }): Promise<StoredSnapshot | null> {
    this.open('snapshotBefore');
    checkId('snapshotBefore', 'gameId', gameId);
    const { version, seq } = checkBefore(at);
    const kept = this.games.get(gameId)?.snapshots ?? [];
    // Only the one found is parsed.
    for (let i = kept.length - 1; i >= 0; i--) {
      const s = kept[i] as { version: number; seq: number; snapshot: string };
      if (s.version <= version && s.seq <= seq) return { version: s.version, seq: s.seq, snapshot: parse(s.snapshot) };
    }
    return null;
  }

  async acquireLease(gameId: string, owner: string, now: number, ttlMs: number): Promise<boolean> {
    this.open('acquireLease');
    checkLease(gameId, owner, now, ttlMs);
    return this.take(gameId, owner, now, ttlMs);
  }

  async acquireLeases(gameIds: readonly string[], owner: string, now: number, ttlMs: number): Promise<string[]> {
    this.open('acquireLeases');
    checkLeases(gameIds, owner, now, ttlMs);
    const held: string[] = [];
    for (const gameId of gameIds) if (this.take(gameId, owner, now, ttlMs)) held.push(gameId);
    return held;
  }

  /** Takes or renews one lease (arguments checked). */
  private take(gameId: string, owner: string, now: number, ttlMs: number): boolean {
    const row = this.games.get(gameId);
    if (row === undefined) return false;
    if (row.owner !== null && row.owner !== owner && row.leaseUntil >= now) return false;
    row.owner = owner;
    row.leaseUntil = now + ttlMs;
    return true;
  }

  async recordInstants(owner: string, instants: readonly GameInstant[]): Promise<void> {
    this.open('recordInstants');
    checkInstants(owner, instants);
    for (const { gameId, at } of instants) {
      const row = this.games.get(gameId);
      if (row === undefined || row.owner !== owner) continue;
      row.instant = row.instant === null ? at : Math.max(row.instant, at);
    }
  }

  async releaseLease(gameId: string, owner: string): Promise<void> {
    this.open('releaseLease');
    checkId('releaseLease', 'gameId', gameId);
    checkId('releaseLease', 'owner', owner);
    const row = this.games.get(gameId);
    if (row === undefined || row.owner !== owner) return;
    row.owner = null;
    row.leaseUntil = 0;
  }

  async listGames(limit?: number): Promise<string[]> {
    this.open('listGames');
    const n = checkLimit(limit);
    return [...this.games.values()]
      .sort((a, b) => b.createdAt - a.createdAt || (a.gameId < b.gameId ? 1 : a.gameId > b.gameId ? -1 : 0))
      .slice(0, n)
      .map((r) => r.gameId);
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private open(method: string): void {
    if (this.closed) throw new Error(`${method}: the store is closed`);
  }
}
