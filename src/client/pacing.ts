/**
 * The client's side of the server's message budget (CONTRACT v4, "One client cannot hurt other
 * games"): the table server drops a connection's messages beyond its budget unanswered and closes
 * it 4429 after 5 s over it, so `connectTable` paces itself. Its sends spend a token bucket a
 * little inside the server's (the budget the server gives in its welcome, else the contract's
 * default) and wait in order for a token, and for one of the server's in-flight places (sends
 * waiting for their answer), before they go out: a client that only goes through its table is
 * never over its budget, whatever it asks of it.
 */
import { DEFAULT_MESSAGE_BUDGET, type MessageBudget } from './protocol.js';

/**
 * What the client keeps back from the server's bucket: messages that arrive closer together than
 * they left (the network, the server's own pauses) and the few frames Colyseus sends by itself
 * (the join's acknowledgement, a leave). A tenth of the burst and a quarter second of the rate.
 */
export function clientBucket(budget: Readonly<MessageBudget>): { perSecond: number; burst: number } {
  const margin = Math.min(Math.floor(budget.burst / 2), Math.ceil(budget.burst / 10) + Math.ceil(budget.perSecond / 4));
  // 5% under the rate: the two processes' clocks need not tick alike.
  return { perSecond: budget.perSecond * 0.95, burst: Math.max(1, budget.burst - margin) };
}

/** A token bucket for one table's messages, and the number of its sends waiting for their answer. */
export class Pacer {
  #budget: Readonly<MessageBudget>;
  #bucket: { perSecond: number; burst: number };
  #tokens: number;
  #refilled: number;

  constructor(
    budget: Readonly<MessageBudget> = DEFAULT_MESSAGE_BUDGET,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.#budget = budget;
    this.#bucket = clientBucket(budget);
    this.#tokens = this.#bucket.burst;
    this.#refilled = clock();
  }

  /** The server's budget (from its welcome): the bucket keeps what it spent, within the new size. */
  set budget(budget: Readonly<MessageBudget>) {
    this.#refill();
    this.#budget = budget;
    this.#bucket = clientBucket(budget);
    this.#tokens = Math.min(this.#tokens, this.#bucket.burst);
  }

  get budget(): Readonly<MessageBudget> {
    return this.#budget;
  }

  #refill(): void {
    const now = this.clock();
    this.#tokens = Math.min(this.#bucket.burst, this.#tokens + ((now - this.#refilled) / 1000) * this.#bucket.perSecond);
    this.#refilled = now;
  }

  /**
   * How long (ms) before a send may go out with `waiting` sends waiting for their answer: 0 now;
   * Infinity until an answer comes (the server's in-flight places are all taken).
   */
  wait(waiting: number): number {
    if (waiting >= this.#budget.inFlight) return Infinity;
    this.#refill();
    return this.#tokens >= 1 ? 0 : Math.ceil(((1 - this.#tokens) / this.#bucket.perSecond) * 1000);
  }

  /** A message goes out: one token (a resume goes at once, in debt if need be: the sends after it wait longer). */
  spend(): void {
    this.#refill();
    this.#tokens -= 1;
  }
}

/** A send waiting for its turn: `go` sends it, `cancel` answers it (it never went out). */
interface Queued {
  go(): void;
  cancel(): void;
}

/**
 * A table's sends in order, each going out when the {@link Pacer} allows it (a token, and fewer
 * than the server's in-flight sends waiting for their answer). `waiting()` counts the sends out
 * and not yet answered; call {@link SendQueue.pump} when one is answered.
 */
export class SendQueue {
  readonly pacer: Pacer;
  #queue: Queued[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly waiting: () => number,
    pacer = new Pacer(),
  ) {
    this.pacer = pacer;
  }

  /** Sends not gone out yet. */
  get length(): number {
    return this.#queue.length;
  }

  /** Sends `go` now if nothing waits before it and the budget allows, else when it does. */
  add(go: () => void, cancel: () => void): void {
    this.#queue.push({ go, cancel });
    this.pump();
  }

  /** Sends what the budget allows now, and looks again when the next token comes. */
  pump(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    while (this.#queue.length > 0) {
      const wait = this.pacer.wait(this.waiting());
      if (wait === Infinity) return; // an answer pumps again
      if (wait > 0) {
        this.#timer = setTimeout(() => this.pump(), wait);
        return;
      }
      this.pacer.spend();
      (this.#queue.shift() as Queued).go();
    }
  }

  /** Answers every send not gone out (the connection dropped, the table closed). */
  cancelAll(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const queued = this.#queue;
    this.#queue = [];
    for (const q of queued) q.cancel();
  }
}
