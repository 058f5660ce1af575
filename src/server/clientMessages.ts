/**
 * What a room (./room.ts) makes of one client's messages, apart from the room's own state: why a
 * frame cannot be read, a client's send prepared for its game (authorized, storable, stamped
 * with `at`), and the welcome (the state with the events the client missed, a page at a time).
 */
import type { EmittedEvent } from '../contract.js';
import { ErrorCode } from '../errors.js';
import { MAX_MESSAGE_BYTES, MESSAGE_TYPE, type ServerMessage, type TableState } from '../client/protocol.js';
import { authorize } from './authorize.js';
import { hostView, seatDoc, spectatorDoc, stateOf } from './deliver.js';
import { RESUME_PAGE_EVENTS, type MessageLimits } from './limits.js';
import type { OwnedGame, Prepare } from './owned.js';
import type { Colyseus } from './roomTypes.js';
import { seatEvents, spectatorShown, type SpectatorShown } from './seatState.js';
import { unstorable } from './storable.js';
import type { StoredPage } from './storedEvents.js';

/**
 * Why a frame cannot be read (over the size limit, or not a bytes message, a join or a leave),
 * or null: it goes to Colyseus.
 */
export function frameProblem(buffer: Buffer, protocol: Colyseus['Protocol']): string | null {
  if (buffer.byteLength > MAX_MESSAGE_BYTES + 1024) return `message: ${buffer.byteLength} bytes, over the limit of ${MAX_MESSAGE_BYTES}`;
  const code = buffer[0];
  // Colyseus drops a frame of any other code (an empty one too) without a word: unreadable.
  if (code !== protocol.ROOM_DATA_BYTES && code !== protocol.JOIN_ROOM && code !== protocol.LEAVE_ROOM) {
    const what = code === undefined ? 'an empty frame' : code === protocol.ROOM_DATA ? 'msgpack' : `a frame of code ${code}`;
    return `message: ${what}; send UTF-8 JSON as a bytes message of type '${MESSAGE_TYPE}' (room.sendBytes)`;
  }
  return null;
}

/**
 * A client's send, as its game takes it at `at` (an {@link OwnedGame}'s {@link Prepare}): what
 * `seat` may send (src/server/authorize.ts), refused as malformed when no store keeps it, stamped
 * with `at` (its turn marker kept); `cause` comes back with the update it causes.
 */
export function prepareSend(seat: string | null, event: unknown, owned: OwnedGame, at: number, cause: unknown): ReturnType<Prepare> {
  const checked = authorize(seat, event, hostView(owned));
  if (!checked.ok) return checked;
  // What no store keeps is refused as malformed, before the engine sees it (src/server/storable.ts).
  const unkept = unstorable(checked.event, 'event');
  if (unkept !== null) return { ok: false, error: { code: ErrorCode.INVALID_EVENT, message: unkept } };
  const marker = (event as { turnMarker?: unknown }).turnMarker;
  return { ok: true, event: marker === undefined ? { ...checked.event, at } : { ...checked.event, turnMarker: marker, at }, cause };
}

/**
 * The welcome of a connection of `seat` (null: a spectator, shown `spectatorView`, what spectators
 * have been shown, or the game now): the state, with the events after `lastSeq` when given (from
 * memory, or from `stored`, the page read back from the store), a page at a time; `more` when
 * more follow (the connection is sent no update until its last page). Run it in the game's queue.
 */
export function welcomeMessage(
  owned: OwnedGame,
  seat: string | null,
  lastSeq: number | undefined,
  stored: StoredPage | null | undefined,
  spectatorView: SpectatorShown | null,
  limits: MessageLimits,
): { message: Extract<ServerMessage, { kind: 'welcome' }>; more: boolean } {
  let events: EmittedEvent[] = [];
  let gap = false;
  let more = false;
  if (lastSeq !== undefined) {
    const missed = owned.eventsAfter(lastSeq, stored);
    if (missed === null) gap = true;
    else {
      events = missed.events;
      more = !missed.complete;
    }
    // CONTRACT v4: a page at a time; the client asks again from the last seq it got.
    if (events.length > RESUME_PAGE_EVENTS) {
      events = events.slice(0, RESUME_PAGE_EVENTS);
      more = true;
    }
  }
  let state: TableState;
  if (seat === null) {
    const shown = spectatorView ?? spectatorShown(owned.game);
    state = stateOf(spectatorDoc(shown), seatEvents(events.filter((e) => (e.seq ?? 0) <= shown.view.seq), { spectator: true }, owned.game));
  } else {
    const game = owned.game;
    state = stateOf(owned.withCards(() => seatDoc(game, seat, { view: hostView(owned), legalActions: game.legalActions() })), seatEvents(events, { seat }, game));
  }
  // The connection's budget: the client paces its messages within it (CONTRACT v4: a well-behaved client is never over it).
  const { perSecond, burst, inFlight } = limits;
  // The game's time against the wall clock (a client counts running clocks down by it).
  const offset = Math.round(owned.timeOffsetMs);
  return { message: { kind: 'welcome', seat, gap, ...(more ? { more } : {}), budget: { perSecond, burst, inFlight }, ...(offset === 0 ? {} : { gameTimeOffsetMs: offset }), ...state }, more };
}
