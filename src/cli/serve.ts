/**
 * `mtg-turn-engine serve` (CONTRACT v3, "Serving games"): a table server. Alone, one process
 * keeping its games with PGlite in `./.data` (or `--data DIR`); with `--store postgres://...` and
 * `--redis redis://...`, one of many processes sharing PostgreSQL and Redis. It listens on
 * 127.0.0.1 unless `--host` says otherwise, prints the admin key it made when none is given, and
 * stops cleanly on SIGTERM (the games stay in the store). The server, Colyseus and the stores'
 * drivers are loaded only here: the rest of the command line runs without them.
 *
 * The command serves games without card logic (no hooks): a host with cards starts its own
 * server with `createTableServer` from `mtg-turn-engine/server`.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Command } from './command.js';

type ServerModule = typeof import('../server/index.js');
type Store = import('../server/index.js').GameStore;

/** The port Colyseus listens on by default. */
export const DEFAULT_PORT = 2567;

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
  usage: 'serve [--store postgres://...] [--redis redis://...] [--port N] [--host H] [--admin-key K] [--data DIR]',
  options: [
    '--store URL      a PostgreSQL connection string: one of many processes sharing it (default: PGlite in --data)',
    '--redis URL      Redis for the processes to find each other\'s rooms (with --store)',
    `--port N         the port (default ${DEFAULT_PORT}; 0: any free port)`,
    '--host H         the address to listen on (default 127.0.0.1: this machine only)',
    '--admin-key K    the key POST /games must carry (default: a new one, printed as "admin key: K")',
    '--data DIR       where the embedded store keeps its files (default ./.data)',
  ],
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { store: { type: 'string' }, redis: { type: 'string' }, port: { type: 'string' }, host: { type: 'string' }, 'admin-key': { type: 'string' }, data: { type: 'string' } },
    });
    if (positionals.length > 0) throw new Error(`serve takes no arguments; got '${positionals.join(' ')}'`);
    const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a whole number from 0 to 65535; got '${values.port}'`);
    if (values.redis !== undefined && values.store === undefined) throw new Error('--redis needs --store: the processes of a cluster share one PostgreSQL store');
    const generated = values['admin-key'] === undefined;
    const adminKey = values['admin-key'] ?? randomBytes(24).toString('base64url');
    if (adminKey.length < 16) throw new Error('--admin-key must be at least 16 characters long');
    const server = await optional('@colyseus/core', () => import('../server/index.js'));
    const cluster = values.redis === undefined ? {} : await redisCluster(values.redis);
    const { store, line } = openStore(server, values.store, resolve(values.data ?? '.data'));
    const stopped = stopSignal();
    let table;
    try {
      table = await server.createTableServer({ store, cards: { saveState: () => null, loadState: () => undefined }, port, hostname: values.host ?? '127.0.0.1', adminKey, ...cluster });
    } catch (err) {
      await store.close().catch(() => undefined);
      throw err;
    }
    console.log(`listening on ws://${table.hostname}:${table.port}`);
    console.log(line);
    if (generated) console.log(`admin key: ${adminKey}`);
    console.log(`POST http://${table.hostname}:${table.port}/games with "Authorization: Bearer <admin key>" and the createGame options creates a game`);
    const signal = await stopped;
    console.log(`${signal}: stopping (the games stay in the store)`);
    await table.close();
    await store.close();
    console.log('stopped');
    return 0;
  },
};
