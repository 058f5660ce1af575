/**
 * What the stores can keep (docs/serving.md, "Stores"): PostgreSQL's `jsonb` (PGlite's too)
 * refuses U+0000 in a string and a surrogate that is not half of a pair, where the MemoryStore
 * would take them. The server refuses such input before the engine sees it, as it refuses any
 * malformed input (INVALID_EVENT, INVALID_OPTIONS naming the field), so that the three stores
 * refuse the same inputs the same way and no seat can make a send fail as STORE_FAILED.
 */

/** A character no store keeps: U+0000, or a lone surrogate (in a `u` regular expression a pair is one code point, not Cs). */
const UNSTORABLE = /[\0\p{Cs}]/u;

/** Deeper than this the value is left to the engine's own checks (the messages are at most 64 KiB). */
const MAX_DEPTH = 64;

/**
 * The first string (a value or a key) of `value` holding a character the stores cannot keep, as
 * a problem naming its path under `path` (`event.attackers[0].id: ...`), or null.
 */
export function unstorable(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? `${path}: holds U+0000 or an unpaired surrogate, which no store keeps` : null;
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = unstorable(value[i], `${path}[${i}]`, depth + 1);
      if (problem !== null) return problem;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    if (UNSTORABLE.test(key)) return `${path}: a key holds U+0000 or an unpaired surrogate, which no store keeps`;
    const problem = unstorable((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}
