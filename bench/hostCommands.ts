/**
 * The commands a bench host process answers on stdin (bench/server.ts drives them): `mem` (its
 * memory after three collections), `cpu` (its CPU time in µs and the event loop's busy time in ms
 * since the start, and how late it ran a timer since the last `cpu`: p99 and max ms) and `quit`. Shared by the table server's host and the floor's.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';

/** Answers the bench's commands until `quit` (or stdin ends). */
export async function answerBenchCommands(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  // How late the event loop ran a timer (ms), since the last `cpu` answer: the stalls a send may wait behind.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'mem') {
      for (let i = 0; i < 3; i++) gc?.();
      const m = process.memoryUsage();
      console.log(`mem ${JSON.stringify({ heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers })}`);
    } else if (line === 'cpu') {
      const elu = performance.eventLoopUtilization();
      const lag = { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 };
      delay.reset();
      console.log(`cpu ${JSON.stringify({ ...process.cpuUsage(), loopActive: elu.active, loopIdle: elu.idle, lag })}`);
    } else if (line === 'quit') {
      return;
    }
  }
}
