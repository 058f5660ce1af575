/**
 * The listeners of a game's emitted events (`game.on`), shared by both runtimes: events are
 * delivered in the order they happened; a throwing listener does not stop the others (its error
 * is reported to `console.error`, as a throwing `hooks.settled` is); the
 * events of a send made by a listener queue behind the ones being delivered.
 */
import type { EmittedEvent, EmittedEventType, SeatEvent } from './contract.js';
import { describeThrown } from './errors.js';

/** A listener of emitted events (a seat's listener receives {@link SeatEvent}s, CONTRACT v3 "Private seats"). */
export type Listener<T extends SeatEvent = EmittedEvent> = (event: T) => void;

export class Emitter {
  #listeners: Map<string, Set<Listener>> | null = null;
  #queue: EmittedEvent[] = [];
  #delivering = false;

  /** Subscribes to one type of event, or '*' for all; returns the unsubscribe function. */
  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void {
    const listeners = (this.#listeners ??= new Map());
    let set = listeners.get(type);
    if (set === undefined) listeners.set(type, (set = new Set()));
    const wrapped = listener as Listener;
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
      if (set.size === 0) listeners.delete(type);
    };
  }

  /** Delivers events to the listeners (each gets its own copy, nested parts included). */
  deliver(events: readonly EmittedEvent[]): void {
    if (this.#listeners === null || this.#listeners.size === 0 || events.length === 0) return;
    this.#queue.push(...events);
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let e = this.#queue.shift(); e !== undefined; e = this.#queue.shift()) this.#deliverOne(e);
    } finally {
      this.#delivering = false;
    }
  }

  #deliverOne(e: EmittedEvent): void {
    for (const key of [e.type, '*']) {
      const set = this.#listeners?.get(key);
      if (set === undefined) continue;
      for (const listener of [...set]) {
        try {
          listener(copyEvent(e));
        } catch (err) {
          // A host listener's failure is the host's: the engine goes on, and says so.
          console.error(`mtg-turn-engine: a listener of '${key}' threw on '${e.type}' (seq ${e.seq}; ignored): ${describeThrown(err)}`);
        }
      }
    }
  }
}

/**
 * A copy of an emitted event that shares nothing with it: the stack object of `resolve` and
 * `removedFromStack`, the lists of `combatDamage` and `gameOver` are copied too (an event is
 * plain data at most three levels deep). What the engine hands a listener, a checkpoint hook or
 * `send`'s caller is such a copy whenever the game keeps the event (its `pending` events, which
 * `persist()` writes): nothing done to it changes the game.
 */
export function copyEvent<E extends EmittedEvent>(e: E): E {
  const out = Object.assign({}, e) as Record<string, unknown>;
  for (const key in out) {
    const v = out[key];
    if (typeof v === 'object' && v !== null) out[key] = copyData(v);
  }
  return out as E;
}

/** A copy of an event's nested plain data (objects and lists of strings, numbers and booleans, and one more level). */
function copyData(v: object): unknown {
  if (Array.isArray(v)) return v.map((x: unknown) => (typeof x === 'object' && x !== null ? copyData(x) : x));
  const out = Object.assign({}, v) as Record<string, unknown>;
  for (const key in out) {
    const w = out[key];
    if (typeof w === 'object' && w !== null) out[key] = copyData(w);
  }
  return out;
}

/**
 * The subscribers of `game.subscribe` (for `useSyncExternalStore`), shared by every kind of
 * game: each is called after every accepted event, and a throwing one does not stop the others.
 */
export class Subscribers {
  readonly #set = new Set<() => void>();

  /** Adds a subscriber; returns the function that removes it (each subscription is its own, even of the same function). */
  add(listener: () => void): () => void {
    const wrapped = () => listener();
    this.#set.add(wrapped);
    return () => {
      this.#set.delete(wrapped);
    };
  }

  /** Calls every subscriber (those added meanwhile wait for the next event). */
  notify(): void {
    for (const s of [...this.#set]) {
      try {
        s();
      } catch {
        // A subscriber's failure is the host's; the engine goes on.
      }
    }
  }
}
