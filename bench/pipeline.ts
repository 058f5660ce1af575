/**
 * The table server's work per accepted send without sockets (issue 31): what `npm run
 * bench:server` measures less Colyseus and the network. GAMES 2-player games of the server's
 * cards (every module) in a MemoryStore, owned as the server owns them; each send is a random
 * legal action of a seat, authorized, submitted, written, read once (`readCommit`) and
 * delivered as a patch to both seats (fake connections that keep the frames). Prints CPU µs
 * per send. Profile it with `node --cpu-prof --import tsx bench/pipeline.ts`. Runs the built
 * package (dist/): `npm run build` first.
 *
 * With `--rate N` the sends are paced at N a second (a timer wakes the process for each, as the
 * bots' messages wake the server): the cold cost at the bench's pace, without sockets. The
 * pacing's own timers cost about 30 µs a wake-up on this machine (counted in the CPU printed),
 * and a send's time is counted from when it was due, so timers firing late count in it.
 *
 *   node --import tsx bench/pipeline.ts [--games 200] [--sends 40000] [--rate 1000]
 */
import { parseArgs } from 'node:util';
import { Protocol, getMessageBytes } from '@colyseus/core';
import { seededRandom } from '../src/simulation.js';
import type { OwnedGame as Owned, OwnerHost } from '../src/server/owned.js';
import type { Delivery as Deliveries } from '../src/server/deliver.js';
import { builtModule } from './built.js';

// The built package (dist/), as the table server runs deployed.
const { MemoryStore } = await builtModule<typeof import('../src/server/index.js')>('src/server/index.js');
const { servedCards } = await builtModule<typeof import('../src/server/cardGames.js')>('src/server/cardGames.js');
const { OwnedGame } = await builtModule<typeof import('../src/server/owned.js')>('src/server/owned.js');
const { Delivery, frameHeader, hostView, readCommit } = await builtModule<typeof import('../src/server/deliver.js')>('src/server/deliver.js');
const { authorize } = await builtModule<typeof import('../src/server/authorize.js')>('src/server/authorize.js');
const { legalFor } = await builtModule<typeof import('../src/server/seatState.js')>('src/server/seatState.js');
const { concreteEvent } = await builtModule<typeof import('../src/simulation.js')>('src/simulation.js');
import type { LegalAction } from '../src/legal.js';

const { values } = parseArgs({ options: { games: { type: 'string', default: '200' }, sends: { type: 'string', default: '40000' }, rounds: { type: 'string', default: '5' }, rate: { type: 'string' } } });
const RATE = values.rate === undefined ? null : Number(values.rate);
const GAMES = Number(values.games);
const SENDS = Number(values.sends);

const store = new MemoryStore();
await store.init();
const cards = servedCards({ saveState: () => null, loadState: () => undefined });
const host: OwnerHost = { store, cards, owner: 'bench', leaseMs: 3_600_000, deadlineChanged: () => undefined, holderAlive: async () => true };
const header = frameHeader(getMessageBytes as never, Protocol.ROOM_DATA_BYTES);

interface Seat { client: { enqueueRaw(frame: Buffer): void; sendBytes(): void; bytes: number; frames: number }; seat: string }
const tables: { owned: Owned; seats: Seat[]; delivery: Deliveries; random: () => number }[] = [];
async function newTable(i: number) {
  const game = cards.create({ players: ['A', 'B'], seed: i } as never);
  const view = game.getSnapshot();
  const gameId = `g${i}-${Math.random().toString(36).slice(2)}`;
  await store.createGame({ gameId, setup: { players: ['A', 'B'], seed: i }, snapshot: game.persist(), version: view.version, seq: view.seq, hostState: cards.stored(game), tokenHashes: { A: 'a'.repeat(64), B: 'b'.repeat(64) }, createdAt: Date.now() });
  const owned = await OwnedGame.open(host, gameId);
  const delivery = new Delivery(header);
  const seats: Seat[] = ['A', 'B'].map((seat) => ({ seat, client: { bytes: 0, frames: 0, enqueueRaw(frame: Buffer) { this.bytes += frame.length; this.frames++; }, sendBytes() {} } }));
  owned.sink = {
    committed: (events) => {
      const commit = readCommit(owned, events, ['A', 'B']);
      for (const s of seats) delivery.seatUpdate(s.client as never, owned.game, s.seat, commit);
    },
    dropped: (reason) => { throw new Error(reason); },
  };
  return { owned, seats, delivery, random: seededRandom(i + 1) };
}
for (let i = 0; i < GAMES; i++) tables.push(await newTable(i));

let serial = 0;
function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;
}
async function sendOne(t: (typeof tables)[number]): Promise<boolean> {
  const view = hostView(t.owned);
  if (view.gameOver !== null) {
    tables[tables.indexOf(t)] = await newTable(GAMES + serial++);
    return false;
  }
  const all = t.owned.game.legalActions();
  for (const s of t.seats) {
    // As bench/server.ts's bots: attack with one creature, block with none, discard, pass.
    const action = legalFor(s.seat, all).find((a) => a.type === 'DECLARE_ATTACKERS' || a.type === 'DECLARE_BLOCKERS' || a.type === 'DISCARD' || a.type === 'PASS_PRIORITY');
    if (action === undefined) continue;
    const { choose, ...event } = action as LegalAction & Record<string, unknown>;
    for (const field of choose as string[]) {
      if (field === 'attackers') event.attackers = [{ id: `${s.seat}-c${view.turn}`, defender: view.players.find((p) => p !== s.seat) }];
      else if (field === 'blockers') event.blockers = [];
      else if (field === 'cards') event.cards = concreteEvent(action, view, t.random, serial++).cards;
    }
    const result = await t.owned.submit((at: number) => {
      const checked = authorize(s.seat, event, hostView(t.owned));
      if (!checked.ok) return checked;
      return { ok: true, event: { ...checked.event, at } };
    });
    return result.ok;
  }
  return false;
}

for (let round = 0; round < Number(values.rounds); round++) {
  let accepted = 0;
  const latencies: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let n = 0; n < SENDS; n++) {
    if (RATE !== null) {
      // Paced as the bench's bots offer them (--rate sends a second): each send wakes the process on its own.
      const wait = t0 + (1000 * n) / RATE - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const due = RATE === null ? performance.now() : t0 + (1000 * n) / RATE;
    if (await sendOne(tables[n % tables.length]!)) accepted++;
    latencies.push(performance.now() - due);
  }
  const cpu = process.cpuUsage(cpu0);
  const frames = tables.flatMap((t) => t.seats).reduce((n, s) => n + s.client.frames, 0);
  const bytes = tables.flatMap((t) => t.seats).reduce((n, s) => n + s.client.bytes, 0);
  console.log(`round ${round}: ${accepted} accepted sends, ${((cpu.user + cpu.system) / accepted).toFixed(1)} µs CPU per send (${((1000 * (performance.now() - t0)) / accepted).toFixed(1)} µs wall); ${Math.round(bytes / frames)} bytes per frame so far; from due to done p50 ${pct(latencies, 50).toFixed(3)} ms, p99 ${pct(latencies, 99).toFixed(3)} ms, max ${pct(latencies, 100).toFixed(1)} ms`);
}
