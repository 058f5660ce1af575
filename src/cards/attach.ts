/**
 * What a card game adds to the Game it belongs to (CONTRACT v4, "Card games"), attached by its
 * cards' part (./part.ts): `cards()`, `persist()` with the cards, `check` on a fork, `fork` with the
 * cards, `recording()`, `on` with each seat's events, and the keys the rest of the engine reads
 * (the cards' random position and owed decisions for stateHash, an event as a seat receives it for
 * the table server, the cards' check and whether the last send asked them for replayGame).
 */
import type { EmittedEvent, SeatOptions, TurnView } from '../contract.js';
import { CARDS_OWED, CARDS_PART, CARDS_RANDOM } from '../game/cardsPart.js';
import type { Game, RestoreOptions } from '../game/types.js';
import { refuseUnknown } from '../game/options.js';
import type { PersistedCards } from './partData.js';

/** The key of a card game's method giving an event as a seat or a spectator receives it (its card data: `seatEvent`; read by the table server). Not a name hosts see. */
export const CARDS_SEAT_EVENT: unique symbol = Symbol.for('mtg-turn-engine: an event as a viewer receives it');

/** The key of a card game's method giving the check of its cards after the last send (`cardsCheck`; read by replayGame). Not a name hosts see. */
export const CARDS_CHECK: unique symbol = Symbol.for('mtg-turn-engine: the check of the cards');
/** The game's answer to whether its last send asked the definition anything (src/cards/game.ts, replayGame). */
export const CARDS_ASKED: unique symbol = Symbol.for('mtg-turn-engine: whether the last send asked the cards');

/** What attaching calls of a cards' part. */
export interface AttachablePart<P> {
  read(options: SeatOptions | undefined, view: (options?: SeatOptions) => TurnView): unknown;
  persisted(): PersistedCards;
  recording(): unknown;
  seatEvent(event: EmittedEvent, viewer: SeatOptions): EmittedEvent;
  check(): string;
  fork(seed?: number): P;
}

/** What attaching reads of a part's own fields, each read when asked. */
export interface PartFields<P> {
  /** The definition the game plays. */
  readonly definition: unknown;
  /** The cards' random position now. */
  random(): number;
  /** Whether the last send asked the definition anything. */
  asked(): boolean;
  /** The `decided` events owed to the next checkpoint. */
  owed(): readonly EmittedEvent[];
  /** Starts recording a fork's part from its start, as the cards' restoreGame with `record: true` does. */
  recordFrom(part: P, persisted: Record<string, unknown>): void;
}

/** Adds to the game `g` what a card game has, over its cards' `part`. */
export function attachCards<P extends AttachablePart<P>>(g: Game, part: P, fields: PartFields<P>): void {
  const fork = g.fork.bind(g);
  const persist = g.persist.bind(g);
  const on = g.on.bind(g) as (type: string, listener: (e: EmittedEvent) => void, options?: SeatOptions) => () => void;
  const define = (name: string, value: unknown) => Object.defineProperty(g, name, { value, configurable: true, writable: true });
  define('cards', (options?: SeatOptions) => {
    // INVALID_OPTIONS naming the field for options that name no seat.
    if (options !== undefined) g.view(options);
    return part.read(options, (o) => g.view(o));
  });
  // CONTRACT v4: persisted with the game.
  define('persist', () => ({ ...persist(), cards: part.persisted() }));
  // CONTRACT v4: `check` answers as `send` would, the cards' verdict included: their functions run on a fork.
  define('check', (raw: unknown) => {
    const out = g.fork().send(raw as never);
    return out.ok ? { ok: true } : out;
  });
  define('recording', () => part.recording());
  // The cards' random position (stateHash: CONTRACT v4, the cards' state includes what they will draw next).
  Object.defineProperty(g, CARDS_RANDOM, { value: () => fields.random(), configurable: true });
  // An event as a seat or a spectator receives it (the table server's deliveries: src/server/cardGames.ts).
  Object.defineProperty(g, CARDS_SEAT_EVENT, { value: (e: EmittedEvent, viewer: SeatOptions) => part.seatEvent(e, viewer), configurable: true });
  // The check of the cards a recording keeps after each send (a card game's replay compares it: src/cards/game.ts).
  Object.defineProperty(g, CARDS_CHECK, { value: () => part.check(), configurable: true });
  // Whether the last send asked the definition anything (a replay tells the definition's refusals from a recording's fault).
  Object.defineProperty(g, CARDS_ASKED, { value: () => fields.asked(), configurable: true });
  // The decisions owed to the next checkpoint, without their seq (stateHash: the route is not the state).
  Object.defineProperty(g, CARDS_OWED, { value: () => fields.owed().map((e) => (e as { event?: unknown }).event), configurable: true });
  // The definition the game plays (read by playouts and simulations for its `bot`: src/sim/playout.ts).
  Object.defineProperty(g, 'definition', { value: fields.definition, configurable: true });
  // CONTRACT v4: a card game's fork carries its cards; `{ seed }` gives the fork a new random
  // stream, the engine's (checked by its fork: INVALID_OPTIONS naming options.seed) and the cards'.
  // `record: true` records the fork from its start (a 'persisted' recording, as the cards' restoreGame makes), `listeners` listen to it.
  define('fork', (options?: { seed?: number; record?: boolean; listeners?: RestoreOptions['listeners'] }) => {
    // A card game's hooks are its definition's: a key of no option of its fork is named (INVALID_OPTIONS).
    if (typeof options === 'object' && options !== null) refuseUnknown(options, ['seed', 'record', 'listeners', 'use'], 'fork');
    const seed = options?.seed;
    const listeners = options?.listeners;
    const forked = part.fork(seed);
    const made = fork({ ...(seed === undefined ? {} : { seed }), ...(listeners === undefined ? {} : { listeners }), [CARDS_PART]: forked } as RestoreOptions);
    if (options?.record === true) fields.recordFrom(forked, made.persist() as unknown as Record<string, unknown>);
    return made;
  });
  define('on', (type: string, listener: (e: EmittedEvent) => void, options?: SeatOptions) => (options === undefined ? on(type, listener) : on(type, (e) => listener(part.seatEvent(e, options)), options)));
}
