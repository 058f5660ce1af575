/**
 * restoreGame on hostile snapshots in the compact form (format 3, what `persist()` writes;
 * src/persistence/compact.ts), as hostileSnapshots.test.ts does for the full form (format 2):
 * a compact snapshot is read back into the full form before the validation, so every refusal
 * of the full form holds, and what the reading itself cannot make sense of is refused too.
 * A value of the wrong type in any field is INVALID_SNAPSHOT naming that field (by its full name
 * once read back: `context.handSizes.B` for the second entry of a list in seat order); any other
 * mutation of any field of real games of every variant is refused or restores a game that plays
 * to its end.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreGame, type Persisted } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { fill } from './harness.js';
import { allPaths, getAt, prototypeProblem, richGame, setAt, tryRestore, wrongTypes, type Path } from './hostile.js';
import { assertProperty } from './seeds.js';
import { applied, mutablePaths, mutationOf, MUTATION_KINDS, occurrenceFor, occurrences } from './snapshotMutations.js';
import { compactPool, playToTheEnd, restoredOrRefused, snapshotPool, type PoolEntry } from './snapshotPool.js';
import { allModules } from '../../src/allModules.js';

afterEach(() => {
  expect(prototypeProblem()).toBeNull();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

/** The fields whose counts a compact snapshot may write as a list in seat order, null for a seat without an entry. */
const SEAT_LISTS = new Set(['landsPlayedBy', 'spellsCast', 'manaPool', 'handSizes', 'ranges']);

/**
 * Whether a refusal names the field a path is in: one of the path's keys below `context` and
 * `markers` (a union such as an effect's duration is named as a whole), or its last key.
 */
function namesField(message: string, path: Path): boolean {
  const keys = path.filter((k): k is string => typeof k === 'string');
  const inner = keys.filter((k) => k !== 'context' && k !== 'markers');
  return (inner.length > 0 ? inner : keys.slice(-1)).some((k) => message.includes(k));
}

/** Whether a path is inside an emitted event the hook has not seen yet, of which only the `type` is checked (src/persistence/validate.ts). */
function insidePendingEvent(path: Path): boolean {
  const at = path.indexOf('pending');
  return at >= 0 && path.length > at + 2 && !(path.length === at + 3 && path[at + 2] === 'type');
}

/** Whether a path is an entry of a list in seat order (where null means "no entry", a value of its own). */
const inSeatList = (path: Path) => typeof path[path.length - 1] === 'number' && SEAT_LISTS.has(String(path[path.length - 2]));

/** Refused with INVALID_SNAPSHOT, or played to its end; the failure otherwise. */
function outcome(input: unknown, seed: number): 'refused' | 'played' | string {
  try {
    const restored = restoredOrRefused(input);
    if ('refused' in restored) return restored.refused.length > 0 && restored.refused.length < 2000 ? 'refused' : `a refusal of ${restored.refused.length} characters`;
    playToTheEnd(restored.game, seed, restored.game.view().turns === undefined ? 16 : 8);
    return 'played';
  } catch (err) {
    return String(err);
  }
}

const pool = compactPool(snapshotPool());
const rich = (): Persisted => JSON.parse(JSON.stringify(richGame().persist())) as Persisted;

describe('compact snapshots: a value of the wrong type in any field is INVALID_SNAPSHOT naming the field', () => {
  // The rich game, and a snapshot of each variant in combat, of the pregame, of a waiting turn marker and of a finished game.
  const chosen: PoolEntry<object>[] = [{ name: 'the rich game', snapshot: rich() }];
  for (const moment of [', combat (compact)', ', pregame (compact)', ', a waiting turn marker (compact)', ', over (compact)']) {
    for (const variant of ['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee']) {
      const entry = pool.find((e) => e.name.startsWith(`${variant} (`) && e.name.endsWith(moment));
      if (entry !== undefined) chosen.push(entry);
    }
  }

  it('covers the compact fields of every variant', () => {
    expect(chosen.length).toBeGreaterThan(10);
    const paths = chosen.flatMap((e) => mutablePaths(e.snapshot).map((p) => p.join('.')));
    for (const field of ['context.phases.0', 'context.handSizes.0', 'context.combat.attackers.0.id', 'markers.1.context.seats.0']) expect(paths).toContain(field);
    expect(paths.some((p) => /^markers\.\d+\.life$/.test(p))).toBe(true);
  });

  it.each(chosen.map((e) => [e.name, e.snapshot] as const))('%s', (_name, snapshot) => {
    const failures: string[] = [];
    for (const path of mutablePaths(snapshot)) {
      for (const bad of wrongTypes(getAt(snapshot, path))) {
        if ((bad === null && inSeatList(path)) || insidePendingEvent(path)) continue;
        const result = tryRestore(setAt(snapshot, path, bad));
        const where = `${path.join('.')} = ${JSON.stringify(bad)}`;
        if (result === 'restored') failures.push(`${where}: restored`);
        else if (result.code !== 'INVALID_SNAPSHOT' || !namesField(result.message, path)) failures.push(`${where}: ${result.code} ${result.message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('compact snapshots: every field of real games, mutated, is refused or plays to its end', () => {
  const fields = occurrences(pool);

  it('takes compact snapshots of every variant, with their short forms', () => {
    for (const variant of ['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee']) expect(pool.some((e) => e.name.startsWith(`${variant} (`))).toBe(true);
    for (const field of ['context.phases.#', 'context.steps.#', 'context.handSizes.#', 'context.spellsCast.#', 'markers.#.life']) expect([...fields.keys()]).toContain(field);
  });

  it('sweeps every field with each kind of mutation (a field deleted is at its default)', () => {
    const failures: string[] = [];
    const counts = { refused: 0, played: 0 };
    let k = 0;
    for (const [field, where] of [...fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (const kind of MUTATION_KINDS) {
        k++;
        const at = occurrenceFor(where, k);
        const mutation = mutationOf(pool, at, kind, k, fields);
        if (mutation === null) continue;
        const result = outcome(applied((pool[at.entry] as PoolEntry<object>).snapshot, mutation), k);
        if (result === 'refused' || result === 'played') counts[result]++;
        else failures.push(`${field} ${kind} in ${(pool[at.entry] as PoolEntry<object>).name} (${at.path.join('.')} = ${JSON.stringify(mutation.value)?.slice(0, 80)}): ${result}`);
      }
    }
    expect(failures).toEqual([]);
    expect(counts.refused).toBeGreaterThan(200);
    expect(counts.played).toBeGreaterThan(100);
  });

  it('a random field of the rich game, any JSON value: refused with INVALID_SNAPSHOT, or a game that plays on, every offered decision accepted', () => {
    const snapshot = rich();
    const paths = allPaths(snapshot);
    assertProperty(
      fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), (path, value) => {
        const input = setAt(snapshot, path, value);
        const result = tryRestore(input);
        if (result !== 'restored') {
          expect(result.code).toBe('INVALID_SNAPSHOT');
          return;
        }
        const game = restoreGame(input, { use: allModules });
        const r = seededRandom(path.length);
        for (let i = 0; i < 200 && game.view().gameOver === null; i++) {
          const view = game.view();
          const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
          expect(actions.length, `a restored game is stuck in ${view.phase}/${view.step}`).toBeGreaterThan(0);
          const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
          const result = game.send(fill(pass !== undefined && r() < 0.8 ? pass : actions[Math.floor(r() * actions.length)]!, view, r, i));
          expect(result.ok ? 'ok' : result.error.message).toBe('ok');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('short forms past the engine\'s limits are refused after bounded work: 100,000 phase names, 100,000 step names, a seat list of 100,000 counts', () => {
    const snapshot = rich() as Persisted & { context: Record<string, unknown> };
    const big = (field: string, value: unknown) => ({ ...snapshot, context: { ...snapshot.context, [field]: value } });
    for (const [field, value] of [
      ['phases', Array.from({ length: 100_000 }, () => 'combat')],
      ['steps', Array.from({ length: 100_000 }, () => 'end')],
      ['handSizes', Array.from({ length: 100_000 }, () => 7)],
    ] as const) {
      const result = tryRestore(big(field, value));
      expect(result === 'restored' ? 'restored' : result.message).toMatch(new RegExp(`context\\.${field}`));
    }
  });
});
