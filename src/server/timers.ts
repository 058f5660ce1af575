/**
 * The process's two timers over the games it owns (CONTRACT v3, "Serving games"): one timeout at
 * the earliest `nextDeadline()` of them all, which sends each game that is due a `TICK`; and one
 * interval that renews every lease.
 */
import { tickEvent } from './hostEvents.js';
import type { OwnedGame } from './owned.js';
import type { GameStore } from './store/types.js';

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

/**
 * The most games whose leases one store call renews: a renewal locks its games' rows until it
 * commits, and their writes wait that long, so many small calls rather than one big one.
 */
const RENEW_CHUNK = 64;

/**
 * One interval renewing the lease of every owned game: with one store call for all of them when
 * the store can (`acquireLeases`), one per game otherwise. A game whose lease another process
 * holds now is dropped.
 */
export class LeaseKeeper {
  readonly #games = new Set<OwnedGame>();
  readonly #timer: NodeJS.Timeout;
  /** The renewal under way, if any (the next one is skipped until it ends). */
  #renewing: Promise<void> | null = null;

  constructor(
    private readonly leaseMs: number,
    private readonly store: Pick<GameStore, 'acquireLeases'>,
    private readonly owner: string,
  ) {
    this.#timer = setInterval(() => {
      if (this.#renewing !== null) return;
      this.#renewing = this.#renew().finally(() => (this.#renewing = null));
    }, Math.max(10, Math.floor(leaseMs / 4)));
    this.#timer.unref();
  }

  async #renew(): Promise<void> {
    const games = [...this.#games].filter((g) => !g.dropped);
    if (this.store.acquireLeases === undefined) {
      await Promise.all(games.map((g) => g.renew()));
      return;
    }
    for (let i = 0; i < games.length; i += RENEW_CHUNK) {
      const chunk = games.slice(i, i + RENEW_CHUNK);
      let held: Set<string>;
      try {
        held = new Set(await this.store.acquireLeases(chunk.map((g) => g.gameId), this.owner, Date.now(), this.leaseMs));
      } catch {
        continue; // the store is down: a write will fail and say so; the next renewal tries again
      }
      for (const g of chunk) if (!held.has(g.gameId) && this.#games.has(g)) g.drop('another server process took the game');
    }
  }

  add(game: OwnedGame): void {
    this.#games.add(game);
  }

  /** The game is no longer renewed; resolves once no renewal that included it is under way (its lease can be given up). */
  async remove(game: OwnedGame): Promise<void> {
    this.#games.delete(game);
    await this.#renewing;
  }

  close(): void {
    clearInterval(this.#timer);
    this.#games.clear();
  }
}

/** How often the owner writes the instant of its games whose clocks run (CONTRACT v4: at least once a second). */
export const HEARTBEAT_MS = 500;

/**
 * One interval writing the instant of every owned game whose clock runs (CONTRACT v4, a
 * heartbeat, not a version), with one store call for them all: a game loaded after this process
 * is gone charges no one for the time after the last one written. Without `recordInstants` in the
 * store, nothing is written.
 */
export class InstantKeeper {
  readonly #timer: NodeJS.Timeout | null;
  #writing: Promise<void> | null = null;

  constructor(
    private readonly games: () => Iterable<OwnedGame>,
    private readonly store: Pick<GameStore, 'recordInstants'>,
    private readonly owner: string,
    private readonly report: (line: string) => void,
  ) {
    this.#timer =
      store.recordInstants === undefined
        ? null
        : setInterval(() => {
            if (this.#writing !== null) return;
            this.#writing = this.write([...this.games()].filter((g) => g.clockRuns)).finally(() => (this.#writing = null));
          }, HEARTBEAT_MS);
    this.#timer?.unref();
  }

  /** Writes the instants of `games` now (never rejects: a failure is reported, the next beat tries again). */
  async write(games: readonly OwnedGame[]): Promise<void> {
    if (games.length === 0 || this.store.recordInstants === undefined) return;
    try {
      await this.store.recordInstants(this.owner, games.map((g) => g.instant()));
    } catch (err) {
      this.report(`the games' instants could not be written (${err instanceof Error ? err.message : String(err)}); the next heartbeat tries again`);
    }
  }

  /** Stops the heartbeat; resolves once no write is under way. */
  async close(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    await this.#writing;
  }
}
