/**
 * The table's part of a snapshot a host hands `restoreGame` (untrusted): every field checked, each
 * state the players may return to validated as a persisted game of its own
 * (src/persistence/validate.ts), and the parts checked against each other and the game; a problem
 * is INVALID_SNAPSHOT naming the field. Only `restoreGame` imports this (a host that never
 * restores a game bundles none of it): it hands {@link TABLE_READER} to the table.
 */
import * as z from 'zod/mini';
import type { PlayerId } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { AtSchema, MAX_AMOUNT, MAX_CLOCK_MS, MAX_PLAYERS, PlayerIdSchema, int, list } from '../fields.js';
import { describeIssue } from '../schemas.js';
import type { PersistedFull } from '../persistence/format.js';
import { parsePersisted } from '../persistence/validate.js';
import { ShortcutPointSchema } from '../events/shortcuts.js';
import { askedAbout, pointKey, proposalProblem, type ShortcutContext, type ShortcutVote } from './shortcuts.js';
import { momentGame, persistedPolicy, restoredVote } from './tableSnapshot.js';
import { mayReturnTo, type Moment, type UndoRecord } from './undo.js';

/** The most states a persisted game keeps for undo (a turn's sends since the last point of no return). */
export const MAX_UNDO_HISTORY = 1000;

const Whole = int(0, Number.MAX_SAFE_INTEGER);
const Counts = z.record(PlayerIdSchema, Whole);

const UndoSchema = z.strictObject({
  mode: z.enum(['own', 'consent']),
  maxPerTurn: z.optional(int(0, MAX_AMOUNT)),
  answerMs: z.optional(int(1, MAX_CLOCK_MS)),
  requests: Counts,
  history: list(z.strictObject({ version: Whole, seq: Whole, horizons: Counts, game: z.optional(z.unknown()), also: z.optional(list(z.strictObject({ version: Whole, seq: Whole }), MAX_UNDO_HISTORY)) }), MAX_UNDO_HISTORY, 1),
  vote: z.nullable(z.strictObject({ requester: PlayerIdSchema, to: Whole, asked: list(PlayerIdSchema, MAX_PLAYERS, 1), since: z.optional(AtSchema) })),
});

const ShortcutSchema = z.strictObject({ proposer: PlayerIdSchema, until: ShortcutPointSchema, asked: list(PlayerIdSchema, MAX_PLAYERS, 1) });

function invalid(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, message);
}

/**
 * The record of undo of a validated persisted game (its `undo`, untrusted), with `current` (the
 * game's restored state) as its last moment and `restoreTurn` restoring the others. Throws
 * INVALID_SNAPSHOT naming the field.
 */
export function restoreUndo<S>(persisted: PersistedFull, current: S, players: readonly PlayerId[], restoreTurn: (p: PersistedFull) => S, parse: typeof parsePersisted = parsePersisted): UndoRecord<S> {
  const parsed = UndoSchema.safeParse(persisted.undo);
  if (!parsed.success) throw invalid(describeIssue(parsed.error, 'undo'));
  const u = parsed.data;
  const seats = persisted.context.seats;
  const version = persisted.version;
  const seq = persisted.seq ?? 0;
  const last = u.history.length - 1;
  const history: Moment<S>[] = [];
  for (const [i, m] of u.history.entries()) {
    const at = `undo.history[${i}]`;
    const before = history[i - 1];
    if (before !== undefined && (m.version <= before.version || m.seq < before.seq)) return fail(`${at}.version: the moments are listed oldest first, each at a later version (and seq) than the one before`);
    if (m.version > version || m.seq > seq) return fail(`${at}.version: ${m.version} (seq ${m.seq}) is after the game's (version ${version}, seq ${seq})`);
    if ((i === last) !== (m.game === undefined)) return fail(i === last ? `${at}.game: the last moment is the game's current state (the persisted game itself) and has no game` : `${at}.game: is missing`);
    let state = current;
    let inGame = players;
    if (m.game !== undefined) {
      const game = parse(momentGame(m.game, m.version, m.seq));
      if (!game.ok) return fail(`${at}.game: ${game.message}`);
      if (game.value.undo !== undefined || game.value.shortcut !== undefined) return fail(`${at}.game: a moment holds a turn only (no undo or shortcut of its own)`);
      if (JSON.stringify(game.value.context.seats) !== JSON.stringify(seats)) return fail(`${at}.game.context.seats: differs from the game's (a moment of another game)`);
      state = restoreTurn(game.value);
      inGame = game.value.context.players;
    }
    for (const p of inGame) if (m.horizons[p] === undefined) return fail(`${at}.horizons.${p}: missing (every player in the game then has a horizon)`);
    for (const [p, h] of Object.entries(m.horizons)) {
      if (!inGame.includes(p)) return fail(`${at}.horizons.${p}: not a player in the game then`);
      if (h > m.version || !u.history.some((x) => x.version === h)) return fail(`${at}.horizons.${p}: ${h} is not a kept moment at or before this one's version (${m.version})`);
    }
    if (m.also !== undefined) {
      // The versions undos made by returning to this state: after it, oldest first, before the next moment (or at most the game's version and seq).
      const next = u.history[i + 1];
      let after = { version: m.version, seq: m.seq };
      for (const [j, a] of m.also.entries()) {
        if (a.version <= after.version || a.seq < after.seq) return fail(`${at}.also[${j}]: version ${a.version} (seq ${a.seq}) is not after the moment's and the list's earlier ones (version ${after.version}, seq ${after.seq})`);
        if (next === undefined ? a.version > version || a.seq > seq : a.version >= next.version || a.seq > next.seq) return fail(`${at}.also[${j}]: version ${a.version} (seq ${a.seq}) is not before ${next === undefined ? `the game's (version ${version}, seq ${seq})` : `the next moment's (version ${next.version}, seq ${next.seq})`}`);
        after = a;
      }
    }
    history.push({ version: m.version, seq: m.seq, state, horizons: m.horizons, ...(m.also !== undefined ? { also: m.also } : {}) });
  }
  for (const p of Object.keys(u.requests)) if (!seats.includes(p)) return fail(`undo.requests.${p}: not a player of this game`);
  const record: UndoRecord<S> = { policy: persistedPolicy(u), history, requests: u.requests, vote: null, version, seq };
  const vote = u.vote;
  if (vote !== null) {
    if (!players.includes(vote.requester)) return fail(`undo.vote.requester: ${vote.requester} is not a player in the game`);
    if (!mayReturnTo(record, vote.requester, vote.to)) return fail(`undo.vote.to: ${vote.to} is not a version ${vote.requester} may return to`);
    const asked = new Set(vote.asked);
    if (asked.size !== vote.asked.length || vote.asked.some((p) => p === vote.requester || !players.includes(p))) return fail('undo.vote.asked: each other player in the game at most once, not the requester');
    if (persisted.shortcut !== undefined) return fail('undo.vote, shortcut: one vote at a time');
  }
  return { ...record, vote: vote === null ? null : restoredVote(vote) };

  function fail(message: string): never {
    throw invalid(message);
  }
}

/** The shortcut proposal of a validated persisted game (its `shortcut`, untrusted), checked against the turn. Throws INVALID_SNAPSHOT. */
export function restoreShortcut(value: unknown, ctx: ShortcutContext): ShortcutVote {
  const parsed = ShortcutSchema.safeParse(value);
  if (!parsed.success) throw invalid(describeIssue(parsed.error, 'shortcut'));
  const s = parsed.data;
  const problem = proposalProblem(ctx, s.proposer);
  if (problem !== null) throw invalid(`shortcut.proposer: ${problem}`);
  if (s.until.player !== undefined && !ctx.players.includes(s.until.player)) throw invalid(`shortcut.until.player: ${s.until.player} is not a player in the game`);
  const key = pointKey(ctx, s.until);
  if (typeof key === 'string') throw invalid(`shortcut.${key}`);
  if (new Set(s.asked).size !== s.asked.length || s.asked.some((p) => p === s.proposer || !ctx.players.includes(p))) throw invalid('shortcut.asked: each other player in the game at most once, not the proposer');
  // CR 732.2b: the players still to answer are the last of those asked in turn order after the proposer.
  const order = askedAbout(ctx, s.proposer);
  if (s.asked.length === 0 || order.slice(order.length - s.asked.length).join() !== s.asked.join()) throw invalid(`shortcut.asked: the players still to answer, in turn order after the proposer (CR 732.2b): the last of ${order.join(', ')}`);
  return s;
}

/** How the table reads its part of an untrusted snapshot (handed to the table by `restoreGame`). */
export interface TableReader {
  undo<S>(persisted: PersistedFull, current: S, players: readonly PlayerId[], restoreTurn: (p: PersistedFull) => S): UndoRecord<S>;
  shortcut(value: unknown, ctx: ShortcutContext): ShortcutVote;
}

export const TABLE_READER: TableReader = { undo: restoreUndo, shortcut: restoreShortcut };
