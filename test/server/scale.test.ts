/**
 * CONTRACT v3, "Serving games", many processes (issue 25, point 6): two `mtg-turn-engine serve`
 * processes share a real PostgreSQL store and a real Redis (test/server/services.ts, on
 * 127.0.0.1). Games created with `POST /games` are played by scripted tables (`connectTable`
 * with both processes' addresses); at a random point of a game's combat (seeded), the process
 * that owns it is killed with SIGKILL. Every table of every game it owned must be back in its
 * game, on the other process, at the store's version and seq within 5 s; no accepted send may
 * be lost and none applied twice (each table's events against the store's, each accepted answer
 * against the store's sends); and every game must play on. Twenty rounds (two in `npm test`); between rounds only
 * the killed process is started again (the databases are kept).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTable, type Table } from '../../src/client/index.js';
import { PostgresStore } from '../../src/server/index.js';
import { seededRandom } from '../../src/simulation.js';
import { Bot, compareWithStore, pidOfOwner, postGame, startClusterProcess, storedGame, unaccounted, type ServeProcess } from './cluster.js';
import { freePort, postgresAvailable, redisAvailable, startPostgres, startRedis, type PostgresServer, type RedisServer } from './services.js';
import { byCount } from '../support/scale.js';

/** 2 rounds in `npm test`, the acceptance's 20 in `npm run test:long` (test/support/scale.ts). */
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? byCount(2, 20));
const GAMES_PER_ROUND = 4;
/** The games are played to the start of this turn. */
const LAST_TURN = 4;
const ADMIN_KEY = 'scale-test-admin-key-0123456789';
const SEED = Number(process.env.SCALE_SEED ?? 25);
const RECOVERY_LIMIT_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const available = postgresAvailable() && redisAvailable();

describe.skipIf(!available)('many processes: the owner killed mid-combat (CONTRACT v3, "Serving games"; issue 25)', () => {
  let pg: PostgresServer;
  let redis: RedisServer;
  let storeUrl: string;
  let store: PostgresStore;
  const ports: number[] = [];
  const processes: (ServeProcess | null)[] = [null, null];

  const start = async (i: number) => {
    processes[i] = await startClusterProcess({ store: storeUrl, redis: redis.url, port: ports[i] as number, adminKey: ADMIN_KEY });
  };

  beforeAll(async () => {
    [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
    storeUrl = await pg.createDatabase('scale');
    store = new PostgresStore({ connectionString: storeUrl, max: 4 });
    ports.push(await freePort(), await freePort());
    // One after the other: the first migrates the database.
    await start(0);
    await start(1);
  });

  afterAll(async () => {
    for (const p of processes) p?.child.kill('SIGKILL');
    await store?.close();
    await Promise.all([pg?.stop(), redis?.stop()]);
  });

  it(`${ROUNDS} rounds: every table is back at the store's version within ${RECOVERY_LIMIT_MS} ms on the other process, no accepted send lost or applied twice, every game plays on`, async () => {
    // Each process sends the clients of its rooms to its own address.
    for (const [i, p] of processes.entries()) expect((await p!.line(/^cluster: .*$/))[0]).toBe(`cluster: Redis at ${redis.url}, clients sent to 127.0.0.1:${ports[i]}`);
    const random = seededRandom(SEED); // the same seed, the same kill points
    const recoveries: number[] = [];
    const problems: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const urls = ports.map((p) => `ws://127.0.0.1:${p}`);
      let paused = false;
      const done = (t: Table) => t.getSnapshot().turn >= LAST_TURN;

      // Games, each joined first through process (i mod 2): its room is made there, and that process owns it.
      const games: { gameId: string; bots: Bot[] }[] = [];
      for (let g = 0; g < GAMES_PER_ROUND; g++) {
        const order = [urls[g % 2] as string, urls[(g + 1) % 2] as string];
        const { gameId, tokens } = await postGame(order[0]!.replace('ws:', 'http:'), ADMIN_KEY, { players: ['A', 'B'], seed: round * 100 + g });
        const bots: Bot[] = [];
        for (const seat of ['A', 'B']) {
          const table = await connectTable(order, { gameId, seat, token: tokens[seat] as string }, { joinTimeoutMs: 20_000 });
          bots.push(new Bot(table, seat, () => paused, done));
        }
        games.push({ gameId, bots });
      }
      const owners = await Promise.all(games.map(async (g) => pidOfOwner((await store.loadGame(g.gameId))?.owner ?? null)));
      expect(owners.every((pid) => pid === processes[0]?.pid || pid === processes[1]?.pid)).toBe(true);

      // The kill point: a game, a turn, a count of its accepted combat sends, and whether a send is under way.
      const victim = Math.floor(random() * GAMES_PER_ROUND);
      const turn = 1 + Math.floor(random() * (LAST_TURN - 1));
      const after = Math.floor(random() * 10);
      const inFlight = random() < 0.5;
      const killedIndex = processes.findIndex((p) => p?.pid === owners[victim]);
      const killed = processes[killedIndex] as ServeProcess;
      const survivor = processes[1 - killedIndex] as ServeProcess;
      let killedAt = 0;
      const killed$ = new Promise<void>((resolve) => {
        let combatSends = 0;
        const kill = () => {
          if (killedAt !== 0) return;
          paused = true;
          killed.child.kill('SIGKILL');
          killedAt = performance.now();
          resolve();
        };
        for (const bot of games[victim]!.bots) {
          const inCombat = () => bot.table.getSnapshot().turn === turn && bot.table.getSnapshot().phase === 'combat';
          if (inFlight) bot.beforeSend = () => void (inCombat() && combatSends++ === after && queueMicrotask(kill));
          else bot.afterAnswer = (_e, result) => void (result.ok && inCombat() && combatSends++ === after && kill());
        }
      });
      for (const g of games) for (const b of g.bots) b.kick();
      await Promise.race([killed$, sleep(60_000).then(() => Promise.reject(new Error(`round ${round}: the kill point (turn ${turn}, combat send ${after}) was never reached`)))]);

      // Every table of a game the killed process owned comes back, on the survivor, at the store's version and seq.
      const moved = games.filter((_, i) => owners[i] === killed.pid);
      let recoveredAt = 0;
      for (;;) {
        const states = await Promise.all(moved.map(async (g) => ({ g, stored: await store.loadGame(g.gameId) })));
        const back = states.every(({ g, stored }) => pidOfOwner(stored?.owner ?? null) === survivor.pid && g.bots.every((b) => b.table.status === 'connected' && b.table.getSnapshot().version === stored?.version && b.table.getSnapshot().seq === stored?.seq));
        if (back && games.every((g) => g.bots.every((b) => !b.busy))) {
          recoveredAt = performance.now();
          break;
        }
        if (performance.now() - killedAt > 30_000) throw new Error(`round ${round}: the tables did not come back within 30 s`);
        await sleep(10);
      }
      recoveries.push(recoveredAt - killedAt);
      await killed.exited;

      // Every game plays on to its last turn (the killed process starts again meanwhile, on the same port).
      const restarted = start(killedIndex);
      paused = false;
      for (const g of games) for (const b of g.bots) b.kick();
      for (const g of games) {
        for (;;) {
          if (g.bots.every((b) => done(b.table)) && g.bots.every((b) => !b.busy)) break;
          if (performance.now() - recoveredAt > 60_000) throw new Error(`round ${round}: game ${g.gameId} did not play on (turn ${g.bots[0]!.table.getSnapshot().turn})`);
          await sleep(20);
        }
      }

      // What every table saw and was answered, against the store.
      for (const g of games) {
        const stored = await storedGame(store, g.gameId);
        const view = (await store.loadGame(g.gameId))!;
        for (const b of g.bots) {
          problems.push(...compareWithStore(b, stored).map((p) => `round ${round}, game ${g.gameId}: ${p}`));
          if (b.table.getSnapshot().version !== view.version) problems.push(`round ${round}, game ${g.gameId}, seat ${b.seat}: at version ${b.table.getSnapshot().version}, the store at ${view.version}`);
        }
        problems.push(...unaccounted(g.bots, stored.sends).map((p) => `round ${round}, game ${g.gameId}: ${p}`));
      }
      for (const g of games) for (const b of g.bots) b.stop();
      await Promise.all(games.flatMap((g) => g.bots.map((b) => b.table.close())));
      await restarted;
    }
    const sorted = [...recoveries].sort((a, b) => a - b);
    console.log(`recovery after SIGKILL, ${ROUNDS} rounds (ms): min ${Math.round(sorted[0]!)}, median ${Math.round(sorted[Math.floor(ROUNDS / 2)]!)}, max ${Math.round(sorted.at(-1)!)}`);
    expect(problems).toEqual([]);
    expect(Math.max(...recoveries), `recovery per round (ms): ${recoveries.map((r) => Math.round(r)).join(', ')}`).toBeLessThanOrEqual(RECOVERY_LIMIT_MS);
  });
});
