/**
 * The worker thread of {@link simulate} (src/sim/simulate.ts): piscina loads this module in each
 * thread and calls `runTask` with one batch of games; the answer is plain JSON (the games, or the
 * batch's failure with its error's code: an error's class and code do not survive the copy).
 */
export { runTaskInWorker as runTask } from './task.js';
