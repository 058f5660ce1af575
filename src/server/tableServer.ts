/**
 * `createTableServer` (CONTRACT v3, "Serving games"): a Colyseus server (`@colyseus/core` with
 * `@colyseus/ws-transport`) hosting one `TurnRoom` per game id, a store that keeps every game,
 * the host's cards, and an admin route: `POST /games` with `Authorization: Bearer <adminKey>`
 * creates a game and answers its seat tokens. One table server per process: Colyseus' matchmaker
 * is one per process.
 */
import { createServer } from 'node:http';
import { hostname as machineName } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { MatchMakerDriver, Presence } from '@colyseus/core';
import type { GameOptions } from '../game/types.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { ROOM_NAME } from '../client/protocol.js';
import type { Cards } from './cards.js';
import type { Cards as CardDefinition } from '../cards/index.js';
import { OpenError, OwnedGame, type OwnerHost } from './owned.js';
import { ReplayBudget } from './storedEvents.js';
import { adminRoute, closeHttp, guardBodies, route, type CreatedGame, type HttpRoutes } from './http.js';
import { CLOSE_WITHIN_MS, DEFAULT_LIMITS, MAX_FRAME_BYTES, type MessageLimits } from './limits.js';
import { unstorable } from './storable.js';
import { turnRoomClass, type RoomContext } from './room.js';
import { loadOptional } from './store/driver.js';
import type { GameStore } from './store/types.js';
import { DeadlineTimer, InstantKeeper, LeaseKeeper } from './timers.js';
import { clusterDriver, processAlive, processOfOwner } from './cluster.js';
import { hashToken, newGameId, newToken } from './tokens.js';
import { BOT_TOKEN_HASH, RANDOM_BOT, type BotSeat } from './bots.js';
import { servedCards } from './cardGames.js';
import { withSpreadHeartbeat } from './heartbeat.js';

/** Options of {@link createTableServer}. */
export interface TableServerOptions {
  /** Where the games are kept (MemoryStore, PGliteStore, PostgresStore). */
  store: GameStore;
  /**
   * The host's cards (CONTRACT v4, "Served card games"): a definition made by `defineCards` of
   * `mtg-turn-engine/cards`, or the v3 shape `{ hooks?, saveState(), loadState(state) }`.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a definition of any state S
  cards: CardDefinition<any> | Cards;
  /** Colyseus presence shared by the processes of a cluster (`RedisPresence`); default: this process only. */
  presence?: Presence;
  /** Colyseus matchmaking driver shared by the processes of a cluster (`RedisDriver`); default: this process only. */
  driver?: MatchMakerDriver;
  /**
   * The address (`host:port`, no scheme) at which clients reach this process, sent to the
   * clients of the rooms it runs (Colyseus' `publicAddress`). Each process of a cluster needs its
   * own: a join that reaches one process may be sent to the game's room on another. Default,
   * with a `driver`: `hostname:port` (the machine's name when `hostname` is a wildcard address);
   * without one, none (clients connect where they joined).
   */
  publicAddress?: string;
  /** The port to listen on (0: any free port; the server's `port` says which). */
  port: number;
  /** The address to listen on (default '127.0.0.1': this machine only). */
  hostname?: string;
  /** The key `POST /games` must carry (`Authorization: Bearer <adminKey>`): at least 16 characters. */
  adminKey: string;
  /** How long spectators wait to see what happens (default 0). */
  spectatorDelayMs?: number;
  /** How long a game's lease holds without renewal (default 4000; renewed every quarter of it). A process that dies gives its games up after this. */
  leaseMs?: number;
  /** How long a dropped seat is held for its client to reconnect, in seconds (default 30); it can always join again with its token. */
  reconnectSeconds?: number;
  /** How much one connection may send (a flood beyond it is answered RATE_LIMITED). */
  limits?: Partial<MessageLimits>;
  /** Where the server reports what goes wrong (default `console.error`). */
  log?: (line: string) => void;
  /** How long a bot seat waits before it moves, in ms (default 0; the demo waits a moment, so people see the moves). */
  botDelayMs?: number;
  /**
   * More HTTP routes on the server's own port (pages, read routes): called for every request
   * that is not Colyseus' own, before `POST /games`; resolves true when it answered the request.
   */
  routes?: HttpRoutes;
}

export type { CreatedGame, HttpRoutes } from './http.js';

/**
 * What a served game is made with: createGame's options as JSON, less hooks and listeners, and
 * `bots`: the seats the server plays itself, which get no token. A seat alone (`'Bob'`) or
 * `{ seat, bot: 'random' }` is played by the random bot (the definition's `bot`, else random legal
 * actions; issue 32); `{ seat, bot: name }` by the definition's `bots[name]` (a bot that plans,
 * docs/cards.md). The kinds are stored with the game (its setup), so a restart keeps them.
 */
export type ServedGameOptions = Omit<GameOptions, 'hooks' | 'listeners'> & { bots?: (string | BotSeat)[] };

/** A running table server. */
export interface TableServer {
  /** The port it listens on. */
  readonly port: number;
  /** The address it listens on. */
  readonly hostname: string;
  /** Where clients of its rooms are sent (`host:port`; undefined: where they joined). */
  readonly publicAddress: string | undefined;
  /**
   * Creates a game (createGame's options as JSON, less hooks and listeners: the hooks are the
   * cards'; recorded): stored, with one token per seat. Throws INVALID_OPTIONS naming the field.
   */
  createGame(options: ServedGameOptions): Promise<CreatedGame>;
  /** Stops: every client is disconnected (it rejoins elsewhere, if anywhere), every lease given up; the games stay in the store. */
  close(): Promise<void>;
}

export { MAX_BODY_BYTES } from './limits.js';

/** The table server of this process, if one runs (Colyseus' matchmaker is one per process). */
let running: object | null = null;

function invalid(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.${message}`);
}

/** The listening addresses that are not an address a client can reach. */
const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

/** The public address: as given (checked), or by default `host:port` in a cluster (a driver given). */
function publicAddressOf(options: TableServerOptions, port: number, hostname: string): string | undefined {
  const given = options.publicAddress;
  if (given !== undefined) {
    if (typeof given !== 'string' || !/^(\[[0-9a-fA-F:.]+\]|[^\s/:[\]]+)(:\d{1,5})?(\/\S*)?$/.test(given)) throw invalid("publicAddress: must be 'host:port' (no scheme), the address at which clients reach this process");
    return given;
  }
  if (options.driver === undefined) return undefined;
  if (port === 0) throw invalid('publicAddress: a process of a cluster (with a driver) on port 0 must say at which address clients reach it (or listen on a fixed port)');
  return `${WILDCARD.has(hostname) ? machineName() : hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
}

function wholeNumber(value: unknown, field: string, min: number, max: number, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) throw invalid(`${field}: must be a whole number from ${min} to ${max}`);
  return value;
}

/** The options checked, defaults filled in; INVALID_OPTIONS naming the field otherwise. */
function readOptions(options: TableServerOptions) {
  if (typeof options !== 'object' || options === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options: must be { store, cards, port, adminKey, ... }');
  const store = options.store;
  for (const method of ['init', 'createGame', 'loadGame', 'appendSend', 'sends', 'snapshots', 'acquireLease', 'releaseLease'] as const) {
    if (typeof (store as unknown as Record<string, unknown> | undefined)?.[method] !== 'function') throw invalid(`store: must be a GameStore (MemoryStore, PGliteStore, PostgresStore): it has no ${method}()`);
  }
  const cards = servedCards(options.cards);
  const port = wholeNumber(options.port, 'port', 0, 65535);
  const hostname = options.hostname ?? '127.0.0.1';
  if (typeof hostname !== 'string' || hostname.length === 0) throw invalid('hostname: must be a host name or address');
  if (typeof options.adminKey !== 'string' || options.adminKey.length < 16) throw invalid('adminKey: must be a string of at least 16 characters (POST /games must carry it)');
  const limits = { ...DEFAULT_LIMITS };
  if (options.routes !== undefined && typeof options.routes !== 'function') throw invalid('routes: must be a function (req, res) => boolean | Promise<boolean>');
  if (options.limits !== undefined) {
    for (const key of ['perSecond', 'burst', 'inFlight'] as const) limits[key] = wholeNumber(options.limits[key], `limits.${key}`, 1, 1_000_000, DEFAULT_LIMITS[key]);
  }
  return {
    store,
    cards,
    port,
    hostname,
    adminKey: options.adminKey,
    spectatorDelayMs: wholeNumber(options.spectatorDelayMs, 'spectatorDelayMs', 0, 3_600_000, 0),
    leaseMs: wholeNumber(options.leaseMs, 'leaseMs', 100, 3_600_000, 4000),
    reconnectSeconds: wholeNumber(options.reconnectSeconds, 'reconnectSeconds', 0, 86_400, 30),
    botDelayMs: wholeNumber(options.botDelayMs, 'botDelayMs', 0, 60_000, 0),
    limits,
    presence: options.presence,
    driver: options.driver,
    publicAddress: publicAddressOf(options, port, hostname),
    routes: options.routes,
    log: typeof options.log === 'function' ? options.log : (line: string) => console.error(line),
  };
}

/**
 * The bot seats a game is made with and their kinds (seats of the game; all of them for a game
 * bots play alone; kinds 'random' or a name of the definition's `bots`); INVALID_OPTIONS naming
 * the field otherwise.
 */
function checkBots(bots: unknown, players: readonly string[], named: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (bots === undefined) return out;
  const kinds = [RANDOM_BOT, ...named];
  if (!Array.isArray(bots)) throw invalid(`bots: must be a list of seats of the game (${players.join(', ')}), each a seat or { seat, bot }`);
  bots.forEach((b: unknown, i) => {
    const entry = typeof b === 'string' ? { seat: b, bot: RANDOM_BOT } : (b as Partial<BotSeat> | null);
    if (typeof entry !== 'object' || entry === null || typeof entry.seat !== 'string' || !players.includes(entry.seat)) throw invalid(`bots: must be a list of seats of the game (${players.join(', ')}), each a seat or { seat, bot }; bots[${i}] is ${JSON.stringify(b)}`);
    const kind = entry.bot ?? RANDOM_BOT;
    if (typeof kind !== 'string' || !kinds.includes(kind)) throw invalid(`bots[${i}].bot: must be one of ${kinds.map((k) => `'${k}'`).join(', ')} (the definition's bots); got ${JSON.stringify(kind)}`);
    if (out.has(entry.seat)) throw invalid(`bots[${i}]: ${entry.seat} is named twice`);
    out.set(entry.seat, kind);
  });
  return out;
}

/** Starts a table server; resolves once it listens. */
export async function createTableServer(options: TableServerOptions): Promise<TableServer> {
  const o = readOptions(options);
  if (running !== null) throw new Error('createTableServer: a table server runs in this process already (Colyseus has one matchmaker per process); close it first');
  const self = {};
  running = self;
  try {
    return await start(o, self);
  } catch (err) {
    running = null;
    throw err;
  }
}

async function start(o: ReturnType<typeof readOptions>, self: object): Promise<TableServer> {
  // Colyseus is an optional peer dependency: loaded here, so that the stores need none of it.
  const colyseus = await loadOptional('@colyseus/core', 'createTableServer', () => import('@colyseus/core'));
  const { WebSocketTransport } = await loadOptional('@colyseus/ws-transport', 'createTableServer', () => import('@colyseus/ws-transport'));
  await o.store.init();
  const http = createServer((req, res) => void route(req, res, o.routes, () => adminRoute(req, res, o.adminKey, createGame, o.log), o.log));
  const quiet = () => undefined;
  const presence = o.presence ?? new colyseus.LocalPresence();
  const processId = () => colyseus.matchMaker.processId;
  const server = new colyseus.Server({
    // Colyseus' transport, its pings spread over their interval (./heartbeat.ts).
    transport: new (withSpreadHeartbeat(WebSocketTransport))({ server: http, maxPayload: MAX_FRAME_BYTES }),
    presence,
    // In a cluster: listings of dead processes are skipped (and removed), and a process removes only its own.
    ...(o.driver !== undefined ? { driver: clusterDriver(o.driver, { self: processId, alive: (id) => processAlive(presence, id) }) } : {}),
    ...(o.publicAddress !== undefined ? { publicAddress: o.publicAddress } : {}),
    // A game's room is made by the process the join reaches (which then owns the game).
    selectProcessIdToCreateRoom: () => Promise.resolve(processId()),
    greet: false,
    gracefullyShutdown: false,
    logger: { debug: quiet, info: quiet, trace: quiet, warn: (...args: unknown[]) => o.log(oneLine(args)), error: (...args: unknown[]) => o.log(oneLine(args)) },
  });
  // CONTRACT v4: a body over 64 KiB is refused 413 before it is read, on every route (Colyseus' matchmaking ones too).
  guardBodies(http);
  // The lease owner names this process: its machine, its pid, this server, and last its Colyseus process id (how the others tell whether it is alive).
  const owner = `${machineName()}:${process.pid}:${randomBytes(4).toString('hex')}:${processId()}`;
  const owned = new Map<string, OwnedGame>();
  /** The games being opened here (their room is being made). */
  const opening = new Map<string, Promise<unknown>>();
  const timer = new DeadlineTimer();
  const leases = new LeaseKeeper(o.leaseMs, o.store, owner);
  const instants = new InstantKeeper(() => owned.values(), o.store, owner, o.log);
  /** CONTRACT v4: the stored games that cannot be loaded, and why (refused 4500 to every join; logged once, never retried). */
  const failed = new Map<string, string>();
  let closing = false;
  const host: OwnerHost = {
    store: o.store,
    cards: o.cards,
    owner,
    leaseMs: o.leaseMs,
    deadlineChanged: (g) => timer.changed(g),
    holderAlive: async (holder) => {
      const id = processOfOwner(holder);
      return id !== null && (await processAlive(presence, id));
    },
    // CONTRACT v4: replays from the store for resumes and joins with `lastSeq`, all games together, one at a time (src/server/storedEvents.ts).
    replays: new ReplayBudget(),
  };
  const ctx: RoomContext = {
    store: o.store,
    spectatorDelayMs: o.spectatorDelayMs,
    reconnectSeconds: o.reconnectSeconds,
    limits: o.limits,
    bots: { delayMs: o.botDelayMs },
    owned,
    get shuttingDown() {
      return closing;
    },
    failedLoad: (gameId) => failed.get(gameId),
    async open(gameId) {
      if (closing) throw new OpenError('busy', 'this server is stopping; try again');
      const broken = failed.get(gameId);
      if (broken !== undefined) throw new OpenError('failed', broken);
      const already = opening.get(gameId);
      if (already !== undefined) {
        // Another join is making the game's room here: once it is made, joins find it.
        await already.catch(() => undefined);
        throw new OpenError('busy', `game '${gameId}' was just opened here; join again`);
      }
      if (owned.has(gameId)) throw new OpenError('busy', `game '${gameId}' is open here already (its room is being made or closed); join again`);
      const opened = OwnedGame.open(host, gameId);
      opening.set(gameId, opened);
      let game: OwnedGame;
      try {
        game = await opened;
      } catch (err) {
        if (err instanceof OpenError && err.reason === 'failed' && !failed.has(gameId)) {
          failed.set(gameId, err.message);
          o.log(err.message);
        }
        throw err;
      } finally {
        opening.delete(gameId);
      }
      owned.set(gameId, game);
      leases.add(game);
      timer.changed(game);
      return game;
    },
    async release(game) {
      await leases.remove(game);
      timer.remove(game);
      await game.close();
      if (owned.get(game.gameId) === game) owned.delete(game.gameId);
    },
    report: o.log,
  };

  const createGame = async (given: ServedGameOptions): Promise<CreatedGame> => {
    if (closing) throw new Error('createGame: the server is stopping');
    if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options: must be the createGame options (an object)');
    const { bots, ...options } = given;
    const unkept = unstorable(given, 'options');
    if (unkept !== null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, unkept);
    for (const field of ['hooks', 'listeners'] as const) {
      if ((options as Record<string, unknown>)[field] !== undefined) throw invalid(`${field}: a served game's ${field === 'hooks' ? 'hooks are the server cards\'' : 'events go to its clients'}; leave it out`);
    }
    // A seed is chosen here when none is given: the stored setup names it.
    const seed = options.seed ?? randomBytes(4).readUInt32LE(0);
    const game = o.cards.create({ ...(options as GameOptions), seed });
    const hostState = o.cards.stored(game);
    const view = game.getSnapshot();
    const gameId = newGameId();
    const tokens: Record<string, string> = {};
    const tokenHashes: Record<string, string> = {};
    const botSeatsOf = checkBots(bots, view.players, Object.keys(o.cards.definition.bots ?? {}));
    for (const player of view.players) {
      if (botSeatsOf.has(player)) {
        tokenHashes[player] = BOT_TOKEN_HASH;
        continue;
      }
      tokens[player] = newToken();
      tokenHashes[player] = hashToken(tokens[player]);
    }
    // The bots' kinds go with the setup (the store's record of how the game was made): a restart reads them back.
    const botKinds = botSeatsOf.size === 0 ? {} : { bots: Object.fromEntries(botSeatsOf) };
    await o.store.createGame({ gameId, setup: JSON.parse(JSON.stringify({ ...options, seed, ...botKinds })) as Record<string, unknown>, snapshot: game.persist(), version: view.version, seq: view.seq, hostState, tokenHashes, createdAt: Date.now() });
    return { gameId, tokens };
  };

  server.define(ROOM_NAME, turnRoomClass(ctx, colyseus)).filterBy(['gameId']);
  await server.listen(o.port, o.hostname);
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : o.port;

  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= (async () => {
      closing = true;
      const until = Date.now() + CLOSE_WITHIN_MS;
      const within = <T>(work: Promise<T>) => Promise.race([work.then(() => undefined), sleep(Math.max(0, until - Date.now()))]);
      try {
        // CONTRACT v4: the sends under way finish, no new one starts; then every open game's instant is written.
        timer.close();
        await within(instants.close());
        const games = [...owned.values()];
        await within(Promise.all(games.map((g) => g.stop())));
        await within(instants.write(games.filter((g) => !g.dropped)));
        await within(server.gracefullyShutdown(false));
      } finally {
        leases.close();
        await closeHttp(http);
        if (running === self) running = null;
      }
    })());
  return { port, hostname: o.hostname, publicAddress: o.publicAddress, createGame, close };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** A log line of Colyseus' logger: its arguments on one line, without a stack (an oversized frame, say). */
function oneLine(args: readonly unknown[]): string {
  return args
    .map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a)))
    .join(' ')
    .split('\n')[0] as string;
}
