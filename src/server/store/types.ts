/**
 * The durable store of served games: one interface, three implementations (MemoryStore,
 * PGliteStore, PostgresStore) over one schema (see ./schema.ts for the SQL ones).
 *
 * Contract ("Serving games"): setup, current snapshot with version and seq, the host's own
 * state, one row per accepted send (event, checkpoint results, `at`), a snapshot every
 * {@link KEEP_SNAPSHOT_EVERY} versions (issue 31: every send is journaled, a full snapshot is
 * written only every 16 versions, so a reload replays at most 15 sends). Writes are conditional on the version: two owners can never both advance one game.
 */

/** What a game is created with. */
export interface NewStoredGame {
  /** The game's id (unique in the store). */
  readonly gameId: string;
  /** The createGame options less hooks and listeners (JSON), seed included. */
  readonly setup: unknown;
  /** `game.persist()` right after createGame (JSON). */
  readonly snapshot: unknown;
  /** The game's version and last `seq` right after createGame. */
  readonly version: number;
  readonly seq: number;
  /** `cards.saveState()` right after createGame (JSON). */
  readonly hostState: unknown;
  /** Seat tokens, hashed (sha-256 hex of the token): player id -> hash. Never the tokens themselves. */
  readonly tokenHashes: Readonly<Record<string, string>>;
  /** When it was created (ms since the epoch). */
  readonly createdAt: number;
}

/** A game as it is in the store now. */
export interface StoredGame extends NewStoredGame {
  /** The owner holding the lease, or null. */
  readonly owner: string | null;
  /** Until when the owner's lease holds (ms since the epoch); 0 without an owner. */
  readonly leaseUntil: number;
  /** Whether the game is over (no more sends will be written). */
  readonly finished: boolean;
  /**
   * CONTRACT v4 (clocks stand still while no server owns a game): the game's last instant on its
   * host's clock (the `at` domain) as its owner last wrote it with {@link GameStore.recordInstants},
   * or null (never written; a store without recordInstants).
   */
  readonly instant?: number | null;
}

/** One game's instant, as an owner records it (its heartbeat, not a version). */
export interface GameInstant {
  readonly gameId: string;
  /** The game's now, on its host's clock (the `at` domain). */
  readonly at: number;
}

/** One accepted send. */
export interface StoredSend {
  /** The version the game had after this send (the row's key with gameId). */
  readonly version: number;
  /** The last `seq` after this send. */
  readonly seq: number;
  /** The event as sent (JSON). */
  readonly event: unknown;
  /** Every checkpoint / autoPass result the hooks returned during this send, in order (JSON). */
  readonly results: readonly unknown[];
  /** The host's clock (`at`) of the send, or null. */
  readonly at: number | null;
}

/** Everything written for one accepted send, in one transaction. */
export interface SendWrite {
  readonly send: StoredSend;
  /**
   * `game.persist()` after the send, given when the new version is a multiple of
   * KEEP_SNAPSHOT_EVERY (it becomes the game's latest snapshot, and is kept); without it the
   * store keeps the game's snapshot as it was (the sends after it are journaled).
   */
  readonly snapshot?: unknown;
  /** `cards.saveState()` after the send. */
  readonly hostState: unknown;
  /** Whether the game ended with this send. */
  readonly finished: boolean;
}

/** A kept snapshot (one every KEEP_SNAPSHOT_EVERY versions, and the first). */
export interface StoredSnapshot {
  readonly version: number;
  readonly seq: number;
  readonly snapshot: unknown;
}

/** The result of a conditional write. */
export type WriteResult = { readonly ok: true } | { readonly ok: false; readonly reason: 'version' | 'lease' | 'missing' };

/**
 * The store. Every method is async; implementations must be safe to use from several processes
 * at once (the SQL ones) and keep the writes of one send atomic.
 */
export interface GameStore {
  /** Creates the schema if needed (idempotent; runs the migrations). */
  init(): Promise<void>;
  /** Inserts a new game (and its first kept snapshot). Rejects if the id exists. */
  createGame(game: NewStoredGame): Promise<void>;
  /** The game, or null. */
  loadGame(gameId: string): Promise<StoredGame | null>;
  /**
   * Writes one accepted send if and only if the game's stored version is `expectedVersion`
   * and `owner` holds an unexpired lease at `now`: inserts the send row, replaces version, seq
   * and host state, and, when the write has a snapshot, replaces the game's snapshot and keeps it
   * if the new version is a multiple of KEEP_SNAPSHOT_EVERY. Otherwise writes nothing and says why.
   */
  appendSend(gameId: string, expectedVersion: number, owner: string, now: number, write: SendWrite): Promise<WriteResult>;
  /** The sends after `afterVersion` (exclusive), in order: the first `limit` of them when it is given (a resume reads a slice at a time). */
  sends(gameId: string, afterVersion?: number, limit?: number): Promise<StoredSend[]>;
  /** The kept snapshots, in order of version. */
  snapshots(gameId: string): Promise<StoredSnapshot[]>;
  /**
   * The latest kept snapshot at or before version `at.version` whose `seq` is at most `at.seq`,
   * or null: one row read, however long the game (a resume from far back restores it). Optional:
   * without it, the server reads {@link GameStore.snapshots} and picks it.
   */
  snapshotBefore?(gameId: string, at: { readonly version: number; readonly seq: number }): Promise<StoredSnapshot | null>;
  /**
   * Takes or renews the lease on a game for `owner` until `now + ttlMs`: succeeds if nobody
   * holds it, `owner` holds it, or the holder's lease expired before `now`.
   */
  acquireLease(gameId: string, owner: string, now: number, ttlMs: number): Promise<boolean>;
  /**
   * {@link GameStore.acquireLease} for several games at once (one statement in the SQL stores):
   * the ids of those `owner` holds after. A server renews the leases of all its games with one
   * call when its store has this method, one call per game otherwise.
   */
  acquireLeases?(gameIds: readonly string[], owner: string, now: number, ttlMs: number): Promise<string[]>;
  /**
   * CONTRACT v4: writes each game's instant (never earlier than the one written before), for the
   * games `owner` holds the lease of; the others are left alone. The heartbeat of a game whose
   * clock runs, and the last word of a server that stops: a game loaded later charges no one for
   * the time after it. Optional: without it, a reload charges the time since the last send.
   */
  recordInstants?(owner: string, instants: readonly GameInstant[]): Promise<void>;
  /** Gives the lease up (only if `owner` holds it). */
  releaseLease(gameId: string, owner: string): Promise<void>;
  /** Ids of the games in the store (newest first: by `createdAt`, then by id descending), at most `limit` (default 100). */
  listGames(limit?: number): Promise<string[]>;
  /** Closes connections. */
  close(): Promise<void>;
}
