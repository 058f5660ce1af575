/**
 * Events a client missed that its game no longer keeps in memory, read back from the store a page
 * at a time (CONTRACT v4, "One client cannot hurt other games": a `resume` answers at most 1,000
 * events per message). A page costs the same however far back it starts: the one kept snapshot
 * before the client's `seq` is restored (one row read), then the stored sends after it are
 * replayed a slice at a time ({@link REPLAY_SLICE_SENDS} sends read at once, and the event loop
 * turned after them, or sooner once {@link REPLAY_SLICE_MS} have passed) until the page is full. Where the replay reached is kept, with the
 * events it emitted (a window of about two pages): the next page goes on from there, and a resume
 * from the same place again replays nothing. Replays are counted by the process's
 * {@link ReplayBudget}, resumes and joins with `lastSeq` alike.
 *
 * The events are the game's own (each send sent again: CONTRACT v4, "Served card games"), as
 * the log of the live game has them; the room shows each connection its seat's part of them.
 */
import type { EmittedEvent } from '../contract.js';
import type { Game } from '../game/types.js';
import type { ServedCards } from './cardGames.js';
import { REPLAY_BURST_SENDS, REPLAY_SENDS_PER_SECOND, REPLAY_SLICE_MS, REPLAY_SLICE_SENDS, RESUME_PAGE_EVENTS } from './limits.js';
import { CorruptGameError, keptSnapshot } from './reload.js';
import { KEEP_SNAPSHOT_EVERY } from './store/memory.js';
import type { GameStore } from './store/types.js';

/** A page of stored events: every event after the `seq` asked for, through `through`. */
export interface StoredPage {
  /** In `seq` order; at most {@link RESUME_PAGE_EVENTS} + 1 (one more than a page says that more follow). */
  readonly events: readonly EmittedEvent[];
  /** The last `seq` the page answers for: every event after the one asked for, up to it, is in `events`. */
  readonly through: number;
}

/** A restore counts as this many replayed sends in the budget. */
const RESTORE_COST = KEEP_SNAPSHOT_EVERY;

/** The most sends one page replays (the sends between the snapshot and the `seq` asked for, then a page's worth). */
export const MAX_PAGE_SENDS = KEEP_SNAPSHOT_EVERY + RESUME_PAGE_EVENTS + REPLAY_SLICE_SENDS;

/** Events a window keeps at most beyond the page it answered (the older ones go first). */
const WINDOW_EVENTS = 2 * RESUME_PAGE_EVENTS;

/** A replay is dropped after this long unused (its game and events with it). */
const IDLE_MS = 30_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The process's budget of stored replays: one at a time (all games together), at most
 * `perSecond` replayed sends a second on average, `burst` at once; a replay beyond it waits.
 */
export class ReplayBudget {
  #tokens: number;
  #refilled: number;
  #tail: Promise<unknown> = Promise.resolve();
  /** Replayed sends counted, in all (for tests and the inspector's figures). */
  spent = 0;

  constructor(
    readonly perSecond: number = REPLAY_SENDS_PER_SECOND,
    readonly burst: number = REPLAY_BURST_SENDS,
    private readonly now: () => number = Date.now,
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {
    this.#tokens = burst;
    this.#refilled = now();
  }

  /** Runs `work` after the replays queued before it. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(work, work);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** Counts `sends` replayed sends, after waiting until the budget has them. */
  async spend(sends: number): Promise<void> {
    this.#refill();
    if (this.#tokens < sends) {
      await this.wait(Math.ceil(((sends - this.#tokens) / this.perSecond) * 1000));
      this.#refill();
    }
    this.#tokens -= sends;
    this.spent += sends;
  }

  #refill(): void {
    const now = this.now();
    this.#tokens = Math.min(this.burst, this.#tokens + ((now - this.#refilled) / 1000) * this.perSecond);
    this.#refilled = now;
  }
}

/** Where a replay reached: its game at `version` (last `seq` `seq`), and the events after `from`, up to `seq`. */
interface Cursor {
  readonly game: Game;
  version: number;
  seq: number;
  /** `events` holds every event after this `seq`. */
  from: number;
  events: EmittedEvent[];
}

/** The index of the first event after `seq` in `events` (in `seq` order). */
function firstAfter(events: readonly EmittedEvent[], seq: number): number {
  let lo = 0;
  let hi = events.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (((events[mid] as EmittedEvent).seq ?? 0) > seq) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** One game's events read back from its store (see the module's comment). */
export class StoredEvents {
  #cursor: Cursor | null = null;
  #idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly gameId: string,
    private readonly store: GameStore,
    private readonly cards: ServedCards,
    private readonly budget: ReplayBudget,
  ) {}

  /**
   * The events after `lastSeq`, up to version `upTo` at most, a page and one event at most (see
   * {@link StoredPage}), or null when no kept snapshot is old enough. Throws
   * {@link CorruptGameError} when a stored send does not replay.
   */
  page(lastSeq: number, upTo: number): Promise<StoredPage | null> {
    return this.budget.run(async () => {
      try {
        return await this.#page(lastSeq, upTo);
      } catch (err) {
        this.#cursor = null;
        throw err;
      } finally {
        this.#keepFor();
      }
    });
  }

  /** Drops the replay kept (the game is closed here). */
  forget(): void {
    this.#cursor = null;
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = null;
  }

  async #page(lastSeq: number, upTo: number): Promise<StoredPage | null> {
    let c = this.#cursor;
    if (c === null || lastSeq < c.from || lastSeq > c.seq || c.version > upTo) {
      this.#cursor = null;
      c = await this.#start(lastSeq, upTo);
      if (c === null) return null;
      this.#cursor = c;
    }
    const want = RESUME_PAGE_EVENTS + 1;
    let replayed = 0;
    while (c.version < upTo && c.events.length - firstAfter(c.events, lastSeq) < want && replayed < MAX_PAGE_SENDS) {
      const limit = Math.min(REPLAY_SLICE_SENDS, upTo - c.version, MAX_PAGE_SENDS - replayed);
      // A store that does not take `limit` gives more: the slice is the first `limit` all the same.
      const sends = (await this.store.sends(this.gameId, c.version, limit)).slice(0, limit);
      if (sends.length === 0) throw new CorruptGameError(this.gameId, `no stored send after version ${c.version} (the game is at version ${upTo})`);
      await this.budget.spend(sends.length);
      let since = performance.now();
      for (const send of sends) {
        if (send.version > upTo) break;
        // A slice ends early when its sends are slow (a card game's): the event loop turns at least every REPLAY_SLICE_MS.
        if (performance.now() - since >= REPLAY_SLICE_MS) {
          await turn();
          since = performance.now();
        }
        if (send.version !== c.version + 1) throw new CorruptGameError(this.gameId, `the stored send after version ${c.version} is of version ${send.version}`);
        const result = c.game.send(send.event as never);
        if (!result.ok) throw new CorruptGameError(this.gameId, `the stored send of version ${send.version} does not replay (${result.error.code}: ${result.error.message})`);
        for (const e of result.events) c.events.push(e);
        c.version = send.version;
        c.seq = send.seq;
        replayed++;
      }
      // The other games' messages go before the next slice.
      await turn();
    }
    const start = firstAfter(c.events, lastSeq);
    const events = c.events.slice(start, start + want);
    const through = events.length === want ? ((events[want - 1] as EmittedEvent).seq ?? 0) : c.seq;
    // The window keeps what a client after this one may ask for: this page on, and the events before it up to the cap.
    const drop = Math.min(start, c.events.length - WINDOW_EVENTS);
    if (drop > 0) {
      c.from = (c.events[drop - 1] as EmittedEvent).seq ?? c.from;
      c.events = c.events.slice(drop);
    }
    return { events, through };
  }

  /** A replay from the kept snapshot before `lastSeq`, or null when there is none. */
  async #start(lastSeq: number, upTo: number): Promise<Cursor | null> {
    const base = await keptSnapshot(this.store, this.gameId, { version: upTo, seq: lastSeq });
    if (base === undefined) return null;
    await this.budget.spend(RESTORE_COST);
    let game: Game;
    try {
      game = this.cards.restore(base.snapshot);
    } catch (err) {
      throw new CorruptGameError(this.gameId, `the snapshot of version ${base.version} does not restore (${err instanceof Error ? err.message : String(err)})`);
    }
    return { game, version: base.version, seq: base.seq, from: base.seq, events: [] };
  }

  /** The replay is dropped after {@link IDLE_MS} unused. */
  #keepFor(): void {
    if (this.#idle !== null) clearTimeout(this.#idle);
    this.#idle = this.#cursor === null ? null : setTimeout(() => this.forget(), IDLE_MS).unref();
  }
}
