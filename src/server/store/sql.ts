/**
 * The GameStore over SQL: PGliteStore and PostgresStore differ only in how they reach the
 * database (a {@link SqlDriver}); every statement is in ./statements.ts, once.
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
import { SQL, big, type GameRow, type SendRow } from './statements.js';
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
