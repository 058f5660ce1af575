/**
 * `TurnRoom`: the Colyseus room of one served game, its room id the game id (CONTRACT v3,
 * "Serving games"). A client joins a seat with its token, or as a spectator; the room binds it
 * to the seat, lets it send only what "Who may send what" allows, and sends it its seat's view
 * and events with `seq` (a spectator the spectator view, delayed by `spectatorDelayMs`). A client
 * that drops is held for reconnection and its seat marked away; one that comes back (or joins
 * again, through any process) gives the last `seq` it saw and receives what it missed. A new join
 * for a connected seat replaces the old connection. Every message is read with its own size
 * check and schema: a bad one gets an error, never a crash, and changes nothing. What it makes
 * of a client's messages on their own is in ./clientMessages.ts; its records in ./roomTypes.ts.
 */
import type { Client, ClientPrivate, Room, ServerError } from '@colyseus/core';
import type { EmittedEvent } from '../contract.js';
import { ErrorCode, type EngineErrorInfo } from '../errors.js';
import { describeIssue } from '../issues.js';
import { CLOSE_MOVED, CLOSE_OVER_BUDGET, CLOSE_REPLACED, CLOSE_SHUTDOWN, JOIN_BUSY_CODE, JOIN_FAILED_CODE, JOIN_REFUSED_CODE, JoinOptionsSchema, MESSAGE_TYPE, parseClientMessage, type ServerMessage } from '../client/protocol.js';
import { checkJoin, wrongRoom } from './joins.js';
import { ConnectionBudget, holdBack } from './limits.js';
import { seatStatusEvent, seatStatusOf } from './hostEvents.js';
import { OpenError, type GameSink, type OwnedGame } from './owned.js';
import { Delivery, frameHeader, readCommit, spectatorDoc } from './deliver.js';
import { seatEvents, spectatorShown, viewerOf, type SpectatorShown } from './seatState.js';
import { botSeats, GameBots, RANDOM_BOT } from './bots.js';
import { frameProblem, prepareSend, welcomeMessage } from './clientMessages.js';
import { welcomed, type Answering, type Auth, type Colyseus, type Connection, type RoomContext, type SeatEntry } from './roomTypes.js';

export type { MessageLimits } from './limits.js';
export type { Colyseus, RoomContext } from './roomTypes.js';

/**
 * The Colyseus room class of a table server (one per server: it reads the server's context),
 * made from the Colyseus module the server loaded.
 */
export function turnRoomClass(ctx: RoomContext, colyseus: Colyseus): new () => Room {
  const { Protocol, Room: BaseRoom } = colyseus;
  /** Colyseus' frame of a bytes message of type MESSAGE_TYPE: every room's messages are written after it. */
  const header = frameHeader(colyseus.getMessageBytes, Protocol.ROOM_DATA_BYTES);
  const refuse = (code: number, message: string): ServerError => new colyseus.ServerError(code, message);
  /** The refusals of a join that answer it (the game is busy, or missing), which Colyseus passes to onUncaughtException too. */
  const answers = new WeakSet<object>();
  /** The sockets not read for now (over their budget). */
  const held = new WeakSet<object>();
  return class TurnRoom extends BaseRoom {
    /** Checks the join before any room is made: the game exists, and the token is the seat's (or a spectator joins). */
    static override async onAuth(_token: string, options: unknown): Promise<Auth> {
      const checked = await checkJoin(ctx, options);
      if (!checked.ok) throw refuse(checked.code, checked.message);
      return { seat: checked.seat };
    }

    #owned!: OwnedGame;
    readonly #seats = new Map<string, SeatEntry>();
    readonly #replaced = new Set<Client>();
    /** Connections closed for sending too much (CLOSE_OVER_BUDGET): not held for reconnection. */
    readonly #expelled = new Set<Client>();
    readonly #spectators = new Set<Client>();
    /** What spectators have been shown (the view and card view `spectatorDelayMs` ago). */
    #spectatorView: SpectatorShown | null = null;
    #closing = false;
    /** The spectators' updates on their way. */
    readonly #delayed = new Set<NodeJS.Timeout>();
    /** What each connection was last sent (its updates are patches against it). */
    readonly #delivery = new Delivery(header);
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
          const refusal = refuse(err.reason === 'missing' ? JOIN_REFUSED_CODE : err.reason === 'failed' ? JOIN_FAILED_CODE : JOIN_BUSY_CODE, err.message);
          // No such game, it is open elsewhere (or being opened here), or it cannot be loaded (logged once, by
          // the server): the join's answer, nothing more to report.
          answers.add(refusal);
          throw refusal;
        }
        throw refuse(JOIN_BUSY_CODE, `the game could not be opened (${err instanceof Error ? err.message : String(err)}); try again`);
      }
      const sink: GameSink = { committed: (events, cause) => this.#committed(events, cause as Answering | undefined), dropped: (reason) => this.#dropped(reason) };
      this.#owned.sink = sink;
      const bots = botSeats(this.#owned.tokenHashes);
      if (bots.length > 0) {
        this.#bots = new GameBots(this.#owned, bots.map((seat) => ({ seat, bot: this.#owned.botKinds[seat] ?? RANDOM_BOT })), { ...ctx.bots, report: (line) => ctx.report(`TurnRoom ${this.roomId}: ${line}`) });
        this.#bots.poke();
      }
      this.#spectatorView = spectatorShown(this.#owned.game);
      this.onMessage(MESSAGE_TYPE, (client: Client, bytes: unknown) => this.#onBytes(client, bytes));
      this.onMessage('*', (client: Client, type: string | number) => this.#unreadable(client, `message: unknown type ${JSON.stringify(String(type).slice(0, 40))}; send '${MESSAGE_TYPE}' messages`));
    }

    override onJoin(client: Client, options: unknown, auth: Auth): void {
      // CONTRACT v4: the token was checked against the game the options name; the join must be to
      // that game's room, whatever the route (by game id, by room id, any matchmaking route).
      // Refused before anything changes: the seat's connection is untouched.
      const wrong = wrongRoom(options, this.roomId);
      if (wrong !== null) {
        const refusal = refuse(JOIN_REFUSED_CODE, wrong);
        answers.add(refusal);
        throw refusal;
      }
      const lastSeq = (options as { lastSeq?: number }).lastSeq;
      const connection: Connection = { seat: auth.seat, budget: new ConnectionBudget(ctx.limits), welcomed: false, welcoming: false, waiting: null };
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
      if (consented || this.#expelled.delete(client) || this.#closing || ctx.shuttingDown) {
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

    /**
     * Every frame of a client. CONTRACT v4: its budget first, before anything is read (a frame
     * beyond it is dropped unanswered; a connection over it for 5 s is closed 4429); then bytes
     * messages go to the handlers (and Colyseus' join and leave), anything else, an empty frame
     * included, is unreadable (answered with an error, never decoded, counted: 256 of them close
     * the connection 4429).
     */
    protected override _onMessage(client: Client & ClientPrivate, buffer: Buffer): void {
      const connection = client.userData as Connection | undefined;
      if (connection !== undefined) {
        if (this.#expelled.has(client)) return;
        const verdict = connection.budget.spend();
        if (!verdict.take) {
          if (verdict.close !== null) this.#expel(client, verdict.close);
          else holdBack(client.ref, held);
          return;
        }
      }
      try {
        const problem = frameProblem(buffer, Protocol);
        if (problem !== null) {
          this.#unreadable(client, problem);
          return;
        }
        super._onMessage(client, buffer);
      } catch (err) {
        this.#unreadable(client, `message: could not be read (${err instanceof Error ? err.message : String(err)})`);
      }
    }

    /** An unreadable message: answered with an error (a send with an id: its result), counted; the 256th closes the connection. */
    #unreadable(client: Client, message: string, id: number | null = null): void {
      const connection = client.userData as Connection | undefined;
      const close = connection?.budget.unreadable() ?? null;
      if (close !== null) {
        this.#expel(client, close);
        return;
      }
      if (id === null) this.#error(client, message);
      else this.#answer(client, id, { ok: false, error: { code: ErrorCode.INVALID_EVENT, message } });
    }

    /** Closes a connection that sends too much (CLOSE_OVER_BUDGET); its seat shows away and is not held for it. */
    #expel(client: Client, reason: string): void {
      if (this.#expelled.has(client)) return;
      this.#expelled.add(client);
      ctx.report(`TurnRoom ${this.roomId}: a connection (${(client.userData as Connection | undefined)?.seat ?? 'spectator'}) was closed ${CLOSE_OVER_BUDGET}: ${reason}`);
      client.leave(CLOSE_OVER_BUDGET, `closed: ${reason}`);
    }

    #onBytes(client: Client, bytes: unknown): void {
      const connection = client.userData as Connection | undefined;
      // Bytes of any realm (a Buffer, a Uint8Array of another global scope).
      if (connection === undefined || !ArrayBuffer.isView(bytes)) {
        this.#unreadable(client, 'message: expected bytes');
        return;
      }
      const read = parseClientMessage(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      if (!read.ok) {
        this.#unreadable(client, read.message, read.id);
        return;
      }
      const message = read.message;
      if (message.kind === 'resume') {
        this.#welcome(client, message.lastSeq);
        return;
      }
      const { budget } = connection;
      if (budget.full) {
        this.#answer(client, message.id, { ok: false, error: { code: ErrorCode.RATE_LIMITED, message: `too many sends waiting for their answer (at most ${ctx.limits.inFlight}); this one was dropped` } });
        return;
      }
      budget.inFlight++;
      const seat = connection.seat;
      // Accepted, the send is answered by the update it causes (one message); otherwise by a result.
      const answering: Answering = { client, id: message.id, answered: false };
      void this.#owned
        .submit((at) => prepareSend(seat, message.event, this.#owned, at, answering))
        .then(
          (result) => {
            if (!answering.answered) this.#answer(client, message.id, result.ok ? { ok: true, events: seatEvents(result.events, viewerOf(seat), this.#owned.game) } : result);
          },
          (err: unknown) => this.#answer(client, message.id, { ok: false, error: { code: ErrorCode.STORE_FAILED, message: `the send failed on the server (${err instanceof Error ? err.message : String(err)})` } }),
        )
        .finally(() => budget.inFlight--);
    }

    /**
     * The client's state now, with the events after `lastSeq` when given (a rejoin, a resume): one
     * welcome of a connection at a time, in order; a resume that comes while one is on its way
     * waits, and a newer one takes its place (a client asks again from the last `seq` it got).
     */
    #welcome(client: Client, lastSeq: number | undefined): void {
      const connection = client.userData as Connection;
      if (connection.welcoming) {
        connection.waiting = { lastSeq };
        return;
      }
      connection.welcoming = true;
      void this.#answerWelcome(client, lastSeq).finally(() => {
        connection.welcoming = false;
        const next = connection.waiting;
        connection.waiting = null;
        if (next !== null) this.#welcome(client, next.lastSeq);
      });
    }

    /**
     * A welcome. Events the game no longer keeps in memory are read from the store first, outside
     * the game's queue (src/server/storedEvents.ts: a page's cost bounded, counted by the process's
     * replay budget, joins with `lastSeq` and resumes alike); then, after everything queued, the
     * state (./clientMessages.ts). A game that cannot be shown (the cards fail) is reported and the
     * client told (a table waiting for its welcome leaves and tries again).
     */
    async #answerWelcome(client: Client, lastSeq: number | undefined): Promise<void> {
      const owned = this.#owned;
      const stored = lastSeq !== undefined && !owned.keeps(lastSeq) ? await owned.storedPage(lastSeq) : undefined;
      await owned.run(async () => {
        const seat = (client.userData as Connection).seat;
        const { message, more } = welcomeMessage(owned, seat, lastSeq, stored, this.#spectatorView, ctx.limits);
        this.#delivery.welcome(client, message);
        // A client being paged is sent no update until its last page (its events would come before theirs).
        (client.userData as Connection).welcomed = !more;
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
      const seated: string[] = [];
      for (const [seat, entry] of this.#seats) if (welcomed(entry.client)) seated.push(seat);
      const commit = owned.withCards(() => readCommit(owned, events, seated));
      if (this.#seats.size > 0) {
        owned.withCards(() => {
          for (const [seat, entry] of this.#seats) {
            if (!welcomed(entry.client)) continue;
            const answers = cause?.client === entry.client ? cause.id : undefined;
            this.#delivery.seatUpdate(entry.client, game, seat, commit, answers);
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
        const doc = spectatorDoc(shown);
        const seen = seatEvents(events, { spectator: true }, game);
        for (const client of this.#spectators) if (welcomed(client)) this.#delivery.update(client, doc, seen, commit.unchanged);
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
      this.#delivery.send(client, message);
    }

    #answer(client: Client, id: number, result: { ok: true; events: ReturnType<typeof seatEvents> } | { ok: false; error: EngineErrorInfo }): void {
      this.#send(client, { kind: 'result', id, result });
    }

    #error(client: Client, message: string, code: EngineErrorInfo['code'] = ErrorCode.INVALID_EVENT): void {
      this.#send(client, { kind: 'error', error: { code, message } });
    }
  };
}
