/**
 * The main thread's CPU per accepted send, by function and by origin, from the profiles
 * `BENCH_PROFILE_DIR=DIR npm run bench:server -- --quick` writes (one per measured slice, with
 * the slice's accepted sends in FILE.sends): µs per send, idle left out. Side by side for the
 * table server and the floor when both are given. With `BENCH_PROFILE_KIND=alloc` the profiles
 * are sampled allocations (.heapprofile, the objects collected since counted too): bytes
 * allocated per send, by the function that allocated them and by the calls they were made under.
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

/** A .heapprofile's node: its children are nodes, its allocations are the samples naming its id. */
interface HeapNode {
  id: number;
  callFrame: ProfileNode['callFrame'];
  children: HeapNode[];
}

/** A profile read the same way whatever its kind: each node, its parent, and what each node itself spent (µs, or bytes). */
function read(file: string): { byId: Map<number, ProfileNode>; parent: Map<number, number>; own: Map<number, number> } {
  const own = new Map<number, number>();
  const parent = new Map<number, number>();
  if (file.endsWith('.heapprofile')) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode; samples: { size: number; nodeId: number }[] };
    const byId = new Map<number, ProfileNode>();
    const visit = (n: HeapNode) => {
      byId.set(n.id, { id: n.id, callFrame: n.callFrame });
      for (const c of n.children) {
        parent.set(c.id, n.id);
        visit(c);
      }
    };
    visit(profile.head);
    for (const s of profile.samples) own.set(s.nodeId, (own.get(s.nodeId) ?? 0) + s.size);
    return { byId, parent, own };
  }
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  profile.samples.forEach((id, i) => own.set(id, (own.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  return { byId: new Map(profile.nodes.map((n) => [n.id, n])), parent, own };
}

const files = readdirSync(dir).filter((f) => f.includes(match) && (f.endsWith('.cpuprofile') || f.endsWith('.heapprofile')));
const allocations = files.some((f) => f.endsWith('.heapprofile'));
const unit = allocations ? 'bytes allocated' : 'µs';

interface Tally {
  sends: number;
  self: Map<string, number>;
  inclusive: Map<string, number>;
  origins: Map<string, number>;
  busy: number;
}
function tally(kind: string): Tally {
  const t: Tally = { sends: 0, self: new Map(), inclusive: new Map(), origins: new Map(), busy: 0 };
  for (const f of files.filter((f) => f.startsWith(kind))) {
    const file = join(dir as string, f);
    t.sends += Number(readFileSync(`${file}.sends`, 'utf8'));
    const { byId, parent, own } = read(file);
    for (const [id, us] of own) {
      const n = byId.get(id);
      // (A sampled allocation may name a node the profile no longer has.)
      if (n === undefined || n.callFrame.functionName === '(idle)') continue;
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
  const per = (us: number) => (us / t.sends).toFixed(allocations ? 0 : 2).padStart(7);
  console.log(`\n== ${kind}: ${t.sends} sends, main thread ${allocations ? 'allocated' : 'busy'} ${per(t.busy)} ${unit} per send`);
  console.log(`by origin (${unit} per send):`);
  for (const [k, us] of [...t.origins].sort((a, b) => b[1] - a[1])) console.log(`  ${per(us)}  ${k}`);
  console.log(`top ${top} by self (${unit} per send):`);
  for (const [k, us] of [...t.self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${per(us)}  ${k}`);
  console.log(`top ${top} by total, what they call included (${unit} per send):`);
  for (const [k, us] of [...t.inclusive].filter(([k]) => !k.startsWith('(root)')).sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${per(us)}  ${k}`);
}
