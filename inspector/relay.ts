/**
 * The local inspection relay: a WebSocket endpoint on the inspector's own HTTP server.
 *
 * A game in another process (`mtg-turn-engine simulate --inspect`) connects with
 * `@statelyai/inspect`'s `createWebSocketInspector` and sends its inspection events; the
 * relay forwards each message to every other client (the inspector pages, which receive
 * with `createWebSocketReceiver`). A page that connects late first receives the actor
 * registrations and the recent messages, so it can show a game that is already running.
 * Nothing leaves the machine: the server listens on localhost only.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Http2SecureServer } from 'node:http2';
import type { Duplex } from 'node:stream';
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

/** A running relay. */
export interface Relay {
  /** Number of connected clients (games and pages). */
  readonly clients: number;
  close(): Promise<void>;
}

/** Attaches the relay to an HTTP server at {@link RELAY_PATH}. */
export function attachRelay(server: HttpServer | Http2SecureServer): Relay {
  // Upgrades only its own path, so other WebSockets on the server (Vite's HMR) are left alone.
  const wss = new WebSocketServer({ noServer: true });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== RELAY_PATH) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  (server as HttpServer).on('upgrade', onUpgrade);
  const actors = new Map<string, string>();
  const recent: string[] = [];
  wss.on('connection', (ws) => {
    const replayed = new Set(recent);
    for (const message of actors.values()) if (!replayed.has(message)) ws.send(message);
    for (const message of recent) ws.send(message);
    ws.on('message', (data) => {
      const message = data.toString();
      const header = headerOf(message);
      if (header === null) return;
      if (header.type === '@xstate.actor') {
        actors.delete(header.sessionId);
        actors.set(header.sessionId, message);
        if (actors.size > RELAY_ACTOR_LIMIT) actors.delete(actors.keys().next().value as string);
      }
      recent.push(message);
      if (recent.length > RELAY_REPLAY_LIMIT) recent.shift();
      for (const client of wss.clients) if (client !== ws && client.readyState === WebSocket.OPEN) client.send(message);
    });
  });
  return {
    get clients() {
      return wss.clients.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        (server as HttpServer).off('upgrade', onUpgrade);
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}
