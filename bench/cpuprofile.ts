/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time by function and by
 * origin (engine code, XState, zod, Node/V8), to find where the engine's time goes.
 *
 *   node --import tsx bench/cpuprofile.ts FILE.cpuprofile [top] [--last SECONDS]
 *
 * `--last SECONDS` keeps only the samples of the profile's last SECONDS (a bench host's measured
 * phase, without its start-up and the tables' joins).
 * Also prints total (inclusive) time: a function's own time and that of what it calls.
 */
import { readFileSync } from 'node:fs';

/** A V8 .cpuprofile's node and the profile (also read by bench/perSend.ts). */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const lastAt = args.indexOf('--last');
const lastSeconds = lastAt < 0 ? Infinity : Number(args[lastAt + 1]);
if (lastAt >= 0) args.splice(lastAt, 2);
const [file, topArg = '25'] = args;
if (file === undefined || Number.isNaN(lastSeconds)) throw new Error('usage: cpuprofile.ts FILE.cpuprofile [top] [--last SECONDS]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
// Each sample's time since the start: only those of the last `lastSeconds` count.
const ends: number[] = [];
profile.timeDeltas.reduce((at, d, i) => (ends[i] = at + d), 0);
const from = (ends.at(-1) ?? 0) - lastSeconds * 1e6;
profile.samples.forEach((id, i) => {
  if ((ends[i] ?? 0) >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);

function origin(url: string): string {
  if (url.includes('/node_modules/xstate/')) return 'xstate';
  if (url.includes('/node_modules/zod/')) return 'zod';
  if (url.includes('/machines/')) return 'engine machines/';
  if (url.includes('/src/')) return 'engine src/';
  if (url.includes('/bench/')) return 'bench';
  if (url === '') return '(v8: gc, idle, builtins)';
  return 'other';
}
const fn = new Map<string, number>();
const org = new Map<string, number>();
for (const [id, t] of self) {
  const n = byId.get(id) as ProfileNode;
  const { functionName, url, lineNumber } = n.callFrame;
  const where = url.replace(/^.*\/(node_modules\/[^/]+|src|machines|bench)\//, '$1/');
  const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  org.set(origin(url), (org.get(origin(url)) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`;
console.log(`total sampled: ${(total / 1000).toFixed(0)} ms\n\nself time by origin:`);
for (const [k, t] of [...org].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(t)}  ${k}`);
console.log(`\ntop ${topArg} functions by self time:`);
for (const [k, t] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) console.log(`  ${pct(t)}  ${k}`);

// Total time: every function on a sample's stack counts that sample once.
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}  ${n.callFrame.url.replace(/^.*\/(node_modules\/[^/]+|src|machines|bench)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const inclusive = new Map<string, number>();
for (const [id, t] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const key = keyOf(byId.get(at) as ProfileNode);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + t);
  }
}
console.log(`\ntop ${topArg} engine functions by total time (own and callees):`);
const engineKeys = [...inclusive].filter(([k]) => / {2}(src|machines)\//.test(k));
for (const [k, t] of engineKeys.sort((a, b) => b[1] - a[1]).slice(0, Number(topArg))) console.log(`  ${pct(t)}  ${k}`);
