/**
 * What the stores of served games write per second (issue 25): accepted `appendSend`s per
 * second for MemoryStore, PGliteStore (in memory and on disk) and PostgresStore (a real
 * PostgreSQL server this script starts on 127.0.0.1, with fsync on: committed means on disk),
 * each written with a real game's `persist()` as the snapshot. Two loads: one game written
 * send after send (the latency of one write), and many games written at once, each send after
 * send (what one server process owning many games can write). Wall-clock figures; not a test.
 *
 *   node --import tsx bench/server-store.ts                 # 2 s per figure
 *   node --import tsx bench/server-store.ts --seconds 5 --games 64
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createGame } from '../src/index.js';
import { MemoryStore, PGliteStore, PostgresStore, type GameStore } from '../src/server/store/index.js';
import { findPostgresBin, startPostgres } from '../test/server/services.js';
import { fmt, table } from './measure.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '2' }, games: { type: 'string', default: '32' } } });
const SECONDS = Number(values.seconds);
const GAMES = Number(values.games);
const HASH = '0'.repeat(64);
const OWNER = 'bench';
const snapshot = createGame({ players: ['alice', 'bob'] }).persist();
const event = { type: 'PASS_PRIORITY', player: 'alice', at: 0 };

let made = 0;

/** Writes sends to `games` games (each one after the other) for `seconds`; accepted sends per second. */
async function measure(store: GameStore, games: number, seconds: number): Promise<number> {
  const ids: string[] = [];
  for (let i = 0; i < games; i++) {
    const gameId = `bench-${++made}`;
    await store.createGame({ gameId, setup: { players: ['alice', 'bob'] }, snapshot, version: 0, seq: 0, hostState: null, tokenHashes: { alice: HASH, bob: HASH }, createdAt: Date.now() });
    if (!(await store.acquireLease(gameId, OWNER, Date.now(), 3_600_000))) throw new Error('no lease');
    ids.push(gameId);
  }
  const until = performance.now() + seconds * 1000;
  const start = performance.now();
  const counts = await Promise.all(
    ids.map(async (gameId) => {
      let version = 0;
      while (performance.now() < until) {
        const at = Date.now();
        const result = await store.appendSend(gameId, version, OWNER, at, {
          send: { version: version + 1, seq: version + 1, event: { ...event, at }, results: [], at },
          snapshot,
          hostState: null,
          finished: false,
        });
        if (!result.ok) throw new Error(`refused: ${result.reason}`);
        version++;
      }
      return version;
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return counts.reduce((a, b) => a + b, 0) / elapsed;
}

const rows: string[][] = [];
async function bench(name: string, make: () => Promise<GameStore>): Promise<void> {
  const store = await make();
  try {
    await store.init();
    const one = await measure(store, 1, SECONDS);
    const many = await measure(store, GAMES, SECONDS);
    rows.push([name, fmt(one), fmt(many)]);
  } finally {
    await store.close();
  }
}

const dir = await mkdtemp(join(tmpdir(), 'mtg-bench-store-'));
try {
  console.log(`snapshot ${JSON.stringify(snapshot).length} bytes of JSON; ${SECONDS} s per figure`);
  await bench('MemoryStore', async () => new MemoryStore());
  await bench("PGliteStore ('memory://')", async () => new PGliteStore({ dataDir: 'memory://' }));
  await bench('PGliteStore (on disk)', async () => new PGliteStore({ dataDir: join(dir, 'pglite') }));
  if (findPostgresBin() === null) console.log('PostgresStore: skipped (no initdb/pg_ctl; install postgresql)');
  else {
    const server = await startPostgres({ durable: true });
    try {
      await bench('PostgresStore (pool of 10)', async () => new PostgresStore({ connectionString: server.url }));
    } finally {
      await server.stop();
    }
  }
  console.log(table(['store', 'sends/s, 1 game', `sends/s, ${GAMES} games at once`], rows));
} finally {
  await rm(dir, { recursive: true, force: true });
}
