/**
 * `mtg-turn-engine/react`: React hooks over a `Game` (or a remote table). React is an optional peer
 * dependency; the main entry never imports this module.
 *
 * ```tsx
 * import { useGame, useLegalActions } from 'mtg-turn-engine/react';
 *
 * function Seat({ game, player }: { game: Game; player: string }) {
 *   const view = useGame(game, { seat: player }); // what that player may see (CONTRACT v3, private seats)
 *   const actions = useLegalActions(game, player);
 *   return <p>{view.step}: {actions.map((a) => a.type).join(', ')}</p>;
 * }
 * ```
 */
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import type { LegalAction } from '../legal.js';
import type { SeatOptions, TurnView } from '../contract.js';

/**
 * What `useGame` reads: a `Game`, or anything with its read side, such as a remote table
 * (`connectTable` of `mtg-turn-engine/client`, CONTRACT v3 "Serving games").
 */
export interface ViewSource {
  getSnapshot(options?: SeatOptions): TurnView;
  subscribe(listener: () => void): () => void;
}

/** What `useLegalActions` reads: a `Game`, or a remote table. */
export interface ActionSource extends ViewSource {
  legalActions(player?: string): LegalAction[];
}

/**
 * The game's current TurnView, re-rendering the component after every accepted event (and
 * never after a refused one): `useSyncExternalStore(game.subscribe, game.getSnapshot)`. The
 * view is deeply frozen and the same object until the next accepted event. With `{ seat }` or
 * `{ spectator: true }` (CONTRACT v3, private seats), the view that seat or a spectator may
 * see (`game.getSnapshot(options)`); the options may be a new object at every render.
 */
export function useGame(game: ViewSource, options?: SeatOptions): TurnView {
  const seat = options !== undefined && 'seat' in options ? options.seat : undefined;
  const spectator = options !== undefined && 'spectator' in options ? options.spectator : undefined;
  const getSnapshot = useCallback(
    () => (options === undefined ? game.getSnapshot() : game.getSnapshot(options)),
    // `options` is read through who it names: an equal options object keeps the same function.
    [game, options === undefined, seat, spectator],
  );
  return useSyncExternalStore(game.subscribe, getSnapshot, getSnapshot);
}

/**
 * The decisions that would be accepted now, from `player` (or every player), recomputed only
 * when the game changes (the same array between accepted events).
 */
export function useLegalActions(game: ActionSource, player?: string): LegalAction[] {
  const view = useGame(game);
  // `view` changes exactly when the game does: it keys the memo.
  return useMemo(() => game.legalActions(player), [game, view, player]);
}

/** What `useCards` reads: a remote table of a card game (`connectTable`), or a card game's seat (`{ cards, subscribe }`). */
export interface CardSource {
  /** The card view this source shows (CONTRACT v4: `table.cards()`), the same object until the next update. */
  cards(): unknown;
  subscribe(listener: () => void): () => void;
}

/**
 * The card view of a table (CONTRACT v4, "Served card games": `useCards(table)`): what its seat
 * may see of the cards' state (`seatView(S, seat, view)`; a spectator's delayed like its view),
 * re-rendering after every update. Null in a game without cards. `T` is the definition's seat
 * view type, as the caller knows it.
 */
export function useCards<T = unknown>(table: CardSource): T {
  const read = useCallback(() => table.cards() as T, [table]);
  return useSyncExternalStore(table.subscribe, read, read);
}
