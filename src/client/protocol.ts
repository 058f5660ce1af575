/**
 * The table protocol (CONTRACT v3, "Serving games"): what `connectTable` (src/client) and the
 * table server (src/server) say to each other over a Colyseus room. Both ways a message is one
 * Colyseus bytes message of type {@link MESSAGE_TYPE} holding UTF-8 JSON: the server reads a
 * client's message with its own size check and schema ({@link parseClientMessage}), so nothing a
 * client sends is decoded by anyone else. Imports nothing of Colyseus.
 */
import * as z from 'zod/mini';
import type { SeatEvent, TurnView } from '../contract.js';
import type { EngineErrorInfo } from '../errors.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';
import { describeIssue } from '../issues.js';
import { PlayerIdSchema, lengthIn } from '../fields.js';
import type { DocChange } from './patch.js';

/** The Colyseus room type of the table server (`server.define(ROOM_NAME, TurnRoom)`). */
export const ROOM_NAME = 'turn';

/** The Colyseus message type of every message, both ways. */
export const MESSAGE_TYPE = 'turn';

/** The largest message a client may send (CONTRACT v3: at most 64 KiB); a larger one gets an error and changes nothing. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * Close codes of a table's connection, beside Colyseus' own (4000: the table left, 1006: the
 * connection was cut). A table closed with {@link CLOSE_REPLACED} stays closed; with any other
 * code but 4000 it rejoins by itself.
 */
export const CLOSE_REPLACED = 4100;
/** The server gave the game up (another process owns it now, or its store failed): rejoin. */
export const CLOSE_MOVED = 4101;
/** The server is stopping (the game stays in the store): rejoin, another process may take it. */
export const CLOSE_SHUTDOWN = 4102;

/** CONTRACT v4: the connection sent too much (over its message budget for 5 s, or 256 unreadable messages): closed for good. */
export const CLOSE_OVER_BUDGET = 4429;

/**
 * CONTRACT v4: how much one connection may send. The server says its own in its welcome
 * (`budget`); `connectTable` paces its messages within it (src/client/pacing.ts).
 */
export interface MessageBudget {
  /** Messages per second, on average. */
  perSecond: number;
  /** Messages at once above the average. */
  burst: number;
  /** Sends waiting for their answer. */
  inFlight: number;
}

/** The contract's budget: 20 messages a second sustained, bursts of 100; 16 sends waiting at most. */
export const DEFAULT_MESSAGE_BUDGET: Readonly<MessageBudget> = Object.freeze({ perSecond: 20, burst: 100, inFlight: 16 });

/** Join refusals (the matchmaking error's code): refused for good (a bad token, no such game). */
export const JOIN_REFUSED_CODE = 4401;
/** Join refusals: the game cannot be opened here now (another process owns it, the store is down): try again. */
export const JOIN_BUSY_CODE = 4503;
/** CONTRACT v4: the stored game cannot be loaded (the message names the version and the cause): refused for good, never retried. */
export const JOIN_FAILED_CODE = 4500;

/** What a table joins with: a seat and its token, or a spectator. `lastSeq`: the last event `seq` it saw (a rejoin). */
export type JoinOptions = ({ gameId: string; seat: string; token: string } | { gameId: string; spectator: true }) & { lastSeq?: number };

const Seq = z.number().check(z.refine((v) => Number.isSafeInteger(v) && v >= 0, 'must be a whole number from 0'));
/** A game id as the stores keep it: 1 to 200 characters. */
const GameIdSchema = z.string().check(lengthIn(1, 200, 'must be a string of 1 to 200 characters'));

/** The join options as the server reads them (unknown keys dropped). */
export const JoinOptionsSchema = z.union([
  z.object({ gameId: GameIdSchema, seat: PlayerIdSchema, token: z.string().check(lengthIn(1, 200, 'must be a string of 1 to 200 characters')), lastSeq: z.optional(Seq) }),
  z.object({ gameId: GameIdSchema, spectator: z.literal(true), lastSeq: z.optional(Seq) }),
]);

/** A client's message: an event to send (answered by a `result` with the same `id`), or a resume after a reconnection. */
export type ClientMessage = { kind: 'send'; id: number; event: unknown } | { kind: 'resume'; lastSeq: number };

const ClientMessageSchema = z.union([
  z.object({ kind: z.literal('send'), id: Seq, event: z.unknown() }),
  z.object({ kind: z.literal('resume'), lastSeq: Seq }),
]);

/** What the server tells one client of the game: its view, what it may send now, where it is next asked, and the events since the last such message. */
export interface TableState {
  /** The client's view: its seat's (private fields of other players null), or the spectator view. */
  view: TurnView;
  /** The decisions this client may send now: its seat's own, and those of a seat it decides for (with `by`); none for a spectator. */
  legalActions: LegalAction[];
  /** `nextStop` of every player whose decisions this client makes (its seat, and any seat it controls); empty for a spectator. */
  nextStop: Record<string, NextStop | null>;
  /** The events the client has not received yet, in `seq` order, as its seat receives them. */
  events: SeatEvent[];
  /**
   * In a card game (CONTRACT v4, "Served card games"): what this client may see of the cards'
   * state, the definition's `seatView(S, seat, view)` (a spectator's with `seat` null, delayed like
   * its view); null when the definition has none. Absent in a game without cards.
   */
  cards?: unknown;
}

/** A message of the server. */
export type ServerMessage =
  /** Right after a join (and after a resume): who the client is and the game now, with the events after the `lastSeq` it gave. */
  | ({
      kind: 'welcome';
      seat: string | null;
      /** The events after the `lastSeq` given could not be had: `view` is all there is (the events start later). */
      gap: boolean;
      /**
       * CONTRACT v4: a resume is paged (at most 1,000 events per answer): true when more events
       * follow the last of `events`; the client sends `resume` again with the last `seq` it got.
       */
      more?: boolean;
      /** The connection's message budget on this server (CONTRACT v4); the client paces itself within it. Absent: {@link DEFAULT_MESSAGE_BUDGET}. */
      budget?: MessageBudget;
      /**
       * The game's time (the `at` of its events and clocks) minus the server's wall clock, ms:
       * after a restart the game's time runs behind by the time no server owned it (CONTRACT v4,
       * "Clocks stand still while no server owns a game"). A client counting a running clock down
       * from its `at` reads the game's now as `Date.now() + gameTimeOffsetMs`. Absent: 0.
       */
      gameTimeOffsetMs?: number;
    } & TableState)
  /**
   * After every accepted send (the events it emitted). To the client whose send it was, the
   * update is also the answer: `answers` is that send's id (accepted; its events are `events`),
   * and no `result` follows.
   */
  | ({ kind: 'update'; answers?: number } & TableState)
  /**
   * CONTRACT v4, updates carry what changed: an update after the first of a connection, as the
   * change (./patch.ts) of its view, legal actions and `nextStop` against the previous update to
   * that connection, with the events in full. `answers` as in a full update.
   */
  | ({ kind: 'patch'; answers?: number; events: SeatEvent[] } & DocChange)
  /** The answer to the client's `send` with this id: a refusal (or an acceptance whose update did not go to the client). */
  | { kind: 'result'; id: number; result: { ok: true; events: SeatEvent[] } | { ok: false; error: EngineErrorInfo } }
  /** A message of the client that could not be read (no id to answer). */
  | { kind: 'error'; error: EngineErrorInfo };

/** The outcome of reading a client's message: the message, or what is wrong with it (and the `id` to answer, when it had one). */
export type ReadMessage = { ok: true; message: ClientMessage } | { ok: false; id: number | null; message: string };

/** The `id` of a malformed send, when one can be read, so that its sender's promise is answered. */
function idOf(value: unknown): number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null;
}

/** One decoder for every message (it keeps no state between whole decodes). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

const isSeq = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * The usual message read by hand (issue 31, point 6: the schema's cost per send): an object of
 * exactly `{ kind: 'send', id, event }` or `{ kind: 'resume', lastSeq }` with a whole `id` /
 * `lastSeq` from 0. Anything else (null: not taken) goes to the schema, which says what is wrong.
 */
function fastRead(value: unknown): ClientMessage | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getPrototypeOf(value) !== Object.prototype) return null;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  if (v.kind === 'send' && keys.length === 3 && isSeq(v.id) && Object.hasOwn(v, 'event')) return { kind: 'send', id: v.id, event: v.event };
  if (v.kind === 'resume' && keys.length === 2 && isSeq(v.lastSeq)) return { kind: 'resume', lastSeq: v.lastSeq };
  return null;
}

/** Reads a client's message: at most {@link MAX_MESSAGE_BYTES} bytes of UTF-8 JSON, a {@link ClientMessage}. Never throws. */
export function parseClientMessage(bytes: Uint8Array): ReadMessage {
  if (bytes.byteLength > MAX_MESSAGE_BYTES) return { ok: false, id: null, message: `message: ${bytes.byteLength} bytes, over the limit of ${MAX_MESSAGE_BYTES}` };
  let value: unknown;
  try {
    value = JSON.parse(UTF8.decode(bytes));
  } catch (err) {
    return { ok: false, id: null, message: `message: not UTF-8 JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const fast = fastRead(value);
  if (fast !== null) return { ok: true, message: fast };
  const parsed = ClientMessageSchema.safeParse(value);
  if (!parsed.success) return { ok: false, id: idOf(value), message: describeIssue(parsed.error, 'message') };
  return { ok: true, message: parsed.data as ClientMessage };
}

/** One decoder for every server message (replacing what is not UTF-8, as before: the server's bytes are trusted). */
const SERVER_UTF8 = new TextDecoder();

/** One encoder for every message (it keeps no state). */
const UTF8_OUT = new TextEncoder();

/** A message as the bytes sent. */
export function encodeMessage(message: ClientMessage | ServerMessage): Uint8Array {
  return UTF8_OUT.encode(JSON.stringify(message));
}

/** A server's message from its bytes (the server is trusted: only the frame is checked); null if it is not one. */
export function decodeServerMessage(bytes: unknown): ServerMessage | null {
  try {
    // Bytes of any realm (the WebSocket of a page, of Node, of a test's DOM).
    const data = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Object.prototype.toString.call(bytes) === '[object ArrayBuffer]' ? new Uint8Array(bytes as ArrayBuffer) : null;
    if (data === null) return null;
    const value: unknown = JSON.parse(SERVER_UTF8.decode(data));
    return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string' ? (value as ServerMessage) : null;
  } catch {
    return null;
  }
}
