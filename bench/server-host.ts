/**
 * The table server of `npm run bench:server` (bench/server.ts), in a process of its own so that
 * its CPU and memory are measured apart from the bots': `createTableServer` on 127.0.0.1 with
 * the store named on the command line and cards without hooks (as `serve`'s). It prints
 * `listening <port>`, then answers lines on stdin: `mem` (after a full GC: `mem {heapUsed, rss,
 * external, arrayBuffers}`), `cpu` (`cpu {user, system}` in µs since it started), `quit`.
 *
 *   node --expose-gc --import tsx bench/server-host.ts --store pglite:/tmp/dir | postgres://...
 */
import { answerBenchCommands } from './hostCommands.js';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { GameStore } from '../src/server/index.js';
import { builtModule } from './built.js';

// The server as deployed: the built package (dist/, as `npx mtg-turn-engine serve` runs it), typed by its sources.
const { createTableServer, MemoryStore, PGliteStore, PostgresStore } = await builtModule<typeof import('../src/server/index.js')>('src/server/index.js');

const { values } = parseArgs({ options: { store: { type: 'string' }, 'admin-key': { type: 'string' }, pool: { type: 'string', default: '20' } } });
const spec = values.store ?? 'pglite:memory://';
const store: GameStore = spec === 'memory' ? new MemoryStore() : spec.startsWith('pglite:') ? new PGliteStore({ dataDir: spec.slice('pglite:'.length) }) : new PostgresStore({ connectionString: spec, max: Number(values.pool) });
if (process.env.TRACE_STORE !== undefined) {
  // How long each store call takes, every 3 s on stderr (to find where a send's time goes).
  const stats: Record<string, { n: number; ms: number }> = {};
  const traced = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of ['appendSend', 'acquireLease', 'acquireLeases', 'loadGame', 'snapshots', 'sends']) {
    const original = traced[method]!.bind(store);
    traced[method] = async (...args: unknown[]) => {
      const t = performance.now();
      try {
        return await original(...args);
      } finally {
        const s = (stats[method] ??= { n: 0, ms: 0 });
        s.n++;
        s.ms += performance.now() - t;
      }
    };
  }
  setInterval(() => {
    console.error(`store: ${Object.entries(stats).map(([k, v]) => `${k} ${v.n} × ${(v.ms / v.n).toFixed(2)} ms`).join(', ')}`);
    for (const k of Object.keys(stats)) delete stats[k];
  }, 3000).unref();
}

const server = await createTableServer({
  store,
  cards: { saveState: () => null, loadState: () => undefined },
  port: 0,
  adminKey: values['admin-key'] ?? 'bench-admin-key-0123456789',
  // Bots answer at once: a connection may send as fast as its game lets it.
  limits: { perSecond: 10_000, burst: 10_000 },
  log: (line) => console.error(line),
});
console.log(`listening ${server.port}`);

await answerBenchCommands();
await server.close();
await store.close();
process.exit(0);
