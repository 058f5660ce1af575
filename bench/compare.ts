/**
 * Before/after: the engine built from another checkout (e.g. the commit before the
 * optimisations) against this one, runs interleaved in one process (CPU time), so that a
 * machine shared with other work slows both alike.
 *
 *   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   (cd /tmp/before && npx tsc -p tsconfig.build.json)
 *   npm run build && node --import tsx bench/compare.ts /tmp/before/dist [runs] [figure]
 *
 * The figure (default `engine`):
 * - `engine`: events per CPU second over the four workloads of `npm run bench`;
 * - `api`: the same, and the compiled runtime alone of each build (what `ratios.engineVsRuntimeAlone` is);
 * - `melee64`: µs per event of the 64-player free-for-all and Grand Melee (`ratios.grandMelee64`);
 * - `bursts`: ms per burst of 1,000 and 10,000 triggers in one checkpoint, no-op hook (bench/hostPath.ts).
 */
import type * as Index from '../src/index.js';
import type * as Runtime from '../src/compiled/runtime.js';
import type * as Plan from '../src/compiled/plan.js';
import type * as Create from '../src/game/create.js';
import type * as TurnEffects from '../machines/turn.effects.js';
import type { TurnEvent } from '../src/contract.js';
import { fmtStat, stat, table, timePerCall } from './measure.js';
import { players64, workloads, type Workload } from './workloads.js';

const [otherDist, runsArg, figure = 'engine'] = process.argv.slice(2);
if (otherDist === undefined) throw new Error('usage: compare.ts OTHER/dist [runs] [engine|api|melee64|bursts]');
const RUNS = Number(runsArg ?? 9);

/** What a build is measured through. */
interface Build {
  createGame: typeof Index.createGame;
  /** A workload through the compiled runtime alone (no gate, no shell). */
  runtimeAlone(w: Workload): void;
}

async function load(dist: string): Promise<Build> {
  const at = (path: string) => new URL(`${dist.replace(/\/$/, '')}/${path}`, `file://${process.cwd()}/`).href;
  const index = (await import(at('src/index.js'))) as typeof Index;
  const runtime = (await import(at('src/compiled/runtime.js'))) as typeof Runtime;
  const { turnPlan } = (await import(at('src/compiled/plan.js'))) as typeof Plan;
  const { toInput } = (await import(at('src/game/create.js'))) as typeof Create;
  const { initialContext } = (await import(at('machines/turn.effects.js'))) as typeof TurnEffects;
  return {
    createGame: index.createGame,
    runtimeAlone(w) {
      let state = runtime.initialState(turnPlan, toInput({ players: w.players, seed: 1 }), initialContext).state;
      for (const e of w.events) state = runtime.sendStep(turnPlan, state, e).state;
    },
  };
}

const builds: Record<string, Build> = { before: await load(otherDist), after: await load('dist') };

function play(b: Build, w: Workload): void {
  const game = b.createGame({ players: w.players, ...(w.variant === undefined ? {} : { variant: w.variant }) });
  for (const e of w.events) game.send(e);
}

/** A burst of `n` triggers reported by a no-op hook in one checkpoint, then resolved (bench/hostPath.ts playBurst). */
function burst(b: Build, n: number): void {
  const rounds = Array.from({ length: Math.ceil(n / 1000) }, (_, r) => Array.from({ length: Math.min(1000, n - r * 1000) }, (_, i) => ({ id: `t${r * 1000 + i}`, controller: i % 2 === 0 ? 'A' : 'B' })));
  let calls = 0;
  const game = b.createGame({ players: ['A', 'B'], hooks: { checkpoint: () => (calls < rounds.length ? { triggers: rounds[calls++] as { id: string; controller: string }[] } : undefined) } });
  const a: TurnEvent = { type: 'PASS_PRIORITY', player: 'A' };
  const c: TurnEvent = { type: 'PASS_PRIORITY', player: 'B' };
  for (let i = 0; i < n; i++) {
    game.send(a);
    game.send(c);
  }
  if (game.view().stack.length !== 0) throw new Error('a burst left objects on the stack');
}

/** Figures of one build, each a number per run; the first run is a warm-up and is dropped. */
type Measure = (b: Build) => Record<string, number>;

const MEASURES: Record<string, () => Measure> = {
  engine() {
    const list = workloads();
    const events = list.reduce((n, w) => n + w.events.length, 0);
    return (b) => ({ 'events per CPU second': (events / timePerCall(() => list.forEach((w) => play(b, w)), 300)) * 1000 });
  },
  api() {
    const list = workloads();
    return (b) => {
      // One workload at a time, the engine then the runtime alone, for about 600 ms of CPU: on a
      // loaded machine both see the same slowdowns (timed 300 ms apart, their ratio swung by ±0.3).
      let engineMs = 0;
      let aloneMs = 0;
      let events = 0;
      while (engineMs + aloneMs < 600) {
        for (const w of list) {
          engineMs += timePerCall(() => play(b, w), 0);
          aloneMs += timePerCall(() => b.runtimeAlone(w), 0);
          events += w.events.length;
        }
      }
      const engine = (events / engineMs) * 1000;
      const alone = (events / aloneMs) * 1000;
      return { 'engine, events/s': engine, 'runtime alone, events/s': alone, 'engine ÷ runtime alone': engine / alone };
    };
  },
  melee64() {
    const { freeForAll, grandMelee } = players64();
    return (b) => {
      const ffa = (timePerCall(() => play(b, freeForAll), 300) / freeForAll.events.length) * 1000;
      const melee = (timePerCall(() => play(b, grandMelee), 300) / grandMelee.events.length) * 1000;
      return { 'free-for-all µs/event': ffa, 'Grand Melee µs/event': melee, 'Grand Melee ÷ free-for-all': melee / ffa };
    };
  },
  bursts() {
    return (b) => {
      const n1000 = timePerCall(() => burst(b, 1000), 300);
      const n10000 = timePerCall(() => burst(b, 10_000), 0);
      return { 'ms per 1,000': n1000, 'ms per 10,000': n10000, '10,000 ÷ 1,000': n10000 / n1000 };
    };
  },
};

const make = MEASURES[figure];
if (make === undefined) throw new Error(`no figure ${figure}: one of ${Object.keys(MEASURES).join(', ')}`);
const measure = make();
const samples: Record<string, Record<string, number[]>> = { before: {}, after: {} };
for (let run = -1; run < RUNS; run++) {
  for (const [name, b] of Object.entries(builds)) {
    const figures = measure(b);
    if (run < 0) continue;
    for (const [k, v] of Object.entries(figures)) ((samples[name] as Record<string, number[]>)[k] ??= []).push(v);
  }
}
const keys = Object.keys(samples.after as Record<string, number[]>);
console.log(table([figure, ...keys.map((k) => `${k}, median of ${RUNS} (min–max)`)], [
  ...Object.entries(samples).map(([name, s]) => [name, ...keys.map((k) => fmtStat(stat(s[k] as number[])))]),
  ['after ÷ before', ...keys.map((k) => fmtStat(stat((samples.after?.[k] as number[]).map((a, i) => a / (samples.before?.[k]?.[i] as number)))))],
]));
