/**
 * Served card games (CONTRACT v4, "Serving games": "Served card games"; "Card games"): what the
 * server reads of a card game. A card game is a Game with `cards(options)` (`createCardGame` of
 * `mtg-turn-engine/cards`): each seat is sent `cards({ seat })` (the definition's
 * `seatView(S, seat, view)`) with its updates, a spectator `cards({ spectator: true })` with its
 * delay. The full state S is read only to be written to the store with the send (the snapshot's
 * partner): it never goes to a client, a log or an error message. A game without cards has no
 * card view, and its updates carry none.
 */
import type { TurnView } from '../contract.js';
import type { Game } from '../game/types.js';

/** The read side of a card game that the server uses (CONTRACT v4: `game.cards(...)`). */
interface CardReads {
  cards(options?: { seat: string } | { spectator: true }): unknown;
}

/** Whether `game` is a card game (it has `cards`). */
export function isCardGame(game: Game): game is Game & CardReads {
  return typeof (game as Partial<CardReads>).cards === 'function';
}

/**
 * The card view of `seat` (null: a spectator) as a field of a table update: `{ cards }` for a card
 * game (null when the definition has no `seatView`), nothing for a game without cards.
 */
export function cardViewOf(game: Game, seat: string | null): { cards?: unknown } {
  if (!isCardGame(game)) return {};
  return { cards: game.cards(seat === null ? { spectator: true } : { seat }) ?? null };
}

/** The cards' state S of a card game, as JSON for the store (the snapshot's partner); undefined for a game without cards. */
export function cardStateOf(game: Game): unknown {
  return isCardGame(game) ? game.cards() : undefined;
}

/** The definition's `bot` (CONTRACT v4, "Bots"), if the server's cards are a definition that has one. */
export function botOf(cards: unknown): BotChooser | undefined {
  const bot = typeof cards === 'object' && cards !== null ? (cards as { bot?: unknown }).bot : undefined;
  if (typeof bot !== 'function') return undefined;
  return (view, seen, player, random) => (bot as BotChooser).call(cards, view, seen, player, random);
}

/** The random numbers a definition's `bot` is given (CONTRACT v4, "Randomness": `int` and `shuffle`). */
export interface BotRandom {
  int(n: number): number;
  shuffle<T>(list: readonly T[]): T[];
}

/** A definition's `bot` (CONTRACT v4, "Bots"): a legal decision for `player` (with its data, or a CARD_ACTION), or undefined. */
export type BotChooser = (view: TurnView, seen: unknown, player: string, random: BotRandom) => unknown;
