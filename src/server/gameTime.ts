/**
 * "When is now" for one served game (CONTRACT v4, "Clocks stand still while no server owns a
 * game"): the one place that maps the server's wall clock into the game's `at` domain (the host's
 * clock the engine charges time on) and back.
 *
 * A game created here starts with the two the same. A game loaded from the store goes on from its
 * last instant (the latest of: the instant its owner last wrote, the `at` of the last send, the
 * clocks' `at`) at the moment this process read it: the time between is charged to no one. From
 * then on the game's time runs with the wall clock, never backwards.
 */
import type { TurnView } from '../contract.js';
import type { Game } from '../game/types.js';

/** The game's latest instant as its state shows it: the latest `at` its clocks (or seats) are as of, or null. */
export function lastInstantOf(game: Game): number | null {
  const view = game.getSnapshot();
  let latest: number | null = null;
  for (const clock of Object.values(view.clocks ?? {})) if (clock.at !== null && (latest === null || clock.at > latest)) latest = clock.at;
  return latest;
}

/** Whether any clock of the game runs, given its view (the host's, unfrozen: its owner then writes the game's instant at least once a second). */
export function clockRuns(view: Pick<TurnView, 'gameOver' | 'clocks'>): boolean {
  if (view.gameOver !== null || view.clocks === null) return false;
  return Object.values(view.clocks).some((clock) => clock.running);
}

/** The latest of several instants (nulls ignored), or null. */
export function latest(...instants: readonly (number | null | undefined)[]): number | null {
  let out: number | null = null;
  for (const at of instants) if (typeof at === 'number' && Number.isFinite(at) && (out === null || at > out)) out = at;
  return out;
}

/** The game's clock: wall time (ms) to the game's `at` and back. */
export class GameTime {
  /** The game's `at` minus the wall clock. */
  readonly #offset: number;
  /** The latest `at` given (time never runs backwards). */
  #last: number;

  /**
   * @param resumeAt the game's last instant when it is loaded (null: a new game, or one whose
   *   time never started: the game's time is the wall clock)
   * @param wallNow the wall clock at the load
   */
  constructor(resumeAt: number | null, wallNow = Date.now()) {
    this.#offset = resumeAt === null ? 0 : resumeAt - wallNow;
    this.#last = resumeAt ?? -Infinity;
  }

  /** The game's `at` now (never earlier than one given before). */
  now(wall = Date.now()): number {
    const at = wall + this.#offset;
    if (at > this.#last) this.#last = at;
    return this.#last;
  }

  /** The wall time at which the game's clock reaches `at` (a deadline, for the process timer). */
  wallAt(at: number): number {
    return at - this.#offset;
  }

  /** How far the game's clock is behind the wall clock (the downtime charged to no one), ms. */
  get behindMs(): number {
    return -this.#offset;
  }
}
