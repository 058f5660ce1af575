/**
 * How long the sized runs are. `npm test` plays each soak and acceptance loop at a sample sized
 * by count (the same seeds on every run, so a verdict never depends on the machine's speed);
 * `npm run test:long` (TEST_LONG=1; `CI_LONG=1 bash .ci/run` runs it as a step of its own) plays them at their full
 * acceptance counts. A test file that sizes a loop with `byCount` is one of the long runs
 * (scripts/test-long.mjs finds them by that name).
 */

function flag(name: string): boolean {
  const raw = process.env[name];
  return raw !== undefined && raw !== '' && raw !== '0' && raw !== 'false';
}

/** Whether this is the long run (`npm run test:long`). */
export const LONG = flag('TEST_LONG');

/** `sample` in `npm test`, `full` in `npm run test:long`. */
export function byCount(sample: number, full: number): number {
  return LONG ? full : sample;
}
