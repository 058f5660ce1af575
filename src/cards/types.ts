/**
 * The types of `mtg-turn-engine/cards` (CONTRACT v4, "Card games") that build on the Game's: the
 * definition's own types are in src/contract.ts.
 */
import type { CardActionEvent, CardsDefinition, SeatOptions, TurnEvent } from '../contract.js';
import type { Game, GameOptions, Listener, SendResult } from '../game/types.js';
import type { ReplayReport } from '../game/types.js';

/** A definition as `defineCards` returns it: checked once, frozen, given to createCardGame and the server. */
export type Cards<S> = Readonly<CardsDefinition<S>> & { readonly __cards: true };

/** Options of createCardGame: createGame's, less `hooks` (the definition's functions are the hooks). */
export type CardGameOptions = Omit<GameOptions, 'hooks'>;

/** Options of the cards' restoreGame. */
export interface CardRestoreOptions<S> {
  /** The definition the game was played with (its `name` must be the snapshot's). */
  cards: Cards<S>;
  listeners?: GameOptions['listeners'];
  /** Record the restored game from here. */
  record?: boolean;
  /** The modules the game had (CONTRACT v4, "Package"); every module is built in until they are split out. */
  use?: readonly unknown[];
}

/** Options of the cards' replayGame. */
export interface CardReplayOptions<S> {
  cards: Cards<S>;
  /** Stop at this version (default: the last one recorded). */
  until?: number;
  use?: readonly unknown[];
  listeners?: GameOptions['listeners'];
}

/**
 * A card game (CONTRACT v4): every method of Game, CARD_ACTION and `data` taken, and `cards()`.
 */
export interface CardGame<S> extends Omit<Game, 'send' | 'fork' | 'check'> {
  /** Sends a decision (with `data`), a CARD_ACTION or any event, as one transaction over the turn and S. */
  send(event: TurnEvent | CardActionEvent | (TurnEvent & { data?: unknown })): SendResult;
  send<T>(event: T & (unknown extends T ? unknown : never)): SendResult;
  /** The answer `send(event)` would give now, the cards' verdict included (their functions run on a copy); changes nothing. */
  check(event: unknown): ReturnType<Game['check']>;
  /**
   * An independent game in this state, cards included; `{ seed }` gives the fork a new random
   * stream, `record: true` records it from its start (a 'persisted' recording), `listeners` listen to it.
   */
  fork(options?: { seed?: number; record?: boolean; listeners?: GameOptions['listeners'] }): CardGame<S>;
  /** The definition the game plays (its `bot` is what `playout` and `simulate` play it with: CONTRACT v4, "Simulation"). */
  readonly definition: Cards<S>;
  /** The host's S, deeply frozen: the same object until the next accepted send that changed it. */
  cards(): Readonly<S>;
  /** What one seat (or a spectator) sees of S: the definition's `seatView`, or null without one. */
  cards(options: SeatOptions): unknown;
}

/** A replayed card game, with what the replay found. */
export type ReplayedCardGame<S> = CardGame<S> & { readonly replay: ReplayReport };

export type { Listener };
