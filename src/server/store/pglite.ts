/**
 * `PGliteStore({ dataDir })`: the SQL store on PGlite (PostgreSQL compiled to WebAssembly, in
 * this process, on disk): the default of one server process, nothing to install or run.
 *
 * The folder `dataDir` (created if missing) holds the database in `dataDir/pglite` and a lock
 * file `dataDir/store.lock` naming the process that has it open. PGlite is one process's
 * database: two processes (or two stores in one process) writing one folder would corrupt it,
 * and PGlite does not prevent that itself, so the lock does: a second store on a folder that a
 * live process holds is refused; a lock left by a process that died is taken over. Many
 * processes sharing games need PostgresStore.
 *
 * `dataDir: 'memory://'` keeps the database in memory (tests): nothing on disk, no lock.
 */
import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadOptional } from './driver.js';
import { SqlStore, type SqlDriver, type SqlQueryable } from './sql.js';

/** Options of {@link PGliteStore}. */
export interface PGliteStoreOptions {
  /** The store's folder (created if missing), or 'memory://' for a database in memory. */
  readonly dataDir: string;
}

const MEMORY = 'memory://';

/** Whether a process with this pid is alive (EPERM: alive, someone else's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

/**
 * CONTRACT v4: the store's folder and everything in it readable by this process's user only
 * (folders 0700, files 0600), whatever the umask made them.
 */
export function restrictFolder(dir: string): void {
  chmodSync(dir, 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) restrictFolder(path);
    else if (entry.isFile()) chmodSync(path, 0o600);
  }
}

/** Takes the folder's lock file for this process, or throws naming who holds it. */
function takeLock(path: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
    let pid = NaN;
    try {
      pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    } catch {
      // removed meanwhile: try again
    }
    if (pid === process.pid) throw new Error(`PGliteStore: ${path} is held by another PGliteStore of this process: one store per folder`);
    if (Number.isInteger(pid) && pid > 0 && alive(pid))
      throw new Error(
        `PGliteStore: the folder is in use by process ${pid} (${path}); PGlite is one process's database: stop that process, or use PostgresStore to share games between processes`,
      );
    try {
      unlinkSync(path); // left by a process that died
    } catch {
      // someone else removed it: try again
    }
  }
  throw new Error(`PGliteStore: could not take the lock ${path}`);
}

/** The store on PGlite (one process; see the module's notes). */
export class PGliteStore extends SqlStore {
  /** The folder (resolved), or 'memory://'. */
  readonly dataDir: string;

  constructor(options: PGliteStoreOptions) {
    super();
    const dataDir = (options as PGliteStoreOptions | undefined)?.dataDir;
    if (typeof dataDir !== 'string' || dataDir === '') throw new TypeError("PGliteStore: options.dataDir must be a folder path or 'memory://'");
    this.dataDir = dataDir === MEMORY ? MEMORY : resolve(dataDir);
  }

  protected async connect(): Promise<SqlDriver> {
    const { PGlite } = await loadOptional('@electric-sql/pglite', 'PGliteStore', () => import('@electric-sql/pglite'));
    let lock: string | null = null;
    let target = MEMORY;
    const folder = this.dataDir;
    if (this.dataDir !== MEMORY) {
      mkdirSync(this.dataDir, { recursive: true, mode: 0o700 });
      chmodSync(this.dataDir, 0o700);
      lock = join(this.dataDir, 'store.lock');
      takeLock(lock);
      target = join(this.dataDir, 'pglite');
    }
    const release = () => {
      if (lock === null) return;
      try {
        if (Number.parseInt(readFileSync(lock, 'utf8'), 10) === process.pid) unlinkSync(lock);
      } catch {
        // already gone
      }
      lock = null;
    };
    let db: InstanceType<typeof PGlite>;
    try {
      db = await PGlite.create(target);
      if (this.dataDir !== MEMORY) restrictFolder(this.dataDir);
    } catch (err) {
      release();
      throw err;
    }
    const queryable = (q: Pick<typeof db, 'query' | 'exec'>): SqlQueryable => ({
      async query<R>(text: string, params?: readonly unknown[]) {
        const result = await q.query<R>(text, params === undefined ? undefined : [...params]);
        return { rows: result.rows, rowCount: result.affectedRows ?? null };
      },
      async exec(text: string) {
        await q.exec(text);
      },
    });
    return {
      ...queryable(db),
      transaction: (fn) => db.transaction((tx) => fn(queryable(tx))),
      async close() {
        try {
          await db.close();
          if (lock !== null) restrictFolder(folder);
        } finally {
          release();
        }
      },
    };
  }
}
