/**
 * The test servers of test/server/services.ts (issue 25): a real PostgreSQL and a real Redis,
 * each started on 127.0.0.1 at a free port, answering, listening on loopback only, and gone
 * once stopped. Skipped (loudly) without the binaries, failed under CI.
 */
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postgresAvailable, redisAvailable, startPostgres, startRedis } from './services.js';

/** Whether something accepts a TCP connection on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.skipIf(!postgresAvailable())('startPostgres: a PostgreSQL server of the test own', () => {
  it('answers on 127.0.0.1 only, creates databases, and is gone once stopped', async () => {
    const server = await startPostgres();
    try {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: await server.createDatabase('helper_check') });
      await client.connect();
      try {
        const listen = await client.query<{ listen_addresses: string }>('SHOW listen_addresses');
        expect(listen.rows[0]?.listen_addresses).toBe('127.0.0.1');
        expect((await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]?.db).toBe('helper_check');
      } finally {
        await client.end();
      }
    } finally {
      await server.stop();
    }
    expect(await accepts(server.port)).toBe(false);
  });
});

describe.skipIf(!redisAvailable())('startRedis: a Redis server of the test own', () => {
  it('answers on 127.0.0.1 only, saves nothing, and is gone once stopped', async () => {
    const server = await startRedis();
    try {
      const { Redis } = await import('ioredis');
      const redis = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await redis.connect();
      try {
        await redis.set('k', 'v');
        expect(await redis.get('k')).toBe('v');
        expect(await redis.config('GET', 'bind')).toEqual(['bind', '127.0.0.1']);
        expect(await redis.config('GET', 'save')).toEqual(['save', '']);
        expect(await redis.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
      } finally {
        redis.disconnect();
      }
    } finally {
      await server.stop();
    }
    expect(await accepts(server.port)).toBe(false);
  });
});
