/**
 * The checks every store makes on what it is given, before anything is written: a bad argument
 * is a programming error of the server, so it rejects with a `TypeError` / `RangeError` whose
 * message names the method and the field, and nothing changes. Also the JSON form the stores
 * keep (the memory store keeps exactly what the SQL ones would read back).
 */
import type { NewStoredGame, SendWrite } from './types.js';

/** The game id exists already (`createGame`). */
export class GameExistsError extends Error {
  readonly code = 'GAME_EXISTS';
  readonly gameId: string;
  constructor(gameId: string) {
    super(`createGame: a game with id '${gameId}' exists already in the store`);
    this.name = 'GameExistsError';
    this.gameId = gameId;
  }
}

/** A non-empty string of at most 200 characters. */
export function checkId(method: string, field: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    throw new TypeError(`${method}: ${field} must be a non-empty string of at most 200 characters`);
}

/** The largest version and seq the SQL stores hold (PostgreSQL's integer). */
export const MAX_INT32 = 2 ** 31 - 1;

/** A non-negative safe integer (at most `max`). */
export function checkCount(method: string, field: string, value: unknown, max = Number.MAX_SAFE_INTEGER): asserts value is number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > max)
    throw new RangeError(`${method}: ${field} must be an integer from 0 to ${max} (got ${String(value)})`);
}

/** `undefined` becomes `null` (JSON has no undefined). */
function jsonValue(method: string, field: string, value: unknown): string {
  // The two values written with most sends (no results, no host state), as the same strings each time: nothing kept per send for them.
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value) && value.length === 0 && Object.getPrototypeOf(value) === Array.prototype) return '[]';
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (err) {
    throw new TypeError(`${method}: ${field} is not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (text === undefined) throw new TypeError(`${method}: ${field} is not JSON`);
  return text;
}

/** A `\u0000` escape in JSON text (one not itself escaped: `\\u0000` is a backslash and "u0000"). */
const NUL_ESCAPE = /(?<!\\)(?:\\\\)*\\u0000/;

/**
 * `value` as JSON text, as the stores write it. A string (or key) holding U+0000 is refused by
 * every store alike, before anything is written: PostgreSQL's jsonb cannot hold it.
 */
export function toJson(method: string, field: string, value: unknown): string {
  const text = jsonValue(method, field, value);
  if (text.includes('\\u0000') && NUL_ESCAPE.test(text))
    throw new TypeError(`${method}: ${field} holds the character U+0000, which PostgreSQL's jsonb cannot store`);
  return text;
}

/** Checks a new game (every field named in the message). */
export function checkNewGame(game: NewStoredGame): void {
  const m = 'createGame';
  if (typeof game !== 'object' || game === null) throw new TypeError(`${m}: game must be an object`);
  checkId(m, 'game.gameId', game.gameId);
  checkCount(m, 'game.version', game.version, MAX_INT32);
  checkCount(m, 'game.seq', game.seq, MAX_INT32);
  checkCount(m, 'game.createdAt', game.createdAt);
  const hashes: unknown = game.tokenHashes;
  if (typeof hashes !== 'object' || hashes === null || Array.isArray(hashes))
    throw new TypeError(`${m}: game.tokenHashes must be an object of player id -> sha-256 hex`);
  for (const [player, hash] of Object.entries(hashes as Record<string, unknown>))
    if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
      throw new TypeError(`${m}: game.tokenHashes.${player} must be a sha-256 hex digest (64 lowercase hex digits), not a token`);
}

/** Checks the arguments of appendSend. */
export function checkAppend(gameId: unknown, expectedVersion: unknown, owner: unknown, now: unknown, write: SendWrite): void {
  const m = 'appendSend';
  checkId(m, 'gameId', gameId);
  checkCount(m, 'expectedVersion', expectedVersion, MAX_INT32 - 1);
  checkId(m, 'owner', owner);
  checkCount(m, 'now', now);
  if (typeof write !== 'object' || write === null) throw new TypeError(`${m}: write must be an object`);
  const send = write.send as unknown;
  if (typeof send !== 'object' || send === null) throw new TypeError(`${m}: write.send must be an object`);
  if (write.send.version !== expectedVersion + 1)
    throw new RangeError(
      `${m}: write.send.version must be expectedVersion + 1 = ${expectedVersion + 1} (got ${String(write.send.version)}): every accepted send adds 1 to the version`,
    );
  checkCount(m, 'write.send.seq', write.send.seq, MAX_INT32);
  if (!Array.isArray(write.send.results)) throw new TypeError(`${m}: write.send.results must be an array`);
  const at: unknown = write.send.at;
  if (at !== null && (typeof at !== 'number' || !Number.isFinite(at)))
    throw new TypeError(`${m}: write.send.at must be a finite number or null`);
  if (typeof write.finished !== 'boolean') throw new TypeError(`${m}: write.finished must be a boolean`);
}

/** Checks the arguments of acquireLease. */
export function checkLease(gameId: unknown, owner: unknown, now: unknown, ttlMs: unknown): void {
  checkId('acquireLease', 'gameId', gameId);
  checkId('acquireLease', 'owner', owner);
  checkCount('acquireLease', 'now', now);
  checkCount('acquireLease', 'ttlMs', ttlMs);
}

/** Checks the arguments of acquireLeases. */
export function checkLeases(gameIds: unknown, owner: unknown, now: unknown, ttlMs: unknown): void {
  if (!Array.isArray(gameIds)) throw new TypeError('acquireLeases: gameIds must be an array of game ids');
  for (const [i, id] of gameIds.entries()) checkId('acquireLeases', `gameIds[${i}]`, id);
  checkId('acquireLeases', 'owner', owner);
  checkCount('acquireLeases', 'now', now);
  checkCount('acquireLeases', 'ttlMs', ttlMs);
}

/** The arguments of recordInstants(). */
export function checkInstants(owner: unknown, instants: unknown): void {
  checkId('recordInstants', 'owner', owner);
  if (!Array.isArray(instants)) throw new TypeError('recordInstants: instants must be an array of { gameId, at }');
  for (const [i, entry] of instants.entries()) {
    checkId('recordInstants', `instants[${i}].gameId`, (entry as { gameId?: unknown } | null)?.gameId);
    const at = (entry as { at?: unknown }).at;
    if (typeof at !== 'number' || !Number.isFinite(at)) throw new RangeError(`recordInstants: instants[${i}].at must be a finite number (got ${String(at)})`);
  }
}

/** `afterVersion` of sends(): an integer (default: every send). */
export function checkAfter(afterVersion: unknown): number {
  if (afterVersion === undefined) return -1;
  if (typeof afterVersion !== 'number' || !Number.isSafeInteger(afterVersion))
    throw new RangeError(`sends: afterVersion must be an integer (got ${String(afterVersion)})`);
  return afterVersion;
}

/** `limit` of sends(): a positive integer, or undefined (every send after `afterVersion`). */
export function checkSendsLimit(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`sends: limit must be a positive integer (got ${String(limit)})`);
  return limit;
}

/** `at` of snapshotBefore(): `{ version, seq }`, both integers. */
export function checkBefore(at: unknown): { version: number; seq: number } {
  const { version, seq } = (at ?? {}) as { version?: unknown; seq?: unknown };
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || typeof seq !== 'number' || !Number.isSafeInteger(seq))
    throw new RangeError(`snapshotBefore: at must be { version, seq }, both integers (got ${JSON.stringify(at)})`);
  return { version, seq };
}

/** The default and the cap of listGames(limit). */
export const LIST_DEFAULT = 100;
export function checkLimit(limit: unknown): number {
  if (limit === undefined) return LIST_DEFAULT;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 0)
    throw new RangeError(`listGames: limit must be a non-negative integer (got ${String(limit)})`);
  return limit;
}
