/**
 * The host's card logic on the server (CONTRACT v3, "Serving games": `cards` is `{ hooks,
 * saveState(), loadState(state) }`), and the desk that lends it to the games of the process:
 * one cards object serves every game, so before the server works on a game it loads that game's
 * state into the cards (unless they hold it already), and right after an accepted send it saves
 * it. Sends are synchronous: nothing runs between the load, the send and the save.
 */
import type { GameHooks, SettledOutcome } from '../contract.js';
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

/** Whether a game's hooks call through to the cards now (false while the server replays its stored sends). */
export interface Live {
  on: boolean;
}

/** A copy of a JSON value (what the cards keep may change later; what the server keeps may not). */
export function jsonCopy(value: unknown): unknown {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** Lends the one cards object to the games of the process. */
export class CardsDesk {
  readonly #cards: Cards;
  /** Which game's state the cards hold, at which version (null: unknown, load before use). */
  #holder: object | null = null;
  #version = -1;
  /** Which hooks the games have: what their recordings say and a replay reads. */
  readonly had: { readonly checkpoint: boolean; readonly autoPass: boolean };

  constructor(cards: Cards) {
    this.#cards = cards;
    this.had = { checkpoint: typeof cards.hooks?.checkpoint === 'function', autoPass: typeof cards.hooks?.autoPass === 'function' };
  }

  /**
   * The hooks of one game: the cards' own, called only while `live.on` (a replay reads the
   * recorded answers instead). Only the hooks the cards have are given.
   */
  hooksFor(live: Live): GameHooks | undefined {
    const hooks = this.#cards.hooks;
    if (hooks === undefined) return undefined;
    const out: GameHooks = {};
    const { checkpoint, autoPass, settled } = hooks;
    if (checkpoint !== undefined) out.checkpoint = (view, pending) => (live.on ? checkpoint(view, pending) : undefined);
    if (autoPass !== undefined) out.autoPass = (view, player) => live.on && autoPass(view, player);
    if (settled !== undefined) out.settled = (outcome: SettledOutcome) => void (live.on && settled(outcome));
    return out;
  }

  /** Makes the cards hold `state`, the state of game `who` at `version` (nothing to do when they hold it). */
  load(who: object, version: number, state: unknown): void {
    if (this.#holder === who && this.#version === version) return;
    this.#holder = null;
    this.#cards.loadState(state);
    this.#holder = who;
    this.#version = version;
  }

  /** The cards' state (a JSON copy) after game `who` reached `version`. */
  save(who: object, version: number): unknown {
    this.#holder = null;
    const state = jsonCopy(this.#cards.saveState());
    this.#holder = who;
    this.#version = version;
    return state;
  }

  /** The cards may hold anything now (a refused send, a failed write): load before the next use. */
  forget(): void {
    this.#holder = null;
  }
}
