/**
 * The main thread's CPU per accepted send, by function and by origin, from the profiles
 * `BENCH_PROFILE_DIR=DIR npm run bench:server -- --quick` writes (one per measured slice, with
 * the slice's accepted sends in FILE.sends): µs per send, idle left out. Side by side for the
 * table server and the floor when both are given.
 *
 *   node --import tsx bench/perSend.ts DIR [top] [--match server-1000]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Profile, ProfileNode } from './cpuprofile.js';

const args = process.argv.slice(2);
const matchAt = args.indexOf('--match');
const match = matchAt < 0 ? '-1000-' : (args[matchAt + 1] as string);
if (matchAt >= 0) args.splice(matchAt, 2);
const [dir, topArg = '30'] = args;
if (dir === undefined) throw new Error('usage: perSend.ts DIR [top] [--match TEXT]');

const where = (url: string) => url.replace(/^.*\/(node_modules\/(?:@[^/]+\/)?[^/]+|src|machines|bench)\//, '$1/');
const keyOf = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'}  ${where(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
function origin(url: string, name: string): string {
  if (name === '(garbage collector)') return 'gc';
  if (url === '') return name === '(program)' ? 'program' : 'native';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (m !== null) return m[1] as string;
  if (url.includes('/src/server/')) return 'src/server';
  if (url.includes('/src/client/')) return 'src/client';
  if (url.includes('/src/table/')) return 'src/table';
  if (url.includes('/src/cards/')) return 'src/cards';
  if (url.includes('/src/') || url.includes('/machines/')) return 'engine';
  if (url.startsWith('node:')) return 'node';
  return 'other';
}

interface Tally {
  sends: number;
  self: Map<string, number>;
  inclusive: Map<string, number>;
  origins: Map<string, number>;
  busy: number;
}
function tally(kind: string): Tally {
  const t: Tally = { sends: 0, self: new Map(), inclusive: new Map(), origins: new Map(), busy: 0 };
  for (const f of readdirSync(dir as string).filter((f) => f.startsWith(kind) && f.includes(match) && f.endsWith('.cpuprofile'))) {
    const file = join(dir as string, f);
    t.sends += Number(readFileSync(`${file}.sends`, 'utf8'));
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const own = new Map<number, number>();
    profile.samples.forEach((id, i) => own.set(id, (own.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    for (const [id, us] of own) {
      const n = byId.get(id) as ProfileNode;
      if (n.callFrame.functionName === '(idle)') continue;
      t.busy += us;
      const key = keyOf(n);
      t.self.set(key, (t.self.get(key) ?? 0) + us);
      const o = origin(n.callFrame.url, n.callFrame.functionName);
      t.origins.set(o, (t.origins.get(o) ?? 0) + us);
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const k = keyOf(byId.get(at) as ProfileNode);
        if (seen.has(k)) continue;
        seen.add(k);
        t.inclusive.set(k, (t.inclusive.get(k) ?? 0) + us);
      }
    }
  }
  return t;
}

const top = Number(topArg);
for (const kind of ['server', 'floor']) {
  const t = tally(kind);
  if (t.sends === 0) continue;
  const per = (us: number) => (us / t.sends).toFixed(2).padStart(7);
  console.log(`\n== ${kind}: ${t.sends} sends, main thread busy ${per(t.busy)} µs per send`);
  console.log('by origin (µs per send):');
  for (const [k, us] of [...t.origins].sort((a, b) => b[1] - a[1])) console.log(`  ${per(us)}  ${k}`);
  console.log(`top ${top} by self time (µs per send):`);
  for (const [k, us] of [...t.self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${per(us)}  ${k}`);
  console.log(`top ${top} by total time (µs per send):`);
  for (const [k, us] of [...t.inclusive].filter(([k]) => !k.startsWith('(root)')).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${per(us)}  ${k}`);
}
