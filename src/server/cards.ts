/**
 * The host's card logic on the server in the v3 shape (CONTRACT v3, "Serving games": `cards` is
 * `{ hooks, saveState(), loadState(state) }`), served as a card game definition (CONTRACT v4,
 * "Card games"): the server has one code path, a definition's (src/server/cardGames.ts).
 */
import type { CardsDefinition, GameHooks } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';

/** The host's card logic, given to `createTableServer`. */
export interface Cards {
  /** The hooks every served game is made with (`checkpoint`, `autoPass`, `settled`). */
  hooks?: GameHooks;
  /**
   * The state of the game loaded now, as JSON (copied at once): written to the store with every
   * accepted send, and given back to `loadState` before the server next works on that game.
   */
  saveState(): unknown;
  /**
   * Makes `state` the cards' state: what `saveState` returned for the game the server works on
   * next, or null before `createGame` (a new game).
   */
  loadState(state: unknown): void;
}

/** Checks the `cards` option; throws INVALID_OPTIONS naming the field. */
export function checkCards(cards: unknown): Cards {
  const fail = (message: string) => new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.cards${message}`);
  if (typeof cards !== 'object' || cards === null) throw fail(': must be { hooks?, saveState(), loadState(state) }');
  const c = cards as Record<string, unknown>;
  if (typeof c.saveState !== 'function') throw fail('.saveState: must be a function returning the state of the game loaded (JSON)');
  if (typeof c.loadState !== 'function') throw fail('.loadState: must be a function taking a state saveState returned (or null for a new game)');
  if (c.hooks !== undefined) {
    if (typeof c.hooks !== 'object' || c.hooks === null) throw fail('.hooks: must be { checkpoint?, autoPass?, settled? }');
    for (const name of ['checkpoint', 'autoPass', 'settled']) {
      const hook = (c.hooks as Record<string, unknown>)[name];
      if (hook !== undefined && typeof hook !== 'function') throw fail(`.hooks.${name}: must be a function`);
    }
  }
  return cards as Cards;
}

/** A copy of a JSON value (what the cards keep may change later; what the server keeps may not). */
export function jsonCopy(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** The state of a game served with the v3 shape: what the cards' `saveState()` returned after its last send. */
export interface V3State {
  saved: unknown;
}

/** The name of the definition the v3 shape is served as. */
export const V3_CARDS_NAME = 'mtg-turn-engine/server-cards@3';

/**
 * The v3 shape as a card game definition (CONTRACT v4: "The v3 server shape is still accepted"),
 * so the server has one code path. S is `{ saved }`, what `saveState()` returned (null for a new
 * game, as v3 gave `loadState`). Each function
 * loads a copy of S into the cards first (`loadState`), so whatever game the cards held before is
 * of no account; the checkpoint then calls `hooks.checkpoint`, commits what the cards staged
 * (`hooks.settled` with `ok: true`: the send is one transaction, and a refused send restores S
 * anyway) and saves S again. `autoPass` reads and changes nothing.
 */
export function v3Definition(cards: Cards): CardsDefinition<V3State> {
  const hooks = cards.hooks ?? {};
  const load = (state: V3State) => cards.loadState(jsonCopy(state.saved));
  const definition: CardsDefinition<V3State> = {
    name: V3_CARDS_NAME,
    // A new game: the cards are given null (v3: "null before createGame"), their state saved by the first checkpoint.
    setup: () => ({ saved: null }),
  };
  const { checkpoint, autoPass, settled } = hooks;
  if (checkpoint !== undefined) {
    definition.checkpoint = (view, pending, ctx) => {
      load(ctx.state);
      const result = checkpoint(view, pending);
      settled?.({ ok: true, version: view.version, seq: view.seq });
      ctx.state.saved = jsonCopy(cards.saveState());
      return result;
    };
  }
  if (autoPass !== undefined) {
    definition.autoPass = (view, player, ctx) => {
      load(ctx.state);
      return autoPass(view, player);
    };
  }
  return definition;
}
