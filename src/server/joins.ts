/**
 * Who may join a served game's room (CONTRACT v3 and v4, "Serving games"): the join options read
 * with their schema, the game known (and loadable: a game that cannot be loaded is refused 4500),
 * the token the named seat's (or a spectator); and the room reached the game the token was made
 * for, whatever the route (by game id, by room id, any matchmaking route). Pure but for reading
 * the token hashes: the room asks it before anything changes.
 */
import { JOIN_BUSY_CODE, JOIN_FAILED_CODE, JOIN_REFUSED_CODE, JoinOptionsSchema } from '../client/protocol.js';
import { describeIssue } from '../issues.js';
import type { GameStore } from './store/types.js';
import { tokenMatches } from './tokens.js';
import { BOT_TOKEN_HASH } from './bots.js';

/** What a join check needs of its server. */
export interface JoinContext {
  readonly store: Pick<GameStore, 'loadGame'>;
  /** The token hashes of the games this process owns, by id. */
  readonly owned: ReadonlyMap<string, { readonly tokenHashes: Readonly<Record<string, string>> }>;
  /** Why the stored game cannot be loaded, or undefined. */
  failedLoad(gameId: string): string | undefined;
}

/** A join allowed (its seat; null: a spectator), or refused with the join error code and why. */
export type JoinCheck = { ok: true; seat: string | null } | { ok: false; code: number; message: string };

const refused = (code: number, message: string): JoinCheck => ({ ok: false, code, message });

/** Whether `options` may join: the game exists and loads, the token is the seat's (or a spectator joins). */
export async function checkJoin(ctx: JoinContext, options: unknown): Promise<JoinCheck> {
  const parsed = JoinOptionsSchema.safeParse(options);
  if (!parsed.success) return refused(JOIN_REFUSED_CODE, `join options: ${describeIssue(parsed.error, 'options')} (expected { gameId, seat, token } or { gameId, spectator: true })`);
  const join = parsed.data;
  const failed = ctx.failedLoad(join.gameId);
  if (failed !== undefined) return refused(JOIN_FAILED_CODE, failed);
  let hashes = ctx.owned.get(join.gameId)?.tokenHashes;
  if (hashes === undefined) {
    try {
      hashes = (await ctx.store.loadGame(join.gameId))?.tokenHashes;
    } catch (err) {
      return refused(JOIN_BUSY_CODE, `the store could not be read (${err instanceof Error ? err.message : String(err)}); try again`);
    }
  }
  if (hashes === undefined) return refused(JOIN_REFUSED_CODE, `no game '${join.gameId}' on this server`);
  if ('spectator' in join) return { ok: true, seat: null };
  if (!Object.hasOwn(hashes, join.seat)) return refused(JOIN_REFUSED_CODE, `'${join.seat}' is not a seat of game '${join.gameId}'`);
  if (hashes[join.seat] === BOT_TOKEN_HASH) return refused(JOIN_REFUSED_CODE, `'${join.seat}' is played by the server's bot in game '${join.gameId}'; join another seat, or watch as a spectator`);
  if (!tokenMatches(join.token, hashes[join.seat])) return refused(JOIN_REFUSED_CODE, `the token is not the token of seat '${join.seat}' of game '${join.gameId}'`);
  return { ok: true, seat: join.seat };
}

/**
 * CONTRACT v4: the token was checked against the game the options name; the room the join reached
 * (`roomId`, the game id) must be that game. Null when it is, else why not.
 */
export function wrongRoom(options: unknown, roomId: string): string | null {
  const gameId = (options as { gameId?: unknown } | null)?.gameId;
  return gameId === roomId ? null : `the join names game '${String(gameId)}' but reached game '${roomId}': a token binds one seat of one game`;
}
