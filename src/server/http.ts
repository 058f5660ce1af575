/**
 * The table server's HTTP side (CONTRACT v3 and v4, "Serving games"): `POST /games` (the admin
 * route), the host's extra routes before it, and the guard in front of every route, Colyseus'
 * matchmaking ones included: a body over {@link MAX_BODY_BYTES} is refused 413 before it is read
 * (by its Content-Length; a chunked one is cut at the limit), and `POST /games` reads no body
 * without the admin key; a request answered with its body unread has its connection closed after
 * the answer.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { GameOptions } from '../game/types.js';
import { MAX_BODY_BYTES } from './limits.js';
import { bearerKey, sameSecret } from './tokens.js';

/** Extra HTTP routes of a table server: true when the request was answered. */
export type HttpRoutes = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

/** What `createGame` answers: the game's id and each seat's token (give each player their own). */
export interface CreatedGame {
  gameId: string;
  tokens: Record<string, string>;
}

/**
 * How long a connection whose request body was left unread stays half-closed after its answer
 * (reading nothing more) for the client to read the answer, before it is destroyed: a socket
 * closed with unread bytes resets the connection (RFC 1122, 4.2.2.13), and a client still sending
 * its body may then lose the answer.
 */
const LINGER_MS = 2000;

/** Whether a request comes with a body (a length over 0, or chunked). */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Closes the connection of a request whose body was not all read once its answer is flushed
 * (CONTRACT v4: no more of the body is read): the socket stops reading, sends the answer and its
 * FIN, and is destroyed when the client closes or {@link LINGER_MS} later. Node's own close of a
 * `Connection: close` answer destroys the socket at once (it resets the connection when the client
 * is still sending); a kept-alive connection would read the rest of the body and drop it, however
 * long it is.
 */
function closeUnread(req: IncomingMessage): void {
  if (req.complete) return;
  const socket = req.socket;
  socket.removeListener('finish', socket.destroy); // Node's destroySoon after a Connection: close answer
  req.pause(); // the body waits in the kernel's buffers; TCP holds the client back
  if (!socket.writableEnded) socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

/** Answers 413 and closes the connection (the rest of the body is never read). */
function tooLarge(res: ServerResponse, size: string): void {
  reply(res, 413, { error: { code: ErrorCode.INVALID_OPTIONS, message: `body: ${size}, over the limit of ${MAX_BODY_BYTES} bytes` } }, { Connection: 'close' });
}

/**
 * Puts the body guard in front of every `request` listener the HTTP server has now (Colyseus'
 * matchmaking routes, the server's own): a request whose Content-Length is over
 * {@link MAX_BODY_BYTES} is answered 413 and never reaches them; a body without a length (chunked)
 * is cut (413, the connection closed) once it passes the limit. A request answered before its
 * body was all read (413, 401, 404, ...) has its connection closed once the answer is flushed.
 */
export function guardBodies(http: HttpServer): void {
  const listeners = http.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  http.removeAllListeners('request');
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // After Node's own listener: it resumes the request to drop the rest of its body.
    // A body of a length within the limit left unread is Node's to read and drop (at most 64 KiB, and
    // the connection is kept); a chunked one, or an answer that says `Connection: close`, closes it.
    if (hasBody(req)) res.once('finish', () => (req.headers['content-length'] === undefined || res.getHeader('connection') === 'close') && closeUnread(req));
    const length = req.headers['content-length'];
    if (length !== undefined && !(Number(length) <= MAX_BODY_BYTES)) {
      tooLarge(res, `${length} bytes`);
      return;
    }
    if (length === undefined && req.headers['transfer-encoding'] !== undefined) {
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES && !res.headersSent) {
          req.pause();
          tooLarge(res, `over ${MAX_BODY_BYTES} bytes`);
        }
      });
    }
    for (const listener of listeners) listener.call(http, req, res);
  });
}

/** Closes the HTTP server and every connection it still has (keep-alive ones included). */
export function closeHttp(http: HttpServer): Promise<void> {
  return new Promise((resolve) => {
    if (!http.listening) {
      resolve();
      return;
    }
    http.close(() => resolve());
    http.closeAllConnections();
  });
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/** Answers a request whose body is not read: the answer says `Connection: close` when it has one (the connection is closed after it, see {@link guardBodies}). */
function replyUnread(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  reply(res, status, body, hasBody(req) ? { ...headers, Connection: 'close' } : headers);
}

/** Reads a request's body, at most `limit` bytes; null when it is longer. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return; // past the limit: the rest is not read (the answer closes the connection)
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The extra routes first (a route that throws is answered 500 and reported), then `POST /games`. */
export async function route(req: IncomingMessage, res: ServerResponse, routes: HttpRoutes | undefined, admin: () => Promise<void>, log: (line: string) => void): Promise<void> {
  if (routes !== undefined) {
    try {
      if (await routes(req, res)) return;
    } catch (err) {
      log(`${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]} failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) reply(res, 500, { error: { code: 'SERVER_ERROR', message: 'the request failed; see the server log' } });
      else res.destroy();
      return;
    }
  }
  await admin();
}

/** `POST /games` (the admin route); anything else but Colyseus' own routes is 404. */
export async function adminRoute(req: IncomingMessage, res: ServerResponse, adminKey: string, createGame: (options: Omit<GameOptions, 'hooks' | 'listeners'> & { bots?: (string | { seat: string; bot: string })[] }) => Promise<CreatedGame>, log: (line: string) => void): Promise<void> {
  try {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/games') return replyUnread(req, res, 404, { error: { code: 'NOT_FOUND', message: `no route ${path}: POST /games creates a game` } });
    if (req.method !== 'POST') return replyUnread(req, res, 405, { error: { code: 'METHOD_NOT_ALLOWED', message: 'POST /games creates a game' } }, { Allow: 'POST' });
    const key = bearerKey(req.headers.authorization);
    if (key === undefined || !sameSecret(key, adminKey)) return replyUnread(req, res, 401, { error: { code: 'UNAUTHORIZED', message: 'POST /games needs the header Authorization: Bearer <admin key>' } }, { 'WWW-Authenticate': 'Bearer' });
    const body = await readBody(req, MAX_BODY_BYTES);
    if (body === null) {
      // A chunked body past the limit was answered already (guardBodies).
      if (res.headersSent) return;
      return reply(res, 413, { error: { code: ErrorCode.INVALID_OPTIONS, message: `body: over ${MAX_BODY_BYTES} bytes` } }, { Connection: 'close' });
    }
    let options: unknown;
    try {
      options = JSON.parse(body.toString('utf8'));
    } catch (err) {
      return reply(res, 400, { error: { code: ErrorCode.INVALID_OPTIONS, message: `body: not JSON (${err instanceof Error ? err.message : String(err)}); send the createGame options` } });
    }
    try {
      return reply(res, 200, await createGame(options as Omit<GameOptions, 'hooks' | 'listeners'>));
    } catch (err) {
      if (err instanceof TurnEngineError && err.code === ErrorCode.INVALID_OPTIONS) return reply(res, 400, { error: err.toInfo() });
      if (err instanceof TurnEngineError) return reply(res, 422, { error: err.toInfo() });
      throw err;
    }
  } catch (err) {
    log(`POST /games failed: ${err instanceof Error ? err.message : String(err)}`);
    try {
      if (!res.headersSent) reply(res, 500, { error: { code: 'SERVER_ERROR', message: 'the game could not be created; see the server log' } });
    } catch {
      res.destroy();
    }
  }
}
