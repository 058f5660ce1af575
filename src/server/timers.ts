/**
 * The process's two timers over the games it owns (CONTRACT v3, "Serving games"): one timeout at
 * the earliest `nextDeadline()` of them all, which sends each game that is due a `TICK`; and one
 * interval that renews every lease.
 */
import { tickEvent } from './hostEvents.js';
import type { OwnedGame } from './owned.js';

/** The longest a Node timer waits (about 24.8 days); a later deadline is looked at again then. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** One timer for every owned game's next deadline. */
export class DeadlineTimer {
  readonly #games = new Set<OwnedGame>();
  #timer: NodeJS.Timeout | null = null;
  #at = Infinity;
  #closed = false;

  /** A game's deadline changed (or the game was added or dropped). */
  changed(game: OwnedGame): void {
    if (game.deadline === null) this.#games.delete(game);
    else this.#games.add(game);
    this.#schedule();
  }

  /** A game is no longer owned. */
  remove(game: OwnedGame): void {
    this.#games.delete(game);
    this.#schedule();
  }

  close(): void {
    this.#closed = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#games.clear();
  }

  #schedule(): void {
    let at = Infinity;
    for (const g of this.#games) if (g.deadline !== null && g.deadline < at) at = g.deadline;
    if (at === this.#at && this.#timer !== null) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#at = at;
    if (at === Infinity || this.#closed) return;
    this.#timer = setTimeout(() => this.#fire(), Math.min(MAX_DELAY_MS, Math.max(0, at - Date.now())));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = null;
    this.#at = Infinity;
    const now = Date.now();
    for (const g of [...this.#games]) {
      if (g.deadline !== null && g.deadline <= now) {
        this.#games.delete(g);
        void g.tick(tickEvent);
      }
    }
    this.#schedule();
  }
}

/** One interval renewing the lease of every owned game. */
export class LeaseKeeper {
  readonly #games = new Set<OwnedGame>();
  readonly #timer: NodeJS.Timeout;

  constructor(leaseMs: number) {
    this.#timer = setInterval(() => {
      for (const g of this.#games) void g.renew();
    }, Math.max(10, Math.floor(leaseMs / 4)));
    this.#timer.unref();
  }

  add(game: OwnedGame): void {
    this.#games.add(game);
  }

  remove(game: OwnedGame): void {
    this.#games.delete(game);
  }

  close(): void {
    clearInterval(this.#timer);
    this.#games.clear();
  }
}
