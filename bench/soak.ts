/**
 * `npm run test:soak`: the property suite at scale, and a long game.
 *
 * 1. Random games (test/properties: 2-8 players, both profiles, legal actions and junk),
 *    every event checked, until at least `--events` events (default 1,000,000) were sent.
 * 2. A `--turns`-turn (default 10,000) game of `--players` (default 4) players with random
 *    legal actions, every view checked, with the heap sampled as it goes.
 *
 * Prints events/s, failures (with the seed that replays each) and heap before and after;
 * exits 1 if anything failed. Run with --expose-gc (the npm script does) for exact heap
 * figures. Fixed seeds: `--seed` changes them.
 */
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { simulate } from '../src/simulation.js';
import { CHAOS_WEIGHTS, DEFAULT_WEIGHTS, choicesArb, setupArb, type GameSetup } from '../test/properties/arbitraries.js';
import { runGame, viewProblem } from '../test/properties/monitor.js';
import type { TurnView } from '../src/index.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    turns: { type: 'string', default: '10000' },
    players: { type: 'string', default: '4' },
    seed: { type: 'string', default: '20260522' },
    'runs-per-seed': { type: 'string', default: '100' },
  },
});
const targetEvents = Number(values.events);
const targetTurns = Number(values.turns);
const players = Number(values.players);
const baseSeed = Number(values.seed);
const runsPerSeed = Number(values['runs-per-seed']);

const gc = (globalThis as { gc?: () => void }).gc;
function heapMB(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}
const n = (x: number) => Math.round(x).toLocaleString('en-US');
const mb = (x: number) => `${x.toFixed(1)} MB`;

let failures = 0;
if (gc === undefined) console.log('note: run with node --expose-gc for exact heap figures');

// 1. Random games under the property checks.
{
  console.log('soak 1: random games (legal actions, host events and junk; every event checked)');
  const heapBefore = heapMB();
  const start = performance.now();
  let events = 0;
  let refused = 0;
  let games = 0;
  let highestTurn = 0;
  for (let chunk = 0; events < targetEvents; chunk++) {
    const seed = baseSeed + chunk;
    const result = fc.check(
      // Every other chunk is weighted towards host effects and players leaving.
      fc.property(setupArb, choicesArb(200, chunk % 2 === 0 ? DEFAULT_WEIGHTS : CHAOS_WEIGHTS), (setup, choices) => {
        const stats = runGame(setup, choices, {
          onEvent: (ok) => {
            events++;
            if (!ok) refused++;
          },
        });
        games++;
        highestTurn = Math.max(highestTurn, stats.turns);
      }),
      { seed, numRuns: runsPerSeed },
    );
    if (result.failed) {
      failures++;
      console.log(`  FAILURE with seed ${seed} (replay: FC_SEED=${seed} FC_RUNS=${runsPerSeed}), path ${result.counterexamplePath}`);
      console.log(`    ${String(result.errorInstance).split('\n')[0]?.slice(0, 2000)}`);
      console.log(`    counterexample: ${JSON.stringify(result.counterexample)?.slice(0, 2000)}`);
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const heapAfter = heapMB();
  console.log(`  events: ${n(events)} in ${seconds.toFixed(1)} s = ${n(events / seconds)} events/s (${((100 * refused) / events).toFixed(1)}% refused)`);
  console.log(`  games: ${n(games)}; highest turn reached: ${highestTurn}`);
  console.log(`  failures: ${failures}`);
  console.log(`  heap: ${mb(heapBefore)} before, ${mb(heapAfter)} after (${heapAfter >= heapBefore ? '+' : ''}${mb(heapAfter - heapBefore)})`);
}

// 2. One long game.
{
  console.log(`soak 2: a ${n(targetTurns)}-turn ${players}-player game of random legal actions (every view checked)`);
  const heapBefore = heapMB();
  const start = performance.now();
  const samples: string[] = [];
  let problems = 0;
  let previous: TurnView | null = null;
  let lastSampled = 0;
  const setup: GameSetup = { players: Array.from({ length: players }, (_, i) => String.fromCharCode(65 + i)), startingPlayer: 'A', rules: 'current', handSize: 7, maxHandSize: 7, hostTriggers: false };
  const summary = simulate({
    players,
    turns: targetTurns,
    seed: baseSeed,
    onSend: (event, _ok, view) => {
      const problem = viewProblem(view, { ...setup, maxHandSize: 7 }, previous);
      if (problem !== null && problems++ < 5) console.log(`  FAILURE at turn ${view.turn} after ${JSON.stringify(event)}: ${problem}`);
      previous = view;
      const quarter = Math.floor((view.turn * 4) / targetTurns);
      if (quarter > lastSampled && quarter < 4) {
        lastSampled = quarter;
        samples.push(`turn ${n(view.turn)}: ${mb(heapMB())}`);
      }
    },
  });
  const seconds = (performance.now() - start) / 1000;
  const heapAfter = heapMB();
  const finished = summary.turns > targetTurns && summary.winners === null;
  if (!finished) {
    problems++;
    console.log(`  FAILURE: the game stopped at turn ${summary.turns} (winners: ${summary.winners?.join(', ') ?? 'none'})`);
  }
  failures += problems > 0 ? 1 : 0;
  console.log(`  turns: ${n(Math.min(summary.turns, targetTurns))}; events: ${n(summary.events)} in ${seconds.toFixed(1)} s = ${n(summary.events / seconds)} events/s; objects resolved: ${n(summary.resolved)}`);
  console.log(`  failures: ${problems}`);
  console.log(`  heap: ${mb(heapBefore)} before, ${mb(heapAfter)} after (${heapAfter >= heapBefore ? '+' : ''}${mb(heapAfter - heapBefore)}); ${samples.join(', ')}`);
}

console.log(failures === 0 ? 'soak: 0 failures' : `soak: ${failures} failure(s)`);
process.exitCode = failures === 0 ? 0 : 1;
