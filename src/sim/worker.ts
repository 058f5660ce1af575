/**
 * The worker thread of {@link simulate} (src/sim/simulate.ts): piscina loads this module in each
 * thread and calls `runTask` with one batch of games; the answer is plain JSON.
 */
export { runTask } from './task.js';
