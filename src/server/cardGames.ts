/**
 * Served card games (CONTRACT v4, "Serving games": "Served card games"; "Card games"). Every
 * served game is a card game of one definition: the server's `cards`, a definition made by
 * `defineCards`, or the v3 shape `{ hooks, saveState, loadState }` adapted into one
 * (src/server/cards.ts), so the server has one code path.
 *
 * Each seat is sent `game.cards({ seat })` (the definition's `seatView(S, seat, view)`) with its
 * updates, a spectator `game.cards({ spectator: true })` with its delay; the events of a decision
 * that carried `data` reach the other seats with the definition's `publicData` instead. The full
 * state S is read only to be written to the store with the send (the snapshot's partner): it
 * never goes to a client, a log or an error message.
 */
import { allModules } from '../allModules.js';
import { botWorlds, createCardGame, defineCards, restoreGame as restoreCardGame, type CardGame, type Cards as Definition } from '../cards/index.js';
import type { EmittedEvent, TurnView } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { Game, GameOptions } from '../game/types.js';
import type { Viewer } from '../seats.js';
import { checkCards, v3Definition, type V3State } from './cards.js';
import { CARDS_SEAT_EVENT } from '../cards/part.js';

/** The definition the server serves its games with, and how S is kept in the store. */
export interface ServedCards {
  readonly definition: Definition<unknown>;
  /** S as the store keeps it beside the snapshot (for the v3 shape: what `saveState()` returned). */
  stored(game: Game): unknown;
  /** A new game of the definition (createGame's options). */
  create(options: Omit<GameOptions, 'hooks' | 'listeners'>): Game;
  /** A game back from a snapshot the server wrote. */
  restore(snapshot: unknown): Game;
}

/** The definition each game the server made or restored is played with (for what other seats see of a decision's data). */
const definitions = new WeakMap<object, Definition<unknown>>();

/** The game's cards: S as the host sees it, or what one seat (or a spectator) sees. */
interface CardReads {
  cards(options?: { seat: string } | { spectator: true }): unknown;
}

const readsOf = (game: Game) => game as unknown as CardReads;

/** Whether `cards` is a definition made by `defineCards`. */
function isDefinition(cards: unknown): cards is Definition<unknown> {
  return typeof cards === 'object' && cards !== null && (cards as { __cards?: unknown }).__cards === true;
}

/** The server's `cards` option as the definition it serves; throws INVALID_OPTIONS naming the field. */
export function servedCards(cards: unknown): ServedCards {
  let definition: Definition<unknown>;
  let stored: (game: Game) => unknown;
  if (isDefinition(cards)) {
    definition = cards;
    stored = (game) => readsOf(game).cards();
  } else {
    if (typeof cards !== 'object' || cards === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.cards: must be a definition made by defineCards (mtg-turn-engine/cards), or the v3 shape { hooks?, saveState(), loadState(state) }');
    definition = defineCards(v3Definition(checkCards(cards))) as Definition<unknown>;
    stored = (game) => (readsOf(game).cards() as V3State).saved;
  }
  const keep = (game: Game) => {
    definitions.set(game, definition);
    return game;
  };
  return {
    definition,
    stored,
    // CONTRACT v4: the server gives every game every module.
    create: (options) => keep(createCardGame(definition, { ...options, use: allModules }) as unknown as Game),
    restore: (snapshot) => keep(restoreCardGame(snapshot, { cards: definition, use: allModules }) as unknown as Game),
  };
}

/** No card view: one object for every read of a game whose definition has no `seatView` (only read, never changed). */
const NO_CARD_VIEW: { cards?: unknown } = Object.freeze({});

/**
 * The card view of `seat` (null: a spectator) as a field of a table update: `{ cards }` when the
 * definition has a `seatView`, nothing otherwise (the table's `cards()` is then null).
 */
export function cardViewOf(game: Game, seat: string | null): { cards?: unknown } {
  const definition = definitions.get(game);
  if (definition?.seatView === undefined) return NO_CARD_VIEW;
  return { cards: readsOf(game).cards(seat === null ? { spectator: true } : { seat }) ?? null };
}

/**
 * An event as `viewer` receives it, for its card data (CONTRACT v4, "Decisions carry card data"):
 * a `decided` event is whole for the seat that decided; the others see its `data` replaced by the
 * definition's `publicData(event, state)` (or no `data` when it has none).
 */
export function cardEventFor(game: Game, event: EmittedEvent, viewer: Viewer): EmittedEvent {
  if (event.type !== 'decided') return event;
  const seatEvent = (game as unknown as { [CARDS_SEAT_EVENT]?: (e: EmittedEvent, viewer: Viewer) => EmittedEvent })[CARDS_SEAT_EVENT];
  return seatEvent === undefined ? event : seatEvent(event, viewer);
}

/** The random numbers a definition's `bot` is given (CONTRACT v4, "Randomness": `int` and `shuffle`). */
export interface BotRandom {
  int(n: number): number;
  shuffle<T>(list: readonly T[]): T[];
}

/** A definition's `bot` (CONTRACT v4, "Bots"): a legal decision for `player` (with its data, or a CARD_ACTION), or undefined. */
export type BotChooser = (view: TurnView, seen: unknown, player: string, random: BotRandom) => unknown;

/** The definition's `bot` for the games of `game`'s definition, if it has one. */
export function botOf(game: Game): BotChooser | undefined {
  const definition = definitions.get(game);
  const bot = definition?.bot;
  if (bot === undefined) return undefined;
  return (view, seen, player, random) => bot.call(definition, view, seen, player, random);
}

/**
 * The definition's named bot `name` (CardsDefinition's `bots`, a bot that plans) as a chooser for
 * `game`: given the seat's view and `seen` as `bot` is, and worlds of the game's turn with a cards'
 * state of the bot's own making (`botWorlds`: never the game's S); undefined when the definition
 * has no such bot (a seat stored with a kind its definition lost plays random legal actions).
 */
export function plannerOf(game: Game, name: string): BotChooser | undefined {
  const definition = definitions.get(game);
  const planner = definition?.bots?.[name];
  if (definition === undefined || planner === undefined) return undefined;
  return (view, seen, player, random) => planner.call(definition, view, seen, player, random, botWorlds(game as unknown as CardGame<unknown>, definition, { use: allModules }));
}

/** What `seat` may see of the cards (its seatView), or null. */
export function seenBy(game: Game, seat: string): unknown {
  return definitions.get(game)?.seatView === undefined ? null : readsOf(game).cards({ seat });
}
