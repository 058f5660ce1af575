/**
 * Fixed seeds for property runs, so CI is reproducible. `FC_SEED=<n>` replays another seed,
 * `FC_RUNS=<n>` changes the number of runs; a failure prints the seed and fast-check's path.
 */
import fc from 'fast-check';

/** The seed of every property run unless FC_SEED says otherwise. */
export const DEFAULT_SEED = 20260522;

function envInt(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw new Error(`${name} must be an integer, got '${raw}'`);
  return n;
}

/** Runs a property with a fixed seed; on failure prints how to replay it, then rethrows. */
export function assertProperty<T>(property: fc.IProperty<T>, params: { numRuns: number; seed?: number }): void {
  const seed = envInt('FC_SEED') ?? params.seed ?? DEFAULT_SEED;
  const numRuns = envInt('FC_RUNS') ?? params.numRuns;
  try {
    fc.assert(property, { seed, numRuns });
  } catch (err) {
    console.error(`property failed with seed ${seed} (replay: FC_SEED=${seed} FC_RUNS=${numRuns} npx vitest run test/properties)`);
    throw err;
  }
}
