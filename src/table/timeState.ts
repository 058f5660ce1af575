/**
 * The time state of a game at the table and what the table reads of its turn (CONTRACT v3,
 * "Playing between people"): the types src/table/time.ts and src/table/deadlines.ts share.
 */
import type { AwayOptions, EmittedEvent, PlayerId, TurnEvent, TurnView } from '../contract.js';
import type { TurnContext } from '../state.js';
import type { Refusal } from '../gate.js';
import type { Seats } from './away.js';
import type { ClockState } from './clocks.js';

/** The time state of a game (persisted as `time`, absent when the game has none). */
export interface TimeState {
  /** The host's clock at the last event that carried `at`; null before any (the clocks have not started). */
  at: number | null;
  clock?: ClockState;
  away?: AwayOptions;
  /** The seats the host set (SET_SEAT_STATUS); present with the `away` option or after any. */
  seats?: Seats;
}

/** What the table reads and does of the turn, over any turn logic (the shell gives it). */
export interface TimedTurn<S> {
  view(state: S): TurnView;
  /** The chart's status and (first running turn's) context. */
  chart(state: S): { status: string; context: TurnContext };
  /** The vote the game awaits (the table's, src/table/tableLogic.ts), with an undo request's deadline (CONTRACT v4). */
  vote(state: S): TableVote | null;
  /** The turn's gate and transition for one event (the send's hooks runtime): the state after it and what it emitted, or the refusal. Throws as the transition does. */
  step(state: S, event: TurnEvent): { state: S; emitted: EmittedEvent[] } | Refusal;
  /** Numbers an event now, in the send's order (so that a later checkpoint's `pending` shows it numbered); `undo` gives the number back. */
  number(event: EmittedEvent, undo?: boolean): void;
}

/** A vote the game awaits (the table's: src/game/logic.ts `PendingVote`), with an undo request's deadline (CONTRACT v4; null or absent: never). */
export interface TableVote {
  kind: 'undoConsent' | 'shortcut';
  player: PlayerId;
  deadline?: number | null;
}
