/**
 * Phasing, a turn-based action the host carries out (`phasing { player }`): whose permanents phase
 * out and in during an untap step, and when what phased out under a player who has left the game
 * phases in (702.26n; `leaveGame` makes them wait, src/rules/leaving.ts).
 * CR 502.1, 702.26a, 702.26m, 702.26n, 703.4a, 800.4m, 805.4.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { unitOf } from './units.js';

type Waiting = TurnContext['waitingToPhaseIn'];

/**
 * CR 702.26n, 800.4m: as the turn of `unit` begins, the players waiting whose next turn would have
 * begun now become due: those the turn order passed over (`passedOver`, see `departedTurnsBegun`)
 * and, with shared team turns, those of the team whose turn it is (805.4: their turn is their
 * team's). What phased out under them phases in during the next untap step, once.
 */
export function dueAsTurnBegins(ctx: Pick<TurnContext, 'waitingToPhaseIn' | 'teams' | 'variant'>, unit: PlayerId, passedOver: readonly PlayerId[]): Waiting {
  const waiting = ctx.waitingToPhaseIn;
  const begun = (w: Waiting[number]) => !w.due && (passedOver.includes(w.player) || unitOf(ctx, w.player) === unit);
  return waiting.some(begun) ? waiting.map((w) => (begun(w) ? { player: w.player, due: true } : w)) : waiting;
}

/**
 * CR 502.1, 703.4a, 702.26a: the players whose permanents phase in this untap step: the active
 * players (every player of the active team, 805.4); then, 702.26n, the players who have left whose
 * next turn would have begun since they left, in seat order as a team's players are (a skipped untap
 * step is not taken, 702.26m: they wait for the next one). Returns them, and who still waits.
 */
export function phasingInUntapStep(ctx: Pick<TurnContext, 'waitingToPhaseIn' | 'seats'>, active: PlayerId[]): { players: PlayerId[]; waiting: Waiting } {
  const waiting = ctx.waitingToPhaseIn;
  if (!waiting.some((w) => w.due)) return { players: active, waiting };
  const due = ctx.seats.filter((p) => waiting.some((w) => w.due && w.player === p));
  return { players: [...active, ...due], waiting: waiting.filter((w) => !w.due) };
}
