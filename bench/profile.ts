/**
 * A profiling workload: plays the benchmark workloads through one implementation ('engine',
 * 'hook': the engine with a no-op checkpoint hook, 'raw': XState's actor.send) for a
 * few seconds, so that `node --cpu-prof` sees only that; 'viewHook': a no-op hook declaring
 * (view, pending); 'ffa64', 'melee64': the 64-player workloads of bench/hostPath.ts. Then
 * summarise the profile with bench/cpuprofile.ts.
 *
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts engine 5
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile.ts engine 5 busy-2p   # one workload
 *   node --import tsx bench/cpuprofile.ts /tmp/prof/*.cpuprofile
 */
import { createActor } from 'xstate';
import { createGame, toInput, turnMachine } from './engine.js';
import { players64, workloads, type Workload } from './workloads.js';

const [impl = 'engine', seconds = '5', only] = process.argv.slice(2);
const many = impl === 'ffa64' || impl === 'melee64' ? players64() : null;
const list: Workload[] = many !== null ? [impl === 'ffa64' ? many.freeForAll : many.grandMelee] : workloads().filter((w) => only === undefined || w.name === only);
if (list.length === 0) throw new Error(`no workload named ${only}`);
const until = performance.now() + Number(seconds) * 1000;
const cpu = process.cpuUsage();
let events = 0;
while (performance.now() < until) {
  for (const w of list) {
    if (impl === 'raw') {
      const actor = createActor(turnMachine, { input: toInput({ players: w.players, seed: 1 }) }).start();
      for (const e of w.events) actor.send(e);
    } else {
      const hooks = impl === 'hook' ? { checkpoint: () => undefined } : impl === 'viewHook' ? { checkpoint: (view: { turn: number }, pending: unknown[]) => void (view.turn + pending.length) } : undefined;
      const game = createGame({ players: w.players, ...(hooks === undefined ? {} : { hooks }), ...(w.variant === undefined ? {} : { variant: w.variant }) });
      for (const e of w.events) game.send(e);
    }
    events += w.events.length;
  }
}
const used = process.cpuUsage(cpu);
const cpuSeconds = (used.user + used.system) / 1e6;
console.log(`${impl}: ${events} events in ${seconds} s: ${Math.round(events / Number(seconds))} events/s, ${Math.round(events / cpuSeconds)} events per CPU second`);
