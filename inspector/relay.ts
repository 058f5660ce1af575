/**
 * The local inspection relay: a WebSocket endpoint on the inspector's own HTTP server.
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

/** Options of {@link attachRelay}. */
export interface RelayOptions {
  /** The publishers' token (default: 16 random bytes, hex). */
  token?: string;
  /** Close upgrade requests for other paths (a preview server; the dev server's HMR has its own). */
  closeOtherPaths?: boolean;
  /** Bytes kept for late pages (default {@link RELAY_BUFFER_BYTES}). */
  bufferBytes?: number;
}

/** A running relay. */
export interface Relay {
  /** Number of connected clients (games and pages). */
  readonly clients: number;
  /** The token a publisher passes as `?token=` (printed by `npm start`). */
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

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Attaches the relay to an HTTP server at {@link RELAY_PATH}. Only the inspector page's own
 * origin may connect (its `Origin`, and a loopback `Host`, against DNS rebinding); only
 * clients with the token publish (others only receive); a message over 1 MiB closes its
 * connection; what is kept for late pages is bounded in bytes.
 */
export function attachRelay(server: HttpServer | Http2SecureServer, options: RelayOptions = {}): Relay {
  const token = options.token ?? randomBytes(16).toString('hex');
  const limit = options.bufferBytes ?? RELAY_BUFFER_BYTES;
  const wss = new WebSocketServer({ noServer: true, maxPayload: RELAY_MAX_MESSAGE_BYTES });
  const publishers = new WeakSet<object>();
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== RELAY_PATH) {
      if (options.closeOtherPaths === true) refuse(socket, '404 Not Found');
      return;
    }
    const address = (server as HttpServer).address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const own = ownOrigins(port);
    const origin = request.headers.origin;
    if (!own.hosts.has(request.headers.host ?? '') || (origin !== undefined && !own.origins.has(origin))) {
      refuse(socket, '403 Forbidden');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (url.searchParams.get('token') === token) publishers.add(ws);
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
  wss.on('connection', (ws) => {
    const replayed = new Set(recent);
    for (const message of actors.values()) if (!replayed.has(message)) ws.send(message);
    for (const message of recent) ws.send(message);
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => {
      // Pages only receive: a client without the token cannot write a game.
      if (!publishers.has(ws)) return;
      const message = data.toString();
      const header = headerOf(message);
      if (header === null) return;
      keep(message, header);
      for (const client of wss.clients) if (client !== ws && client.readyState === WebSocket.OPEN) client.send(message);
    });
  });
  const relay: Relay = {
    get clients() {
      return wss.clients.size;
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
