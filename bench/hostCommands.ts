/**
 * The commands a bench host process answers on stdin (bench/server.ts drives them): `mem` (its
 * memory after three collections), `cpu` (its CPU time in µs and the event loop's busy time in ms
 * since the start, how late it ran a timer since the last `cpu`: p99 and max ms, the collector's pauses on the main thread in ms by kind, and the heap in use) and `quit`. Shared by the table server's host and the floor's.
 * `prof-start` and `prof-stop FILE` (answered `prof true`) profile the main thread's CPU between them
 * (node:inspector) and write a .cpuprofile (`prof-start alloc`: a sampled allocation profile, a
 * .heapprofile, the objects collected since counted too): bench/server.ts sends them around each measured slice
 * when BENCH_PROFILE_DIR is set (then `node --import tsx bench/cpuprofile.ts --per-send ...`).
 */
import { constants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector/promises';
import { writeFile } from 'node:fs/promises';

/** The interval of the timer whose lateness is measured (ms). */
export const LAG_RESOLUTION_MS = 10;

/** How late a timer ran (ms), from an interval of `monitorEventLoopDelay`'s histogram (ns), whose timer runs every LAG_RESOLUTION_MS. */
export function lateness(intervalNs: number, resolutionMs = LAG_RESOLUTION_MS): number {
  return Math.max(0, intervalNs / 1e6 - resolutionMs);
}

/** Answers the bench's commands until `quit` (or stdin ends). */
export async function answerBenchCommands(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // How late the event loop ran a timer (ms), since the last `cpu` answer: the stalls a send may wait behind.
  // The histogram holds each interval between the timer's runs, the resolution included: what is over it is the lateness.
  const delay = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
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
  let allocations = false;
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'mem') {
      for (let i = 0; i < 3; i++) gc?.();
      const m = process.memoryUsage();
      console.log(`mem ${JSON.stringify({ heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers })}`);
    } else if (line === 'cpu') {
      const elu = performance.eventLoopUtilization();
      const lag = { p99: lateness(delay.percentile(99)), max: lateness(delay.max) };
      delay.reset();
      console.log(`cpu ${JSON.stringify({ ...process.cpuUsage(), loopActive: elu.active, loopIdle: elu.idle, lag, gc: gcPauses, heapUsed: process.memoryUsage().heapUsed })}`);
    } else if (line === 'prof-start' || line === 'prof-start alloc') {
      profiler ??= new Session();
      profiler.connect();
      allocations = line.endsWith('alloc');
      if (allocations) {
        // Every allocation sampled (every 4 KiB allocated on average), the collected ones kept too.
        await profiler.post('HeapProfiler.enable');
        await profiler.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
      } else {
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.setSamplingInterval', { interval: 250 });
        await profiler.post('Profiler.start');
      }
      console.log('prof true');
    } else if (line.startsWith('prof-stop ') && profiler !== null) {
      const { profile } = allocations ? await profiler.post('HeapProfiler.stopSampling') : await profiler.post('Profiler.stop');
      profiler.disconnect();
      await writeFile(line.slice('prof-stop '.length), JSON.stringify(profile));
      console.log('prof true');
    } else if (line === 'quit') {
      return;
    }
  }
}
