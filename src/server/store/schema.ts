/**
 * The schema of the SQL stores (PGliteStore and PostgresStore run the same SQL), as migrations:
 * each runs once, in order, in one transaction, and is recorded in `schema_migrations`. The SQL
 * lives in this module (not in a .sql file) so that it ships in dist with the code.
 *
 * Never edit a migration that has shipped: add the next one.
 */

/** One step of the schema. */
export interface Migration {
  /** 1, 2, 3, ... (recorded in schema_migrations.version). */
  readonly version: number;
  /** What it does, in a few words. */
  readonly name: string;
  /** The statements (several, separated by semicolons). */
  readonly sql: string;
}

/**
 * The table of applied migrations, created first. The key of the advisory lock taken while
 * migrating ('mtgt' as a number), so that processes starting together migrate one at a time.
 */
export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at bigint NOT NULL
)`;
export const MIGRATION_LOCK = 0x6d746774;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'games, sends, snapshots',
    sql: `
-- One row per game: what it was created with, where it is now, who owns it.
CREATE TABLE games (
  game_id      text PRIMARY KEY,
  setup        jsonb NOT NULL,            -- createGame options less hooks and listeners, seed included
  snapshot     jsonb NOT NULL,            -- game.persist() of its latest kept snapshot
  version      integer NOT NULL,          -- the game's version now (+1 per accepted send)
  seq          integer NOT NULL,          -- the last seq now
  host_state   jsonb NOT NULL,            -- cards.saveState() now
  token_hashes jsonb NOT NULL,            -- player id -> sha-256 hex of the seat token
  owner        text NULL,                 -- the process holding the lease, or null
  lease_until  bigint NOT NULL DEFAULT 0, -- ms since the epoch; 0 without an owner
  finished     boolean NOT NULL DEFAULT false,
  created_at   bigint NOT NULL            -- ms since the epoch
);
CREATE INDEX games_newest ON games (created_at DESC, game_id COLLATE "C" DESC);

-- One row per accepted send, keyed by the version the game had after it.
CREATE TABLE sends (
  game_id  text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  version  integer NOT NULL,
  seq      integer NOT NULL,              -- the last seq after the send
  event    jsonb NOT NULL,                -- the event as sent
  results  jsonb NOT NULL,                -- the checkpoint / autoPass results of the send, in order
  at       double precision NULL,         -- the host's clock of the send (any number), or null
  PRIMARY KEY (game_id, version)
);

-- The first snapshot of each game and one every 16 versions (KEEP_SNAPSHOT_EVERY).
CREATE TABLE snapshots (
  game_id  text NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
  version  integer NOT NULL,
  seq      integer NOT NULL,
  snapshot jsonb NOT NULL,
  PRIMARY KEY (game_id, version)
);
`,
  },
  {
    version: 2,
    name: 'games.instant',
    sql: `
-- CONTRACT v4: the game's last instant on its host's clock, written by its owner at least once a
-- second while a clock runs and when it stops (a heartbeat, not a version): a game loaded later
-- charges no one for the time after it.
ALTER TABLE games ADD COLUMN instant double precision NULL;
`,
  },
];
