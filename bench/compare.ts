/**
 * Before/after: the engine built from another checkout (e.g. the commit before the
 * optimisations) against this one, runs interleaved in one process, events per CPU second.
 *
 *   git archive <commit> | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
 *   (cd /tmp/before && npx tsc -p tsconfig.build.json)
 *   npm run build && node --import tsx bench/compare.ts /tmp/before/dist [runs]
 */
import type * as Index from '../src/index.js';
import { fmtStat, stat, table, timePerCall } from './measure.js';
import { workloads } from './workloads.js';

const [otherDist] = process.argv.slice(2);
if (otherDist === undefined) throw new Error('usage: compare.ts OTHER/dist');
const load = async (dist: string) => (await import(new URL(`${dist.replace(/\/$/, '')}/src/index.js`, `file://${process.cwd()}/`).href)) as typeof Index;
const engines = { before: await load(otherDist), after: await load('dist') };
const list = workloads();
const events = list.reduce((n, w) => n + w.events.length, 0);
const samples: Record<string, number[]> = { before: [], after: [] };
const RUNS = Number(process.argv[3] ?? 9);
// One warm-up round first: the JIT has not compiled either engine yet.
for (let run = -1; run < RUNS; run++) {
  for (const [name, engine] of Object.entries(engines)) {
    const ms = timePerCall(() => {
      for (const w of list) {
        const game = engine.createGame({ players: w.players });
        for (const e of w.events) game.send(e);
      }
    }, 300);
    if (run >= 0) samples[name]?.push((events / ms) * 1000);
  }
}
const ratio = stat((samples.after as number[]).map((a, i) => a / (samples.before?.[i] as number)));
console.log(table(['engine', `events per CPU second, median of ${RUNS} (min–max)`], [
  ['before', fmtStat(stat(samples.before as number[]))],
  ['after', fmtStat(stat(samples.after as number[]))],
  ['after ÷ before', fmtStat(ratio)],
]));
