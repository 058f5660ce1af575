/**
 * The pages of `serve --demo` (`npm start`, issue 25 point 5): the example table at `/` and the
 * inspector at `/inspector/`, built by Vite as static files (`npm run build:web`) and served by
 * the table server's own HTTP server, beside Colyseus; and the lobby's one route,
 * `POST /lobby/games`, which creates a game for the example table without the admin key.
 *
 * The lobby is why `--demo` is for one machine: anyone who reaches the server may create games
 * through it (only games of the example's seats and options, at most `perMinute` a minute), and
 * it answers every seat's token, so that two tabs can play. `serve` refuses `--demo` on an
 * address other than loopback. The admin key stays on the server; the page never sees it.
 *
 * Nothing here imports the server (the command line loads it only when `serve` runs): the
 * routes take the table server's `createGame` as a function.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

/** The seats of a lobby game, in turn order (the example table's names). */
export const LOBBY_SEATS = ['Alice', 'Bob', 'Carol', 'Dave'] as const;

/** The lobby's route. */
export const LOBBY_PATH = '/lobby/games';

/**
 * The header of the table's pages that names the card definition the lobby's games are served
 * with (`serve --cards`; absent without cards), URI-encoded: the page asks for it with a HEAD of
 * `/` and opens as the card game's lobby. A header, not a route, so that the same page served by
 * something else (Vite) asks nothing that is not there.
 */
export const LOBBY_CARDS_HEADER = 'X-Lobby-Cards';

/**
 * The header of the table's pages that names the card definition's named bots (its `bots`: bots
 * that plan, e.g. `montecarlo`), comma-separated and URI-encoded; absent when it has none. The
 * lobby offers "Play against a Monte Carlo bot" beside the random bot when it names `montecarlo`.
 */
export const LOBBY_BOTS_HEADER = 'X-Lobby-Bots';

/** The largest body the lobby reads. */
export const LOBBY_MAX_BODY_BYTES = 4096;

/** The options a lobby game may carry besides its number of seats: they go to createGame as they are (it checks them). */
export const LOBBY_OPTIONS = ['clock', 'undo', 'away'] as const;

/** The Content-Security-Policy of the pages: their own files, and connections to this server only. */
export const PAGE_CSP = "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** What the lobby needs of the table server. */
export interface DemoOptions {
  /** The folders of the built pages (see {@link pageFolders}). */
  folders: { table: string; inspector: string };
  /** The table server's createGame. */
  createGame(options: Record<string, unknown>): Promise<{ gameId: string; tokens: Record<string, string> }>;
  /** Games the lobby creates per minute at most (default 30). */
  perMinute?: number;
  /** The inspector's read key: the lobby's inspector link carries it (`#key=K`, which the inspector keeps and takes out of the address). */
  inspectKey?: string;
  /** CONTRACT v4: the `Host` names accepted besides loopback ones (the `--host` given); any other is 421 (a DNS-rebinding page). */
  hosts?: readonly string[];
  /** The name of the card definition the games are served with (`serve --cards`), told to the pages by {@link LOBBY_CARDS_HEADER}; none: games without cards. */
  cards?: string;
  /** The card definition's named bots (its `bots`), told to the pages by {@link LOBBY_BOTS_HEADER}: the lobby's `bot` may name one. */
  bots?: readonly string[];
}

/** Whether an address is this machine only (loopback). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The host name of a `Host` header (its port left out), lower case; '' when there is none. */
export function hostOf(header: string | undefined): string {
  const host = (header ?? '').trim().toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d*$/, '');
}

/** The folders of the built pages; throws an Error saying how to build them when one is missing. */
export async function pageFolders(dir: string): Promise<{ table: string; inspector: string }> {
  const folders = { table: resolve(dir, 'table'), inspector: resolve(dir, 'inspector') };
  for (const [name, folder] of Object.entries(folders)) {
    const index = await stat(join(folder, 'index.html')).catch(() => null);
    if (index === null || !index.isFile()) throw new Error(`--demo serves the pages built by \`npm run build:web\` (in the repository); there is no ${name} page at ${join(folder, 'index.html')}`);
  }
  return folders;
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(JSON.stringify(body));
  return true;
}

const error = (res: ServerResponse, status: number, code: string, message: string, headers?: Record<string, string>) => json(res, status, { error: { code, message } }, headers);

/** The file under `root` a URL path names (index.html for a folder), or null when there is none or the path leaves `root`. */
async function fileOf(root: string, urlPath: string): Promise<{ path: string; size: number } | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) return null;
  let path = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  if (path !== root && !path.startsWith(root + sep)) return null;
  let info = await stat(path).catch(() => null);
  if (info?.isDirectory() === true) {
    path = join(path, 'index.html');
    info = await stat(path).catch(() => null);
  }
  return info?.isFile() === true ? { path, size: info.size } : null;
}

/** Answers a GET or HEAD of a file of `root` (404 when there is none). */
async function sendFile(req: IncomingMessage, res: ServerResponse, root: string, urlPath: string, headers: Record<string, string> = {}): Promise<true> {
  const file = await fileOf(root, urlPath);
  if (file === null) return error(res, 404, 'NOT_FOUND', `no page ${urlPath}`);
  const type = TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': String(file.size),
    // Vite names its assets by their content: they never change; the pages are asked for each time.
    'Cache-Control': /\/assets\//.test(urlPath) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    ...headers,
  });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  await new Promise<void>((done) => {
    const stream = createReadStream(file.path);
    stream.on('error', () => (res.destroy(), done()));
    stream.on('end', done);
    stream.pipe(res);
  });
  return true;
}

/** Reads a body of at most `limit` bytes; null when it is longer. */
function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => done(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}

/**
 * The createGame options of a lobby request's body, or the message saying what is wrong with it.
 * `bot`: true (the random bot) or the name of one of `bots` (the definition's named bots, e.g.
 * 'montecarlo') plays every seat but the first.
 */
export function lobbyOptions(body: unknown, bots: readonly string[] = []): { ok: true; options: Record<string, unknown> } | { ok: false; message: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, message: 'body: must be an object { players?: 2-4, bot?, clock?, undo?, away? }' };
  const { players = 2, bot, ...rest } = body as Record<string, unknown>;
  const named = typeof bot === 'string' && bots.includes(bot);
  if (bot !== undefined && typeof bot !== 'boolean' && !named) return { ok: false, message: `body.bot: must be true or false (true: the server's bot plays every seat but the first)${bots.length > 0 ? ` or the name of a bot of the cards (${bots.join(', ')})` : ''}; got ${JSON.stringify(bot)}` };
  if (typeof players !== 'number' || !Number.isInteger(players) || players < 2 || players > LOBBY_SEATS.length) return { ok: false, message: `body.players: must be a whole number from 2 to ${LOBBY_SEATS.length} (the seats ${LOBBY_SEATS.join(', ')}); got ${JSON.stringify(players)}` };
  const seats = LOBBY_SEATS.slice(0, players);
  // "Play against a bot" (issue 32): the server plays every seat but the first.
  // "Play against a Monte Carlo bot" (issue 34): a named bot of the cards plays them.
  const options: Record<string, unknown> = bot === true ? { players: seats, bots: seats.slice(1) } : named ? { players: seats, bots: seats.slice(1).map((seat) => ({ seat, bot })) } : { players: seats };
  for (const [key, value] of Object.entries(rest)) {
    if (!(LOBBY_OPTIONS as readonly string[]).includes(key)) return { ok: false, message: `body.${key}: the lobby creates games with players, ${LOBBY_OPTIONS.join(', ')} only` };
    options[key] = value;
  }
  return { ok: true, options };
}

/** Whether a request comes from a page of this server (a browser names its origin on a POST; another site's page may not create games). */
function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  return origin === undefined || origin === `http://${req.headers.host ?? ''}`;
}

/**
 * The routes of `serve --demo`, for `createTableServer({ routes })`: `POST /lobby/games`, the
 * inspector under `/inspector/`, the example table at `/`. Leaves `/games` (the admin route),
 * `/inspect/...` and every request but GET and HEAD of a page to the other routes.
 */
export function demoRoutes(options: DemoOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const perMinute = options.perMinute ?? 30;
  let allowance = perMinute;
  let refilled = Date.now();
  const lobby = async (req: IncomingMessage, res: ServerResponse): Promise<true> => {
    if (req.method !== 'POST') return error(res, 405, 'METHOD_NOT_ALLOWED', `POST ${LOBBY_PATH} creates a game`, { Allow: 'POST' });
    if (!sameOrigin(req)) return error(res, 403, 'FORBIDDEN', `${LOBBY_PATH} creates games for the pages of this server only`);
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? '')) return error(res, 415, 'UNSUPPORTED_MEDIA_TYPE', `${LOBBY_PATH} reads Content-Type: application/json`);
    const now = Date.now();
    allowance = Math.min(perMinute, allowance + ((now - refilled) / 60_000) * perMinute);
    refilled = now;
    if (allowance < 1) return error(res, 429, 'RATE_LIMITED', `the lobby creates at most ${perMinute} games a minute; try again shortly`, { 'Retry-After': '5' });
    const text = await readBody(req, LOBBY_MAX_BODY_BYTES);
    if (text === null) return error(res, 413, 'INVALID_OPTIONS', `body: over ${LOBBY_MAX_BODY_BYTES} bytes`, { Connection: 'close' });
    let body: unknown;
    try {
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch (err) {
      return error(res, 400, 'INVALID_OPTIONS', `body: not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    const read = lobbyOptions(body, options.bots);
    if (!read.ok) return error(res, 400, 'INVALID_OPTIONS', read.message);
    let created;
    try {
      created = await options.createGame(read.options);
    } catch (err) {
      const code = (err as { code?: unknown } | null)?.code;
      if (code === 'INVALID_OPTIONS') return error(res, 400, 'INVALID_OPTIONS', err instanceof Error ? err.message : String(err));
      throw err;
    }
    allowance -= 1;
    const seats = Object.entries(created.tokens).map(([player, token]) => ({ player, url: `/?${new URLSearchParams({ game: created.gameId, seat: player, token }).toString()}` }));
    const key = options.inspectKey === undefined ? '' : `#${new URLSearchParams({ key: options.inspectKey }).toString()}`;
    return json(res, 200, { gameId: created.gameId, seats, inspector: `/inspector/?${new URLSearchParams({ game: created.gameId }).toString()}${key}` });
  };
  const hosts = new Set((options.hosts ?? []).map((h) => hostOf(h)));
  return async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    const demoPath = path === LOBBY_PATH || ((req.method === 'GET' || req.method === 'HEAD') && path !== '/games' && !path.startsWith('/inspect/') && path !== '/inspect');
    if (demoPath) {
      // CONTRACT v4: a page of another site whose name resolves here (DNS rebinding) names its own host: refused.
      const host = hostOf(req.headers.host);
      if (!isLoopback(host) && !hosts.has(host)) return error(res, 421, 'MISDIRECTED_REQUEST', `the demo answers only requests to this machine (Host ${['127.0.0.1', 'localhost', ...hosts].join(', ')}); got Host '${host}'`);
    }
    if (path === LOBBY_PATH) return lobby(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (path === '/games' || path.startsWith('/inspect/') || path === '/inspect') return false;
    if (path === '/inspector') {
      const query = (req.url ?? '').slice(path.length);
      res.writeHead(301, { Location: `/inspector/${query.startsWith('?') ? query : ''}` });
      res.end();
      return true;
    }
    if (path.startsWith('/inspector/')) return sendFile(req, res, options.folders.inspector, path.slice('/inspector'.length));
    const bots: Record<string, string> = options.bots !== undefined && options.bots.length > 0 ? { [LOBBY_BOTS_HEADER]: encodeURIComponent(options.bots.join(',')) } : {};
    return sendFile(req, res, options.folders.table, path, options.cards === undefined ? {} : { [LOBBY_CARDS_HEADER]: encodeURIComponent(options.cards), ...bots });
  };
}
