/**
 * The table that `connectTable` (./index.ts) returns: one seat's (or a spectator's) side of a
 * served game over one Colyseus room at a time. It takes the server's welcome, updates and patches
 * (./patch.ts), paces its sends within the server's budget (./pacing.ts), and rejoins by itself
 * after a drop (address after address), with the small helpers that tell why a join failed.
 */
import { Client, type Room } from 'colyseus.js';
import type { EmittedEventType, SeatEvent, SeatOptions, TurnView } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';
import { deepFreeze } from '../view.js';
import { applyDocChange } from './patch.js';
import type { Table, TableJoin, TableOptions, TableSendResult, TableStatus } from './table.js';
import { SendQueue } from './pacing.js';
import { CLOSE_MOVED, CLOSE_OVER_BUDGET, CLOSE_REPLACED, CLOSE_SHUTDOWN, JOIN_FAILED_CODE, JOIN_REFUSED_CODE, MAX_MESSAGE_BYTES, MESSAGE_TYPE, ROOM_NAME, decodeServerMessage, encodeMessage, type JoinOptions, type TableState } from './protocol.js';

const disconnected = (message: string): TableSendResult => ({ ok: false, error: { code: ErrorCode.DISCONNECTED, message } });
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether a join failed for good (the server refused it), rather than for now (the network, a busy game). */
function refusedForGood(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  // JOIN_FAILED_CODE: the stored game cannot be loaded (CONTRACT v4): retrying would not help.
  return code === JOIN_REFUSED_CODE || code === JOIN_FAILED_CODE || code === 4215 /* Colyseus AUTH_FAILED */;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Whether nothing listens at the address: the connection was refused (ECONNREFUSED), so waiting will not help a first join. */
function connectionRefused(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } } | null;
  return e?.code === 'ECONNREFUSED' || e?.cause?.code === 'ECONNREFUSED' || (typeof e?.message === 'string' && e.message.includes('ECONNREFUSED'));
}

/** The table `connectTable` returns: a seat's view of a served game, kept by the server's messages. */
export class RemoteTable implements Table {
  readonly gameId: string;
  readonly seat: string | null;
  /** One colyseus.js client per address; `#at` is the one tried first. */
  readonly #clients: Client[];
  #at = 0;
  readonly #join: TableJoin;
  readonly #retry: { min: number; max: number };
  #room: Room | null = null;
  #status: TableStatus = 'reconnecting';
  #closed = false;
  #view: TurnView | null = null;
  #legal: readonly LegalAction[] = [];
  #stops: Record<string, NextStop | null> = {};
  #cards: unknown = null;
  /** Whether the last state carried a card view (a card game's), the base of the next patch's. */
  #hasCards = false;
  #seq = -1;
  #nextId = 0;
  /** The sends gone out, waiting for their answer. */
  readonly #pending = new Map<number, (result: TableSendResult) => void>();
  /** CONTRACT v4: the sends not gone out yet, paced within the server's message budget (./pacing.ts). */
  readonly #sends = new SendQueue(() => this.#pending.size);
  readonly #subscribers = new Set<() => void>();
  readonly #listeners = new Set<{ type: string; listener: (event: never) => void }>();
  readonly #statusListeners = new Set<(status: TableStatus) => void>();
  #welcomed: ((ok: boolean) => void) | null = null;
  /** The game's time minus the wall clock (the last welcome's `gameTimeOffsetMs`). */
  #timeOffset = 0;

  constructor(urls: readonly string[], join: TableJoin, options: TableOptions) {
    this.#clients = urls.map((u) => new Client(u));
    this.#join = 'spectator' in join ? { gameId: join.gameId, spectator: true } : { gameId: join.gameId, seat: join.seat, token: join.token };
    this.gameId = join.gameId;
    this.seat = 'seat' in join ? join.seat : null;
    this.#retry = options.retryMs ?? { min: 100, max: 2000 };
    this.getSnapshot = this.getSnapshot.bind(this);
    this.subscribe = this.subscribe.bind(this);
    this.cards = this.cards.bind(this);
  }

  get status(): TableStatus {
    return this.#status;
  }

  /** The client of the address to try now. */
  get #client(): Client {
    return this.#clients[this.#at] as Client;
  }

  /**
   * After a failed attempt: the next address; true when a full round of them has failed (time
   * to wait before the next round).
   */
  #next(tries: number): boolean {
    this.#at = (this.#at + 1) % this.#clients.length;
    return tries % this.#clients.length === 0;
  }

  /** The first join: retried (address after address) while no server can be reached or the game is busy, until `timeoutMs`. */
  async start(timeoutMs: number): Promise<void> {
    const until = Date.now() + timeoutMs;
    let wait = this.#retry.min;
    let refused = 0;
    for (let tries = 1; ; tries++) {
      try {
        await this.#enter(await this.#client.joinOrCreate(ROOM_NAME, this.#join as JoinOptions));
        return;
      } catch (err) {
        if (refusedForGood(err)) {
          this.#closed = true;
          this.#setStatus('closed');
          throw new TurnEngineError(ErrorCode.JOIN_REFUSED, `connectTable: the server refused the join: ${describe(err)}`);
        }
        refused = connectionRefused(err) ? refused + 1 : 0;
        if (refused >= this.#clients.length) {
          // Nothing listens at any address: a first join fails at once rather than waiting out joinTimeoutMs.
          this.#closed = true;
          this.#setStatus('closed');
          const where = this.#clients.length === 1 ? 'the address' : `any of the ${this.#clients.length} addresses`;
          throw new TurnEngineError(ErrorCode.DISCONNECTED, `connectTable: nothing listens at ${where} (connection refused: ${describe(err)}); is the server running?`);
        }
        if (!this.#next(tries)) continue;
        if (Date.now() + wait > until) {
          this.#closed = true;
          this.#setStatus('closed');
          throw new TurnEngineError(ErrorCode.DISCONNECTED, `connectTable: could not join within ${timeoutMs} ms: ${describe(err)}`);
        }
        await sleep(wait);
        wait = Math.min(this.#retry.max, wait * 2);
      }
    }
  }

  /** Takes a joined room: its messages, its drop; resolves once its welcome has come (after `resume`, when given). */
  async #enter(room: Room, resume?: number): Promise<void> {
    const welcomed = new Promise<boolean>((resolve) => (this.#welcomed = resolve));
    this.#room = room;
    room.onMessage(MESSAGE_TYPE, (bytes: unknown) => this.#onMessage(bytes));
    room.onLeave((code: number) => this.#onDrop(room, code));
    if (resume !== undefined) this.#resume(room, resume);
    const timer = setTimeout(() => this.#welcomed?.(false), 10_000);
    const ok = await welcomed;
    clearTimeout(timer);
    if (!ok) {
      if (this.#room === room) this.#room = null;
      void room.leave(true).catch(() => undefined);
      throw new Error('the server sent no welcome');
    }
    if (this.#closed) {
      void room.leave(true).catch(() => undefined);
      return;
    }
    this.#setStatus('connected');
  }

  #onMessage(bytes: unknown): void {
    const message = decodeServerMessage(bytes);
    if (message === null) return;
    switch (message.kind) {
      case 'welcome':
        if (message.more === true) {
          // CONTRACT v4: a resume is paged; these events, then ask again from the last seq.
          this.#apply(message, false);
          if (this.#room !== null) this.#resume(this.#room, Math.max(0, this.#seq));
          return;
        }
        // The server's budget for this connection: the table's sends are paced within it.
        if (message.budget !== undefined) this.#sends.pacer.budget = message.budget;
        // The game's time against the wall clock (a new server after a restart gives its own).
        this.#timeOffset = typeof message.gameTimeOffsetMs === 'number' && Number.isFinite(message.gameTimeOffsetMs) ? message.gameTimeOffsetMs : 0;
        this.#apply(message, true);
        this.#welcomed?.(true);
        this.#welcomed = null;
        return;
      case 'update':
        this.#apply(message);
        // The update of the table's own send is its answer: accepted, with these events.
        if (message.answers !== undefined) this.#resolve(message.answers, { ok: true, events: message.events });
        return;
      case 'patch': {
        // CONTRACT v4: the change against the previous update (a welcome always comes first).
        if (this.#view === null) return;
        const doc = applyDocChange({ view: this.#view, legalActions: this.#legal as LegalAction[], nextStop: this.#stops, ...(this.#hasCards ? { cardView: this.#cards } : {}) }, message);
        this.#apply({ view: doc.view, legalActions: doc.legalActions, nextStop: doc.nextStop, events: message.events, ...('cardView' in doc ? { cards: doc.cardView } : {}) });
        if (message.answers !== undefined) this.#resolve(message.answers, { ok: true, events: message.events });
        return;
      }
      case 'result':
        this.#resolve(message.id, message.result);
        return;
      case 'error':
        // An error before the welcome: the server cannot show the game now; the join fails (and is tried again).
        this.#welcomed?.(false);
        this.#welcomed = null;
        return;
    }
  }

  #resolve(id: number, result: TableSendResult): void {
    const resolve = this.#pending.get(id);
    this.#pending.delete(id);
    resolve?.(result);
    // One fewer waiting for its answer: a queued send may go.
    if (resolve !== undefined) this.#sends.pump();
  }

  /** Asks for what the table missed (a resume spends the budget too, at once: it cannot wait behind the sends). */
  #resume(room: Room, lastSeq: number): void {
    this.#sends.pacer.spend();
    room.sendBytes(MESSAGE_TYPE, encodeMessage({ kind: 'resume', lastSeq }));
  }

  /**
   * A new state: the view first, then the events it has not seen (in `seq` order), then the
   * subscribers. The view's `seq` counts as seen only in a welcome (which brings every event after
   * the seq the table gave); an update's events are all the table misses.
   */
  #apply(state: TableState, welcome = false): void {
    this.#view = deepFreeze(state.view);
    this.#legal = deepFreeze(state.legalActions);
    this.#stops = deepFreeze(state.nextStop);
    this.#hasCards = state.cards !== undefined;
    this.#cards = state.cards === undefined ? null : deepFreeze(state.cards);
    const fresh = state.events.filter((e) => (e.seq ?? 0) > this.#seq);
    this.#seq = Math.max(this.#seq, welcome ? state.view.seq : -1, ...fresh.map((e) => e.seq ?? 0));
    for (const event of fresh) {
      for (const { type, listener } of [...this.#listeners]) if (type === '*' || type === event.type) this.#call(() => (listener as (e: SeatEvent) => void)(event));
    }
    for (const subscriber of [...this.#subscribers]) this.#call(subscriber);
  }

  #call(listener: () => void): void {
    try {
      listener();
    } catch (err) {
      console.error(`mtg-turn-engine/client: a listener threw (ignored): ${describe(err)}`);
    }
  }

  #onDrop(room: Room, code: number): void {
    if (room !== this.#room) return;
    this.#room = null;
    this.#welcomed?.(false);
    this.#welcomed = null;
    for (const resolve of this.#pending.values()) resolve(disconnected('the connection was lost before the answer came; the events tell whether the send was taken'));
    this.#pending.clear();
    this.#sends.cancelAll();
    if (this.#closed) return;
    if (code === CLOSE_REPLACED || code === CLOSE_OVER_BUDGET || code === 4000) {
      this.#closed = true;
      this.#setStatus('closed');
      return;
    }
    // A drop before the welcome: the join under way tries again by itself.
    if (this.#status !== 'connected') return;
    this.#setStatus('reconnecting');
    void this.#rejoin(code === CLOSE_MOVED || code === CLOSE_SHUTDOWN ? null : room.reconnectionToken);
  }

  /**
   * Rejoins after a drop: first the room that holds the seat (`token`), then a new join with the
   * last seq (through any process: address after address), until it works or the table is closed.
   */
  async #rejoin(token: string | null): Promise<void> {
    if (token !== null) {
      try {
        await this.#enter(await this.#client.reconnect(token), this.#seq);
        return;
      } catch {
        // The room is gone (its process too, perhaps), or no longer holds the seat: join again.
      }
    }
    let wait = this.#retry.min;
    for (let tries = 1; !this.#closed; tries++) {
      try {
        await this.#enter(await this.#client.joinOrCreate(ROOM_NAME, { ...this.#join, lastSeq: Math.max(0, this.#seq) } as JoinOptions));
        return;
      } catch (err) {
        if (refusedForGood(err)) {
          this.#closed = true;
          this.#setStatus('closed');
          return;
        }
      }
      if (!this.#next(tries)) continue;
      await sleep(wait);
      wait = Math.min(this.#retry.max, wait * 2);
    }
  }

  #setStatus(status: TableStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    for (const listener of [...this.#statusListeners]) this.#call(() => listener(status));
  }

  getSnapshot(options?: SeatOptions): TurnView {
    if (options !== undefined) {
      const mine = this.seat === null ? 'spectator' in options && options.spectator === true : 'seat' in options && options.seat === this.seat;
      if (!mine) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `getSnapshot: this table shows ${this.seat === null ? 'the spectator view' : `seat '${this.seat}'`} only`);
    }
    return this.#view as TurnView;
  }

  subscribe(listener: () => void): () => void {
    this.#subscribers.add(listener);
    return () => void this.#subscribers.delete(listener);
  }

  legalActions(player?: string): LegalAction[] {
    return this.#legal.filter((a) => player === undefined || a.player === player);
  }

  now(): number {
    return Date.now() + this.#timeOffset;
  }

  nextStop(player?: string): NextStop | null {
    const who = player ?? this.seat;
    return who === null ? null : (this.#stops[who] ?? null);
  }

  cards(): unknown {
    return this.#cards;
  }

  on<K extends EmittedEventType | '*'>(type: K, listener: (event: K extends '*' ? SeatEvent : Extract<SeatEvent, { type: K }>) => void): () => void {
    const entry = { type, listener: listener as (event: never) => void };
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  send(event: unknown): Promise<TableSendResult> {
    const room = this.#room;
    if (this.#closed || room === null || this.#status !== 'connected') return Promise.resolve(disconnected(`the table is ${this.#closed ? 'closed' : 'not connected (it rejoins by itself)'}`));
    const id = this.#nextId++;
    let bytes: Uint8Array;
    try {
      bytes = encodeMessage({ kind: 'send', id, event });
    } catch (err) {
      return Promise.resolve({ ok: false, error: { code: ErrorCode.INVALID_EVENT, message: `event: cannot be sent as JSON (${describe(err)})` } });
    }
    if (bytes.byteLength > MAX_MESSAGE_BYTES) return Promise.resolve({ ok: false, error: { code: ErrorCode.INVALID_EVENT, message: `event: ${bytes.byteLength} bytes, over the limit of ${MAX_MESSAGE_BYTES}` } });
    // CONTRACT v4: within the server's message budget, in order; beyond it the send waits its turn here.
    return new Promise((resolve) => this.#sends.add(() => this.#transmit(id, bytes, resolve), () => resolve(disconnected('the connection was lost before the send went out; it was not sent'))));
  }

  /** A send's turn has come: it goes out on the connection now, if there is one. */
  #transmit(id: number, bytes: Uint8Array, resolve: (result: TableSendResult) => void): void {
    const room = this.#room;
    if (this.#closed || room === null || this.#status !== 'connected') {
      resolve(disconnected(`the table is ${this.#closed ? 'closed' : 'not connected (it rejoins by itself)'}; the send did not go out`));
      return;
    }
    this.#pending.set(id, resolve);
    try {
      room.sendBytes(MESSAGE_TYPE, bytes);
    } catch (err) {
      this.#pending.delete(id);
      resolve(disconnected(`the send could not go out (${describe(err)})`));
    }
  }

  onStatus(listener: (status: TableStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => void this.#statusListeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.#closed && this.#room === null) return;
    this.#closed = true;
    const room = this.#room;
    this.#room = null;
    this.#welcomed?.(false);
    for (const resolve of this.#pending.values()) resolve(disconnected('the table was closed'));
    this.#pending.clear();
    this.#sends.cancelAll();
    this.#setStatus('closed');
    if (room !== null) await room.leave(true).catch(() => undefined);
  }
}
