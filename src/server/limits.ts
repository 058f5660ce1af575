/**
 * The table server's budgets and limits (CONTRACT v4, "Serving games": one client cannot hurt
 * other games), their numbers named once. A connection's messages spend a token bucket; a message
 * beyond it is dropped unanswered, before it is read; a connection still over its budget after
 * {@link OVER_BUDGET_CLOSE_MS}, or that sent {@link MAX_UNREADABLE} unreadable messages, is closed
 * with {@link CLOSE_OVER_BUDGET}. A `resume` answers at most {@link RESUME_PAGE_EVENTS} events,
 * and events read back from the store cost the process at most {@link REPLAY_SENDS_PER_SECOND}
 * replayed sends a second, {@link REPLAY_SLICE_SENDS} (or {@link REPLAY_SLICE_MS}) between two turns of the event loop; an HTTP body over {@link MAX_BODY_BYTES} is refused 413 before it is read.
 */
import { CLOSE_OVER_BUDGET, DEFAULT_MESSAGE_BUDGET, type MessageBudget } from '../client/protocol.js';

export { CLOSE_OVER_BUDGET };

/**
 * How much one connection may send: messages per second on average (default 20; the contract
 * asks for at least 20), messages at once above it (default 100), sends waiting for their answer
 * (default 16). Given to each client in its welcome, which paces itself within it.
 */
export type MessageLimits = MessageBudget;

/** The contract's budget: 20 messages a second sustained, bursts of 100; 16 sends waiting at most (the client's default too). */
export const DEFAULT_LIMITS: Readonly<MessageLimits> = DEFAULT_MESSAGE_BUDGET;

/** A connection over its budget this long (every message of it dropped meanwhile) is closed. */
export const OVER_BUDGET_CLOSE_MS = 5000;

/** A connection is back within its budget after this long without a dropped message. */
export const QUIET_MS = 1000;

/**
 * How long a connection's socket is not read after one of its messages was dropped: the flood
 * waits in its own TCP buffers (and its sender's), not in this process's event loop.
 */
export const HOLD_BACK_MS = 250;

/** A connection that sent this many unreadable messages is closed. */
export const MAX_UNREADABLE = 256;

/** The most events one answer to a `resume` (or a welcome) carries; the client asks again from the last. */
export const RESUME_PAGE_EVENTS = 1000;

/**
 * Stored sends replayed between two turns of the event loop, when a resume (or a join with
 * `lastSeq`) reads events the server no longer keeps in memory: each slice is read from the store
 * on its own, and the other games' messages go between two slices.
 */
export const REPLAY_SLICE_SENDS = 16;

/** A slice of a replay ends sooner when its sends took this long (ms): a card game's sends are slower than a plain game's. */
export const REPLAY_SLICE_MS = 2;

/**
 * Stored sends the process replays a second for resumes and joins with `lastSeq`, all games and
 * connections together (one replay at a time): beyond it a page waits for its turn. A plain game's
 * page of 1,000 events is about 1,000 sends; a card game's fewer.
 */
export const REPLAY_SENDS_PER_SECOND = 2000;

/** Stored sends the process may replay at once above {@link REPLAY_SENDS_PER_SECOND} (two pages). */
export const REPLAY_BURST_SENDS = 4000;

/** The largest HTTP body the server reads (`POST /games`, the matchmaking routes): larger is 413, unread. */
export const MAX_BODY_BYTES = 64 * 1024;

/** What the budget says of one message: take it, drop it unanswered, or close the connection (with why). */
export type Verdict = { readonly take: true } | { readonly take: false; readonly close: string | null };

const TAKE: Verdict = Object.freeze({ take: true });
const DROP: Verdict = Object.freeze({ take: false, close: null });

/** The budget of one connection: a token bucket, the time it went over, its unreadable messages. */
export class ConnectionBudget {
  #tokens: number;
  #refilled: number;
  /** When the connection went over its budget (its first dropped message since it was last within it), or null. */
  #overSince: number | null = null;
  /** When its last message was dropped. */
  #lastDrop = 0;
  #unreadable = 0;
  /** Sends waiting for their answer. */
  inFlight = 0;

  constructor(
    private readonly limits: Readonly<MessageLimits>,
    now = Date.now(),
  ) {
    this.#tokens = limits.burst;
    this.#refilled = now;
  }

  /** One message arrives (before it is read): spends a token, or says to drop it (or to close the connection). */
  spend(now = Date.now()): Verdict {
    const { perSecond, burst } = this.limits;
    this.#tokens = Math.min(burst, this.#tokens + ((now - this.#refilled) / 1000) * perSecond);
    this.#refilled = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      // Back within budget once a whole quiet second passed without a dropped message.
      if (this.#overSince !== null && now - this.#lastDrop >= QUIET_MS) this.#overSince = null;
      return TAKE;
    }
    this.#overSince ??= now;
    this.#lastDrop = now;
    if (now - this.#overSince >= OVER_BUDGET_CLOSE_MS) return { take: false, close: `over its message budget (${perSecond} a second, bursts of ${burst}) for ${OVER_BUDGET_CLOSE_MS / 1000} s` };
    return DROP;
  }

  /** A message was unreadable: the reason to close the connection once it has sent {@link MAX_UNREADABLE}, else null. */
  unreadable(): string | null {
    this.#unreadable++;
    return this.#unreadable >= MAX_UNREADABLE ? `${MAX_UNREADABLE} unreadable messages` : null;
  }

  /** Whether another send may wait for its answer. */
  get full(): boolean {
    return this.inFlight >= this.limits.inFlight;
  }
}

/** The largest frame the WebSocket reads (`ws`' maxPayload): a message and Colyseus' framing; a larger frame closes its connection (1009). */
export const MAX_FRAME_BYTES = 64 * 1024 + 1024;

/** How long `close()` (and SIGTERM) waits for the sends under way and the rooms, in all (CONTRACT v4: within 2 s). */
export const CLOSE_WITHIN_MS = 1500;

/** What of a socket the budget pauses (`ws`' WebSocket). */
interface Pausable {
  pause?(): void;
  resume?(): void;
}

/**
 * After a dropped message: stops reading the connection's socket for {@link HOLD_BACK_MS} (once;
 * a connection held back already is left alone). What it sent meanwhile is read after, and
 * dropped too if still over budget.
 */
export function holdBack(socket: unknown, held: WeakSet<object>): void {
  const ws = socket as Pausable | null | undefined;
  if (ws === null || typeof ws !== 'object' || typeof ws.pause !== 'function' || typeof ws.resume !== 'function' || held.has(ws)) return;
  held.add(ws);
  ws.pause();
  setTimeout(() => {
    held.delete(ws);
    ws.resume?.();
  }, HOLD_BACK_MS).unref();
}
