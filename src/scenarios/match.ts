/**
 * Partial matching of scenario expectations against views and emitted events:
 * objects match key by key, arrays match whole (same length), element by element. An object
 * matched against an array matches it key by key too, its keys being indexes ("0", "1", ...):
 * the first entries of a list whose length the contract leaves open (`schedule.turns`: "at
 * least the next players.length + 1 turns").
 */

/** Describes the first mismatch of `expected` in `actual`, or returns null when it matches. */
export function mismatch(expected: unknown, actual: unknown, path = ''): string | null {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path || 'value'}: expected an array, got ${JSON.stringify(actual)}`;
    if (actual.length !== expected.length) {
      return `${path || 'value'}: expected ${expected.length} element(s), got ${actual.length}: ${JSON.stringify(actual)}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const m = mismatch(expected[i], actual[i], `${path}[${i}]`);
      if (m !== null) return m;
    }
    return null;
  }
  if (typeof expected === 'object' && expected !== null) {
    if (Array.isArray(actual)) {
      const bad = Object.keys(expected).find((k) => !/^(0|[1-9][0-9]*)$/.test(k));
      if (bad !== undefined) return `${path || 'value'}: expected an object, got an array (an object matches an array only by indexes "0", "1", ...; '${bad}' is not one): ${JSON.stringify(actual)}`;
      for (const [key, value] of Object.entries(expected)) {
        if (Number(key) >= actual.length) return `${path}[${key}]: expected ${JSON.stringify(value)}, got nothing (the array has ${actual.length} element(s))`;
        const m = mismatch(value, actual[Number(key)], `${path}[${key}]`);
        if (m !== null) return m;
      }
      return null;
    }
    if (typeof actual !== 'object' || actual === null) {
      return `${path || 'value'}: expected an object, got ${JSON.stringify(actual)}`;
    }
    for (const [key, value] of Object.entries(expected)) {
      const m = mismatch(value, (actual as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
      if (m !== null) return m;
    }
    return null;
  }
  return Object.is(expected, actual) ? null : `${path || 'value'}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}
