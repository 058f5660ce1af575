/**
 * Playouts (issue 15): fork a game and play it on with random legal decisions, for search
 * (Monte Carlo tree search, rollouts) and simulations. The game given is never changed.
 *
 *   const game = createGame({ players: ['A', 'B'] });
 *   const { game: end, turn, winners } = playout(game, { untilTurn: 20, seed: 1 });
 *
 * Each decision is the awaited player's: usually the plainest answer (pass priority, no
 * attackers, no blockers, discard what is due), and with probability `explore` a random one
 * of their legal actions (casting, activating, playing a land, conceding if `allowConcede`),
 * its choices filled in the plainest way (src/legal.ts `plainestFill`). Deterministic for a
 * seed.
 */
import { legalActionsOf, plainestCandidate, plainestFill, type LegalAction } from '../legal.js';
import { seededRandom } from '../simulation.js';
import { awaitingOf } from '../view.js';
import type { TurnEvent } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { GameShell } from '../game/shell.js';
import type { Game } from '../game/types.js';
import { snapshotOf, type CompiledState } from './runtime.js';
import { turnPlan } from './plan.js';

/** Options of {@link playout}. */
export interface PlayoutOptions {
  /** Play until turn `untilTurn` is over (the game's `turn` exceeds it) or the game ends. */
  untilTurn: number;
  /** The seed of the random decisions (default 1); or pass `random`. */
  seed?: number;
  random?: () => number;
  /** Probability of a random legal action instead of the plainest answer (default 0.1). */
  explore?: number;
  /** Whether a random action may be a concession (default false). */
  allowConcede?: boolean;
  /** A cap on the events sent (default 100,000). */
  maxEvents?: number;
}

/** What a playout did. */
export interface PlayoutResult {
  /** The fork, at the end of the playout. */
  game: Game;
  /** Its turn number at the end. */
  turn: number;
  /** Events sent (and accepted). */
  events: number;
  /** The winners if the game ended, else null. */
  winners: string[] | null;
}

/** Plays a fork of `game` until `options.untilTurn` is over or the game ends. */
export function playout(game: Game, options: PlayoutOptions): PlayoutResult {
  const fork = game.fork() as GameShell<CompiledState, TurnEvent>;
  if (!(fork instanceof GameShell) || typeof fork.state.value !== 'string') throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'playout: game must be a game of one turn at a time made by createGame or restoreGame (not Grand Melee)');
  const random = options.random ?? seededRandom(options.seed ?? 1);
  const explore = options.explore ?? 0.1;
  const maxEvents = options.maxEvents ?? 100_000;
  let events = 0;
  while (events < maxEvents) {
    const state = fork.state;
    const ctx = state.context;
    if (state.status !== 'active' || ctx.result !== null || ctx.turn > options.untilTurn) break;
    const snapshot = snapshotOf(turnPlan, state);
    const awaiting = awaitingOf(snapshot);
    if (awaiting === null) break;
    // Usually the plainest answer, checked by the gate as it is sent; else (or if refused) a random legal action.
    if (random() >= explore) {
      const plainest = plainestCandidate(ctx, awaiting, awaiting.player);
      if (plainest.type !== 'CONCEDE' && fork.send(plainestFill(plainest, awaiting, ctx)).ok) {
        events++;
        continue;
      }
    }
    const actions = legalActionsOf(snapshot, awaiting.player).filter((a) => a.type !== 'CONCEDE' || options.allowConcede === true);
    if (actions.length === 0) break;
    const chosen = actions[Math.floor(random() * actions.length)] as LegalAction;
    if (!fork.send(plainestFill(chosen, awaiting, ctx)).ok) break;
    events++;
  }
  const end = fork.state.context;
  return { game: fork, turn: end.turn, events, winners: end.result === null ? null : [...end.result.winners] };
}
