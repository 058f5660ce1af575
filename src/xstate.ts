/**
 * `mtg-turn-engine/xstate`: the game's XState actor for inspection tools, and the chart
 * (CONTRACT v3, "Package"). The main entry imports nothing of XState; a host that inspects
 * imports this subpath.
 */
import type { Actor, InspectionEvent, Observer } from 'xstate';
import type { Game } from './game.js';
import { turnMachine } from '../machines/turn.machine.js';

export { turnMachine };

/** Options of {@link actorOf}. */
export interface ActorOptions {
  /** An XState inspection observer (e.g. from `@statelyai/inspect`). */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}

/**
 * The game's XState actor running the turn machine: the same object for the life of the
 * game; events sent to it get exactly the checks of `game.send`.
 */
export function actorOf(game: Game, options: ActorOptions = {}): Actor<typeof turnMachine> {
  void options;
  return game.actor;
}
