/**
 * The bounds of untrusted input (a persisted game, a scenario file): its size, depth, strings and
 * keys checked breadth-first before anything else reads it (src/persistence/validate.ts first).
 */
import { RESERVED_IDS } from '../schemas.js';

/** Limits that bound the work done on untrusted input before it is refused. */
export const SNAPSHOT_LIMITS = { maxNodes: 200_000, maxDepth: 24, maxStringLength: 4096 } as const;

function keyLabel(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}...(${key.length} characters)` : key;
}

/**
 * Walks untrusted input breadth-first and stops at the first limit it passes, so that
 * refusing a huge or deeply nested value costs no more than the limits allow (a persisted game;
 * a scenario file, with its own limits and `root` naming it in the message). No key may be
 * a property name of every object (`__proto__`, `constructor`, ...); with `plain`, every object
 * is a plain one or a list.
 */
export function checkBounds(value: unknown, limits: { maxNodes: number; maxDepth: number; maxStringLength: number } = SNAPSHOT_LIMITS, root = 'snapshot', plain = false): string | null {
  const queue: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: root }];
  const tooMany = `${root}: more than ${limits.maxNodes} values`;
  for (let i = 0; i < queue.length; i++) {
    const { v, depth, path } = queue[i] as { v: unknown; depth: number; path: string };
    if (typeof v === 'string' && v.length > limits.maxStringLength) return `${path}: a string of ${v.length} characters (limit ${limits.maxStringLength})`;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limits.maxDepth) return `${path}: nested deeper than ${limits.maxDepth} levels`;
    if (Array.isArray(v)) {
      if (queue.length + v.length > limits.maxNodes) return v.length > limits.maxNodes ? `${path}: an array of ${v.length} entries` : tooMany;
      v.forEach((child, k) => queue.push({ v: child, depth: depth + 1, path: `${path}[${k}]` }));
      continue;
    }
    // `plain`: on a structuredClone copy (plain objects of this realm), any other kind of object (a Date, a Map) is not JSON.
    if (plain && ![Object.prototype, null].includes(Object.getPrototypeOf(v))) return `${path}: not plain JSON data`;
    const keys = Reflect.ownKeys(v);
    if (queue.length + keys.length > limits.maxNodes) return keys.length > limits.maxNodes ? `${path}: an object of ${keys.length} keys` : tooMany;
    for (const key of keys) {
      if (typeof key !== 'string') return `${path}: a symbol key`;
      if (!Object.prototype.propertyIsEnumerable.call(v, key)) continue;
      if (key.length > limits.maxStringLength) return `${path}: a key of ${key.length} characters (limit ${limits.maxStringLength})`;
      if (RESERVED_IDS.has(key)) return `${path}.${key}: this key is reserved`;
      queue.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1, path: `${path}.${keyLabel(key)}` });
    }
  }
  return null;
}
