/**
 * CONTRACT v4, "Randomness": the cards' random numbers, over the engine's seeded generator
 * (src/rules/random.ts, mulberry32): a stream of their own, drawn from the game's seed, whose
 * whole position is one 32-bit integer persisted with the cards' state.
 */
import type { CardRandom } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { randomIndex, seedState } from '../rules/random.js';

/** Where the cards' stream starts for a seed: apart from the engine's own stream of the same seed. */
export function cardsSeedState(seed: number): number {
  return (seedState(seed) ^ 0x9e3779b9) >>> 0;
}

/** A position in the stream, and whether anything was drawn since it was made (an undo barrier). */
export interface RandomBox {
  position: number;
  drew: boolean;
}

/** `ctx.random` over a box: each draw moves its position. */
export function cardRandom(box: RandomBox): CardRandom {
  const int = (n: number): number => {
    if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new TurnEngineError(ErrorCode.HOOK_FAILED, `random.int(n): n must be a whole number from 1 to 2^32, got ${String(n)}`);
    const r = randomIndex(box.position, n);
    box.position = r.state;
    box.drew = true;
    return r.index;
  };
  return {
    int,
    shuffle<T>(list: readonly T[]): T[] {
      if (!Array.isArray(list)) throw new TurnEngineError(ErrorCode.HOOK_FAILED, 'random.shuffle(list): list must be an array');
      // Fisher-Yates, from the last item down.
      const out = list.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const t = out[i] as T;
        out[i] = out[j] as T;
        out[j] = t;
      }
      return out;
    },
  };
}
