/**
 * `TurnRoom`: the Colyseus room of one served game, its room id the game id (CONTRACT v3,
 * "Serving games"). A client joins a seat with its token, or as a spectator; the room binds it
 * to the seat, lets it send only what "Who may send what" allows, and sends it its seat's view
 * and events with `seq` (a spectator the spectator view, delayed by `spectatorDelayMs`). A client
 * that drops is held for reconnection and its seat marked away; one that comes back (or joins
 * again, through any process) gives the last `seq` it saw and receives what it missed. A new join
 * for a connected seat replaces the old connection. Every message is read with its own size
 * check and schema: a bad one gets an error, never a crash, and changes nothing.
 */
import type { Client, ClientPrivate, Room, ServerError } from '@colyseus/core';
import type { EmittedEvent } from '../contract.js';
import { ErrorCode, type EngineErrorInfo } from '../errors.js';
import { describeIssue } from '../issues.js';
import { CLOSE_MOVED, CLOSE_REPLACED, CLOSE_SHUTDOWN, JOIN_BUSY_CODE, JOIN_REFUSED_CODE, JoinOptionsSchema, MAX_MESSAGE_BYTES, MESSAGE_TYPE, encodeMessage, parseClientMessage, type ServerMessage, type TableState } from '../client/protocol.js';
import { authorize } from './authorize.js';
import { BOT_TOKEN_HASH, botSeats, GameBots } from './bots.js';
import { seatStatusEvent, seatStatusOf } from './hostEvents.js';
import { OpenError, type GameSink, type OwnedGame } from './owned.js';
import { seatEvents, seatState, spectatorShown, spectatorState, viewerOf, type SpectatorShown } from './seatState.js';
import type { GameStore } from './store/types.js';
import { tokenMatches } from './tokens.js';

/** How much one connection may send (a flood beyond it is answered RATE_LIMITED and changes nothing). */
export interface MessageLimits {
  /** Messages per second, on average (default 100). */
  perSecond: number;
  /** Messages at once above the average (default 200). */
  burst: number;
  /** Sends waiting for their answer (default 16). */
  inFlight: number;
}

/** What the rooms need of their server. */
export interface RoomContext {
  readonly store: GameStore;
  readonly spectatorDelayMs: number;
  /** How long a dropped seat is held for its client's reconnection, in seconds. */
  readonly reconnectSeconds: number;
  readonly limits: MessageLimits;
  /** The games this process owns, by id. */
  readonly owned: ReadonlyMap<string, OwnedGame>;
  readonly shuttingDown: boolean;
  /** Takes the game's lease and loads it (throws OpenError). */
  open(gameId: string): Promise<OwnedGame>;
  /** The room is gone: the lease is given up. */
  release(game: OwnedGame): Promise<void>;
  /** Reports an error of a room that nothing else would report. */
  report(message: string): void;
  /** How the bot seats of the games play (src/server/bots.ts). */
  readonly bots: { delayMs: number };
}

/** What a client's auth data says: its seat (null: a spectator). */
interface Auth {
  seat: string | null;
}

/** What the room keeps of one connection. */
interface Connection {
  seat: string | null;
  /** The token bucket of its messages. */
  tokens: number;
  refilled: number;
  inFlight: number;
  /**
   * Whether it has its welcome (after a join, or the resume after a reconnection): until then it
   * is sent no update, since the welcome brings everything from the `seq` it gave.
   */
  welcomed: boolean;
}

/** A seat's connection: the client, and its pending reconnection while it is away. */
interface SeatEntry {
  client: Client;
  reconnection?: { reject(reason?: unknown): void };
}

/** A client's send on its way: answered by the update it causes when accepted (`answered`), else by a result. */
interface Answering {
  readonly client: Client;
  readonly id: number;
  answered: boolean;
}

/** Whether a client has had its welcome (and so is sent updates). */
function welcomed(client: Client): boolean {
  return (client.userData as Connection | undefined)?.welcomed === true;
}

/** Colyseus (`@colyseus/core`), loaded when a table server starts: the room class is made from it. */
export type Colyseus = typeof import('@colyseus/core');

/**
 * The Colyseus room class of a table server (one per server: it reads the server's context),
 * made from the Colyseus module the server loaded.
 */
export function turnRoomClass(ctx: RoomContext, colyseus: Colyseus): new () => Room {
  const { Protocol, Room: BaseRoom } = colyseus;
  const refuse = (code: number, message: string): ServerError => new colyseus.ServerError(code, message);
  /** The refusals of a join that answer it (the game is busy, or missing), which Colyseus passes to onUncaughtException too. */
  const answers = new WeakSet<object>();
  return class TurnRoom extends BaseRoom {
    /** Checks the join before any room is made: the game exists, and the token is the seat's (or a spectator joins). */
    static override async onAuth(_token: string, options: unknown): Promise<Auth> {
      const parsed = JoinOptionsSchema.safeParse(options);
      if (!parsed.success) throw refuse(JOIN_REFUSED_CODE, `join options: ${describeIssue(parsed.error, 'options')} (expected { gameId, seat, token } or { gameId, spectator: true })`);
      const join = parsed.data;
      let hashes = ctx.owned.get(join.gameId)?.tokenHashes;
      if (hashes === undefined) {
        try {
          hashes = (await ctx.store.loadGame(join.gameId))?.tokenHashes;
        } catch (err) {
          throw refuse(JOIN_BUSY_CODE, `the store could not be read (${err instanceof Error ? err.message : String(err)}); try again`);
        }
      }
      if (hashes === undefined) throw refuse(JOIN_REFUSED_CODE, `no game '${join.gameId}' on this server`);
      if ('spectator' in join) return { seat: null };
      if (!Object.hasOwn(hashes, join.seat)) throw refuse(JOIN_REFUSED_CODE, `'${join.seat}' is not a seat of game '${join.gameId}'`);
      if (hashes[join.seat] === BOT_TOKEN_HASH) throw refuse(JOIN_REFUSED_CODE, `'${join.seat}' is played by the server's bot in game '${join.gameId}'; join another seat, or watch as a spectator`);
      if (!tokenMatches(join.token, hashes[join.seat])) throw refuse(JOIN_REFUSED_CODE, `the token is not the token of seat '${join.seat}' of game '${join.gameId}'`);
      return { seat: join.seat };
    }

    #owned!: OwnedGame;
    readonly #seats = new Map<string, SeatEntry>();
    readonly #replaced = new Set<Client>();
    readonly #spectators = new Set<Client>();
    /** What spectators have been shown (the view and card view `spectatorDelayMs` ago). */
    #spectatorView: SpectatorShown | null = null;
    #closing = false;
    /** The spectators' updates on their way. */
    readonly #delayed = new Set<NodeJS.Timeout>();
    /** The game's bot seats (issue 32), which move after every accepted send. */
    #bots: GameBots | null = null;

    override async onCreate(options: unknown): Promise<void> {
      const parsed = JoinOptionsSchema.safeParse(options);
      if (!parsed.success) throw refuse(JOIN_REFUSED_CODE, `join options: ${describeIssue(parsed.error, 'options')}`);
      this.roomId = parsed.data.gameId;
      // No Colyseus state: each client is sent its own messages.
      this.patchRate = 0;
      try {
        this.#owned = await ctx.open(parsed.data.gameId);
      } catch (err) {
        if (err instanceof OpenError) {
          const refusal = refuse(err.reason === 'missing' ? JOIN_REFUSED_CODE : JOIN_BUSY_CODE, err.message);
          // No such game, or it is open elsewhere (or being opened here): the join's answer, nothing to report.
          if (err.reason !== 'failed') answers.add(refusal);
          throw refusal;
        }
        throw refuse(JOIN_BUSY_CODE, `the game could not be opened (${err instanceof Error ? err.message : String(err)}); try again`);
      }
      const sink: GameSink = { committed: (events, cause) => this.#committed(events, cause as Answering | undefined), dropped: (reason) => this.#dropped(reason) };
      this.#owned.sink = sink;
      const bots = botSeats(this.#owned.tokenHashes);
      if (bots.length > 0) {
        this.#bots = new GameBots(this.#owned, bots, { ...ctx.bots, report: (line) => ctx.report(`TurnRoom ${this.roomId}: ${line}`) });
        this.#bots.poke();
      }
      this.#spectatorView = spectatorShown(this.#owned.game);
      this.onMessage(MESSAGE_TYPE, (client: Client, bytes: unknown) => this.#onBytes(client, bytes));
      this.onMessage('*', (client: Client, type: string | number) => this.#error(client, `message: unknown type ${JSON.stringify(String(type).slice(0, 40))}; send '${MESSAGE_TYPE}' messages`));
    }

    override onJoin(client: Client, options: unknown, auth: Auth): void {
      const lastSeq = (options as { lastSeq?: number }).lastSeq;
      const connection: Connection = { seat: auth.seat, tokens: ctx.limits.burst, refilled: Date.now(), inFlight: 0, welcomed: false };
      client.userData = connection;
      const seat = auth.seat;
      if (seat === null) {
        this.#spectators.add(client);
      } else {
        const previous = this.#seats.get(seat);
        if (previous !== undefined && previous.client !== client) {
          // A reloaded page: the new connection takes the seat; the old one is closed for good
          // (or, dropped already, no longer awaited).
          if (previous.reconnection !== undefined) previous.reconnection.reject(new Error('replaced'));
          else {
            this.#replaced.add(previous.client);
            previous.client.leave(CLOSE_REPLACED, 'another connection took this seat');
          }
        }
        this.#seats.set(seat, { client });
        this.#markConnected(seat);
      }
      this.#welcome(client, lastSeq);
    }

    override async onLeave(client: Client, consented: boolean): Promise<void> {
      const connection = client.userData as Connection | undefined;
      if (connection === undefined) return;
      const seat = connection.seat;
      if (seat === null) {
        this.#spectators.delete(client);
        return;
      }
      if (this.#replaced.delete(client)) return;
      const entry = this.#seats.get(seat);
      if (entry?.client !== client) return;
      if (consented || this.#closing || ctx.shuttingDown) {
        this.#seats.delete(seat);
        if (!this.#closing && !ctx.shuttingDown) this.#markAway(seat);
        return;
      }
      this.#markAway(seat);
      const reconnection = this.allowReconnection(client, ctx.reconnectSeconds);
      entry.reconnection = reconnection as unknown as SeatEntry['reconnection'];
      try {
        const back = await reconnection;
        if (this.#seats.get(seat)?.client !== client) return;
        // Nothing is sent to it until its resume is answered (with everything after its last seq).
        connection.welcomed = false;
        this.#seats.set(seat, { client: back });
        this.#markConnected(seat);
        // The table sends 'resume' with the last seq it saw, and is answered with what it missed.
      } catch {
        if (this.#seats.get(seat)?.client === client) this.#seats.delete(seat);
      }
    }

    override async onDispose(): Promise<void> {
      this.#closing = true;
      this.#bots?.stop();
      for (const timer of this.#delayed) clearTimeout(timer);
      this.#delayed.clear();
      if (this.#owned !== undefined) await ctx.release(this.#owned);
    }

    override onBeforeShutdown(): void {
      this.#closing = true;
      void this.disconnect(CLOSE_SHUTDOWN);
    }

    override onUncaughtException(error: Error, method: string): void {
      if (answers.has(error.cause as object)) return;
      ctx.report(`TurnRoom ${this.roomId}: ${method} failed: ${error instanceof Error ? error.message : String(error)}`);
    }

    /** Every frame of a client: bytes messages go to the handlers; anything else is answered with an error, never decoded. */
    protected override _onMessage(client: Client & ClientPrivate, buffer: Buffer): void {
      try {
        if (buffer.byteLength > MAX_MESSAGE_BYTES + 1024) {
          this.#error(client, `message: ${buffer.byteLength} bytes, over the limit of ${MAX_MESSAGE_BYTES}`);
          return;
        }
        if (buffer[0] === Protocol.ROOM_DATA) {
          this.#error(client, `message: send UTF-8 JSON as a bytes message of type '${MESSAGE_TYPE}' (room.sendBytes)`);
          return;
        }
        super._onMessage(client, buffer);
      } catch (err) {
        this.#error(client, `message: could not be read (${err instanceof Error ? err.message : String(err)})`);
      }
    }

    #onBytes(client: Client, bytes: unknown): void {
      const connection = client.userData as Connection | undefined;
      // Bytes of any realm (a Buffer, a Uint8Array of another global scope).
      if (connection === undefined || !ArrayBuffer.isView(bytes)) {
        this.#error(client, 'message: expected bytes');
        return;
      }
      const read = parseClientMessage(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      if (!read.ok) {
        if (read.id === null) this.#error(client, read.message);
        else this.#answer(client, read.id, { ok: false, error: { code: ErrorCode.INVALID_EVENT, message: read.message } });
        return;
      }
      const message = read.message;
      const limited = this.#limited(connection);
      if (limited !== null) {
        if (message.kind === 'send') this.#answer(client, message.id, { ok: false, error: { code: ErrorCode.RATE_LIMITED, message: limited } });
        else this.#error(client, limited, ErrorCode.RATE_LIMITED);
        return;
      }
      if (message.kind === 'resume') {
        this.#welcome(client, message.lastSeq);
        return;
      }
      connection.inFlight++;
      const seat = connection.seat;
      // Accepted, the send is answered by the update it causes (one message); otherwise by a result.
      const answering: Answering = { client, id: message.id, answered: false };
      void this.#owned
        .submit((at, game) => {
          const checked = authorize(seat, message.event, game.getSnapshot());
          if (!checked.ok) return checked;
          const marker = (message.event as { turnMarker?: unknown }).turnMarker;
          return { ok: true, event: marker === undefined ? { ...checked.event, at } : { ...checked.event, turnMarker: marker, at }, cause: answering };
        })
        .then(
          (result) => {
            if (!answering.answered) this.#answer(client, message.id, result.ok ? { ok: true, events: seatEvents(result.events, viewerOf(seat), this.#owned.game) } : result);
          },
          (err: unknown) => this.#answer(client, message.id, { ok: false, error: { code: ErrorCode.STORE_FAILED, message: `the send failed on the server (${err instanceof Error ? err.message : String(err)})` } }),
        )
        .finally(() => connection.inFlight--);
    }

    /** Why a connection may not send now (its token bucket is empty, or too many sends wait), or null. */
    #limited(connection: Connection): string | null {
      const { perSecond, burst, inFlight } = ctx.limits;
      const now = Date.now();
      connection.tokens = Math.min(burst, connection.tokens + ((now - connection.refilled) / 1000) * perSecond);
      connection.refilled = now;
      if (connection.tokens < 1) return `too many messages: at most ${perSecond} a second (bursts of ${burst}); this one was dropped`;
      connection.tokens -= 1;
      if (connection.inFlight >= inFlight) return `too many sends waiting for their answer (at most ${inFlight}); this one was dropped`;
      return null;
    }

    /**
     * After everything queued: the client's state now, with the events after `lastSeq` when given
     * (a rejoin). A game that cannot be shown (the cards fail) is reported and the client told (a
     * table waiting for its welcome leaves and tries again).
     */
    #welcome(client: Client, lastSeq: number | undefined): void {
      const owned = this.#owned;
      void owned.run(async () => {
        const seat = (client.userData as Connection).seat;
        let events: EmittedEvent[] = [];
        let gap = false;
        if (lastSeq !== undefined) {
          const missed = await owned.eventsAfter(lastSeq);
          if (missed === null) gap = true;
          else events = missed;
        }
        let state: TableState;
        if (seat === null) {
          const shown = this.#spectatorView ?? spectatorShown(owned.game);
          state = spectatorState(shown, events.filter((e) => (e.seq ?? 0) <= shown.view.seq), owned.game);
        } else {
          state = owned.withCards(() => seatState(owned.game, seat, owned.game.legalActions(), events, (p) => owned.game.nextStop(p)));
        }
        this.#send(client, { kind: 'welcome', seat, gap, ...state });
        (client.userData as Connection).welcomed = true;
      }).catch((err: unknown) => {
        ctx.report(`TurnRoom ${this.roomId}: the game could not be shown to a client: ${err instanceof Error ? err.message : String(err)}`);
        this.#error(client, 'the game could not be shown (the server failed; see its log)', ErrorCode.HOOK_FAILED);
      });
    }

    /** An accepted send was written: each seat's client gets its update (the sender's answers its send); spectators theirs, after the delay. */
    #committed(events: readonly EmittedEvent[], cause: Answering | undefined): void {
      this.#bots?.poke();
      try {
        this.#broadcast(events, cause);
      } catch (err) {
        // The send is written: nothing undoes it. A client that missed its update gets it when it rejoins.
        ctx.report(`TurnRoom ${this.roomId}: an update could not be sent: ${err instanceof Error ? err.message : String(err)}`);
      }
    }

    #broadcast(events: readonly EmittedEvent[], cause: Answering | undefined): void {
      const owned = this.#owned;
      const game = owned.game;
      if (this.#seats.size > 0) {
        const all = game.legalActions();
        const nextStop = (p: string) => {
          try {
            return game.nextStop(p);
          } catch {
            return null; // hooks.autoPass threw: where the seat is next asked is not known
          }
        };
        owned.withCards(() => {
          for (const [seat, entry] of this.#seats) {
            if (!welcomed(entry.client)) continue;
            const answers = cause?.client === entry.client ? cause.id : undefined;
            this.#send(entry.client, { kind: 'update', ...(answers !== undefined ? { answers } : {}), ...seatState(game, seat, all, events, nextStop) });
            if (answers !== undefined) cause!.answered = true;
          }
        });
      }
      if (ctx.spectatorDelayMs === 0 && this.#spectators.size === 0) {
        // No spectator to show it to: a spectator who joins is shown the game as it is then.
        this.#spectatorView = null;
        return;
      }
      const shown = spectatorShown(game);
      const show = () => {
        this.#spectatorView = shown;
        if (this.#spectators.size === 0) return;
        const message = encodeMessage({ kind: 'update', ...spectatorState(shown, events, game) });
        for (const client of this.#spectators) if (welcomed(client)) client.sendBytes(MESSAGE_TYPE, message);
      };
      if (ctx.spectatorDelayMs === 0) {
        show();
        return;
      }
      // Node's own timer: the room's Colyseus clock only runs with patches, which this room sends none of.
      const timer = setTimeout(() => {
        this.#delayed.delete(timer);
        show();
      }, ctx.spectatorDelayMs);
      this.#delayed.add(timer);
    }

    /** The game was given up here: every client is disconnected (it rejoins, and finds the game where it is now). */
    #dropped(reason: string): void {
      this.#closing = true;
      ctx.report(`TurnRoom ${this.roomId}: the game is given up here: ${reason}`);
      void this.disconnect(CLOSE_MOVED).catch(() => undefined);
    }

    #markAway(seat: string): void {
      if (this.#owned.dropped) return;
      this.#owned.submit((at) => ({ ok: true, event: seatStatusEvent(seat, 'away', at) })).catch((err: unknown) => ctx.report(`TurnRoom ${this.roomId}: ${seat} could not be marked away: ${String(err)}`));
    }

    /** Marks the seat connected again, if the game shows it away. */
    #markConnected(seat: string): void {
      if (this.#owned.dropped) return;
      this.#owned
        .submit((at, game) =>
          seatStatusOf(game.getSnapshot(), seat) === 'away' ? { ok: true, event: seatStatusEvent(seat, 'connected', at) } : { ok: false, error: { code: ErrorCode.ILLEGAL_ACTION, message: 'connected already' } },
        )
        .catch((err: unknown) => ctx.report(`TurnRoom ${this.roomId}: ${seat} could not be marked connected: ${String(err)}`));
    }

    #send(client: Client, message: ServerMessage): void {
      client.sendBytes(MESSAGE_TYPE, encodeMessage(message));
    }

    #answer(client: Client, id: number, result: { ok: true; events: ReturnType<typeof seatEvents> } | { ok: false; error: EngineErrorInfo }): void {
      this.#send(client, { kind: 'result', id, result });
    }

    #error(client: Client, message: string, code: EngineErrorInfo['code'] = ErrorCode.INVALID_EVENT): void {
      this.#send(client, { kind: 'error', error: { code, message } });
    }
  };
}
