/**
 * The state and the work of a game at the table (./tableLogic.ts): {@link Table}, the turn's state
 * with the table's records (undo, a shortcut vote), the requests the table's gate hands its
 * transition, the interface of a turn logic at the table, and a fork's new random stream across
 * the moments undo keeps.
 */
import type { PlayerId, TurnEvent } from '../contract.js';
import type { EventOf, AtTableEventType } from '../events/index.js';
import type { PendingVote, TurnLogic } from '../game/logic.js';
import type { ShortcutVote } from './shortcuts.js';
import type { UndoRecord } from './undo.js';

/** The events the table takes. */
export type TableEvent = EventOf<AtTableEventType>;

/** The state of a game with undo, or with a vote in progress: the turn's state and the table's records. */
export class Table<S> {
  constructor(
    readonly game: S,
    readonly undo: UndoRecord<S> | null,
    readonly shortcut: ShortcutVote | null,
  ) {}
}

/** A state of a game at the table: the turn's own while the table holds nothing. */
export type TableState<S> = S | Table<S>;

/** What the table's gate makes of an event (the turn's own work is handed on as it is): one class to tell them from the turn's work. */
export abstract class Request {}

/** An event the table takes, gated. */
export class TableRequest extends Request {
  constructor(readonly event: TableEvent) {
    super();
  }
}

/** An event for the turn in a game with a table, gated by the turn: its work, and who made the decision (for undo's horizons). */
export class TurnRequest<W> extends Request {
  constructor(
    readonly work: W,
    readonly actor: PlayerId | null,
    /** A player's own setting (SET_STOPS, YIELD): it makes no undo point, and no undo takes it back (CONTRACT v4, issue 33). */
    readonly setting: TurnEvent | null = null,
  ) {
    super();
  }
}

/** What the table's gate hands its transition. */
export type TableWork<W> = W | TableRequest | TurnRequest<W>;

/** A turn logic at the table. */
export interface TableLogic<S, W> extends TurnLogic<TableState<S>, TableWork<W>> {
  /** The vote the game awaits now, or null; an undo request's with its deadline (CONTRACT v4: the asked player's clock runs meanwhile). */
  pendingVote(state: TableState<S>): PendingVote | null;
}

/**
 * A fork's new random stream (CONTRACT v4, `fork({ seed })`): the game's generator starts at `rng`,
 * and so does every moment undo may return to, so an undo in the fork stays on the fork's stream
 * (no random draw separates those moments from now: drawing from it is a point of no return).
 */
export function reseeded<S>(reseed: (state: S, rng: number) => S, state: TableState<S>, rng: number): TableState<S> {
  if (!(state instanceof Table)) return reseed(state, rng);
  const game = reseed(state.game, rng);
  const undo = state.undo === null ? null : { ...state.undo, history: state.undo.history.map((m) => ({ ...m, state: m.state === state.game ? game : reseed(m.state, rng) })) };
  return new Table(game, undo, state.shortcut);
}
