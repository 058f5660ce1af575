/**
 * The main thread's long busy stretches in a CPU profile (issue 31: what a send's p99 waits
 * behind): runs of samples with no idle between them, at least THRESHOLD ms long, with the time
 * each spent in the collector and in the server's functions. A profile of a measured slice is what
 * `BENCH_PROFILE_DIR=DIR npm run bench:server -- --quick` writes (DIR/server-1000-1.cpuprofile).
 *
 *   node --import tsx bench/longTasks.ts FILE.cpuprofile [THRESHOLD_MS=5]
 *
 * In the eighth session of issue 31 (docs/performance.md) a quick run's table server had 35 such
 * runs of 5 ms or more in 5 s, up to 56 ms: sends worked through back to back after a collection
 * (the collector 30% of their time, socket writes 18%).
 */
import { readFileSync } from 'node:fs';
import type { Profile } from './cpuprofile.js';

const [file, thresholdArg = '5'] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: longTasks.ts FILE.cpuprofile [THRESHOLD_MS]');
const threshold = Number(thresholdArg) * 1000;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile & { startTime: number };

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
const nameOf = (id: number) => {
  const f = (nodes.get(id) as Profile['nodes'][number]).callFrame;
  return `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
};

interface Run {
  start: number;
  end: number;
  samples: [id: number, micros: number][];
}
const runs: Run[] = [];
let t = profile.startTime;
let current: Run | null = null;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i] as number;
  if (nameOf(id).startsWith('(idle)')) {
    if (current !== null) runs.push(current);
    current = null;
    return;
  }
  current ??= { start: t, end: t, samples: [] };
  current.end = t;
  current.samples.push([id, profile.timeDeltas[i + 1] ?? 0]);
});
if (current !== null) runs.push(current);

const long = runs.filter((r) => r.end - r.start >= threshold);
console.log(`${runs.length} busy runs; ${long.length} of ${threshold / 1000} ms or more: ${long.map((r) => ((r.end - r.start) / 1000).toFixed(1)).join(' ')} ms`);
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
for (const r of long) {
  for (const [id, micros] of r.samples) {
    total += micros;
    self.set(nameOf(id), (self.get(nameOf(id)) ?? 0) + micros);
    const seen = new Set<string>();
    for (let x: number | undefined = id; x !== undefined; x = parentOf.get(x)) {
      const name = nameOf(x);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
    }
  }
}
const top = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, v]) => `${(v / 1000).toFixed(1).padStart(8)} ms ${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n');
console.log(`within them, by function (self):\n${top(self)}\nand with what they called (inclusive):\n${top(inclusive)}`);
