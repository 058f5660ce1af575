/**
 * The table's part of a persisted game (CONTRACT v3: everything in "Playing between people" is
 * persisted): the record of undo, with every state the players may return to (each written as a
 * persisted game in the full form, which `persist()` compacts with the game: src/persistence/compact.ts),
 * and a shortcut proposal being voted on. Absent when there is none, so a game without them
 * persists as it always did. Reading them back from a snapshot a host hands `restoreGame` is
 * src/table/tableRead.ts (validated); reading back the game's own (a detached copy inside a hook)
 * is {@link trustedUndo}, which builds no schema and validates nothing.
 */
import { PERSISTED_ENGINE, PERSISTED_VERSION, type PersistedFull, type PersistedShortcut, type PersistedUndo } from '../persistence/format.js';
import type { ShortcutVote } from './shortcuts.js';
import { DEFAULT_UNDO_ANSWER_MS, type Moment, type UndoPolicy, type UndoRecord, type UndoVote } from './undo.js';

/** The persisted record of undo; `persistTurn` writes one state. The current state is the persisted game itself. */
export function persistUndo<S>(record: UndoRecord<S>, persistTurn: (state: S, version: number) => PersistedFull): PersistedUndo<PersistedFull> {
  const last = record.history.length - 1;
  const out: PersistedUndo<PersistedFull> = { mode: record.policy.mode, requests: { ...record.requests }, history: [], vote: record.vote === null ? null : persistVote(record.vote) };
  if (record.policy.maxPerTurn !== null) out.maxPerTurn = record.policy.maxPerTurn;
  if (record.policy.answerMs !== DEFAULT_UNDO_ANSWER_MS) out.answerMs = record.policy.answerMs;
  record.history.forEach((m, i) => {
    const moment: PersistedUndo<PersistedFull>['history'][number] = { version: m.version, seq: m.seq, horizons: { ...m.horizons } };
    if (m.also !== undefined) moment.also = m.also.map((a) => ({ version: a.version, seq: a.seq }));
    if (i < last) moment.game = persistTurn(m.state, m.version);
    out.history.push(moment);
  });
  return out;
}

/** The persisted vote: `since` only when the request can expire. */
function persistVote(vote: UndoVote): NonNullable<PersistedUndo['vote']> {
  const out: NonNullable<PersistedUndo['vote']> = { requester: vote.requester, to: vote.to, asked: [...vote.asked] };
  if (vote.since !== null) out.since = vote.since;
  return out;
}

/** The policy a persisted record of undo says (absent fields: no limit, the default answer time). */
export function persistedPolicy(u: { mode: 'own' | 'consent'; maxPerTurn?: number | undefined; answerMs?: number | undefined }): UndoPolicy {
  return { mode: u.mode, maxPerTurn: u.maxPerTurn ?? null, answerMs: u.answerMs ?? DEFAULT_UNDO_ANSWER_MS };
}

/** A persisted vote as the table keeps it. */
export function restoredVote(v: NonNullable<PersistedUndo['vote']>): UndoVote {
  return { requester: v.requester, to: v.to, asked: v.asked, since: v.since ?? null };
}

/** The persisted shortcut proposal. */
export function persistShortcut(vote: ShortcutVote): PersistedShortcut {
  return { proposer: vote.proposer, until: { ...vote.until }, asked: [...vote.asked] };
}

/** A moment's turn (compact, as `persist()` writes it) as a persisted game, at its version and seq: for the validation to read. */
export function momentGame(turn: unknown, version: number, seq: number): unknown {
  return { ...(typeof turn === 'object' && turn !== null ? turn : {}), engine: PERSISTED_ENGINE, format: PERSISTED_VERSION, version, seq };
}

/** The record of undo the game itself persisted (trusted: a detached copy of its own state, each moment in the full form), with `current` as its last moment. */
export function trustedUndo<S>(persisted: PersistedFull, current: S, restoreTurn: (p: PersistedFull) => S): UndoRecord<S> {
  const u = persisted.undo as PersistedUndo<PersistedFull>;
  const last = u.history.length - 1;
  const history: Moment<S>[] = u.history.map((m, i) => ({ version: m.version, seq: m.seq, horizons: m.horizons, state: i === last ? current : restoreTurn(m.game as PersistedFull), ...(m.also !== undefined ? { also: m.also } : {}) }));
  return { policy: persistedPolicy(u), history, requests: u.requests, vote: u.vote === null ? null : restoredVote(u.vote), version: persisted.version, seq: persisted.seq ?? 0 };
}

/** The shortcut proposal the game itself persisted (trusted). */
export function trustedShortcut(persisted: PersistedFull): ShortcutVote | null {
  return persisted.shortcut ?? null;
}
