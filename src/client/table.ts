/**
 * The public types of `mtg-turn-engine/client` (CONTRACT v3, "Serving games"): who joins, what a
 * send resolves to, a table's status and options, and the table itself. `connectTable`
 * (./index.ts) makes the table.
 */
import type { EmittedEventType, SeatEvent, SeatOptions, TurnEvent, TurnView } from '../contract.js';
import type { EngineErrorInfo } from '../errors.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';

/** Who joins: a seat with its token, or a spectator. */
export type TableJoin = { gameId: string; seat: string; token: string } | { gameId: string; spectator: true };

/** What a table's `send` resolves to: the events the send emitted as this seat receives them, or why it was refused. */
export type TableSendResult = { ok: true; events: SeatEvent[] } | { ok: false; error: EngineErrorInfo };

/** Where a table stands: connected, rejoining after a drop, or closed (by `close`, a refusal, or another connection taking its seat). */
export type TableStatus = 'connected' | 'reconnecting' | 'closed';

/** Options of {@link connectTable}. */
export interface TableOptions {
  /** How long the first join may take, retries included (default 10000 ms). */
  joinTimeoutMs?: number;
  /** The first and the longest wait between two rejoin attempts (default 100 and 2000 ms). */
  retryMs?: { min: number; max: number };
}

/** A served game as one seat (or a spectator) sees it. */
export interface Table {
  readonly gameId: string;
  /** The seat this table plays (null: a spectator). */
  readonly seat: string | null;
  readonly status: TableStatus;
  /** The view, deeply frozen, the same object until the next update. Options, when given, must name this table's own seat (or spectator). */
  getSnapshot(options?: SeatOptions): TurnView;
  /** `listener()` after every update of the view; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** The decisions this table may send now (its seat's, and with `by` those of a seat it controls), for one player or all. */
  legalActions(player?: string): LegalAction[];
  /** Where the game next asks this seat (or a player it decides for): null for other players, whose stops are private. */
  nextStop(player?: string): NextStop | null;
  /**
   * In a card game (CONTRACT v4, "Served card games"): what this seat may see of the cards' state,
   * the definition's `seatView(S, seat, view)` (a spectator's delayed like its view), deeply
   * frozen, the same object until the next update; null without `seatView` or without cards.
   */
  cards(): unknown;
  /** Subscribes to the events as this seat receives them (`'*'` for all); returns the unsubscribe function. */
  on<K extends EmittedEventType | '*'>(type: K, listener: (event: K extends '*' ? SeatEvent : Extract<SeatEvent, { type: K }>) => void): () => void;
  /** Sends an event; never throws. A lost connection answers DISCONNECTED (the send may or may not have been taken: the events tell). */
  send(event: TurnEvent): Promise<TableSendResult>;
  send<T>(event: T & (unknown extends T ? unknown : never)): Promise<TableSendResult>;
  /**
   * The game's time now (ms, the clock of its events' and clocks' `at`): `Date.now()` plus the
   * offset the server's welcome gave. A running clock counts down from its `at` by this, not by
   * `Date.now()`: after a server restart the game's time runs behind the wall clock by the time no
   * server owned the game, which is charged to no one.
   */
  now(): number;
  /** Calls `listener(status)` when the status changes; returns the unsubscribe function. */
  onStatus(listener: (status: TableStatus) => void): () => void;
  /** Leaves the game (the seat shows away); the table stays closed. */
  close(): Promise<void>;
}
