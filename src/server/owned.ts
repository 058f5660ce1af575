/**
 * A game this process owns (CONTRACT v3, "Serving games"): it holds the game's lease in the
 * store while its room lives, applies the sends one at a time, and writes every accepted send
 * to the store before anything goes out. A write that fails makes the send refused
 * (`STORE_FAILED`) and the game is reloaded from the store; when another process has taken the
 * game (a stale owner), this one drops it. Taking the lease, and OpenError, are in ./lease.ts.
 */
import type { EmittedEvent } from '../contract.js';
import { ErrorCode, type EngineErrorInfo } from '../errors.js';
import type { Game, SendResult } from '../game/types.js';
import type { ServedCards } from './cardGames.js';
import { rebuildCardGame } from './cardReload.js';
import { GameTime, clockRuns, lastInstantOf, latest } from './gameTime.js';
import { deadlineOf, tickEvent } from './hostEvents.js';
import { OpenError, takeLease, type LeaseHost } from './lease.js';
import { CorruptGameError } from './reload.js';
import { freshView, hostView } from './deliver.js';
import { ReplayBudget, StoredEvents, type StoredPage } from './storedEvents.js';
import { KEEP_SNAPSHOT_EVERY } from './store/memory.js';
import type { GameInstant, SendWrite } from './store/types.js';

export { OpenError } from './lease.js';

/** What an owned game needs of its server (the store, this process's name and the leases' length: {@link LeaseHost}). */
export interface OwnerHost extends LeaseHost {
  /** The definition the games are played with (CONTRACT v4, "Served card games"). */
  readonly cards: ServedCards;
  /** The game's deadline changed (the process's one timer looks at it). */
  deadlineChanged(game: OwnedGame): void;
  /** The process's budget of replays from the store for resumes and joins with `lastSeq` (without it, each game has one of its own). */
  readonly replays?: ReplayBudget;
}

/** The room showing an owned game. */
export interface GameSink {
  /** An accepted send was written: these are the events it emitted (the game is in its new state); `cause` is what its {@link Prepare} gave. */
  committed(events: readonly EmittedEvent[], cause: unknown): void;
  /** The game is given up here (another process owns it now, or the store failed): disconnect every client. */
  dropped(reason: string): void;
}

/**
 * How many recent events an owned game keeps for clients that rejoin, at least (older ones are
 * replayed from the store: CONTRACT v4, "Serving games"). A rejoin after a drop is a few events
 * behind; 4,096 kept (up to 8,192 between trims) held about 60 KB of events per game in the JS heap
 * after 200 sends (issue 31). A table of more players emits more events per round of passes: it
 * keeps {@link EVENTS_KEPT_PER_PLAYER} per seat when that is more.
 */
export const KEPT_EVENTS = 64;
/** The events kept per seat of a larger table (a round of passes of each player is several events). */
export const EVENTS_KEPT_PER_PLAYER = 16;

/** How many recent events a game of `seats` players keeps for rejoins. */
export function keptEvents(seats: number): number {
  return Math.max(KEPT_EVENTS, EVENTS_KEPT_PER_PLAYER * seats);
}

/**
 * What a send is made of: the event to send at `at` (the game as it is then), with what the
 * room wants back with the update if it is accepted (`cause`: whose send it is), or why it is
 * refused without reaching the game.
 */
export type Prepare = (at: number, game: Game) => { ok: true; event: unknown; cause?: unknown } | { ok: false; error: EngineErrorInfo };

function refused(code: EngineErrorInfo['code'], message: string): SendResult {
  return { ok: false, error: { code, message } };
}

/** The bot seats' kinds in a stored setup (`{ bots: { seat: kind } }`; games made before kinds have none: every bot seat is 'random'). */
function botKindsOf(setup: unknown): Readonly<Record<string, string>> {
  const bots = (setup as { bots?: unknown } | null)?.bots;
  if (typeof bots !== 'object' || bots === null || Array.isArray(bots)) return {};
  return Object.fromEntries(Object.entries(bots).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** A game this process owns. */
export class OwnedGame {
  readonly gameId: string;
  readonly tokenHashes: Readonly<Record<string, string>>;
  /** The kind of each bot seat made with one other than 'random' (the setup's `bots`, stored with the game). */
  readonly botKinds: Readonly<Record<string, string>>;
  /** When the game next needs a TICK (the server's wall clock: its {@link GameTime} maps it), or null. */
  deadline: number | null = null;
  /** The room showing it. */
  sink: GameSink | null = null;
  readonly #host: OwnerHost;
  #game: Game;
  #version: number;
  /** "When is now" for this game (the `at` it stamps on sends; its deadlines on the wall clock). */
  #time = new GameTime(null);

  /** The game's time minus the wall clock, ms (0, or negative after a load: the downtime charged to no one). */
  get timeOffsetMs(): number {
    return -this.#time.behindMs;
  }
  /** Whether the game was loaded here once (its time then runs on, whatever a reload reads). */
  #loaded = false;
  /** Whether the server is stopping: the send under way finishes, no new one starts. */
  #stopping = false;
  /** Recent events (the last {@link keptEvents} of the table), in `seq` order. */
  #log: EmittedEvent[];
  /** How many of them it keeps (set when the game is loaded). */
  #kept = KEPT_EVENTS;
  #tail: Promise<unknown> = Promise.resolve();
  #dropped = false;
  /** The events older than {@link OwnedGame.#log}, read back from the store a page at a time. */
  readonly #stored: StoredEvents;

  private constructor(host: OwnerHost, gameId: string, tokenHashes: Readonly<Record<string, string>>, setup: unknown) {
    this.#host = host;
    this.gameId = gameId;
    this.tokenHashes = tokenHashes;
    this.botKinds = botKindsOf(setup);
    this.#game = undefined as unknown as Game;
    this.#version = 0;
    this.#log = [];
    this.#stored = new StoredEvents(gameId, host.store, host.cards, host.replays ?? new ReplayBudget());
  }

  /**
   * Takes the game's lease and loads it from the store. The lease of a process that is gone (it
   * died) is waited for, when it ends within `leaseMs` and a second: it is taken the moment it
   * expires. Throws {@link OpenError}.
   */
  static async open(host: OwnerHost, gameId: string): Promise<OwnedGame> {
    const stored = await host.store.loadGame(gameId);
    if (stored === null) throw new OpenError('missing', `no game '${gameId}' on this server`);
    if (!(await takeLease(host, gameId))) throw new OpenError('busy', `game '${gameId}' is open on another server process; try again`);
    const owned = new OwnedGame(host, gameId, stored.tokenHashes, stored.setup);
    try {
      await owned.#load();
    } catch (err) {
      await host.store.releaseLease(gameId, host.owner).catch(() => undefined);
      const cause = err instanceof Error ? err.message : String(err);
      // CONTRACT v4: what is stored does not load (a damaged row, another engine's format): named, for good.
      if (err instanceof CorruptGameError) throw new OpenError('failed', `game '${gameId}' cannot be loaded (stored version ${stored.version}): ${cause}`);
      throw new OpenError('busy', `game '${gameId}' could not be loaded now (${cause}); try again`);
    }
    return owned;
  }

  /** The game (read it only; sends go through {@link OwnedGame.submit}). */
  get game(): Game {
    return this.#game;
  }

  /** The version written to the store (and shown to clients). */
  get version(): number {
    return this.#version;
  }

  /** Whether the game was given up here. */
  get dropped(): boolean {
    return this.#dropped;
  }

  /** Runs `work` after everything queued before it on this game (sends, joins, resumes). */
  run<T>(work: () => T | Promise<T>): Promise<T> {
    const next = this.#tail.then(work, work);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** Runs `work` on the game as it is (a card game carries its cards: nothing to load). */
  withCards<T>(work: () => T): T {
    return work();
  }

  /**
   * After everything queued: sends the event `prepare` makes (given `at`, the server's clock, never
   * earlier than the last, and the game as it is then; or the refusal it makes), writes it if
   * accepted, then tells the room; the result comes after.
   */
  submit(prepare: Prepare): Promise<SendResult> {
    return this.run(() => this.#apply(prepare));
  }

  /** Sends, writes and delivers one event (`at`: the game's instant now, unless given). */
  async #apply(prepare: Prepare, isTick = false, at = this.#time.now()): Promise<SendResult> {
    if (this.#dropped) return refused(ErrorCode.STORE_FAILED, `game '${this.gameId}' is no longer served by this process; the table rejoins`);
    if (this.#stopping) return refused(ErrorCode.STORE_FAILED, `the server is stopping; game '${this.gameId}' stays in the store and the table rejoins`);
    if (!isTick) {
      // CONTRACT v4, "Time-outs are facts of time": a send at or past a deadline would commit the
      // time-outs due as a step of its own inside `send`, which this one write could not hold.
      // The server's TICK at `at` commits them first instead: written and delivered as any TICK
      // the timer sends (a reload replays it), then the send is gated against the game after it.
      const due = this.#dueTick(at);
      if (due !== null) {
        const ticked = await due;
        if (!ticked.ok && ticked.error.code === ErrorCode.STORE_FAILED) return ticked;
      }
    } else if (!this.#due(at)) {
      // The timer's TICK, queued behind a send that committed the time-outs first: nothing is due.
      this.#updateDeadline(null);
      return { ok: true, events: [] };
    }
    const prepared = prepare(at, this.#game);
    if (!prepared.ok) return prepared;
    const event = prepared.event;
    const before = this.#version;
    // One transaction over the turn and the cards' state (CONTRACT v4): a refused send changed nothing.
    const result = this.#game.send(event as never);
    if (!result.ok) return result;
    const written = await this.#write(before, event, at);
    if (typeof written === 'string') {
      await this.#recover(written);
      return refused(ErrorCode.STORE_FAILED, `the send could not be written to the store (${written}); nothing changed`);
    }
    this.#version = written.send.version;
    this.#keep(result.events);
    this.#updateDeadline(isTick ? at : null);
    this.sink?.committed(result.events, prepared.cause);
    return result;
  }

  /** Whether a time-out of the game is due at or before `at`. */
  #due(at: number): boolean {
    const deadline = deadlineOf(this.#game);
    return deadline !== null && deadline <= at;
  }

  /** The TICK at `at` when a time-out of the game is due at or before it (null when none is). */
  #dueTick(at: number): Promise<SendResult> | null {
    return this.#due(at) ? this.#apply(() => ({ ok: true, event: tickEvent(at) }), true, at) : null;
  }

  /** Writes the send just accepted (the game at its new version, with the cards' state S as the snapshot's partner): what was written, or why it was not. */
  async #write(before: number, event: unknown, at: number): Promise<SendWrite | string> {
    try {
      // Built once, never frozen: the delivery of this send reads the same view (./deliver.ts).
      const view = freshView(this.#game);
      // The send as sent (its `at` included): a reload sends it again, and the cards decide again as they did.
      const send = { version: view.version, seq: view.seq, event, results: [], at };
      const hostState = this.#host.cards.stored(this.#game);
      // Every send is journaled; a full snapshot (the cards' state S in it) every KEEP_SNAPSHOT_EVERY versions (a reload replays at most 15 sends).
      const write: SendWrite = view.version % KEEP_SNAPSHOT_EVERY === 0 ? { send, snapshot: this.#game.persist(), hostState, finished: view.gameOver !== null } : { send, hostState, finished: view.gameOver !== null };
      const outcome = await this.#host.store.appendSend(this.gameId, before, this.#host.owner, Date.now(), write);
      return outcome.ok ? write : outcome.reason;
    } catch (err) {
      return `error: ${err instanceof Error ? err.message : String(err)}`;
    }
  }

  /** Whether every event after `lastSeq` is kept in memory (a resume from there reads nothing from the store). */
  keeps(lastSeq: number): boolean {
    const first = this.#log[0]?.seq;
    return lastSeq >= this.#game.getSnapshot().seq || (first !== undefined && first <= lastSeq + 1);
  }

  /**
   * The page of events after `lastSeq` read back from the store (./storedEvents.ts: its cost
   * bounded, however far back it starts), or null when they cannot be had. Run it outside the
   * queue: the game's sends go on meanwhile.
   */
  async storedPage(lastSeq: number): Promise<StoredPage | null> {
    try {
      return await this.#stored.page(lastSeq, this.#version);
    } catch {
      return null;
    }
  }

  /**
   * The events after `lastSeq` now, from memory, or from `stored` (its {@link OwnedGame.storedPage})
   * and the kept events after it; `complete` false when more follow that neither has (the client
   * asks again from the last it got). Null when they cannot be had. Run it in the queue.
   */
  eventsAfter(lastSeq: number, stored?: StoredPage | null): { events: EmittedEvent[]; complete: boolean } | null {
    if (this.keeps(lastSeq)) return { events: this.#log.filter((e) => (e.seq ?? 0) > lastSeq), complete: true };
    if (stored === undefined || stored === null) return null;
    if (stored.through >= this.#game.getSnapshot().seq) return { events: [...stored.events], complete: true };
    if (!this.keeps(stored.through)) return { events: [...stored.events], complete: false };
    return { events: [...stored.events, ...this.#log.filter((e) => (e.seq ?? 0) > stored.through)], complete: true };
  }

  /** Renews the lease; a lease lost drops the game. */
  async renew(): Promise<void> {
    if (this.#dropped) return;
    let held: boolean;
    try {
      held = await this.#host.store.acquireLease(this.gameId, this.#host.owner, Date.now(), this.#host.leaseMs);
    } catch {
      return; // the store is down: a write will fail and say so; the next renewal tries again
    }
    if (!held) this.drop('another server process took the game');
  }

  /** Gives the game up here: no more sends; the room disconnects its clients. */
  drop(reason: string): void {
    if (this.#dropped) return;
    this.#dropped = true;
    this.deadline = null;
    this.#host.deadlineChanged(this);
    try {
      this.sink?.dropped(reason);
    } catch {
      // The room is going already.
    }
  }

  /** The game's instant now (its `at` domain), to be written to the store. */
  instant(): GameInstant {
    return { gameId: this.gameId, at: this.#time.now() };
  }

  /** Whether a clock of the game runs (its owner writes its instant at least once a second then). */
  get clockRuns(): boolean {
    // The view built once per version for the delivery (never frozen): the heartbeat asks every game twice a second.
    return !this.#dropped && clockRuns(hostView(this));
  }

  /**
   * The server stops (CONTRACT v4): the send under way finishes, no new one starts (those queued
   * are refused); resolves with the game's instant then, for the store.
   */
  async stop(): Promise<GameInstant> {
    this.#stopping = true;
    await this.run(() => undefined);
    return this.instant();
  }

  /** After everything queued: writes the game's instant, gives the lease up (the game stays in the store). */
  async close(): Promise<void> {
    await this.run(() => undefined);
    if (!this.#dropped) await this.#host.store.recordInstants?.(this.#host.owner, [this.instant()]).catch(() => undefined);
    this.#dropped = true;
    this.#stored.forget();
    this.deadline = null;
    this.#host.deadlineChanged(this);
    await this.#host.store.releaseLease(this.gameId, this.#host.owner).catch(() => undefined);
  }

  /** The game from the store (its lease held): rebuilt from the latest kept snapshot and the sends after it. */
  async #load(): Promise<void> {
    const stored = await this.#host.store.loadGame(this.gameId);
    if (stored === null) throw new Error('the game is gone from the store');
    const replayed = await rebuildCardGame(this.#host.store, stored, this.#host.cards);
    this.#game = replayed.game;
    this.#kept = keptEvents(replayed.game.view().players.length);
    this.#log = replayed.events.slice(-this.#kept);
    // CONTRACT v4: the game goes on from its last instant, as of now (the moment it was read):
    // the time it spent without an owner is charged to no one.
    // A game reloaded by the same owner (after a failed write) keeps its time.
    if (!this.#loaded) this.#time = new GameTime(latest(stored.instant, replayed.lastAt, lastInstantOf(replayed.game)), Date.now());
    this.#loaded = true;
    this.#version = stored.version;
    this.#updateDeadline(null);
  }

  /** After a failed write: a stale owner drops the game; otherwise it is loaded again from the store (dropped if that fails too). */
  async #recover(failure: string): Promise<void> {
    if (failure === 'version' || failure === 'lease' || failure === 'missing') {
      this.drop(
        failure === 'missing' ? 'the game is gone from the store' : failure === 'version' ? 'another server process advanced the game' : 'its lease ran out, or another server process took the game',
      );
      return;
    }
    try {
      if (!(await this.#host.store.acquireLease(this.gameId, this.#host.owner, Date.now(), this.#host.leaseMs))) throw new Error('the lease is held by another process');
      await this.#load();
    } catch (err) {
      this.drop(`the store failed and the game could not be reloaded (${err instanceof Error ? err.message : String(err)})`);
    }
  }

  #keep(events: readonly EmittedEvent[]): void {
    for (const e of events) this.#log.push(e);
    if (this.#log.length > 2 * this.#kept) this.#log = this.#log.slice(-this.#kept);
  }

  /** The next deadline; after a TICK at `tickedAt`, one not later than it is not taken (nothing would change: no TICK loop). */
  #updateDeadline(tickedAt: number | null): void {
    const next = deadlineOf(this.#game);
    this.deadline = next === null || (tickedAt !== null && next <= tickedAt) ? null : this.#time.wallAt(next);
    this.#host.deadlineChanged(this);
  }

  /** The process timer found the deadline due: a TICK is queued (the deadline is cleared until the TICK is written). Never rejects. */
  tick(make: (at: number) => unknown): Promise<SendResult> {
    this.deadline = null;
    return this.run(async () => {
      const result = await this.#apply((at) => ({ ok: true, event: make(at) }), true).catch((err: unknown): SendResult => refused(ErrorCode.HOOK_FAILED, String(err)));
      if (!result.ok) {
        this.deadline = null;
        this.#host.deadlineChanged(this);
      }
      return result;
    });
  }
}
