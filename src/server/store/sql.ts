/**
 * The SQL of the two SQL stores: PGliteStore and PostgresStore differ only in how they reach
 * the database (a {@link SqlDriver}); every statement is here, once.
 *
 * Concurrency: every write that must be atomic is ONE statement (one implicit transaction):
 * appendSend is a conditional UPDATE of the game row (`WHERE game_id AND version AND owner AND
 * lease_until >= now`) whose result feeds the INSERT of the send row and of the kept snapshot,
 * so they are written if and only if the update matched. Under PostgreSQL's READ COMMITTED a
 * second writer of the same row waits for the first to commit and re-checks the WHERE on the
 * new row: of two processes writing at the same version, one matches and the other matches
 * nothing. acquireLease is one conditional UPDATE likewise.
 */
import { GameExistsError, checkAfter, checkAppend, checkBefore, checkSendsLimit, checkId, checkInstants, checkLease, checkLeases, checkLimit, checkNewGame, toJson } from './checks.js';
import { KEEP_SNAPSHOT_EVERY } from './memory.js';
import { MIGRATIONS, MIGRATIONS_TABLE, MIGRATION_LOCK } from './schema.js';
import type { GameInstant, GameStore, NewStoredGame, SendWrite, StoredGame, StoredSend, StoredSnapshot, WriteResult } from './types.js';

/** What a query answers (pg and PGlite both give these two). */
export interface SqlResult<R> {
  readonly rows: R[];
  readonly rowCount: number | null;
}

/** Something that runs one statement with parameters. */
export interface SqlQueryable {
  query<R = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<R>>;
  /** Runs several statements (no parameters). */
  exec(text: string): Promise<void>;
}

/** A connection (or pool) to one database. */
export interface SqlDriver extends SqlQueryable {
  /** Runs `fn` in one transaction (BEGIN ... COMMIT; ROLLBACK if it throws). */
  transaction<T>(fn: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface GameRow {
  game_id: string;
  setup: unknown;
  snapshot: unknown;
  version: number;
  seq: number;
  host_state: unknown;
  token_hashes: Record<string, string>;
  owner: string | null;
  lease_until: number | string;
  finished: boolean;
  created_at: number | string;
  instant: number | null;
}

interface SendRow {
  version: number;
  seq: number;
  event: unknown;
  results: unknown[];
  at: number | null;
}

/** Reads a bigint column (pg gives int8 as a string, PGlite as a number). */
const big = (value: number | string): number => Number(value);

const SQL = {
  createGame: `WITH g AS (
    INSERT INTO games (game_id, setup, snapshot, version, seq, host_state, token_hashes, owner, lease_until, finished, created_at)
    VALUES ($1, $2::jsonb, $3::jsonb, $4::integer, $5::integer, $6::jsonb, $7::jsonb, NULL, 0, false, $8::bigint)
    ON CONFLICT (game_id) DO NOTHING
    RETURNING game_id
  )
  INSERT INTO snapshots (game_id, version, seq, snapshot) SELECT game_id, $4::integer, $5::integer, $3::jsonb FROM g`,
  loadGame: `SELECT game_id, setup, snapshot, version, seq, host_state, token_hashes, owner, lease_until, finished, created_at, instant
    FROM games WHERE game_id = $1`,
  appendSend: `WITH g AS (
    UPDATE games SET snapshot = CASE WHEN $14::boolean THEN $6::jsonb ELSE snapshot END, host_state = $7::jsonb, version = $5::integer, seq = $8::integer, finished = $9::boolean
    WHERE game_id = $1 AND version = $2::integer AND owner = $3 AND lease_until >= $4::bigint
    RETURNING game_id
  ), s AS (
    INSERT INTO sends (game_id, version, seq, event, results, at)
    SELECT game_id, $5::integer, $8::integer, $10::jsonb, $11::jsonb, $12::double precision FROM g
  ), k AS (
    INSERT INTO snapshots (game_id, version, seq, snapshot)
    SELECT game_id, $5::integer, $8::integer, $6::jsonb FROM g WHERE $13::boolean AND $14::boolean
  )
  SELECT count(*)::integer AS written FROM g`,
  /**
   * appendSend for several games in one statement (one commit): $1 is a JSON array of writes;
   * each is the conditional UPDATE of its own game row, feeding the INSERTs of its send row and
   * of its kept snapshot. The ids of the games written come back. (`->` keeps a JSON null as the
   * jsonb null that the NOT NULL columns take, where `->>` gives SQL NULL.) The rows are locked
   * first, in the order of their ids (`l`), as acquireLeases locks them: two statements that
   * lock many rows each never wait for each other in a circle (no deadlock).
   */
  appendSends: `WITH w AS (
    SELECT e->>'game_id' AS game_id, (e->>'expected')::integer AS expected, e->>'owner' AS owner, (e->>'now')::bigint AS now,
      (e->>'version')::integer AS version, (e->>'seq')::integer AS seq, e->'snapshot' AS snapshot, e->'host_state' AS host_state,
      (e->>'finished')::boolean AS finished, e->'event' AS event, e->'results' AS results, (e->>'at')::double precision AS at, (e->>'keep')::boolean AS keep, (e->>'has')::boolean AS has
    FROM jsonb_array_elements($1::jsonb) AS e
  ), l AS (
    SELECT game_id FROM games WHERE game_id IN (SELECT game_id FROM w) ORDER BY game_id FOR UPDATE
  ), g AS (
    UPDATE games SET snapshot = CASE WHEN w.has THEN w.snapshot ELSE games.snapshot END, host_state = w.host_state, version = w.version, seq = w.seq, finished = w.finished
    FROM l JOIN w ON w.game_id = l.game_id
    WHERE games.game_id = l.game_id AND games.version = w.expected AND games.owner = w.owner AND games.lease_until >= w.now
    RETURNING w.game_id, w.version, w.seq, w.event, w.results, w.at, w.snapshot, w.keep AND w.has AS keep
  ), s AS (
    INSERT INTO sends (game_id, version, seq, event, results, at) SELECT game_id, version, seq, event, results, at FROM g
  ), k AS (
    INSERT INTO snapshots (game_id, version, seq, snapshot) SELECT game_id, version, seq, snapshot FROM g WHERE keep
  )
  SELECT game_id FROM g`,
  whyRefused: `SELECT version, owner, lease_until FROM games WHERE game_id = $1`,
  /** $3 NULL: every send after $2 (LIMIT NULL is no limit). */
  sends: `SELECT version, seq, event, results, at FROM sends WHERE game_id = $1 AND version > $2::integer ORDER BY version LIMIT $3::integer`,
  snapshots: `SELECT version, seq, snapshot FROM snapshots WHERE game_id = $1 ORDER BY version`,
  snapshotBefore: `SELECT version, seq, snapshot FROM snapshots WHERE game_id = $1 AND version <= $2::integer AND seq <= $3::integer ORDER BY version DESC LIMIT 1`,
  acquireLease: `UPDATE games SET owner = $2, lease_until = $3::bigint
    WHERE game_id = $1 AND (owner IS NULL OR owner = $2 OR lease_until < $4::bigint)`,
  /** acquireLease for several games (a JSON array of ids): the ids held after. Rows locked in the order of their ids, as appendSends locks them. */
  acquireLeases: `WITH l AS (
    SELECT game_id FROM games WHERE game_id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY game_id FOR UPDATE
  )
  UPDATE games SET owner = $2, lease_until = $3::bigint
  FROM l WHERE games.game_id = l.game_id AND (games.owner IS NULL OR games.owner = $2 OR games.lease_until < $4::bigint)
  RETURNING games.game_id`,
  /** recordInstants: $2 a JSON array of [game id, at]; only the games $1 holds; an instant never goes back. */
  recordInstants: `UPDATE games SET instant = GREATEST(games.instant, v.at)
    FROM (SELECT e->>0 AS game_id, (e->>1)::double precision AS at FROM jsonb_array_elements($2::jsonb) AS e) AS v
    WHERE games.game_id = v.game_id AND games.owner = $1`,
  releaseLease: `UPDATE games SET owner = NULL, lease_until = 0 WHERE game_id = $1 AND owner = $2`,
  listGames: `SELECT game_id FROM games ORDER BY created_at DESC, game_id COLLATE "C" DESC LIMIT $1::integer`,
} as const;

/** One appendSend waiting for its statement. */
interface PendingWrite {
  readonly gameId: string;
  /** The parameters of the one-game statement ({@link SQL.appendSend}). */
  readonly params: readonly unknown[];
  /** The write as one element of the many-games statement's JSON array. */
  readonly json: string;
  resolve(written: boolean): void;
  reject(err: unknown): void;
}

/** The most writes in one statement. */
const MAX_BATCH = 256;

/** The GameStore over SQL (PostgreSQL's dialect), given how to connect. */
export abstract class SqlStore implements GameStore {
  private driver: Promise<SqlDriver> | null = null;
  private closed = false;
  /** The appendSends waiting for a statement (at most one of a game in any one statement). */
  private pending: PendingWrite[] = [];
  private inFlight = 0;

  /**
   * How many write statements may run at once. Writes that come while they run wait, and go
   * together, each game's its own conditional write, in the next one (one commit for many games:
   * what a disk that syncs every commit needs). PGlite runs one query at a time: 1.
   */
  protected concurrentWrites = 1;

  /** Opens the connection (pool, embedded database). Called once, by the first use. */
  protected abstract connect(): Promise<SqlDriver>;

  /** The driver, connected and migrated (the first call connects and runs the migrations). */
  private db(method: string): Promise<SqlDriver> {
    if (this.closed) return Promise.reject(new Error(`${method}: the store is closed`));
    if (this.driver === null) {
      const opening = this.connect().then(async (driver) => {
        try {
          await migrate(driver);
          return driver;
        } catch (err) {
          await driver.close().catch(() => undefined);
          throw err;
        }
      });
      // a failed opening is not kept: the next call tries again
      opening.catch(() => {
        if (this.driver === opening) this.driver = null;
      });
      this.driver = opening;
    }
    return this.driver;
  }

  async init(): Promise<void> {
    await this.db('init');
  }

  async createGame(game: NewStoredGame): Promise<void> {
    checkNewGame(game);
    const m = 'createGame';
    const params = [
      game.gameId,
      toJson(m, 'game.setup', game.setup),
      toJson(m, 'game.snapshot', game.snapshot),
      game.version,
      game.seq,
      toJson(m, 'game.hostState', game.hostState),
      toJson(m, 'game.tokenHashes', game.tokenHashes),
      game.createdAt,
    ];
    const db = await this.db(m);
    const result = await db.query(SQL.createGame, params);
    if (result.rowCount !== 1) throw new GameExistsError(game.gameId);
  }

  async loadGame(gameId: string): Promise<StoredGame | null> {
    checkId('loadGame', 'gameId', gameId);
    const db = await this.db('loadGame');
    const { rows } = await db.query<GameRow>(SQL.loadGame, [gameId]);
    const row = rows[0];
    if (row === undefined) return null;
    return {
      gameId: row.game_id,
      setup: row.setup,
      snapshot: row.snapshot,
      version: row.version,
      seq: row.seq,
      hostState: row.host_state,
      tokenHashes: row.token_hashes,
      createdAt: big(row.created_at),
      owner: row.owner,
      leaseUntil: big(row.lease_until),
      finished: row.finished,
      instant: row.instant === null || row.instant === undefined ? null : Number(row.instant),
    };
  }

  async appendSend(gameId: string, expectedVersion: number, owner: string, now: number, write: SendWrite): Promise<WriteResult> {
    checkAppend(gameId, expectedVersion, owner, now, write);
    const m = 'appendSend';
    const { version, seq, at } = write.send;
    const params = [
      gameId,
      expectedVersion,
      owner,
      now,
      version,
      write.snapshot === undefined ? 'null' : toJson(m, 'write.snapshot', write.snapshot),
      toJson(m, 'write.hostState', write.hostState),
      seq,
      write.finished,
      toJson(m, 'write.send.event', write.send.event),
      toJson(m, 'write.send.results', write.send.results),
      at,
      version % KEEP_SNAPSHOT_EVERY === 0,
      write.snapshot !== undefined,
    ];
    const json = `{"game_id":${JSON.stringify(gameId)},"expected":${expectedVersion},"owner":${JSON.stringify(owner)},"now":${now},"version":${version},"seq":${seq},"snapshot":${params[5] as string},"host_state":${params[6] as string},"finished":${write.finished},"event":${params[9] as string},"results":${params[10] as string},"at":${at === null ? 'null' : JSON.stringify(at)},"keep":${params[12] as boolean},"has":${params[13] as boolean}}`;
    const db = await this.db(m);
    const written = await new Promise<boolean>((resolve, reject) => {
      this.pending.push({ gameId, params, json, resolve, reject });
      this.pump(db);
    });
    if (written) return { ok: true };
    // Nothing was written: say why (a read after the refusal, for the reason only).
    const current = (await db.query<{ version: number; owner: string | null; lease_until: number | string }>(SQL.whyRefused, [gameId])).rows[0];
    if (current === undefined) return { ok: false, reason: 'missing' };
    if (current.version !== expectedVersion) return { ok: false, reason: 'version' };
    return { ok: false, reason: 'lease' };
  }

  /** Starts the statements that may start: the waiting writes, at most one of each game per statement. */
  private pump(db: SqlDriver): void {
    while (this.inFlight < this.concurrentWrites && this.pending.length > 0) {
      const batch: PendingWrite[] = [];
      const rest: PendingWrite[] = [];
      const games = new Set<string>();
      for (const w of this.pending) {
        if (batch.length < MAX_BATCH && !games.has(w.gameId)) {
          games.add(w.gameId);
          batch.push(w);
        } else rest.push(w);
      }
      this.pending = rest;
      this.inFlight++;
      void this.write(db, batch).finally(() => {
        this.inFlight--;
        this.pump(db);
      });
    }
  }

  /** Runs one statement for the writes (one game: the one-game statement) and answers each. */
  private async write(db: SqlDriver, batch: readonly PendingWrite[]): Promise<void> {
    const alone = async (w: PendingWrite) => {
      try {
        const { rows } = await db.query<{ written: number }>(SQL.appendSend, w.params);
        w.resolve(rows[0]?.written === 1);
      } catch (err) {
        w.reject(err);
      }
    };
    if (batch.length === 1) return alone(batch[0] as PendingWrite);
    let rows: { game_id: string }[];
    try {
      ({ rows } = await db.query<{ game_id: string }>(SQL.appendSends, [`[${batch.map((w) => w.json).join(',')}]`]));
    } catch {
      // One write failed inside the database, and the statement with it (nothing of it is
      // written): each alone, so that the others are written and the failing one says why.
      for (const w of batch) await alone(w);
      return;
    }
    const written = new Set(rows.map((r) => r.game_id));
    for (const w of batch) w.resolve(written.has(w.gameId));
  }

  async sends(gameId: string, afterVersion?: number, limit?: number): Promise<StoredSend[]> {
    checkId('sends', 'gameId', gameId);
    const after = Math.max(checkAfter(afterVersion), -1);
    const most = checkSendsLimit(limit);
    const db = await this.db('sends');
    const { rows } = await db.query<SendRow>(SQL.sends, [gameId, Math.min(after, 2 ** 31 - 1), most === undefined ? null : Math.min(most, 2 ** 31 - 1)]);
    return rows.map((r) => ({ version: r.version, seq: r.seq, event: r.event, results: r.results, at: r.at === null ? null : Number(r.at) }));
  }

  async snapshots(gameId: string): Promise<StoredSnapshot[]> {
    checkId('snapshots', 'gameId', gameId);
    const db = await this.db('snapshots');
    const { rows } = await db.query<StoredSnapshot>(SQL.snapshots, [gameId]);
    return rows.map((r) => ({ version: r.version, seq: r.seq, snapshot: r.snapshot }));
  }

  async snapshotBefore(gameId: string, at: { readonly version: number; readonly seq: number }): Promise<StoredSnapshot | null> {
    checkId('snapshotBefore', 'gameId', gameId);
    const { version, seq } = checkBefore(at);
    const db = await this.db('snapshotBefore');
    const clamp = (n: number) => Math.max(-1, Math.min(n, 2 ** 31 - 1));
    const { rows } = await db.query<StoredSnapshot>(SQL.snapshotBefore, [gameId, clamp(version), clamp(seq)]);
    const r = rows[0];
    return r === undefined ? null : { version: r.version, seq: r.seq, snapshot: r.snapshot };
  }

  async acquireLease(gameId: string, owner: string, now: number, ttlMs: number): Promise<boolean> {
    checkLease(gameId, owner, now, ttlMs);
    const db = await this.db('acquireLease');
    const result = await db.query(SQL.acquireLease, [gameId, owner, now + ttlMs, now]);
    return result.rowCount === 1;
  }

  async acquireLeases(gameIds: readonly string[], owner: string, now: number, ttlMs: number): Promise<string[]> {
    checkLeases(gameIds, owner, now, ttlMs);
    if (gameIds.length === 0) return [];
    const db = await this.db('acquireLeases');
    const { rows } = await db.query<{ game_id: string }>(SQL.acquireLeases, [JSON.stringify(gameIds), owner, now + ttlMs, now]);
    return rows.map((r) => r.game_id);
  }

  async recordInstants(owner: string, instants: readonly GameInstant[]): Promise<void> {
    checkInstants(owner, instants);
    if (instants.length === 0) return;
    const db = await this.db('recordInstants');
    await db.query(SQL.recordInstants, [owner, JSON.stringify(instants.map((i) => [i.gameId, i.at]))]);
  }

  async releaseLease(gameId: string, owner: string): Promise<void> {
    checkId('releaseLease', 'gameId', gameId);
    checkId('releaseLease', 'owner', owner);
    const db = await this.db('releaseLease');
    await db.query(SQL.releaseLease, [gameId, owner]);
  }

  async listGames(limit?: number): Promise<string[]> {
    const n = checkLimit(limit);
    const db = await this.db('listGames');
    const { rows } = await db.query<{ game_id: string }>(SQL.listGames, [Math.min(n, 2 ** 31 - 1)]);
    return rows.map((r) => r.game_id);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const driver = this.driver;
    this.driver = null;
    if (driver !== null) await (await driver.catch(() => null))?.close();
  }
}

/**
 * Runs the migrations not yet applied, in one transaction under an advisory lock (processes
 * that start together wait for each other). Refuses a database migrated by a newer version.
 */
export async function migrate(driver: SqlDriver): Promise<void> {
  await driver.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.exec(MIGRATIONS_TABLE);
    const { rows } = await tx.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    const applied = new Set(rows.map((r) => r.version));
    const newest = Math.max(0, ...applied);
    const known = Math.max(0, ...MIGRATIONS.map((m) => m.version));
    if (newest > known)
      throw new Error(`the database's schema is at migration ${newest}, newer than this version of mtg-turn-engine knows (${known}): upgrade mtg-turn-engine`);
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1::integer, $2, $3::bigint)', [migration.version, migration.name, Date.now()]);
    }
  });
}
