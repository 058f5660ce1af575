/**
 * The commands a bench host process answers on stdin (bench/server.ts drives them): `mem` (its
 * memory after three collections), `cpu` (its CPU time in µs and the event loop's busy time in ms
 * since the start, how late it ran a timer since the last `cpu`: p99 and max ms, the collector's pauses on the main thread in ms by kind, and the heap in use) and `quit`. Shared by the table server's host and the floor's.
 * `prof-start` and `prof-stop FILE` (answered `prof true`) profile the main thread's CPU between them
 * (node:inspector) and write a .cpuprofile: bench/server.ts sends them around each measured slice
 * when BENCH_PROFILE_DIR is set (then `node --import tsx bench/cpuprofile.ts --per-send ...`).
 */
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';

/** Answers the bench's commands until `quit` (or stdin ends). */
export async function answerBenchCommands(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // How late the event loop ran a timer (ms), since the last `cpu` answer: the stalls a send may wait behind.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // The collector's pauses on the main thread (ms since the start), by kind: scavenges, mark-compacts, incremental marking steps.
  const gcPauses = { minor: 0, major: 0, incremental: 0, count: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as { detail?: { kind?: number } }).detail?.kind;
      gcPauses.count++;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) gcPauses.minor += e.duration;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) gcPauses.major += e.duration;
      else gcPauses.incremental += e.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  let profiler: Session | null = null;
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'mem') {
      for (let i = 0; i < 3; i++) gc?.();
      const m = process.memoryUsage();
      console.log(`mem ${JSON.stringify({ heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers })}`);
    } else if (line === 'cpu') {
      const elu = performance.eventLoopUtilization();
      const lag = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
      delay.reset();
      console.log(`cpu ${JSON.stringify({ ...process.cpuUsage(), loopActive: elu.active, loopIdle: elu.idle, lag, gc: gcPauses, heapUsed: process.memoryUsage().heapUsed })}`);
    } else if (line === 'prof-start') {
      profiler ??= new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 250 });
      await profiler.post('Profiler.start');
      console.log('prof true');
    } else if (line.startsWith('prof-stop ') && profiler !== null) {
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      await writeFile(line.slice('prof-stop '.length), JSON.stringify(profile));
      console.log('prof true');
    } else if (line === 'quit') {
      return;
    }
  }
}
