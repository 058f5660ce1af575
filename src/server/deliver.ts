/**
 * Delivery: what each connection of a table is sent after an accepted send (CONTRACT v4,
 * "Serving games": updates carry what changed). The first message of a connection (its welcome)
 * carries its whole state; every update after it is the change (src/client/patch.ts) of its
 * view, legal actions and `nextStop` against the previous message to that connection, with the
 * events in full, made from the view fields the engine says the send may have changed
 * (src/viewChanges.ts). Views the server only encodes are built once per send and never frozen.
 */
import type { Client } from '@colyseus/core';
import type { EmittedEvent, TurnView } from '../contract.js';
import type { Game } from '../game/types.js';
import type { LegalAction } from '../legal.js';
import { NEXT_STOPS, type NextStop } from '../nextStop.js';
import { PRIVATE_FIELDS, seatView } from '../seats.js';
import { VIEW_UNCHANGED } from '../viewChanges.js';
import { MESSAGE_TYPE, encodeMessage, type ServerMessage, type TableState } from '../client/protocol.js';
import { diffMemo, docChange, jsonEqual, type DiffMemo, type MergePatch, type OwnFields, type StateDoc, type WholeParts } from '../client/patch.js';
import { legalFor, seatEvents, type SpectatorShown } from './seatState.js';
import { cardViewOf } from './cardGames.js';

/** What the engine says the last accepted send left unchanged in the view (null: not known). */
export function viewUnchanged(game: Game): ReadonlySet<string> | null {
  const ask = (game as unknown as { [VIEW_UNCHANGED]?: () => ReadonlySet<string> | null })[VIEW_UNCHANGED];
  return typeof ask === 'function' ? ask.call(game) : null;
}

/** Where a player is next asked, or null when `hooks.autoPass` threw (it is not known). */
function safeNextStop(game: Game, player: string): NextStop | null {
  try {
    return game.nextStop(player);
  } catch {
    return null;
  }
}

/**
 * `nextStop` of each of `players` from one look ahead (the game's `[NEXT_STOPS]`, when it has it);
 * when `hooks.autoPass` throws, each player's own (null for those it throws for).
 */
function safeNextStops(game: Game, players: readonly string[]): Record<string, NextStop | null> {
  const many = (game as unknown as { [NEXT_STOPS]?: (players: readonly string[]) => Record<string, NextStop | null> })[NEXT_STOPS];
  if (typeof many === 'function' && players.length > 1) {
    try {
      return many.call(game, players);
    } catch {
      // One player's look ahead may still be known: each on its own, below.
    }
  }
  const out: Record<string, NextStop | null> = {};
  for (const p of players) out[p] = safeNextStop(game, p);
  return out;
}

/** One send's delivery: the game's new state, read once for every connection. */
export interface Commit {
  /** The game's view (unfrozen, the host's: seat views are made from it). */
  readonly view: TurnView;
  /** Every legal action of the game now. */
  readonly legalActions: readonly LegalAction[];
  readonly events: readonly EmittedEvent[];
  /** View fields the send left unchanged (the engine's word), or null. */
  readonly unchanged: ReadonlySet<string> | null;
  /** `nextStop` of the players the connected seats decide for, from one look ahead (others are asked when a seat needs them). */
  readonly nextStop: Readonly<Record<string, NextStop | null>>;
  /** The view fields' diffs made for this send's updates, shared by its connections. */
  readonly memo: DiffMemo;
  /** The view's own keys, in order (a seat's view has the same): read once per send, not per connection. */
  readonly keys: readonly string[];
}

/** The last list of a view's keys read (the same list while the views keep their fields: compared by identity after). */
let lastKeys: readonly string[] = [];

/** `Object.keys(view)`, as the same array as the last time when the keys are the same. */
function keysOf(view: object): readonly string[] {
  // Compared without a list made (the view is a plain object: for...in reads its own keys, in order).
  let i = 0;
  let same = true;
  for (const key in view) {
    if (key !== lastKeys[i]) {
      same = false;
      break;
    }
    i++;
  }
  if (same && i === lastKeys.length) return lastKeys;
  lastKeys = Object.keys(view);
  return lastKeys;
}

/** Adds to `out` each player `seat` decides for now (itself, and any player it controls), once each, in the view's order. */
function addDecidedBy(out: string[], seat: string, view: Pick<TurnView, 'decidedBy'>): void {
  const by = view.decidedBy;
  for (const p in by) if (by[p] === seat && !out.includes(p)) out.push(p);
}

/** The host's view of each game at its version: built once per version, never frozen (the server only reads and encodes it). */
const hostViews = new WeakMap<Game, TurnView>();

/** The game's view now (the game and its version, as an owned game has them), built once per version and shared by whoever reads it. */
export function hostView(owned: { readonly game: Game; readonly version: number }): TurnView {
  const game = owned.game;
  const seen = hostViews.get(game);
  if (seen !== undefined && seen.version === owned.version) return seen;
  const view = game.view();
  hostViews.set(game, view);
  return view;
}

/** The host's view of each game before its latest fresh one (read by `readCommit`, then forgotten). */
const viewsBefore = new WeakMap<Game, TurnView>();

/** The game's view after a send (built here, for the store's write), remembered for the commit's delivery. */
export function freshView(game: Game): TurnView {
  const before = hostViews.get(game);
  if (before !== undefined) viewsBefore.set(game, before);
  const view = game.view();
  hostViews.set(game, view);
  return view;
}

/**
 * The fields a send left unchanged (the engine's word), taken from the view of the version before
 * into the new view: the new copies die young instead of outliving a collection with the game's
 * state. (Issue 31: in the table server's benchmark, some 5.4 KB per send outlived a young-generation
 * collection, a third of it the new view, and each collection's copying and each full collection's
 * marking grew with it.) The views here are the server's own: read and encoded, never changed.
 */
function shareUnchanged(game: Game, view: TurnView, unchanged: ReadonlySet<string> | null): void {
  const before = viewsBefore.get(game);
  viewsBefore.delete(game);
  if (unchanged === null || before === undefined || before.version !== view.version - 1) return;
  const from = before as unknown as Record<string, unknown>;
  const into = view as unknown as Record<string, unknown>;
  for (const field of unchanged) if (Object.hasOwn(from, field) && Object.hasOwn(into, field)) into[field] = from[field];
  // The schedule is made anew for every view and the engine never vouches for it; it changes at a step's end, not at most passes.
  if (!unchanged.has('schedule') && jsonEqual(before.schedule, view.schedule)) view.schedule = before.schedule;
}

/**
 * Reads what a send changed, once (call it right after the send is written, holding the game's
 * cards for `nextStop`), with `nextStop` of every player the seats in `seats` decide for, from one
 * look ahead (issue 31, point 6).
 */
export function readCommit(owned: { readonly game: Game; readonly version: number }, events: readonly EmittedEvent[], seats: Iterable<string> = []): Commit {
  const game = owned.game;
  const view = hostView(owned);
  const unchanged = viewUnchanged(game);
  shareUnchanged(game, view, unchanged);
  const players: string[] = [];
  for (const seat of seats) addDecidedBy(players, seat, view);
  return { view, legalActions: game.legalActions(), events, unchanged, nextStop: players.length === 0 ? {} : safeNextStops(game, players), memo: diffMemo(), keys: keysOf(view) };
}

/** The state document of `seat` at a commit: its view, its legal actions, `nextStop` of each player it decides for. */
export function seatDoc(game: Game, seat: string, commit: Pick<Commit, 'view' | 'legalActions'> & { readonly nextStop?: Commit['nextStop'] }): StateDoc {
  const view = seatView({ ...commit.view }, { seat });
  return { view, legalActions: legalFor(seat, commit.legalActions), nextStop: seatStops(game, seat, view, commit.nextStop), ...cardDoc(cardViewOf(game, seat)) };
}

/** `nextStop` of each player `seat` decides for now (CR 723: itself, and any player it controls), from `known` when it has them. */
function seatStops(game: Game, seat: string, view: Pick<TurnView, 'decidedBy'>, known: Commit['nextStop'] | undefined): Record<string, NextStop | null> {
  const stops: Record<string, NextStop | null> = {};
  const by = view.decidedBy;
  for (const p in by) if (by[p] === seat) stops[p] = known !== undefined && Object.hasOwn(known, p) ? (known[p] as NextStop | null) : safeNextStop(game, p);
  return stops;
}

/** The spectators' document of what they are shown (no legal actions, no stops). */
export function spectatorDoc(shown: SpectatorShown): StateDoc {
  return { view: shown.view, legalActions: [], nextStop: {}, ...cardDoc(shown) };
}

/** The card view slot of a document (CONTRACT v4, served card games): `cardView` in a card game, absent otherwise. */
function cardDoc(shown: { cards?: unknown }): { cardView?: unknown } {
  return 'cards' in shown ? { cardView: shown.cards } : {};
}

/** A whole state as the wire carries it: the document (its card view as `cards`) and the events. */
export function stateOf(doc: StateDoc, events: TableState['events']): TableState {
  return { view: doc.view, legalActions: doc.legalActions, nextStop: doc.nextStop, events, ...('cardView' in doc ? { cards: doc.cardView } : {}) };
}

/**
 * Colyseus' frame of a bytes message of type {@link MESSAGE_TYPE} as `client.sendBytes` makes it
 * (its code, then the type), made once: a message is written after it in one buffer.
 */
export function frameHeader(getMessageBytes: { raw(code: number, type: string, message: undefined, bytes: Uint8Array): Uint8Array }, roomDataBytes: number): Buffer {
  return Buffer.from(getMessageBytes.raw(roomDataBytes, MESSAGE_TYPE, undefined, new Uint8Array(0)));
}

/**
 * What a connection was last sent (the base of its next patch): its document, whose view is either
 * whole (a welcome, a first update, a spectator's) or, after a seat's patch, the host's view of that
 * commit with the seat's private fields in `own` (issue 31: no copy of the view kept per seat),
 * and the keys of that view, in order.
 */
interface Sent {
  doc: StateDoc;
  own: OwnFields;
  keys: readonly string[];
}

/** No legal action: one array for every seat that has none (only read, never changed). */
const NO_ACTIONS = Object.freeze([]) as unknown as LegalAction[];

/** A seat's values of the view's private fields (src/seats.ts's `seatView` of those fields alone). */
function ownFields(view: TurnView, seat: string): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const field of PRIVATE_FIELDS.view) own[field] = view[field];
  seatView(own as unknown as TurnView, { seat });
  return own;
}

/** Whether the engine says every private view field is unchanged. */
function privateUnchanged(unchanged: ReadonlySet<string>): boolean {
  for (const field of PRIVATE_FIELDS.view) if (!unchanged.has(field)) return false;
  return true;
}

/** Sends each connection its messages, remembering the last state document each was sent. */
export class Delivery {
  /** What each connection was last sent (the base of its next patch). */
  readonly #last = new WeakMap<Client, Sent>();
  readonly #header: Buffer | null;

  /**
   * `header`: Colyseus' frame of a bytes message ({@link frameHeader}): each message is written
   * once, as UTF-8 JSON straight after it, and sent as it is (issue 31, point 6: the bytes
   * `sendBytes` would make, without its two copies). Null: `client.sendBytes`.
   */
  constructor(header: Buffer | null = null) {
    this.#header = header;
  }

  /** Sends a message to a connection (queued by Colyseus while it joins). */
  send(client: Client, message: ServerMessage): void {
    const header = this.#header;
    if (header === null) {
      client.sendBytes(MESSAGE_TYPE, encodeMessage(message));
      return;
    }
    const json = JSON.stringify(message);
    const frame = Buffer.allocUnsafe(header.length + Buffer.byteLength(json));
    header.copy(frame, 0);
    frame.write(json, header.length);
    client.enqueueRaw(frame);
  }

  /** A connection's first message (a welcome): its whole state; the base of its next patch. */
  welcome(client: Client, message: Extract<ServerMessage, { kind: 'welcome' }>): void {
    this.#last.delete(client);
    this.send(client, message);
    const doc: StateDoc = { view: message.view, legalActions: message.legalActions, nextStop: message.nextStop, ...('cards' in message ? { cardView: message.cards } : {}) };
    this.#last.set(client, { doc, own: null, keys: keysOf(message.view) });
  }

  /** The connection gets its whole state with its next update (it may have missed one). */
  forget(client: Client): void {
    this.#last.delete(client);
  }

  /**
   * An update to a connection: the change against its last document (whole, if it has none), the
   * events in full, `answers` when it answers the connection's send.
   */
  update(client: Client, doc: StateDoc, events: TableState['events'], unchanged: ReadonlySet<string> | null, answers?: number, memo?: DiffMemo, keys?: readonly string[]): void {
    const last = this.#last.get(client);
    this.#last.delete(client);
    const docKeys = keys ?? keysOf(doc.view);
    this.send(client, last === undefined ? { kind: 'update', ...(answers !== undefined ? { answers } : {}), ...stateOf(doc, events) } : this.#patch(last, doc, null, docKeys, events, unchanged, answers, memo));
    this.#last.set(client, { doc, own: null, keys: docKeys });
  }

  /** The patch message from what a connection was last sent to `doc` (its view read with `own` in place). */
  #patch(last: Sent, doc: StateDoc, own: OwnFields, keys: readonly string[], events: TableState['events'], unchanged: ReadonlySet<string> | null, answers: number | undefined, memo: DiffMemo | undefined): ServerMessage {
    // The engine's word holds from the version just before: a connection further behind is diffed field by field.
    const known = last.doc.view.version === doc.view.version - 1 ? unchanged : null;
    const change = docChange(last.doc, doc, known, memo, { before: last.keys, after: keys }, last.own === null && own === null ? undefined : { before: last.own, after: own });
    // The keys in the order the wire has always had them: kind, answers, events, patch, whole.
    const message: Record<string, unknown> = answers !== undefined ? { kind: 'patch', answers, events } : { kind: 'patch', events };
    const patch = change.patch;
    const whole = change.whole;
    if (patch !== undefined) message.patch = patch;
    if (whole !== undefined) message.whole = whole;
    return message as unknown as ServerMessage;
  }

  /** The update of `seat`'s connection at a commit. */
  seatUpdate(client: Client, game: Game, seat: string, commit: Commit, answers?: number): void {
    const last = this.#last.get(client);
    const events = seatEvents(commit.events, { seat }, game);
    if (last === undefined) {
      this.update(client, seatDoc(game, seat, commit), events, commit.unchanged, answers, commit.memo, commit.keys);
      return;
    }
    // The host's view with the seat's private fields beside it, not a copy of the view per seat (issue 31).
    const view = commit.view;
    const consecutive = last.doc.view.version === view.version - 1;
    const own = last.own !== null && consecutive && commit.unchanged !== null && privateUnchanged(commit.unchanged) ? last.own : ownFields(view, seat);
    const mine = legalFor(seat, commit.legalActions);
    const doc: StateDoc = { view, legalActions: mine.length === 0 ? NO_ACTIONS : mine, nextStop: seatStops(game, seat, view, commit.nextStop) };
    const shown = cardViewOf(game, seat);
    if ('cards' in shown) doc.cardView = shown.cards;
    this.#last.delete(client);
    const message = this.#patch(last, doc, own, commit.keys, events, commit.unchanged, answers, commit.memo) as { patch?: MergePatch; whole?: WholeParts };
    this.send(client, message as unknown as ServerMessage);
    // Unchanged legal actions and `nextStop` are remembered as the older objects (equal: the newer ones are not kept past this send).
    if (message.patch?.legalActions === undefined) doc.legalActions = last.doc.legalActions;
    if (message.patch?.nextStop === undefined && message.whole?.nextStop === undefined) doc.nextStop = last.doc.nextStop;
    // The same object, changed in place: nothing made per send to remember it.
    last.doc = doc;
    last.own = own;
    last.keys = commit.keys;
    this.#last.set(client, last);
  }
}
