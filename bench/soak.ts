/**
 * `npm run test:soak`: the property suite at scale, and a long game.
 *
 * 1. Random games (test/properties/harness.ts: every era and variant, legal decisions, the
 *    host's turn-changing events, players leaving, refused input), every event checked, each
 *    game played in lockstep by the compiled runtime and by XState's interpreter (acceptance,
 *    emitted events and views compared after every event; Grand Melee games, which the
 *    interpreter reference cannot play, without the twin), until at least `--events` events
 *    (default 1,000,000) were sent.
 * 2. A `--turns`-turn (default 10,000) game of `--players` (default 4) players with random
 *    legal actions, with the heap sampled as it goes.
 *
 * Prints events/s, failures (with the seed that replays each) and heap before and after;
 * exits 1 if anything failed. Run with --expose-gc (the npm script does) for exact heap
 * figures. Fixed seeds: `--seed` changes them.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { simulate } from '../src/simulation.js';
import { DEFAULT_MIX, playRandom, setupArb, type Mix } from '../test/properties/harness.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    turns: { type: 'string', default: '10000' },
    players: { type: 'string', default: '4' },
    seed: { type: 'string', default: '20260522' },
    'game-length': { type: 'string', default: '300' },
    'melee-turns': { type: 'string', default: '1000' },
  },
});
const targetEvents = Number(values.events);
const targetTurns = Number(values.turns);
const players = Number(values.players);
const baseSeed = Number(values.seed);
const gameLength = Number(values['game-length']);

const gc = (globalThis as { gc?: () => void }).gc;
function heapMB(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const mb = (x: number) => `${x.toFixed(1)} MB`;
const HOST_HEAVY: Mix = { legal: 45, host: 40, refused: 8, concede: 2, restore: 5 };

let failures = 0;
if (gc === undefined) console.log('note: run with node --expose-gc for exact heap figures');

// 1. Random games under the property checks, compiled runtime and XState in lockstep.
{
  console.log('soak 1: random games, every event checked, compiled runtime and XState in lockstep');
  const heapBefore = heapMB();
  const start = performance.now();
  let events = 0;
  let refused = 0;
  let games = 0;
  let melee = 0;
  let highestTurn = 0;
  const setups = fc.sample(setupArb, { seed: baseSeed, numRuns: 1_000 });
  for (let i = 0; events < targetEvents; i++) {
    const setup = { ...setups[i % setups.length]!, seed: baseSeed + i };
    try {
      const run = playRandom(setup, gameLength, i % 2 === 0 ? DEFAULT_MIX : HOST_HEAVY, true);
      events += run.accepted + run.refused;
      refused += run.refused;
      highestTurn = Math.max(highestTurn, run.game.view().turn);
    } catch (err) {
      failures++;
      events += gameLength;
      if (failures <= 10) console.log(`  FAILURE in game ${i} (${JSON.stringify(setup)}): ${String(err).split('\n')[0]?.slice(0, 2000)}`);
    }
    games++;
    if (setup.variant === 'grandMelee') melee++;
  }
  const seconds = (performance.now() - start) / 1000;
  const heapAfter = heapMB();
  console.log(`  events: ${n(events)} in ${seconds.toFixed(1)} s = ${n(events / seconds)} events/s, each on both runtimes (${((100 * refused) / events).toFixed(1)}% refused)`);
  console.log(`  games: ${n(games)} (${n(melee)} of them Grand Melee, played without the XState twin); highest turn reached: ${highestTurn}`);
  console.log(`  failures and differences: ${failures}`);
  console.log(`  heap: ${mb(heapBefore)} before, ${mb(heapAfter)} after (${heapAfter >= heapBefore ? '+' : ''}${mb(heapAfter - heapBefore)})`);
}

// 2. One long game.
{
  console.log(`soak 2: a ${n(targetTurns)}-turn ${players}-player game of random legal actions`);
  const heapBefore = heapMB();
  const start = performance.now();
  const samples: string[] = [];
  let lastSampled = 0;
  let problems = 0;
  const summary = simulate({
    players,
    turns: targetTurns,
    seed: baseSeed,
    onSend: (event, ok, view) => {
      if (!ok && problems++ < 5) console.log(`  FAILURE at turn ${view.turn}: ${JSON.stringify(event)} was refused`);
      const quarter = Math.floor((view.turn * 4) / targetTurns);
      if (quarter > lastSampled && quarter < 4) {
        lastSampled = quarter;
        samples.push(`turn ${n(view.turn)}: ${mb(heapMB())}`);
      }
    },
  });
  const seconds = (performance.now() - start) / 1000;
  const heapAfter = heapMB();
  if (summary.turns <= targetTurns && summary.winners === null) {
    problems++;
    console.log(`  FAILURE: the game stopped at turn ${summary.turns}`);
  }
  failures += problems > 0 ? 1 : 0;
  console.log(`  turns: ${n(Math.min(summary.turns, targetTurns))}; events: ${n(summary.events)} in ${seconds.toFixed(1)} s = ${n(summary.events / seconds)} events/s; objects resolved: ${n(summary.resolved)}`);
  console.log(`  failures: ${problems}`);
  console.log(`  heap: ${mb(heapBefore)} before, ${mb(heapAfter)} after (${heapAfter >= heapBefore ? '+' : ''}${mb(heapAfter - heapBefore)}); ${samples.join(', ')}`);
}

// 3. One long Grand Melee game (CR 807): ten players, two turn markers, every marker to the limit.
{
  const meleeTurns = Number(values['melee-turns']);
  console.log(`soak 3: a Grand Melee game of random legal actions, ${n(meleeTurns)} turns per turn marker (10 players, 2 markers)`);
  const heapBefore = heapMB();
  const start = performance.now();
  let problems = 0;
  const summary = simulate({
    variant: 'grandMelee',
    turns: meleeTurns,
    seed: baseSeed,
    onSend: (event, ok, view) => {
      if (!ok && problems++ < 5) console.log(`  FAILURE at turns ${view.turns?.map((t) => t.turn).join('/')}: ${JSON.stringify(event)} was refused`);
    },
  });
  const seconds = (performance.now() - start) / 1000;
  const heapAfter = heapMB();
  if (summary.turns <= meleeTurns && summary.winners === null) {
    problems++;
    console.log(`  FAILURE: the game stopped at turn ${summary.turns}`);
  }
  failures += problems > 0 ? 1 : 0;
  console.log(`  turns per marker: ${n(Math.min(summary.turns, meleeTurns))}; events: ${n(summary.events)} in ${seconds.toFixed(1)} s = ${n(summary.events / seconds)} events/s; objects resolved: ${n(summary.resolved)}`);
  console.log(`  failures: ${problems}`);
  console.log(`  heap: ${mb(heapBefore)} before, ${mb(heapAfter)} after (${heapAfter >= heapBefore ? '+' : ''}${mb(heapAfter - heapBefore)})`);
}

console.log(failures === 0 ? 'soak: 0 failures' : `soak: ${failures} failure(s)`);
process.exitCode = failures === 0 ? 0 : 1;
