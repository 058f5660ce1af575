/**
 * The engine's seeded random numbers (CONTRACT: `seed`): mulberry32, whose whole state is one
 * 32-bit integer kept in the context, so a persisted game goes on with the same draws.
 */

/** The next state and a number in [0, 1). */
export function nextRandom(state: number): { state: number; value: number } {
  const s = (state + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { state: s, value: ((t ^ (t >>> 14)) >>> 0) / 4294967296 };
}

/** A whole number from 0 to n - 1, and the next state. */
export function randomIndex(state: number, n: number): { state: number; index: number } {
  const r = nextRandom(state);
  return { state: r.state, index: Math.min(n - 1, Math.floor(r.value * n)) };
}

/** The initial state of a seed (any finite number). */
export function seedState(seed: number): number {
  return Math.floor(Math.abs(seed) * 1000003) >>> 0;
}
