/**
 * The mutations of the hostile-snapshot property (issue 22): each field of the persisted format
 * deleted, of the wrong type, out of range (at and past the engine's caps), another game's, or
 * another field's; and the contradictions of the fields the engine relies on (a variant
 * relabelled, another game's teams, ranges or triggers being ordered, turn markers removed or
 * added, counts at their caps). Applied to the snapshots of snapshotPool.ts.
 */
import type { PersistedFull as Persisted } from '../../src/persistence/format.js';
import { seededRandom } from '../../src/simulation.js';
import { allPaths, getAt, type Path } from './hostile.js';
import type { PoolEntry } from './snapshotPool.js';

type Random = () => number;

/** The kinds of mutation of one field. */
export type MutationKind = 'delete' | 'wrongType' | 'outOfRange' | 'swapped' | 'contradicting';

/** A mutation: the path changed, how, and the value put there (undefined: deleted). */
export interface Mutation {
  path: Path;
  kind: MutationKind;
  value?: unknown;
}

/** Values a number field may not hold, and the values at the engine's caps and just past them. */
const NUMBERS = [-1, 0.5, 1e6, 1e6 + 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 1e300, Number.NaN];

/** Out-of-range values for a field holding `original`. */
export function outOfRange(original: unknown): unknown[] {
  if (typeof original === 'number') return NUMBERS;
  if (typeof original === 'string') return ['', 'Z', 'x'.repeat(300), '__proto__', 'pregame', 'gameOver', 'turnMarkerPassed', 'combat.declareBlockers.declaring', 'ending.cleanup.discarding'];
  if (typeof original === 'boolean') return [!original];
  if (Array.isArray(original)) return [[], [...original, ...original], original.slice(1), [...original].reverse()];
  if (original === null) return [0, {}, [], 'Z'];
  return [{}, { Z: 1 }, { ...(original as object), Z: 0 }];
}

/** Values of another type than the original's. */
export function wrongType(original: unknown): unknown[] {
  if (original === null) return [true, 'x', -1.5, []];
  if (Array.isArray(original)) return ['[]', 0, { length: 0 }, null];
  switch (typeof original) {
    case 'string':
      return [42, true, null, [original]];
    case 'number':
      return [String(original), true, null, [original]];
    case 'boolean':
      return ['true', 1, null];
    default:
      return [[], 'object', 7, null];
  }
}

/** Every path of a snapshot whose value may be mutated (the root excluded). */
export function mutablePaths(snapshot: object): Path[] {
  return allPaths(snapshot).filter((p) => p.length > 0);
}

/**
 * Values that contradict another field of the same snapshot: the value of another path with a
 * value of the same type (a player named elsewhere, a state, a variant, another marker's
 * context...), and for records of players, the record of another player.
 */
export function contradicting(snapshot: object, path: Path, r: Random): unknown[] {
  const original = getAt(snapshot, path);
  const text = JSON.stringify(original);
  const same = (valuesByKind(snapshot).get(kindOf(original)) ?? []).filter((v) => v.text !== text);
  const out: unknown[] = [];
  for (let i = 0; i < 3 && same.length > 0; i++) out.push(JSON.parse((same[Math.floor(r() * same.length)] as { text: string }).text));
  return out;
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** The values of a snapshot's fields by kind, as JSON (made once per snapshot). */
function valuesByKind(snapshot: object): Map<string, { text: string }[]> {
  let out = valuesOf.get(snapshot);
  if (out === undefined) {
    out = new Map();
    for (const p of mutablePaths(snapshot)) {
      const v = getAt(snapshot, p);
      out.set(kindOf(v), [...(out.get(kindOf(v)) ?? []), { text: JSON.stringify(v) }]);
    }
    valuesOf.set(snapshot, out);
  }
  return out;
}
const valuesOf = new WeakMap<object, Map<string, { text: string }[]>>();

/** A field of the persisted format: a path with its indexes as '#', its players as '<player>', a turn marker's fields as the game's ('markers.#.context.turn' is 'context.turn'). */
export function fieldOf(path: Path): string {
  const general = path.map((k, i) => (typeof k === 'number' ? '#' : i > 0 && PLAYER_RECORDS.has(String(path[i - 1])) ? '<player>' : k));
  return (general[0] === 'markers' && general[2] === 'context' ? general.slice(2) : general).join('.');
}
const PLAYER_RECORDS = new Set(['handSizes', 'manaPool', 'spellsCast', 'landsPlayedBy', 'stops', 'yields', 'skips', 'ranges', 'influence', 'controlledBy', 'reasons', 'mulligans', 'bottom', 'orders']);

/** One occurrence of a field for the `k`-th case: an entry holding the field (each entry as likely), then one of its paths. */
export function occurrenceFor(where: readonly { entry: number; path: Path }[], k: number): { entry: number; path: Path } {
  const entries = [...new Set(where.map((w) => w.entry))];
  const entry = entries[(k * 7919) % entries.length] as number;
  const paths = where.filter((w) => w.entry === entry);
  return paths[(k * 104729) % paths.length] as { entry: number; path: Path };
}

/** Where each field of the format occurs in the pool: the entry and the path, every occurrence. */
export function occurrences(pool: readonly PoolEntry<object>[]): Map<string, { entry: number; path: Path }[]> {
  const out = new Map<string, { entry: number; path: Path }[]>();
  pool.forEach((e, entry) => {
    for (const path of mutablePaths(e.snapshot)) {
      const field = fieldOf(path);
      out.set(field, [...(out.get(field) ?? []), { entry, path }]);
    }
  });
  return out;
}

export const MUTATION_KINDS: readonly MutationKind[] = ['delete', 'wrongType', 'outOfRange', 'swapped', 'contradicting'];

/**
 * The `k`-th mutation of a kind for one occurrence of a field: its value among the values of
 * that kind (another game's value at the same field, for 'swapped'); null when there is none.
 */
export function mutationOf(pool: readonly PoolEntry<object>[], where: { entry: number; path: Path }, kind: MutationKind, k: number, fields: Map<string, { entry: number; path: Path }[]>): Mutation | null {
  const snapshot = (pool[where.entry] as PoolEntry<object>).snapshot;
  const original = getAt(snapshot, where.path);
  const pick = (values: readonly unknown[]) => (values.length === 0 ? null : { path: where.path, kind, value: values[k % values.length] });
  switch (kind) {
    case 'delete':
      return { path: where.path, kind };
    case 'wrongType':
      return pick(wrongType(original));
    case 'outOfRange':
      return pick(outOfRange(original));
    case 'swapped': {
      // Another game's value at the same field: from the entries holding it, in turn, the first that differs.
      const text = JSON.stringify(original);
      const others = (fields.get(fieldOf(where.path)) ?? []).filter((o) => o.entry !== where.entry);
      for (let i = 0; i < Math.min(others.length, 64); i++) {
        const o = others[(k + i * 7919) % others.length] as { entry: number; path: Path };
        const value = getAt((pool[o.entry] as PoolEntry<object>).snapshot, o.path);
        if (JSON.stringify(value) !== text) return { path: where.path, kind, value: structuredClone(value) };
      }
      return null;
    }
    default:
      return pick(contradicting(snapshot, where.path, seededRandom(k)));
  }
}

/** The counts of the format: each is set to every value of {@link NUMBERS}, in a snapshot of each variant. */
const COUNTS: readonly Path[] = [
  ['version'],
  ['context', 'turn'],
  ['context', 'handSizes', '<player>'],
  ['context', 'manaPool', '<player>'],
  ['context', 'spellsCast', '<player>'],
  ['context', 'landsPlayedBy', '<player>'],
  ['context', 'previousTurnSpells'],
  ['context', 'nextObjectId'],
  ['context', 'planarRolls'],
  ['context', 'emptyTurns'],
  ['context', 'cleanupSteps'],
  ['context', 'maxHandSize'],
];

/**
 * The mutations that contradict the fields the engine relies on (issue 22), in every snapshot
 * they apply to: the variant relabelled as each other variant; the teams, ranges, triggers being
 * ordered and turn markers of each other game; the markers deleted, doubled or their removals
 * changed; each count at every value of {@link NUMBERS} (at and past the engine's caps).
 */
export function contradictions(pool: readonly PoolEntry[]): { entry: number; label: string; input: unknown }[] {
  const out: { entry: number; label: string; input: unknown }[] = [];
  const add = (entry: number, label: string, change: (s: Persisted) => void) => {
    const input = structuredClone((pool[entry] as PoolEntry).snapshot);
    change(input);
    // A Grand Melee game's turns share their context: the change is made to every turn marker's too.
    out.push({ entry, label, input });
  };
  const each = (s: Persisted, change: (c: Persisted['context']) => void) => [s.context, ...(s.markers ?? []).map((m) => m.context)].forEach(change);
  const variants = ['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee'] as const;
  const MOMENTS = /, (combat|discard|orderTriggers|pendingTriggers|a player left|a waiting turn marker|pregame|over)$/;
  pool.forEach((e, entry) => {
    if (!MOMENTS.test(e.name)) return;
    const c = e.snapshot.context;
    for (const variant of variants) if (variant !== c.variant) add(entry, `context.variant = ${variant}`, (s) => each(s, (x) => (x.variant = variant)));
    for (const field of ['teams', 'ranges', 'influence', 'triggerOrder', 'orderTriggers', 'pregame'] as const) {
      const donor = pool.find((d) => JSON.stringify(d.snapshot.context[field]) !== JSON.stringify(c[field]) && (field !== 'triggerOrder' || d.snapshot.context.triggerOrder !== null));
      if (donor !== undefined) add(entry, `context.${field} of ${donor.name}`, (s) => each(s, (x) => ((x as unknown as Record<string, unknown>)[field] = structuredClone(donor.snapshot.context[field]))));
    }
    if (c.teams !== null) add(entry, 'context.teams[0].players reversed', (s) => each(s, (x) => x.teams?.[0]?.players.reverse()));
    if (e.snapshot.markers !== undefined) {
      add(entry, 'markers deleted', (s) => delete s.markers);
      add(entry, 'markers doubled', (s) => s.markers?.push(...structuredClone(s.markers).map((m, i) => ({ ...m, number: m.number + 10 + i }))));
      add(entry, 'markers: removals of every marker 1', (s) => s.markers?.forEach((m) => (m.removals = 1)));
      add(entry, 'markers: no removals', (s) => s.markers?.forEach((m) => (m.removals = 0)));
    } else {
      const melee = pool.find((d) => d.snapshot.markers !== undefined && d.snapshot.status === e.snapshot.status);
      if (melee !== undefined) add(entry, `markers of ${melee.name}`, (s) => (s.markers = structuredClone(melee.snapshot.markers)));
    }
  });
  // Each count at every value, each in a snapshot of another setup (their 'effects', 'discard' or 'combat' moments, in turn).
  const chosen = pool.map((e, entry) => ({ e, entry })).filter(({ e }) => /, (effects|discard|combat)$/.test(e.name));
  let turn = 0;
  for (const count of COUNTS) {
    for (const n of NUMBERS) {
      const { e, entry } = chosen[turn++ % chosen.length] as { e: PoolEntry; entry: number };
      const player = e.snapshot.context.players[0] as string;
      const path = count.map((k) => (k === '<player>' ? player : k));
      {
        add(entry, `${path.join('.')} = ${n}`, (s) => {
          const set = (root: Record<string, unknown>, p: Path) => ((getAt(root, p.slice(0, -1)) as Record<string, unknown>)[p[p.length - 1] as string] = n);
          if (path[0] === 'version') return set(s as unknown as Record<string, unknown>, path);
          each(s, (x) => set({ context: x }, path));
        });
      }
    }
  }
  return out;
}

/** The snapshot with a mutation applied (a deep copy: the pool is never changed). */
export function applied(snapshot: object, m: Mutation): unknown {
  const copy = structuredClone(snapshot) as unknown as Record<string | number, unknown>;
  const parent = getAt(copy, m.path.slice(0, -1)) as Record<string | number, unknown>;
  const key = m.path[m.path.length - 1] as string | number;
  if (m.kind === 'delete') {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else parent[key] = m.value;
  return copy;
}
