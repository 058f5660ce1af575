/**
 * The table around the turn (CONTRACT v3, "Playing between people"): undo with a policy and
 * tournament shortcuts (CR 732), as a turn logic wrapped around any other (src/game/logic.ts), so
 * that the game shell and every turn logic stay as they are. The table takes its own events
 * (src/events/undo.ts, src/events/shortcuts.ts) before the turn's gate, keeps what it needs beside the turn's state, and
 * adds it to the view, `legalActions` and the persisted game. A game with neither undo nor a vote
 * in progress has the turn's state itself, untouched: what it persists, and what each send costs,
 * is what it was before the table.
 *
 * - Undo (src/table/undo.ts): every send that reaches the turn adds the state it made to the
 *   record, with each player's horizon; UNDO returns to one at once ('own') or once every other
 *   player accepted ('consent'), emitting `undone`.
 * - Shortcuts (src/table/shortcuts.ts): PROPOSE_SHORTCUT opens a vote; once the last player
 *   accepts (or shortens it), the send passes for the player holding priority and lets the turn
 *   pass for everyone up to the agreed point (machines/hooks.ts `shortcut`).
 *
 * Beside it: the table's state and work (./tableState.ts), what it adds to what a game shows
 * (./tableView.ts), and what it reads of the turn's events and steps (./turnEvents.ts).
 */
import type { GameHooksRuntime } from '../../machines/hooks.js';
import type { EmittedEvent, PlayerId, ShortcutPoint, TurnEvent } from '../contract.js';
import type { TurnContext } from '../state.js';
import { ErrorCode } from '../errors.js';
import { DECISIONS, AT_TABLE_EVENTS, violationOf, type EventOf, type AtTableEventType } from '../events/index.js';
import { refusal, seatOrGameOverRefusal, type Refusal } from '../gate.js';
import { eventOrMessage } from '../schemas.js';
import type { PersistedFull } from '../persistence/format.js';
import type { NextStop } from '../nextStop.js';
import { isRefusal, type PendingVote, type Stepped, type TurnLogic } from '../game/logic.js';
import { actedFor } from '../game/cardsPart.js';
import { askedAbout, pointKey, standsStill, takingShortcut, type ShortcutVote } from './shortcuts.js';
import { illegal, tableEventProblem } from './tableChecks.js';
import { persistShortcut, persistUndo, trustedShortcut, trustedUndo } from './tableSnapshot.js';
import type { TableReader } from './tableRead.js';
import { Request, Table, TableRequest, TurnRequest, reseeded, type TableEvent, type TableLogic, type TableState } from './tableState.js';
import { laterVoter, tableActions, voteAwaiting } from './tableView.js';
import { actorOf, passesAtOnce, typeOf, watched } from './turnEvents.js';
import {
  acceptedBy,
  boundaryOf,
  counted,
  markedIrreversible,
  committedAs,
  passedOver,
  recorded,
  returnedTo,
  startUndo,
  undoView,
  voteDeadline,
  voteOpened,
  type UndoPolicy,
  type UndoRecord,
} from './undo.js';

export { Table, type TableLogic, type TableState, type TableWork } from './tableState.js';

/** A player's own settings (their stops, their yields): private to their seat, so no undo point for anyone (CONTRACT v4). */
const SETTINGS: ReadonlySet<string> = new Set(['SET_STOPS', 'YIELD']);

/**
 * The turn logic `inner` at the table. `policy`: the undo policy of a new game (null: none);
 * `keepsStates`: whether its states are kept for undo (a new game with a policy, a restored one
 * that persisted undo), so that the turn may not pop its stacks in place (src/game/ownedStacks.ts);
 * `reader`: how to read the table's part of an untrusted snapshot (restoreGame's: without one, the
 * game restores only what it persisted itself, a detached copy inside a hook).
 */
export function atTable<S, W>(inner: TurnLogic<S, W>, policy: UndoPolicy | null, keepsStates = policy !== null, reader?: TableReader): TableLogic<S, W> {
  if (policy !== null) return tableLogic(inner, policy, keepsStates, reader);
  // Without a policy the table logic holds nothing of any game: games share one (none made per game).
  let byReader = (keepsStates ? keeping : plain).get(inner);
  if (byReader === undefined) (keepsStates ? keeping : plain).set(inner, (byReader = new Map()));
  let logic = byReader.get(reader);
  if (logic === undefined) byReader.set(reader, (logic = tableLogic(inner, null, keepsStates, reader)));
  return logic as TableLogic<S, W>;
}

/** The shared table logics without an undo policy, by turn logic and snapshot reader: those that keep states for undo (a restored game that persisted undo), and the others. */
const keeping = new WeakMap<object, Map<TableReader | undefined, unknown>>();
const plain = new WeakMap<object, Map<TableReader | undefined, unknown>>();

/** {@link atTable}, made anew. */
function tableLogic<S, W>(inner: TurnLogic<S, W>, policy: UndoPolicy | null, keepsStates: boolean, reader: TableReader | undefined): TableLogic<S, W> {
  const gameOf = (state: TableState<S>): S => (state instanceof Table ? state.game : state);
  const contextOf = (game: S): TurnContext => inner.chartState(game, null).context;
  const statusOf = (game: S): string => inner.chartState(game, null).status;
  /** The state with the table's records, or the turn's own when the table holds nothing. */
  const boxed = (game: S, undo: UndoRecord<S> | null, shortcut: ShortcutVote | null): TableState<S> => (undo === null && shortcut === null ? game : new Table(game, undo, shortcut));

  /** Why a table event is refused now, or null: the players it names, the game being over, the player in the game, then its own check. */
  function tableProblem(state: TableState<S>, e: TableEvent): Refusal | null {
    const game = gameOf(state);
    const ctx = contextOf(game);
    const seatOrOver = seatOrGameOverRefusal(ctx, statusOf(game), e);
    if (seatOrOver !== null) return seatOrOver;
    const v = violationOf(ctx, null, e);
    if (v !== null) return illegal(v.message, v.rule);
    return tableEventProblem(e, { ctx, undo: state instanceof Table ? state.undo : null, shortcut: state instanceof Table ? state.shortcut : null });
  }

  /** The table's gate for one of its events: parsed (from the raw value, or already), then checked. */
  function tableGate(state: TableState<S>, raw: unknown): TableRequest | TurnRequest<W> | Refusal {
    const event = eventOrMessage(raw);
    if (typeof event === 'string') return refusal(ErrorCode.INVALID_EVENT, event);
    if (!AT_TABLE_EVENTS.has(event.type)) return turnGate(state, event, actedFor(raw));
    return tableProblem(state, event as TableEvent) ?? new TableRequest(event as TableEvent);
  }

  /** The turn's gate in a game with a table: the vote in progress refuses decisions; the decision's maker is kept for undo. */
  function turnGate(state: TableState<S>, event: TurnEvent, actedBy?: PlayerId): TableRequest | TurnRequest<W> | Refusal {
    if (AT_TABLE_EVENTS.has(event.type)) return tableProblem(state, event as TableEvent) ?? new TableRequest(event as TableEvent);
    const game = gameOf(state);
    const ctx = contextOf(game);
    const awaiting = voteAwaiting(state);
    if (awaiting !== null && (DECISIONS.has(event.type) || passesAtOnce(ctx, event))) {
      const over = seatOrGameOverRefusal(ctx, statusOf(game), event);
      if (over !== null) return over;
      if (awaiting.kind === 'shortcut') return illegal(`${awaiting.player} is asked about ${awaiting.proposer}'s shortcut first (ACCEPT_SHORTCUT or SHORTEN_SHORTCUT); no decision is made while it is voted on`, '732.2b');
      if (awaiting.kind === 'undoConsent') return illegal(`${awaiting.player} is asked to accept ${awaiting.requester}'s undo first (ACCEPT_UNDO or DECLINE_UNDO); no decision is made while it is voted on`);
    }
    const work = inner.gate(game, event);
    if (isRefusal(work)) return work;
    // A host event a card game takes for a player's CARD_ACTION is that player's (CONTRACT v4, "Undo in a card game").
    return new TurnRequest(work as W, actedBy ?? actorOf(event), SETTINGS.has(event.type) ? event : null);
  }

  /**
   * A player's own setting that moved nothing else (it emitted nothing: a yield that passes at once
   * is a pass, and an undo point as any): no moment is made, and every moment kept takes the setting
   * too, so that no undo (another player's least of all) takes it back and no seat can tell it was
   * made from the undo view (CONTRACT v4; issue 33). A moment that refuses it keeps its state.
   */
  function settingTaken(undo: UndoRecord<S>, game: S, setting: TurnEvent): UndoRecord<S> {
    const last = undo.history.length - 1;
    const history = undo.history.map((m, i) => {
      if (i === last) return { ...m, state: game };
      try {
        const work = inner.gate(m.state, setting);
        if (isRefusal(work)) return m;
        const out = inner.transition(m.state, work, undefined);
        return out.emitted.length === 0 ? { ...m, state: out.state } : m;
      } catch {
        return m;
      }
    });
    return passedOver({ ...undo, history }, undo.version + 1, undo.seq);
  }

  /** An event for the turn at a table: the turn's step, then the table's records follow it. */
  function turnStep(state: Table<S>, work: W, actor: PlayerId | null, runtime: GameHooksRuntime | undefined, taking?: (ctx: TurnContext) => 'pass' | 'ask' | null, setting: TurnEvent | null = null): Stepped<TableState<S>> {
    const before = contextOf(state.game);
    let stepRuntime = runtime;
    if (taking !== undefined) (stepRuntime = runtime ?? { inHook: false, seq: 0, calls: 0, numbers: null }).shortcut = taking;
    let step: { out: Stepped<S>; reported: boolean };
    try {
      step = watched(stepRuntime, () => inner.transition(state.game, work, stepRuntime));
    } finally {
      if (stepRuntime !== undefined) delete stepRuntime.shortcut;
    }
    const { out, reported } = step;
    const after = contextOf(out.state);
    let undo = state.undo;
    if (undo !== null && setting !== null && out.emitted.length === 0 && !reported && after.rng === before.rng) {
      undo = settingTaken(undo, out.state, setting);
    } else if (undo !== null) {
      const boundary = boundaryOf(actor, out.emitted, reported || after.rng !== before.rng);
      undo = recorded(undo, out.state, undo.version + 1, undo.seq + out.emitted.length, boundary, after.players, out.emitted.some((e) => e.type === 'turnBegan'));
    }
    // A proposal stands only while the game stays where it was made (CR 732.2a: the sequence is proposed from here).
    // ... and while its point can still be reached (a host event may have passed it over).
    const shortcut = state.shortcut !== null && taking === undefined && standsStill(before, after) && typeof pointKey(after, state.shortcut.until) !== 'string' ? state.shortcut : null;
    return { state: boxed(out.state, undo, shortcut), emitted: out.emitted };
  }

  /** The game returns to version `to` (CONTRACT v3): the earlier state exactly, `undone` emitted. */
  function undoneTo(state: Table<S>, undo: UndoRecord<S>, to: number): Stepped<TableState<S>> {
    const { record, moment } = returnedTo(undo, to, undo.version + 1, undo.seq + 1);
    const emitted: EmittedEvent[] = [{ type: 'undone', toVersion: to, toSeq: moment.seq }];
    return { state: boxed(moment.state, record, state.shortcut), emitted };
  }

  /** CR 732.2c: every player passes up to the agreed point, in this send. */
  function shortcutTaken(state: Table<S>, vote: ShortcutVote, until: ShortcutPoint, runtime: GameHooksRuntime | undefined): Stepped<TableState<S>> {
    const table = new Table(state.game, state.undo, null);
    const ctx = contextOf(state.game);
    const pass: TurnEvent = { type: 'PASS_PRIORITY', player: vote.proposer };
    const work = inner.gate(state.game, pass);
    // A point that can no longer be reached is no shortcut: the game stays where it is.
    if (isRefusal(work) || typeof pointKey(ctx, until) === 'string') return closed(table);
    return turnStep(table, work as W, null, runtime, takingShortcut(ctx, until));
  }

  /**
   * The game past the vote awaited now, answered the plainest way, for nextStop's look ahead
   * (CONTRACT v3: what is awaited now is answered first, and the look ahead calls no hook): an undo
   * request declined leaves the game as it is; a shortcut accepted by everyone is taken (CR
   * 732.2c), every player passing up to the agreed point. Null without a vote.
   */
  function pastVote(state: TableState<S>, runtime: GameHooksRuntime | undefined): S | null {
    if (!(state instanceof Table)) return null;
    if (state.undo !== null && state.undo.vote !== null) return state.game;
    const vote = state.shortcut;
    if (vote === null) return null;
    const work = inner.gate(state.game, { type: 'PASS_PRIORITY', player: vote.proposer });
    if (isRefusal(work)) return state.game;
    const taking: GameHooksRuntime = { ...(runtime ?? { inHook: false, seq: 0, calls: 0, numbers: null }), shortcut: takingShortcut(contextOf(state.game), vote.until) };
    return inner.transition(state.game, work as W, taking).state;
  }

  /** A send that changes only the table: the game's version and seq move on. */
  function closed(state: Table<S>, undo: UndoRecord<S> | null = state.undo, shortcut: ShortcutVote | null = state.shortcut): Stepped<TableState<S>> {
    const moved = undo === null ? null : passedOver(undo, undo.version + 1, undo.seq);
    return { state: boxed(state.game, moved, shortcut), emitted: [] };
  }

  /** What each of the table's events does, once gated (its undo record there when its check needs one). */
  const steps: { [T in AtTableEventType]: (table: Table<S>, e: EventOf<T>, ctx: TurnContext, runtime: GameHooksRuntime | undefined) => Stepped<TableState<S>> } = {
    MARK_IRREVERSIBLE: (table, _e, ctx) => {
      const undo = table.undo;
      return { state: boxed(table.game, undo === null ? null : markedIrreversible(undo, undo.version + 1, undo.seq, ctx.players), table.shortcut), emitted: [] };
    },
    UNDO: (table, e, ctx) => {
      const record = counted(table.undo as UndoRecord<S>, e.player);
      const asked = record.policy.mode === 'consent' ? askedAbout(ctx, e.player) : [];
      // CONTRACT v4: the request's time (the send's `at`, handed on by the table's clock, src/table/time.ts) starts its answer time.
      return asked.length === 0 ? undoneTo(table, record, e.to) : closed(table, voteOpened(record, e.player, e.to, asked, e.at ?? null));
    },
    ACCEPT_UNDO: (table) => {
      const undo = table.undo as UndoRecord<S>;
      const vote = undo.vote as NonNullable<UndoRecord<S>['vote']>;
      const next = acceptedBy(vote);
      return next === null ? undoneTo(table, undo, vote.to) : closed(table, { ...undo, vote: next });
    },
    DECLINE_UNDO: (table) => closed(table, { ...(table.undo as UndoRecord<S>), vote: null }),
    PROPOSE_SHORTCUT: (table, e, ctx, runtime) => {
      const vote: ShortcutVote = { proposer: e.player, until: e.until, asked: askedAbout(ctx, e.player) };
      return vote.asked.length === 0 ? shortcutTaken(table, vote, e.until, runtime) : closed(table, table.undo, vote);
    },
    ACCEPT_SHORTCUT: (table, _e, _ctx, runtime) => answered(table, (table.shortcut as ShortcutVote).until, runtime),
    SHORTEN_SHORTCUT: (table, e, _ctx, runtime) => answered(table, e.until, runtime),
  };

  /** CR 732.2b: the awaited player accepted the point `until` (the one proposed, or an earlier one): the next is asked, or the shortcut is taken. */
  function answered(table: Table<S>, until: ShortcutPoint, runtime: GameHooksRuntime | undefined): Stepped<TableState<S>> {
    const vote = table.shortcut as ShortcutVote;
    const asked = vote.asked.slice(1);
    return asked.length === 0 ? shortcutTaken(table, vote, until, runtime) : closed(table, table.undo, { ...vote, until, asked });
  }

  /** One of the table's events, gated. */
  function tableStep(state: TableState<S>, e: TableEvent, runtime: GameHooksRuntime | undefined): Stepped<TableState<S>> {
    const table = state instanceof Table ? state : new Table(state, null, null);
    const step = steps[e.type] as (table: Table<S>, e: TableEvent, ctx: TurnContext, runtime: GameHooksRuntime | undefined) => Stepped<TableState<S>>;
    return step(table, e, contextOf(table.game), runtime);
  }

  return {
    popsOwnedStacks: inner.popsOwnedStacks === true && !keepsStates,

    getInitialSnapshot(input, runtime) {
      const first = inner.getInitialSnapshot(input, runtime);
      if (policy === null) return first;
      return { state: new Table(first.state, startUndo(policy, first.state, 0, first.emitted.length, contextOf(first.state).players), null), emitted: first.emitted };
    },

    restoreSnapshot(persisted) {
      const { state, order } = inner.restoreSnapshot(persisted);
      const ctx = contextOf(state);
      const restoreTurn = (p: PersistedFull) => inner.restoreSnapshot(p).state;
      const undo = persisted.undo === undefined ? null : reader === undefined ? trustedUndo(persisted, state, restoreTurn) : reader.undo(persisted, state, ctx.players, restoreTurn);
      const shortcut = persisted.shortcut === undefined ? null : reader === undefined ? trustedShortcut(persisted) : reader.shortcut(persisted.shortcut, ctx);
      return { state: boxed(state, undo, shortcut), order };
    },

    getPersistedSnapshot(state, version): PersistedFull {
      if (!(state instanceof Table)) return inner.getPersistedSnapshot(state, version);
      const persisted = inner.getPersistedSnapshot(state.game, version);
      if (state.undo !== null) persisted.undo = persistUndo(state.undo, (s, v) => inner.getPersistedSnapshot(s, v));
      if (state.shortcut !== null) persisted.shortcut = persistShortcut(state.shortcut);
      return persisted;
    },

    gate(state, raw) {
      const type = typeOf(raw);
      if (typeof type === 'string' && AT_TABLE_EVENTS.has(type)) return tableGate(state, raw);
      if (!(state instanceof Table)) return inner.gate(state, raw);
      // A game with undo reads the event once here, to know who made it; the turn's gate reads the plain copy.
      const event = eventOrMessage(raw);
      return typeof event === 'string' ? refusal(ErrorCode.INVALID_EVENT, event) : turnGate(state, event, actedFor(raw));
    },

    lane(state, raw) {
      // The turn's lane (a PASS_PRIORITY, never the table's) while the table holds nothing: what the turn's gate would accept.
      return state instanceof Table || inner.lane === undefined ? undefined : inner.lane(state, raw);
    },

    transition(state, work, runtime) {
      // The turn's own work (most sends, the lane's): one check, then the turn's transition.
      if (!(work instanceof Request)) return inner.transition(gameOf(state), work as W, runtime);
      if (work instanceof TableRequest) return tableStep(state, work.event, runtime);
      const request = work as TurnRequest<W>;
      return turnStep(state instanceof Table ? state : new Table(state, null, null), request.work, request.actor, runtime, undefined, request.setting);
    },

    view(state, version, seq) {
      if (!(state instanceof Table)) return inner.view(state, version, seq);
      const view = inner.view(state.game, version, seq);
      if (state.undo !== null) view.undo = undoView(state.undo, contextOf(state.game).players);
      const awaiting = voteAwaiting(state);
      if (awaiting !== null) view.awaiting = awaiting;
      return view;
    },

    legalActions(state, player) {
      if (!(state instanceof Table)) return inner.legalActions(state, player);
      return tableActions(state, player, () => inner.legalActions(state.game, player), contextOf, statusOf);
    },

    nextStop(state, player, runtime) {
      const voter = laterVoter(state, player, contextOf);
      if (voter !== null) return voter;
      // During a vote the turn's own decision comes after it: a later decision, so it may be the stop.
      const past = pastVote(state, runtime);
      return past === null ? inner.nextStop(gameOf(state), player, runtime) : inner.nextStop(past, player, runtime, true);
    },

    nextStops(state, players, runtime) {
      const past = pastVote(state, runtime);
      const game = past ?? gameOf(state);
      const lookAhead = (rest: readonly string[]) => (inner.nextStops !== undefined ? inner.nextStops(game, rest, runtime, past !== null) : Object.fromEntries(rest.map((p) => [p, inner.nextStop(game, p, runtime, past !== null)])));
      // Without a shortcut vote (nearly every send the table server makes) no player's stop is a vote.
      if (!(state instanceof Table) || state.shortcut === null) return lookAhead(players);
      const voters: Record<string, NextStop | null> = {};
      const rest: string[] = [];
      for (const p of players) {
        const voter = laterVoter(state, p, contextOf);
        if (voter === null) rest.push(p);
        else voters[p] = voter;
      }
      return Object.assign(voters, lookAhead(rest));
    },

    chartState(state, order) {
      return inner.chartState(gameOf(state), order);
    },

    pending(state) {
      return inner.pending(gameOf(state));
    },

    committed(state, version, seq) {
      if (!(state instanceof Table) || state.undo === null) return state;
      const undo = committedAs(state.undo, version, seq);
      return undo === state.undo ? state : boxed(state.game, undo, state.shortcut);
    },

    pendingVote(state) {
      const awaiting = voteAwaiting(state);
      if (awaiting === null) return null;
      const vote: PendingVote = { kind: awaiting.kind as PendingVote['kind'], player: awaiting.player };
      if (awaiting.kind === 'undoConsent' && state instanceof Table && state.undo !== null) vote.deadline = voteDeadline(state.undo);
      return vote;
    },

    // The turn's state takes the new generator; the table's records (undo's kept states) are history, kept as they are.
    ...(inner.reseed === undefined ? {} : { reseed: (state: TableState<S>, rng: number) => reseeded(inner.reseed as NonNullable<typeof inner.reseed>, state, rng) }),
  };
}
