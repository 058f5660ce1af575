/**
 * What the last accepted send of a game left unchanged in its view (issue 33): the key a host
 * asks a game by, and the reading of src/viewChanges.ts, which that file sets as it loads, so that
 * a game nobody asks (a browser's) bundles none of it. The shell (src/game/shell.ts) answers.
 */
import type { TurnView } from '../contract.js';
import type { TurnContext } from '../state.js';

/** @internal What the last accepted send left unchanged in the view (a Game's; src/server asks it, importing the key from src/viewChanges.ts): null when not known. */
export const VIEW_KEY: unique symbol = Symbol.for('mtg-turn-engine.viewUnchanged');

/** The reading of src/viewChanges.ts (`unchangedViewFields`), set as that file loads: a game nobody asks of what a send changed (a browser's) bundles none of it (issue 33). */
export let unchangedOf: ((before: TurnContext, after: TurnContext) => ReadonlySet<keyof TurnView>) | null = null;

/** Called once by src/viewChanges.ts as it loads, with its reading; returns the key hosts ask it by. */
export function withViewChanges(read: (before: TurnContext, after: TurnContext) => ReadonlySet<keyof TurnView>): typeof VIEW_KEY {
  unchangedOf = read;
  return VIEW_KEY;
}
