/**
 * The worlds a planning bot tries its decisions in (CardsDefinition's `bots`, docs/cards.md "Bots
 * that plan"): the game's turn (the engine's state, which is public) with a cards' state the bot
 * made up from what its seat may know, and new random streams. The real cards' state, its undo
 * history and its random stream never reach the bot: a world is restored from the engine's part
 * of `persist()` and the state given, then forked with the seed given.
 */
import type { BotWorlds } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { restoreGame, undoVersions } from './game.js';
import { cardsSeedState } from './random.js';
import type { CardGame, Cards } from './types.js';

/** {@link BotWorlds} whose worlds are typed: each a CardGame of the definition. */
export interface CardWorlds<S> extends BotWorlds<S> {
  world(state: S, seed: number): CardGame<S>;
}

/**
 * The worlds of `game` for a planning bot of `cards` (the game's definition): `world(S, seed)` is
 * a new CardGame in the game's turn with cards' state S (INVALID_SNAPSHOT naming the field when S
 * is not a valid state) and random streams from `seed`. `use`: the modules the game was made with
 * (as for the cards' restoreGame: a game with undo or clocks needs them).
 */
export function botWorlds<S>(game: CardGame<S>, cards: Cards<S>, options: { use?: readonly unknown[] } = {}): CardWorlds<S> {
  let engine: string | null = null;
  return {
    world(state, seed) {
      if (typeof seed !== 'number' || !Number.isInteger(seed)) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'world: seed must be a whole number');
      // The engine's part once (the turn does not change while a bot decides); the real cards' state is left out.
      if (engine === null) {
        const { cards: _real, ...rest } = game.persist() as unknown as Record<string, unknown>;
        engine = JSON.stringify(rest);
      }
      const rest = JSON.parse(engine) as Record<string, unknown>;
      const random = cardsSeedState(seed >>> 0);
      // With undo, the world's cards are the state given at every version undo may return to (none of the real ones).
      const versions = undoVersions(rest.undo);
      const history = versions.length === 0 ? {} : { history: [...new Set(versions)].sort((a, b) => a - b).map((v) => [v, random, state]) };
      const saved = { ...rest, cards: { name: cards.name, state, random, ...history } };
      return restoreGame(saved, options.use === undefined ? { cards } : { cards, use: options.use }).fork({ seed: seed >>> 0 });
    },
  };
}
