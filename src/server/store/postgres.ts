/**
 * `PostgresStore({ connectionString })`: the SQL store on a PostgreSQL server, through a `pg`
 * Pool: the store of many server processes (on one machine or many) sharing their games. Every
 * write that must be atomic is one statement (see ./sql.ts), so two processes can never both
 * advance one game.
 */
import { loadOptional } from './driver.js';
import { SqlStore, type SqlDriver, type SqlQueryable } from './sql.js';

/** Options of {@link PostgresStore}. */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database`. */
  readonly connectionString: string;
  /** The most connections of the pool (default 10). */
  readonly max?: number;
}

/** The store on PostgreSQL (many processes). */
export class PostgresStore extends SqlStore {
  private readonly options: PostgresStoreOptions;

  constructor(options: PostgresStoreOptions) {
    super();
    const connectionString = (options as PostgresStoreOptions | undefined)?.connectionString;
    if (typeof connectionString !== 'string' || !/^postgres(ql)?:\/\//.test(connectionString))
      throw new TypeError('PostgresStore: options.connectionString must be a postgres:// or postgresql:// URL');
    const max = options.max;
    if (max !== undefined && (!Number.isInteger(max) || max < 1)) throw new RangeError('PostgresStore: options.max must be a positive integer');
    this.options = { connectionString, max: max ?? 10 };
    // Up to 4 write statements at once, each for every game whose write came meanwhile; the
    // other connections of the pool stay for the reads and the leases.
    this.concurrentWrites = Math.max(1, Math.min(4, (max ?? 10) - 2));
  }

  protected async connect(): Promise<SqlDriver> {
    const mod = await loadOptional('pg', 'PostgresStore', () => import('pg'));
    const { Pool } = (mod.default as typeof mod.default | undefined) ?? mod;
    const pool = new Pool({ connectionString: this.options.connectionString, max: this.options.max });
    // An idle connection that breaks (the server restarts) is dropped by the pool; without a
    // listener its 'error' would end the process.
    pool.on('error', () => undefined);
    const run = (q: { query: typeof pool.query }): SqlQueryable => ({
      async query<R>(text: string, params?: readonly unknown[]) {
        const result = await q.query(text, params === undefined ? undefined : [...params]);
        return { rows: result.rows as R[], rowCount: result.rowCount };
      },
      async exec(text: string) {
        await q.query(text);
      },
    });
    return {
      ...run(pool),
      async transaction(fn) {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query('BEGIN');
          const value = await fn(run(client as unknown as { query: typeof pool.query }));
          await client.query('COMMIT');
          return value;
        } catch (err) {
          await client.query('ROLLBACK').catch((e: unknown) => {
            broken = e instanceof Error ? e : new Error(String(e));
          });
          throw err;
        } finally {
          client.release(broken);
        }
      },
      close: () => pool.end(),
    };
  }
}
