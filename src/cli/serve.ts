/**
 * `mtg-turn-engine serve` (CONTRACT v3, "Serving games"): a table server. Alone, one process
 * keeping its games with PGlite in `./.data` (or `--data DIR`); with `--store postgres://...` and
 * `--redis redis://...`, one of many processes sharing PostgreSQL and Redis. It listens on
 * 127.0.0.1 unless `--host` says otherwise, prints the admin key it made when none is given, and
 * stops cleanly on SIGTERM (the games stay in the store). The server, Colyseus and the stores'
 * drivers are loaded only here: the rest of the command line runs without them.
 *
 * Without `--cards` the command serves games without card logic; with `--cards MODULE` every game
 * it serves is a card game of that module's definition (CONTRACT v4, "Served card games"): the
 * module's default export, else its `cards` export, else its only export made by `defineCards`
 * (`npm start` passes the example's, examples/cards/definition.ts, loaded through tsx). A host
 * whose cards need more (its own routes, its own bots) starts its own server with
 * `createTableServer` from `mtg-turn-engine/server`.
 *
 * Every game the server holds can be read, as a recording, at `GET /inspect/games/...` with the
 * admin key or the inspect key (src/server/inspection.ts). With `--demo` (`npm start`, issue 25
 * point 5) the same port also serves the example table at `/`, with its lobby, and the inspector
 * at `/inspector/`, which watches any game with the inspect key its printed address carries
 * (src/cli/web.ts). The lobby lets anyone who reaches the server create games, so `--demo` is
 * refused on an address other than loopback.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Command } from './command.js';
import { demoRoutes, isLoopback, pageFolders } from './web.js';

export { isLoopback };

type ServerModule = typeof import('../server/index.js');
type Store = import('../server/index.js').GameStore;

/** How long SIGTERM waits for the server and the store to close before the process exits (CONTRACT v4: within 2 s). */
const STOP_WITHIN_MS = 1800;

/** The port Colyseus listens on by default. */
export const DEFAULT_PORT = 2567;

/**
 * A key `serve` makes when none is given: 192 random bits, hex. Never base64url: a key that
 * starts with '-' could not be given back as `--admin-key K` (parseArgs reads it as an option).
 */
export function newKey(): string {
  return randomBytes(24).toString('hex');
}

/** Loads an optional peer dependency of the command, or says how to install it. */
async function optional<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw new Error(`serve needs the optional package '${name}': npm install ${name} (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** The store the options name, and the line that says which it is (each store loads its database package when it starts). */
function openStore(server: ServerModule, storeUrl: string | undefined, dataDir: string): { store: Store; line: string } {
  if (storeUrl !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(storeUrl)) throw new Error(`--store must be a postgres:// (or postgresql://) connection string; got '${storeUrl}'`);
    return { store: new server.PostgresStore({ connectionString: storeUrl }), line: `store: PostgreSQL at ${storeUrl.replace(/\/\/[^@/]*@/, '//***@')}` };
  }
  return { store: new server.PGliteStore({ dataDir }), line: `store: PGlite in ${dataDir}` };
}

/** Redis presence and driver, for one of many processes. */
async function redisCluster(url: string): Promise<{ presence: import('@colyseus/core').Presence; driver: import('@colyseus/core').MatchMakerDriver }> {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`--redis must be a redis:// (or rediss://) URL; got '${url}'`);
  const { RedisPresence } = await optional('@colyseus/redis-presence', () => import('@colyseus/redis-presence'));
  const { RedisDriver } = await optional('@colyseus/redis-driver', () => import('@colyseus/redis-driver'));
  return { presence: new RedisPresence(url), driver: new RedisDriver(url) };
}

/** Whether a value is a card definition made by `defineCards` (it carries the definition's brand). */
function isDefinition(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { __cards?: unknown }).__cards === true;
}

/**
 * The card definition of `serve --cards MODULE`: the module's default export, else its `cards`
 * export, else its only export made by `defineCards`. Throws naming the module and what it lacks.
 */
export async function loadCards(module: string): Promise<unknown> {
  const path = resolve(module);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  } catch (err) {
    const hint = /\.[cm]?tsx?$/.test(path) ? ' (a TypeScript module needs a loader: run node with --import tsx, as npm start does, or pass the built .js)' : '';
    throw new Error(`--cards: could not load ${module}${hint}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (isDefinition(exports.default)) return exports.default;
  if (isDefinition(exports.cards)) return exports.cards;
  const found = Object.entries(exports).filter(([, v]) => isDefinition(v));
  if (found.length === 1) return (found[0] as [string, unknown])[1];
  throw new Error(
    found.length === 0
      ? `--cards: ${module} exports no card definition (made by defineCards of mtg-turn-engine/cards) as its default export, as \`cards\` or otherwise`
      : `--cards: ${module} exports several card definitions (${found.map(([k]) => k).join(', ')}): export the one to serve as default or as \`cards\``,
  );
}

/** Resolves on the first SIGTERM or SIGINT. */
function stopSignal(): Promise<string> {
  return new Promise((done) => {
    const stop = (signal: string) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      done(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

export const serveCommand: Command = {
  summary: 'serve games to tables over WebSockets (a Colyseus table server)',
  usage: 'serve [--cards MODULE] [--store postgres://...] [--redis redis://...] [--public-address H:P] [--port N] [--host H] [--admin-key K] [--data DIR] [--demo [--web DIR]] [--inspect-key K]',
  options: [
    '--cards MODULE   serve card games of this definition (its default export, else `cards`, else its only defineCards export); default: games without cards',
    '--store URL      a PostgreSQL connection string: one of many processes sharing it (default: PGlite in --data)',
    '--redis URL      Redis for the processes to find each other\'s rooms (with --store)',
    '--public-address H:P  where clients reach this process (with --redis; default: --host and --port)',
    `--port N         the port (default ${DEFAULT_PORT}; 0: any free port)`,
    '--host H         the address to listen on (default 127.0.0.1: this machine only)',
    '--admin-key K    the key POST /games must carry (default: a new one, printed as "admin key: K")',
    '--data DIR       where the embedded store keeps its files (default ./.data)',
    "--demo           for the repository only (npm start in a clone of it): also serve the example table at / (with a lobby that creates games for it) and the inspector at /inspector/, built by npm run build:web (not in the installed package); loopback only",
    '--web DIR        the pages --demo serves, built by `npm run build:web` (default ./dist/web)',
    '--inspect-key K  the read-only key of GET /inspect/games (the inspector\'s; default: a new one with --demo, printed in its address)',
  ],
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        store: { type: 'string' },
        redis: { type: 'string' },
        'public-address': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        'admin-key': { type: 'string' },
        data: { type: 'string' },
        demo: { type: 'boolean' },
        web: { type: 'string' },
        'inspect-key': { type: 'string' },
        cards: { type: 'string' },
      },
    });
    if (positionals.length > 0) throw new Error(`serve takes no arguments; got '${positionals.join(' ')}'`);
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a whole number from 0 to 65535; got '${values.port}'`);
    if (values.redis !== undefined && values.store === undefined) throw new Error('--redis needs --store: the processes of a cluster share one PostgreSQL store');
    if (values['public-address'] !== undefined && values.redis === undefined) throw new Error('--public-address is for a process of a cluster (with --redis)');
    if (values.redis !== undefined && port === 0 && values['public-address'] === undefined) throw new Error('--port 0 with --redis: a process of a cluster needs a fixed port (clients are sent to it), or --public-address');
    const generated = values['admin-key'] === undefined;
    const adminKey = values['admin-key'] ?? newKey();
    if (adminKey.length < 16) throw new Error('--admin-key must be at least 16 characters long');
    const host = values.host ?? '127.0.0.1';
    const demo = values.demo === true;
    if (values.web !== undefined && !demo) throw new Error('--web needs --demo: it names the pages --demo serves');
    if (demo && !isLoopback(host)) throw new Error(`--demo is for this machine only (its lobby lets anyone who reaches the server create games): --host must be a loopback address; got '${host}'`);
    const inspectKey = values['inspect-key'] ?? (demo ? newKey() : undefined);
    if (inspectKey !== undefined && inspectKey.length < 16) throw new Error('--inspect-key must be at least 16 characters long');
    const cards = values.cards === undefined ? null : await loadCards(values.cards);
    const folders = demo ? await pageFolders(values.web ?? resolve('dist', 'web')) : null;
    // CONTRACT v4: the folders and files this process creates (the data folder, PGlite's files) are its user's only.
    process.umask(0o077);
    const server = await optional('@colyseus/core', () => import('../server/index.js'));
    const cluster = values.redis === undefined ? {} : await redisCluster(values.redis);
    const { store, line } = openStore(server, values.store, resolve(values.data ?? '.data'));
    const stopped = stopSignal();
    // The lobby's games are created by the table server, which exists once it listens.
    let createGame: ((options: Record<string, unknown>) => Promise<{ gameId: string; tokens: Record<string, string> }>) | null = null;
    const inspect = server.inspectionRoutes({ store, keys: inspectKey === undefined ? [adminKey] : [inspectKey, adminKey] });
    const pages =
      folders === null
        ? null
        : demoRoutes({
            folders,
            hosts: [host],
            ...(inspectKey !== undefined ? { inspectKey } : {}),
            ...(cards !== null ? { cards: (cards as { name: string }).name, bots: Object.keys((cards as { bots?: object }).bots ?? {}) } : {}),
            createGame: (options) => {
              if (createGame === null) throw new Error('the server is starting');
              return createGame(options);
            },
          });
    const routes = async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => (await inspect(req, res)) || (pages !== null && (await pages(req, res)));
    let table;
    try {
      table = await server.createTableServer({ store, cards: (cards ?? { saveState: () => null, loadState: () => undefined }) as never, botDelayMs: demo ? 400 : 0, port, hostname: host, adminKey, routes, ...cluster, ...(values['public-address'] !== undefined ? { publicAddress: values['public-address'] } : {}) });
      createGame = table.createGame as (options: Record<string, unknown>) => Promise<{ gameId: string; tokens: Record<string, string> }>;
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
    console.log(`listening on ws://${table.hostname}:${table.port}`);
    console.log(line);
    if (cards !== null) console.log(`cards: ${(cards as { name: string }).name} (from ${values.cards})`);
    if (values.redis !== undefined) console.log(`cluster: Redis at ${values.redis.replace(/\/\/[^@/]*@/, '//***@')}, clients sent to ${table.publicAddress ?? '?'}`);
    if (generated) console.log(`admin key: ${adminKey}`);
    console.log(`POST http://${table.hostname}:${table.port}/games with "Authorization: Bearer <admin key>" and the createGame options creates a game`);
    if (demo) {
      const origin = `http://${table.hostname.includes(':') ? `[${table.hostname}]` : table.hostname}:${table.port}`;
      console.log(`the example table: ${origin}/ (${cards === null ? '"Play over the network" creates a game' : 'its lobby creates a card game'} and links its seats: open each in its own tab)`);
      console.log(`the inspector: ${origin}/inspector/#key=${inspectKey}`);
    } else if (inspectKey !== undefined) {
      console.log(`GET http://${table.hostname}:${table.port}/inspect/games with "Authorization: Bearer <inspect key>" lists the games, each readable as a recording`);
    }
    const signal = await stopped;
    console.log(`${signal}: stopping (the games stay in the store)`);
    // CONTRACT v4: the sends under way finish, every open game's instant is written, and the
    // process exits within 2 s, whatever else still holds its event loop (a driver's socket).
    const closing = (async () => {
      await table.close();
      await store.close();
    })();
    const done = await Promise.race([closing.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_WITHIN_MS).unref())]);
    console.log(done ? 'stopped' : `stopped (the store did not close within ${STOP_WITHIN_MS} ms)`);
    setTimeout(() => process.exit(0), 50).unref();
    return 0;
  },
};
