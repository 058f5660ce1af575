/**
 * The local inspection relay: a WebSocket endpoint on the inspector's own HTTP server, and on
 * the bridge of `simulate --stately` (live.ts), which takes the same checks from here
 * (inspector/relay.ts re-exports this module for the inspector's server).
 *
 * A game in another process (`mtg-turn-engine simulate --inspect`) connects with
 * `@statelyai/inspect`'s `createWebSocketInspector` and sends its inspection events; the
 * relay forwards each message to every other client (the inspector pages, which receive
 * with `createWebSocketReceiver`). A page that connects late first receives the actor
 * registrations and the recent messages, so it can show a game that is already running.
 * Nothing leaves the machine: the server listens on localhost only, accepts only the page's
 * own origin, and only a client with the per-start token may publish.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';

/** The path of the relay on the inspector's server. */
export const RELAY_PATH = '/relay';

/** How many recent messages a late page receives. */
export const RELAY_REPLAY_LIMIT = 500;

/** How many actor registrations are kept for late pages. */
export const RELAY_ACTOR_LIMIT = 50;

/** Reads the `type` and `sessionId` of an inspection message, or null if it is not one. */
function headerOf(message: string): { type: string; sessionId: string } | null {
  try {
    const parsed: unknown = JSON.parse(message);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const { type, sessionId } = parsed as { type?: unknown; sessionId?: unknown };
    return typeof type === 'string' && typeof sessionId === 'string' ? { type, sessionId } : null;
  } catch {
    return null;
  }
}

/** The largest message a client may send: a larger one closes its connection (ws close code 1009). */
export const RELAY_MAX_MESSAGE_BYTES = 1024 * 1024;

/** The most bytes of messages kept for late pages (actor registrations and recent messages). */
export const RELAY_BUFFER_BYTES = 8 * 1024 * 1024;

/** How many clients (games and pages) may be connected at once, by default. */
export const RELAY_MAX_CLIENTS = 32;

/**
 * How many bytes may wait to be sent to one client, by default: a client with more waiting
 * (it stopped reading) gets nothing more and is closed. Above {@link RELAY_BUFFER_BYTES}, so
 * a late page that has not read its replay yet is not taken for a slow one.
 */
export const RELAY_CLIENT_BUFFER_BYTES = 16 * 1024 * 1024;

/** The close code of a connection over the client cap (1013, "try again later"). */
export const RELAY_CLOSE_FULL = 1013;

/** The close code of a client that reads too slowly (1008, policy violation). */
export const RELAY_CLOSE_SLOW = 1008;

/** Options of {@link attachRelay}. */
export interface RelayOptions {
  /** The publishers' token (default: 16 random bytes, hex). */
  token?: string;
  /** The path of the endpoint (default {@link RELAY_PATH}; Stately's bridge page connects to `/`). */
  path?: string;
  /**
   * Refuse (404) upgrade requests for other paths and close their sockets: without it they are
   * left to the server's other `upgrade` listeners. The plugin sets it for both of its servers.
   */
  closeOtherPaths?: boolean;
  /**
   * Upgrade requests that another `upgrade` listener of the same server answers, left alone even
   * with `closeOtherPaths` (the dev server's HMR socket). Gets the request and its path.
   */
  answeredElsewhere?: (request: IncomingMessage, pathname: string) => boolean;
  /** Bytes kept for late pages (default {@link RELAY_BUFFER_BYTES}). */
  bufferBytes?: number;
  /**
   * Clients connected at once (default {@link RELAY_MAX_CLIENTS}): one more is accepted and
   * closed at once with {@link RELAY_CLOSE_FULL} and a reason naming the cap.
   */
  maxClients?: number;
  /**
   * Bytes that may wait to be sent to one client (default {@link RELAY_CLIENT_BUFFER_BYTES}):
   * past it the client is sent nothing more and closed with {@link RELAY_CLOSE_SLOW} (ws cuts
   * the connection if its close frame is not answered within 30 s).
   */
  clientBufferBytes?: number;
}

/** A running relay. */
export interface Relay {
  /** Number of connected clients (games and pages), those being closed left out. */
  readonly clients: number;
  /** The token a publisher passes as `?token=` (printed by `npm run inspector`). */
  readonly token: string;
  /** Bytes of the messages kept for late pages. */
  readonly bufferedBytes: number;
  close(): Promise<void>;
}

// One registry per process, even when Vite loads this file again to read its config.
const REGISTRY = Symbol.for('mtg-turn-engine.relays');
const relays: WeakMap<object, Relay> = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new WeakMap<object, Relay>()) as WeakMap<object, Relay>;

/** The relay attached to a server, if any (the tests read its token). */
export function relayOf(server: object): Relay | undefined {
  return relays.get(server);
}

/** The local origins of a server listening on `port`: the page's own, by either loopback name. */
function ownOrigins(port: number): { hosts: Set<string>; origins: Set<string> } {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return { hosts, origins: new Set([...hosts].map((h) => `http://${h}`)) };
}

/**
 * Answers an upgrade request with an HTTP error and closes its socket for good. The socket of
 * an upgrade is the listener's alone: an HTTP server allows half-open sockets, so ending our
 * side is not enough (a client that never closes its own would keep the descriptor); and a
 * socket error (the client reset) must not become an uncaught exception.
 */
function refuse(socket: Duplex, status: string, reason: string): void {
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

/** The path and query of a request target, or null when it is not a URL (`GET http://[bad/relay`). */
function targetOf(url: string | undefined): URL | null {
  try {
    return new URL(url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

/** A whole number of at least 1, or the default; anything else throws, naming the option. */
function positive(options: RelayOptions, key: 'bufferBytes' | 'maxClients' | 'clientBufferBytes', fallback: number): number {
  const value = options[key];
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`attachRelay: options.${key} must be a whole number of at least 1, got ${String(value)}`);
  return value;
}

/**
 * Reads the relay's limits from the environment of `npm run inspector` / `npx vite inspector`:
 * `MTG_RELAY_MAX_CLIENTS` and `MTG_RELAY_CLIENT_BUFFER_BYTES`. A value that is not a whole
 * number of at least 1 throws, naming the variable.
 */
export function relayOptionsFromEnv(env: Record<string, string | undefined>): Pick<RelayOptions, 'maxClients' | 'clientBufferBytes'> {
  const read = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number of at least 1, got '${raw}'`);
    return value;
  };
  const maxClients = read('MTG_RELAY_MAX_CLIENTS');
  const clientBufferBytes = read('MTG_RELAY_CLIENT_BUFFER_BYTES');
  return { ...(maxClients === undefined ? {} : { maxClients }), ...(clientBufferBytes === undefined ? {} : { clientBufferBytes }) };
}

/**
 * Attaches the relay to an HTTP server at {@link RELAY_PATH} (or `options.path`). Only the inspector page's own
 * origin may connect (its `Origin`, and a loopback `Host`, against DNS rebinding); only
 * clients with the token publish (others only receive); a message over 1 MiB closes its
 * connection; what is kept for late pages is bounded in bytes; the clients are capped in
 * number, and one that stops reading is closed rather than buffered for without bound; a
 * request whose URL does not parse gets 400. Bad options throw a RangeError naming the option.
 */
export function attachRelay(server: HttpServer | Http2SecureServer, options: RelayOptions = {}): Relay {
  const token = options.token ?? randomBytes(16).toString('hex');
  const path = options.path ?? RELAY_PATH;
  const limit = positive(options, 'bufferBytes', RELAY_BUFFER_BYTES);
  const maxClients = positive(options, 'maxClients', RELAY_MAX_CLIENTS);
  const clientLimit = positive(options, 'clientBufferBytes', RELAY_CLIENT_BUFFER_BYTES);
  const wss = new WebSocketServer({ noServer: true, maxPayload: RELAY_MAX_MESSAGE_BYTES });
  const publishers = new WeakSet<object>();
  /** The clients served: connected, not over the cap, not dropped for reading too slowly. */
  const members = new Set<WebSocket>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = targetOf(request.url);
    if (url === null) {
      // Another listener may not parse it either: nobody else answers a request that is not a URL.
      refuse(socket, '400 Bad Request', 'the request target is not a URL');
      return;
    }
    if (url.pathname !== path) {
      if (options.closeOtherPaths === true && options.answeredElsewhere?.(request, url.pathname) !== true) refuse(socket, '404 Not Found', `no WebSocket at ${url.pathname}; the relay is at ${path}`);
      return;
    }
    const address = (server as HttpServer).address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const own = ownOrigins(port);
    const origin = request.headers.origin;
    if (!own.hosts.has(request.headers.host ?? '') || (origin !== undefined && !own.origins.has(origin))) {
      refuse(socket, '403 Forbidden', "only the inspector page's own origin may connect");
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (members.size >= maxClients) {
        ws.on('error', () => ws.terminate());
        ws.close(RELAY_CLOSE_FULL, `the relay is full: ${maxClients} clients (maxClients)`);
        return;
      }
      if (url.searchParams.get('token') === token) publishers.add(ws);
      members.add(ws);
      ws.once('close', () => members.delete(ws));
      wss.emit('connection', ws, request);
    });
  };
  (server as HttpServer).on('upgrade', onUpgrade);
  const actors = new Map<string, string>();
  const recent: string[] = [];
  let bytes = 0;
  const size = (message: string) => Buffer.byteLength(message);
  const keep = (message: string, header: { type: string; sessionId: string }) => {
    if (header.type === '@xstate.actor') {
      const old = actors.get(header.sessionId);
      if (old !== undefined) bytes -= size(old);
      actors.delete(header.sessionId);
      actors.set(header.sessionId, message);
      bytes += size(message);
      if (actors.size > RELAY_ACTOR_LIMIT) {
        const [id, oldest] = actors.entries().next().value as [string, string];
        actors.delete(id);
        bytes -= size(oldest);
      }
    }
    recent.push(message);
    bytes += size(message);
    while ((recent.length > RELAY_REPLAY_LIMIT || bytes > limit) && recent.length > 0) bytes -= size(recent.shift() as string);
  };
  /** Sends to a client that keeps up; closes one with more than `clientLimit` bytes waiting (it stopped reading). */
  const deliver = (client: WebSocket, message: string) => {
    if (client.readyState !== WebSocket.OPEN || !members.has(client)) return;
    if (client.bufferedAmount > clientLimit) {
      members.delete(client);
      client.close(RELAY_CLOSE_SLOW, `reading too slowly: over ${clientLimit} bytes waiting (clientBufferBytes)`);
      return;
    }
    client.send(message);
  };
  wss.on('connection', (ws: WebSocket) => {
    const replayed = new Set(recent);
    for (const message of actors.values()) if (!replayed.has(message)) ws.send(message);
    for (const message of recent) ws.send(message);
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      // Pages only receive: a client without the token cannot write a game.
      if (!publishers.has(ws) || !members.has(ws)) return;
      const message = data.toString();
      const header = headerOf(message);
      if (header === null) return;
      keep(message, header);
      for (const client of members) if (client !== ws) deliver(client, message);
    });
  });
  const relay: Relay = {
    get clients() {
      return members.size;
    },
    token,
    get bufferedBytes() {
      return bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        (server as HttpServer).off('upgrade', onUpgrade);
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
  relays.set(server, relay);
  return relay;
}
