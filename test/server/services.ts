/**
 * Real PostgreSQL and Redis servers for the server tests, each started by the test itself on
 * 127.0.0.1 at a free port, in a temporary folder, and stopped after (nothing is left running,
 * nothing listens beyond loopback, nothing is saved).
 *
 * PostgreSQL: `initdb` into a temporary folder and `pg_ctl start`; the binaries are looked for
 * on PATH, then in /usr/lib/postgresql/<newest>/bin (Debian's `postgresql` package puts them
 * there). PostgreSQL refuses to run as root: as root, initdb and the server run as the user
 * `postgres` (created by Debian's package) through `runuser` (or `su`). Redis: `redis-server
 * --port N --bind 127.0.0.1 --save '' --appendonly no` as a child process.
 *
 * Without the binaries a suite is skipped with a loud warning, except when `CI` is set: there
 * `postgresAvailable()` / `redisAvailable()` throw, so the test file fails with the message.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

const BANNER = '!'.repeat(78);

function inCi(): boolean {
  return process.env.CI !== undefined && process.env.CI !== '' && process.env.CI !== 'false' && process.env.CI !== '0';
}

/** Skips loudly, or throws under CI. */
function missing(what: string, install: string): false {
  const message = `\n${BANNER}\n!! ${what}; these tests are SKIPPED.\n!! ${install}\n${BANNER}\n`;
  if (inCi()) throw new Error(`${message}CI is set: these tests must run.`);
  console.warn(message);
  return false;
}

/** The first folder on PATH holding `name` (executable), or null. */
function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, name))) return dir;
  }
  return null;
}

/** Where initdb and pg_ctl are: PATH (both in one folder), else /usr/lib/postgresql/<newest>/bin. */
export function findPostgresBin(): string | null {
  const dir = onPath('pg_ctl');
  if (dir !== null && existsSync(join(dir, 'initdb'))) return dir;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'pg_ctl')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : join(root, versions[0], 'bin');
}

/** The user PostgreSQL runs as: null for the current one, or `postgres` (from /etc/passwd) when this process is root. */
function postgresUser(): { uid: number; gid: number; name: string } | null {
  if ((process.getuid?.() ?? 1000) !== 0) return null;
  const passwd = existsSync('/etc/passwd') ? readFileSync('/etc/passwd', 'utf8') : '';
  const line = passwd.split('\n').find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error("running as root, and there is no user `postgres` to run PostgreSQL as (PostgreSQL refuses root): install Debian's postgresql, or run the tests as another user");
  return { uid: Number(uid), gid: Number(gid), name: 'postgres' };
}

/** How to run a command as another user: runuser (util-linux), else su. */
function asUser(user: string, command: string, args: string[]): [string, string[]] {
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((p) => existsSync(p));
  if (runuser !== undefined) return [runuser, ['-u', user, '--', command, ...args]];
  const quoted = [command, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return [existsSync('/bin/su') ? '/bin/su' : '/usr/bin/su', [user, '-s', '/bin/sh', '-c', quoted]];
}

/** Whether PostgreSQL's binaries are here (throws under CI when they are not). */
export function postgresAvailable(): boolean {
  if (findPostgresBin() !== null) return true;
  return missing(
    'PostgreSQL: no initdb/pg_ctl on PATH or in /usr/lib/postgresql/*/bin',
    "Install Debian's postgresql (`apt-get install -y postgresql`; .ci/run does it).",
  );
}

/** Whether redis-server is here (throws under CI when it is not). */
export function redisAvailable(): boolean {
  if (onPath('redis-server') !== null) return true;
  return missing('Redis: no redis-server on PATH', "Install Debian's redis-server (`apt-get install -y redis-server`; .ci/run does it).");
}

/** A free TCP port on 127.0.0.1 (asked of the system; free when this returns). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Runs a command (as `user` when given) and resolves with its output; rejects with it on failure. */
function run(command: string, args: string[], user: string | null): Promise<string> {
  const [cmd, argv] = user === null ? [command, args] : asUser(user, command, args);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} failed (${String(code)}):\n${out}`))));
  });
}

/** A running PostgreSQL server. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:PORT/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  /** Creates a database and returns its connection string. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts a PostgreSQL server of its own (initdb into a temporary folder, pg_ctl start). Tests
 * run it without fsync (throwaway data); `durable: true` keeps PostgreSQL's defaults (fsync,
 * synchronous commit), for benchmarks.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === null) throw new Error('PostgreSQL binaries not found (call postgresAvailable() first)');
  const user = postgresUser();
  const dir = await mkdtemp(join(tmpdir(), 'mtg-pg-'));
  if (user !== null) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const port = await freePort();
  const pgCtl = join(bin, 'pg_ctl');
  try {
    await run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], user?.name ?? null);
    // listen on loopback only; the socket in the temporary folder
    const fast = options.durable === true ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
    const serverOptions = `-h 127.0.0.1 -p ${port} -k ${dir} -c max_connections=200${fast}`;
    await run(pgCtl, ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', serverOptions], user?.name ?? null);
  } catch (err) {
    const text = await readFile(log, 'utf8').catch(() => '');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start PostgreSQL: ${err instanceof Error ? err.message : String(err)}\n${text}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    url,
    port,
    async createDatabase(name: string) {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`createDatabase: '${name}' is not a plain lowercase name`);
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await run(pgCtl, ['stop', '-w', '-D', data, '-m', 'fast'], user?.name ?? null);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A running Redis server. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM, then SIGKILL after 5 s). */
  stop(): Promise<void>;
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port and answers PING with PONG. */
async function waitForRedis(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
    const pong = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      let answer = '';
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.on('data', (d: Buffer) => {
        answer += d.toString();
        if (answer.includes('\r\n')) {
          socket.destroy();
          resolve(answer.startsWith('+PONG'));
        }
      });
      socket.once('error', () => resolve(false));
    });
    if (pong) return;
    if (Date.now() > until) throw new Error(`redis-server did not answer on 127.0.0.1:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts a Redis server of its own on 127.0.0.1 at a free port, saving nothing. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'mtg-redis-'));
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, '--protected-mode', 'yes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  try {
    await waitForRedis(port, child, 10_000);
  } catch (err) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw new Error(`could not start Redis: ${err instanceof Error ? err.message : String(err)}\n${output}`);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
