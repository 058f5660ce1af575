/**
 * `mtg-turn-engine/react`: React hooks over a {@link Game}. React is an optional peer
 * dependency; the main entry never imports this module.
 *
 * ```tsx
 * import { useGame, useLegalActions } from 'mtg-turn-engine/react';
 *
 * function Seat({ game, player }: { game: Game; player: string }) {
 *   const view = useGame(game);
 *   const actions = useLegalActions(game, player);
 *   return <p>{view.step}: {actions.map((a) => a.type).join(', ')}</p>;
 * }
 * ```
 */
import { useMemo, useSyncExternalStore } from 'react';
import type { Game } from '../game/types.js';
import type { LegalAction } from '../legal.js';
import type { TurnView } from '../contract.js';

/**
 * The game's current TurnView, re-rendering the component after every accepted event (and
 * never after a refused one): `useSyncExternalStore(game.subscribe, game.getSnapshot)`. The
 * view is deeply frozen and the same object until the next accepted event.
 */
export function useGame(game: Game): TurnView {
  return useSyncExternalStore(game.subscribe, game.getSnapshot, game.getSnapshot);
}

/**
 * The decisions that would be accepted now, from `player` (or every player), recomputed only
 * when the game changes (the same array between accepted events).
 */
export function useLegalActions(game: Game, player?: string): LegalAction[] {
  const view = useGame(game);
  // `view` changes exactly when the game does: it keys the memo.
  return useMemo(() => game.legalActions(player), [game, view, player]);
}
