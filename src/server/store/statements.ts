/**
 * The statements of the two SQL stores (PostgreSQL's dialect; PGliteStore and PostgresStore run
 * the same SQL, src/server/store/sql.ts): every statement is here, once, with the rows they read.
 */

/** A row of `games`, as {@link SQL.loadGame} reads it. */
export interface GameRow {
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

/** A row of `sends`, as {@link SQL.sends} reads it. */
export interface SendRow {
  version: number;
  seq: number;
  event: unknown;
  results: unknown[];
  at: number | null;
}

/** Reads a bigint column (pg gives int8 as a string, PGlite as a number). */
export const big = (value: number | string): number => Number(value);

export const SQL = {
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
