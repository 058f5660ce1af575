/**
 * The table's view of a game's turn (src/table/time.ts, {@link TimedTurn}) over any turn logic:
 * what the game shell hands the table for one send.
 */
import { numberEvents, type GameHooksRuntime } from '../../machines/hooks.js';
import type { TurnView } from '../contract.js';
import { gatedStep, type TurnLogic } from '../game/logic.js';
import type { TimedTurn } from './time.js';

/**
 * The turn of a game over `logic` for the table: its view, its chart, one gated step with the
 * send's hooks runtime (`runtime`; none for `check`), and the numbering of events in the send's
 * order (CONTRACT v3, `seq`: an event numbered now keeps its number in a later checkpoint's
 * `pending`; without a runtime the shell numbers them in order when the send is committed).
 */
export function timedTurnOf<S, W>(logic: TurnLogic<S, W>, runtime: GameHooksRuntime | undefined, view: (state: S) => TurnView): TimedTurn<S> {
  return {
    view,
    chart: (state) => logic.chartState(state, null),
    vote: (state) => logic.pendingVote?.(state) ?? null,
    step: gatedStep(logic, runtime),
    number: (e, undo) => {
      if (runtime === undefined) return;
      if (undo === true) {
        if (runtime.numbers?.get(e) === runtime.seq) {
          runtime.numbers.delete(e);
          runtime.seq--;
        }
      } else {
        numberEvents(runtime, [e]);
      }
    },
  };
}
