/**
 * Undo with a policy (CONTRACT v3, "Playing between people"), as pure functions over the table's
 * record of the game's recent states. Every accepted send that reaches the turn adds the state it
 * made (a {@link Moment}); each player may return to any moment since their horizon, the last
 * point no undo goes back past for them:
 *
 * - for everyone: the start of the current turn (`turnBegan`), a random result (the seeded
 *   generator moved: the planar die), an emitted `draw`, `drawHand` or `resolve`, a player
 *   leaving (`playerLeft`), a checkpoint whose hook reported anything, MARK_IRREVERSIBLE;
 * - for everyone but the one who acted: a decision or an automatic pass (CR 117.4) of one
 *   player; once two players acted in one send, for everyone.
 *
 * The moments kept reach back to the earliest horizon of any moment kept (an undo restores the
 * horizons of the moment it returns to, which may reach further back), so never past the last
 * point that was a horizon for everyone. Nothing here knows what a state is: the table
 * (src/table/tableLogic.ts) hands the states in and persists them.
 */
import type { EmittedEvent, PlayerId, UndoHorizon, UndoOptions } from '../contract.js';

/** The policy of a game with undo ('none' is a game without). */
export interface UndoPolicy {
  readonly mode: 'own' | 'consent';
  /** The most requests per player and turn (CONTRACT v4: 3 by default); null: no limit. */
  readonly maxPerTurn: number | null;
  /** CONTRACT v4: how long (ms on the host's clock) a consent request waits for its answer before it is declined. */
  readonly answerMs: number;
}

/** CONTRACT v4: the default `undo.maxPerTurn`. */
export const DEFAULT_MAX_UNDO_PER_TURN = 3;
/** CONTRACT v4: the default `undo.answerMs`. */
export const DEFAULT_UNDO_ANSWER_MS = 30_000;

/** One state the players may return to: the game's state after the send that made `version`. */
export interface Moment<S> {
  readonly version: number;
  /** The `seq` of the last event emitted when the game reached it (what `undone.toSeq` says). */
  readonly seq: number;
  readonly state: S;
  /** For every player in the game then: the earliest version they could return to. */
  readonly horizons: Readonly<Record<PlayerId, number>>;
  /**
   * The versions (and seqs) undos made by returning to this state, oldest first (each later than
   * `version`): the same state under the numbers the players saw it by, each as good a `to` as
   * `version` (an undo to one says its own `seq` as `toSeq`).
   */
  readonly also?: readonly Alias[];
}

/** A version (with the seq the game had then) that an undo made by returning to a moment's state. */
export interface Alias {
  readonly version: number;
  readonly seq: number;
}

/** A request awaiting the other players' consent. */
export interface UndoVote {
  readonly requester: PlayerId;
  readonly to: number;
  /** The players still to answer, in turn order: the first is awaited. */
  readonly asked: readonly PlayerId[];
  /**
   * CONTRACT v4: the host's clock when the request was made (its `at`, or the last `at` the game
   * saw); null when the game has seen no `at`: such a request never expires.
   */
  readonly since: number | null;
}

/** The table's record of undo. */
export interface UndoRecord<S> {
  readonly policy: UndoPolicy;
  /** The moments the players may return to, oldest first; the last is the game's current state. */
  readonly history: readonly Moment<S>[];
  /** UNDO requests each player made this turn (they stay counted through an undo). */
  readonly requests: Readonly<Record<PlayerId, number>>;
  readonly vote: UndoVote | null;
  /** The game's version and seq now (a send that changes only the table makes no moment). */
  readonly version: number;
  readonly seq: number;
}

/** The policy of the `undo` option (validated by the options' schema), or null for none. */
export function policyOf(options: UndoOptions | undefined): UndoPolicy | null {
  if (options === undefined || options.mode === 'none') return null;
  return { mode: options.mode, maxPerTurn: options.maxPerTurn === undefined ? DEFAULT_MAX_UNDO_PER_TURN : options.maxPerTurn, answerMs: options.answerMs ?? DEFAULT_UNDO_ANSWER_MS };
}

/** CONTRACT v4: when the vote's request is declined for the player asked if nobody answers (its `since` + `answerMs`), or null (it never expires). */
export function voteDeadline<S>(record: UndoRecord<S>): number | null {
  const vote = record.vote;
  return vote === null || vote.since === null ? null : vote.since + record.policy.answerMs;
}

/** The record of a game that begins (or is restored without undo state) in `state` at `version`. */
export function startUndo<S>(policy: UndoPolicy, state: S, version: number, seq: number, players: readonly PlayerId[]): UndoRecord<S> {
  const horizons: Record<PlayerId, number> = {};
  for (const p of players) horizons[p] = version;
  return { policy, history: [{ version, seq, state, horizons }], requests: {}, vote: null, version, seq };
}

/** The moment the game is in now. */
export function currentMoment<S>(record: UndoRecord<S>): Moment<S> {
  return record.history[record.history.length - 1] as Moment<S>;
}

/** Who a send's boundary binds: nobody, everyone, or everyone but the one player who acted. */
export type Boundary = { kind: 'none' } | { kind: 'all' } | { kind: 'allBut'; player: PlayerId };

/** Emitted events after which no undo goes back (CONTRACT v3): the host carried out something it cannot take back. */
const IRREVERSIBLE: ReadonlySet<string> = new Set(['turnBegan', 'draw', 'drawHand', 'resolve', 'planarDie', 'playerLeft', 'gameOver']);

/**
 * The boundary a send sets (CONTRACT v3, "Undo"): `actor`, the player whose decision it was (its
 * `by` when someone decides for them, CR 723.5), or null for a host event; `emitted`, what it
 * emitted; `irreversible`, whether a checkpoint hook reported anything or the seeded generator
 * moved during it.
 */
export function boundaryOf(actor: PlayerId | null, emitted: readonly EmittedEvent[], irreversible: boolean): Boundary {
  if (irreversible) return { kind: 'all' };
  let acted = actor;
  for (const e of emitted) {
    if (IRREVERSIBLE.has(e.type)) return { kind: 'all' };
    // CR 117.4: an automatic pass is a pass by that player.
    if (e.type === 'autoPass') {
      if (acted !== null && acted !== e.player) return { kind: 'all' };
      acted = e.player;
    }
  }
  return acted === null ? { kind: 'none' } : { kind: 'allBut', player: acted };
}

/**
 * The record after a send that reached the turn: the moment it made (`state`, at the game's new
 * `version` and `seq`), each player's horizon moved by `boundary`, the requests counted afresh when
 * a turn began, a vote that can no longer be granted dropped, and the moments no player can return
 * to any more forgotten.
 */
export function recorded<S>(record: UndoRecord<S>, state: S, version: number, seq: number, boundary: Boundary, players: readonly PlayerId[], turnBegan: boolean): UndoRecord<S> {
  const before = currentMoment(record).horizons;
  const horizons: Record<PlayerId, number> = {};
  for (const p of players) {
    const bound = boundary.kind === 'all' || (boundary.kind === 'allBut' && boundary.player !== p);
    horizons[p] = bound ? version : (before[p] ?? version);
  }
  const history = kept([...record.history, { version, seq, state, horizons }]);
  const next: UndoRecord<S> = { ...record, history, requests: turnBegan ? {} : record.requests, version, seq };
  return { ...next, vote: record.vote === null ? null : standingVote(next, record.vote, players) };
}

/**
 * The record once the shell committed a send as `version` with last event `seq`: the moments
 * the send made (one per step of the turn it took: numbered from the record's own count) are one
 * moment, its last, at `version` and `seq`; horizons that named a moment in between name it.
 */
export function committedAs<S>(record: UndoRecord<S>, version: number, seq: number): UndoRecord<S> {
  if (record.version === version && record.seq === seq) return record;
  const history = record.history;
  let first = history.length;
  while (first > 0 && (history[first - 1] as Moment<S>).version >= version) first--;
  const clamp = (h: Readonly<Record<PlayerId, number>>): Record<PlayerId, number> => Object.fromEntries(Object.entries(h).map(([p, v]) => [p, Math.min(v, version)]));
  const made = history.length > first ? [{ ...(history[history.length - 1] as Moment<S>), version, seq, horizons: clamp((history[history.length - 1] as Moment<S>).horizons) }] : [];
  const vote = record.vote !== null && record.vote.to > version ? { ...record.vote, to: version } : record.vote;
  const kept = history.slice(0, first);
  // An undo's own version (the moment returned to names it in `also`) is the send's when the send
  // ended there; when the send went on past it, the undo's state was never a version anyone saw.
  const last = kept[kept.length - 1];
  if (last?.also !== undefined && (last.also.at(-1) as Alias).version >= version) {
    const seen = last.also.filter((a) => a.version < version);
    const also = made.length === 0 ? [...seen, { version, seq }] : seen;
    kept[kept.length - 1] = also.length > 0 ? { ...last, also } : withoutAliases(last);
  }
  return { ...record, history: [...kept, ...made], vote, version, seq };
}

function withoutAliases<S>(moment: Moment<S>): Moment<S> {
  const { also: _also, ...rest } = moment;
  return rest;
}

/** The record after a send that changed only the table (a vote, a shortcut): the game's version and seq move on. */
export function passedOver<S>(record: UndoRecord<S>, version: number, seq: number): UndoRecord<S> {
  return { ...record, version, seq };
}

/** MARK_IRREVERSIBLE: the current state is a new moment no undo goes back past. */
export function markedIrreversible<S>(record: UndoRecord<S>, version: number, seq: number, players: readonly PlayerId[]): UndoRecord<S> {
  return recorded(record, currentMoment(record).state, version, seq, { kind: 'all' }, players, false);
}

/** The moments to keep: back to the earliest horizon any kept moment holds (an undo restores a moment's horizons). */
function kept<S>(history: readonly Moment<S>[]): readonly Moment<S>[] {
  let from = history.length - 1;
  let lowest = Infinity;
  for (let seen = history.length; seen > from; ) {
    for (let i = from; i < seen; i++) for (const h of Object.values((history[i] as Moment<S>).horizons)) lowest = Math.min(lowest, h);
    seen = from;
    while (from > 0 && (history[from - 1] as Moment<S>).version >= lowest) from--;
  }
  return from === 0 ? history : history.slice(from);
}

/** The versions `player` may return to now, oldest first (before the current state). */
export function versionsOf<S>(record: UndoRecord<S>, player: PlayerId): number[] {
  const now = currentMoment(record);
  const horizon = now.horizons[player];
  if (horizon === undefined) return [];
  const out: number[] = [];
  for (let i = 0; i < record.history.length - 1; i++) {
    const m = record.history[i] as Moment<S>;
    if (m.version < horizon) continue;
    out.push(m.version);
    // The versions an undo made by returning here name the same state (later than `version`, so within the horizon too).
    if (m.also !== undefined) for (const a of m.also) out.push(a.version);
  }
  return out;
}

/**
 * `view().undo` (CONTRACT v4): each player's horizon, the earliest version they may return to
 * (null when nothing can be undone), and the requests they have left this turn (null without a
 * limit). The versions in between are not shown (the host's `legalActions` lists them): a seat
 * learns nothing of the other players' own settings from it.
 */
export function undoView<S>(record: UndoRecord<S>, players: readonly PlayerId[]): Record<PlayerId, UndoHorizon> {
  const max = record.policy.maxPerTurn;
  const out: Record<PlayerId, UndoHorizon> = {};
  for (const p of players) {
    const versions = versionsOf(record, p);
    out[p] = { to: versions[0] ?? null, requestsLeft: max === null ? null : Math.max(0, max - (record.requests[p] ?? 0)) };
  }
  return out;
}

/**
 * The moment of the history whose state version `to` names, or -1: the moment's own version, a
 * version an undo made by returning to it, or a version made after the last of those, before the
 * next moment, by a send that changed only the table (another player's SET_STOPS or YIELD, a vote:
 * no moment; the game state was the moment's). Versions before the last return to a moment may
 * have been undone, and are not looked at.
 */
function momentNamed<S>(record: UndoRecord<S>, to: number): number {
  const history = record.history;
  for (let i = 0; i < history.length; i++) {
    const m = history[i] as Moment<S>;
    const anchor = m.also?.at(-1)?.version ?? m.version;
    if (to === m.version || m.also?.some((a) => a.version === to) === true) return i;
    const next = i + 1 < history.length ? (history[i + 1] as Moment<S>).version : record.version + 1;
    if (to > anchor && to < next) return i;
  }
  return -1;
}

/** Whether `player` may return to version `to` (CONTRACT: `to >= undo[player].to`, a state of the game's line before the current one). */
export function mayReturnTo<S>(record: UndoRecord<S>, player: PlayerId, to: number): boolean {
  const i = momentNamed(record, to);
  if (i < 0 || i === record.history.length - 1) return false;
  const horizon = currentMoment(record).horizons[player];
  return horizon !== undefined && (record.history[i] as Moment<S>).version >= horizon;
}

/** Why `player` may not ask to return to version `to` now, or null (the vote of a shortcut is the table's to check). */
export function undoProblem<S>(record: UndoRecord<S>, player: PlayerId, to: number): string | null {
  if (record.vote !== null) return `${record.vote.asked[0] ?? 'a player'} is asked to accept ${record.vote.requester}'s undo first: ACCEPT_UNDO or DECLINE_UNDO`;
  const max = record.policy.maxPerTurn;
  const made = record.requests[player] ?? 0;
  if (max !== null && made >= max) return `${player} has made ${made} undo requests this turn, the limit (undo.maxPerTurn = ${max})`;
  if (mayReturnTo(record, player, to)) return null;
  const versions = versionsOf(record, player);
  const now = currentMoment(record);
  const horizon = now.horizons[player] ?? now.version;
  if (to < horizon) return `event.to: ${to} is before ${player}'s horizon, version ${horizon} (view.undo.${player}.to = ${versions[0] ?? 'null'}): another player decided or passed, a turn began, or something irreversible happened since`;
  if (versions.length === 0) return `${player} has nothing to undo: no version before the current state (version ${now.version}) is theirs to return to`;
  // The current state: its moment's version, the versions undos that returned to it made, and those after the last (a vote, a setting: the table's alone).
  if (to === now.version || (now.also?.some((a) => a.version === to) ?? false) || to > (now.also?.at(-1)?.version ?? now.version)) return `event.to: ${to} is not before the current state (version ${record.version}); ${player} may return to ${listed(versions)}`;
  return `event.to: version ${to} is not a state of the game's line (an undo took it back); ${player} may return to ${listed(versions)}`;
}

function listed(versions: readonly number[]): string {
  return versions.length > 8 ? `${versions.slice(0, 4).join(', ')}, ..., ${versions.slice(-3).join(', ')}` : versions.join(', ');
}

/** A request counted against `maxPerTurn`. */
export function counted<S>(record: UndoRecord<S>, player: PlayerId): UndoRecord<S> {
  return { ...record, requests: { ...record.requests, [player]: (record.requests[player] ?? 0) + 1 } };
}

/** A request put to the other players (`asked`, in turn order). */
export function voteOpened<S>(record: UndoRecord<S>, requester: PlayerId, to: number, asked: readonly PlayerId[], since: number | null): UndoRecord<S> {
  return { ...record, vote: { requester, to, asked, since } };
}

/** The vote after its awaited player accepted: the next player is asked, or (null) everyone accepted. */
export function acceptedBy(vote: UndoVote): UndoVote | null {
  const asked = vote.asked.slice(1);
  return asked.length === 0 ? null : { ...vote, asked };
}

/**
 * The record once the game returned to version `to` (a moment of its history, or a version an
 * earlier undo made by returning to one): the moments after it forgotten, its horizons back in
 * force, the vote closed; the requests stay counted and the game's version and seq go on. The
 * undo's own `version` names the state too (the moment's `also`: a later UNDO may name either, as
 * the contract's `to >= undo[player].to` says). Returns the moment returned to.
 */
export function returnedTo<S>(record: UndoRecord<S>, to: number, version: number, seq: number): { record: UndoRecord<S>; moment: Moment<S> } {
  const at = momentNamed(record, to);
  const moment = record.history[at] as Moment<S>;
  const history = [...record.history.slice(0, at), { ...moment, also: [...(moment.also ?? []), { version, seq }] }];
  // A version an undo made names the state with its own seq; one a table-only send made, the seq of the last version before it that names the state.
  const alias = moment.version === to ? undefined : (moment.also?.find((a) => a.version === to) ?? moment.also?.at(-1));
  return { record: { ...record, history, vote: null, version, seq }, moment: alias === undefined ? moment : { ...moment, ...alias } };
}

/** A vote that still stands after a send: the requester still in the game and `to` still theirs to return to; players who left are asked no more. */
function standingVote<S>(record: UndoRecord<S>, vote: UndoVote, players: readonly PlayerId[]): UndoVote | null {
  if (!players.includes(vote.requester) || !mayReturnTo(record, vote.requester, vote.to)) return null;
  const asked = vote.asked.filter((p) => players.includes(p));
  return asked.length === 0 ? null : asked.length === vote.asked.length ? vote : { ...vote, asked };
}
