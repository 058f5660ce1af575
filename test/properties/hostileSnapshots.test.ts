/**
 * restoreGame on hostile snapshots (CONTRACT.md "restoreGame"): anything that is not a
 * persisted game is refused with INVALID_SNAPSHOT, never a crash or a hang, after bounded
 * work (counted through a proxy, not timed), and without touching Object.prototype.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { restoreGame } from '../../src/index.js';
import { allPaths, counted, getAt, nested, richGame, richSnapshot, setAt, tryRestore, wrongTypes } from './hostile.js';
import { prototypeProblem } from './hostile.js';
import { fill } from './harness.js';
import { seededRandom } from '../../src/simulation.js';
import { assertProperty } from './seeds.js';
import { playToTheEnd, restoredOrRefused, snapshotPool, type PoolEntry } from './snapshotPool.js';
import { applied, contradictions, mutablePaths, mutationOf, MUTATION_KINDS, occurrenceFor, occurrences } from './snapshotMutations.js';
import type { Path } from './hostile.js';
import { allModules } from '../../src/allModules.js';

/** Reads allowed before a refusal: a small multiple of the node limit of checkBounds (100,000). */
const READ_BUDGET = 1_000_000;
const TEN_MB = 10 * 1024 * 1024;

function expectRefused(input: unknown, mentions?: RegExp): string {
  const outcome = tryRestore(input);
  expect(outcome).not.toBe('restored');
  if (outcome === 'restored') return '';
  expect(outcome.code).toBe('INVALID_SNAPSHOT');
  expect(outcome.message.length).toBeGreaterThan(0);
  expect(outcome.message.length).toBeLessThan(2000);
  if (mentions) expect(outcome.message).toMatch(mentions);
  return outcome.message;
}

function expectBoundedRefusal(input: unknown): void {
  const probe = counted(input);
  expectRefused(probe.value);
  expect(probe.reads()).toBeLessThan(READ_BUDGET);
}

afterEach(() => {
  expect(prototypeProblem()).toBeNull();
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

describe('restoreGame: valid snapshots', () => {
  it('restores the rich snapshot, the baseline every hostile case corrupts', () => {
    const game = richGame();
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(JSON.stringify(restored.view())).toBe(JSON.stringify(game.view()));
  });
});

describe('restoreGame: wrong types in every field are INVALID_SNAPSHOT', () => {
  const snapshot = richSnapshot();
  const paths = allPaths(snapshot);
  it('covers every field of the snapshot', () => {
    expect(paths.length).toBeGreaterThan(60);
  });
  it.each(paths.map((p) => [p.join('.') || '(root)', p] as const))('%s', (_name, path) => {
    for (const bad of wrongTypes(getAt(snapshot, path))) expectRefused(setAt(snapshot, path, bad));
  });
  it('non-objects and missing fields', () => {
    for (const bad of [undefined, null, 0, 'snapshot', [], true, 1n, Symbol('s'), () => snapshot, new Date(0), new Map()]) expectRefused(bad);
    // Fields added since are absent from earlier snapshots, which still restore: `seq` (0) and `extraTurn` (a regular turn), v3; `waitingToPhaseIn` (nobody waits, CR 702.26n).
    const addedInV3 = new Set(['seq', 'extraTurn', 'waitingToPhaseIn']);
    for (const key of Object.keys(snapshot).filter((k) => !addedInV3.has(k))) {
      const { [key]: _gone, ...rest } = snapshot as unknown as Record<string, unknown>;
      expectRefused(rest, new RegExp(key));
    }
    for (const key of Object.keys(snapshot.context).filter((k) => !addedInV3.has(k))) {
      const { [key]: _gone, ...context } = snapshot.context as unknown as Record<string, unknown>;
      expectRefused({ ...snapshot, context });
    }
  });
});

describe('restoreGame: unknown state values are INVALID_SNAPSHOT', () => {
  const snapshot = richSnapshot();
  it.each([
    ['state', 'nowhere'],
    ['state', 'combat.nowhere'],
    ['state', 'combat'],
    ['state', ''],
    ['state', 'combat.declareAttackers.priority.deeper'],
    ['state', '__proto__'],
    ['state', 'constructor'],
    ['state', 'toString'],
    ['state', 'gameOver'],
    ['state', 'beginning.upkeep'],
    ['status', 'paused'],
    ['status', 'done'],
    ['engine', 'another-engine'],
    ['version', -1],
    ['version', 1.5],
    ['format', 1],
    ['version', '1'],
  ])('%s = %j', (field, value) => {
    expectRefused({ ...snapshot, [field]: value });
  });
  it.each([
    ['phase', 'lunch'],
    ['step', 'nap'],
    ['step', 'upkeep'],
    ['rules', 'modern'],
    ['cleanupCheck', 'maybe'],
    ['extraPhases', ['beginning']],
    ['skips', { A: { nap: 1 } }],
  ])('context.%s = %j', (field, value) => {
    expectRefused({ ...snapshot, context: { ...snapshot.context, [field]: value } });
  });
});

describe('restoreGame: __proto__ and constructor keys are refused and pollute nothing', () => {
  const text = JSON.stringify(richSnapshot());
  const pollute = '{"polluted": true, "toString": 1}';
  it.each([
    ['top level', text.replace('{', `{"__proto__": ${pollute},`)],
    ['context', text.replace('"context":{', `"context":{"__proto__": ${pollute},`)],
    ['manaPool', text.replace('"manaPool":{', `"manaPool":{"__proto__": 5,`)],
    ['handSizes', text.replace('"handSizes":{', `"handSizes":{"constructor": 5,`)],
    ['skips', text.replace('"skips":{', `"skips":{"__proto__": {"turn": 1},`)],
    ['skips of a player', text.replace('"skips":{', `"skips":{"B": {"__proto__": 1},`)],
    ['a stack object', text.replace('"stack":[{', `"stack":[{"__proto__": ${pollute},`)],
    ['constructor.prototype', text.replace('{', `{"constructor": {"prototype": ${pollute}},`)],
    ['a player named __proto__', text.replace(/"A"/g, '"__proto__"')],
    ['a player named constructor', text.replace(/"A"/g, '"constructor"')],
    ['a player named hasOwnProperty', text.replace(/"A"/g, '"hasOwnProperty"')],
  ])('%s', (_name, json) => {
    expectRefused(JSON.parse(json));
  });
});

describe('restoreGame: players who are not in the game are INVALID_SNAPSHOT (CR 800.4a)', () => {
  const snapshot = richSnapshot();
  const gone = { ...snapshot.context, players: ['B', 'C'], manaPool: { B: 0, C: 0 }, handSizes: { B: 10, C: 9 }, skips: { C: { draw: 1 } } };
  it.each([
    ['a stack controller who never played', { stack: [{ id: 'x', controller: 'Z', kind: 'spell' }] }],
    ['a stack controller who left', { ...gone, stack: [{ id: 'x', controller: 'A', kind: 'spell' }] }],
    ['a pending trigger of a stranger', { pendingTriggers: [{ id: 't', controller: 'Z' }] }],
    ['priority with a stranger', { priority: 'Z' }],
    ['priority with a player who left', { ...gone, stack: [], priority: 'A' }],
    ['a stranger who passed', { passed: ['Z'] }],
    ['an attacker on a stranger', { combat: { ...snapshot.context.combat, attackers: [{ id: 'b1', defender: 'Z' }] } }],
    ['a blocker of a stranger', { combat: { ...snapshot.context.combat, blockers: [{ id: 'z1', attacker: 'b1', player: 'Z' }] } }],
    ['a stranger who declared blockers', { combat: { ...snapshot.context.combat, declaredBy: ['Z'] } }],
    ['an extra turn for a stranger', { extraTurns: ['Z'] }],
    ['mana of a stranger', { manaPool: { ...snapshot.context.manaPool, Z: 1 } }],
    ['a stranger as the active player', { activePlayer: 'Z' }],
    ['players outside the seats', { players: ['A', 'B', 'Z'] }],
    ['winners in an active game', { winners: ['A'] }],
  ])('%s', (_name, patch) => {
    expectRefused({ ...snapshot, context: { ...snapshot.context, ...patch } });
  });
});

describe('restoreGame: a live game that would wait for nobody is INVALID_SNAPSHOT (CR 117.3, 502, 514.3)', () => {
  const snapshot = richSnapshot();
  const at = (state: string, step: string, patch: Record<string, unknown>) => ({
    ...snapshot,
    state,
    context: { ...snapshot.context, phase: state.split('.')[0], step, ...patch },
  });
  it.each([
    ['nobody holds priority in a priority step', at('ending.end', 'end', { priority: null, stack: [] })],
    ['the untap step, where nobody ever waits', at('beginning.untap', 'untap', { priority: 'B' })],
    ["the cleanup step's check", at('ending.cleanup.checking', 'cleanup', { priority: null })],
    ['the choice of what follows a phase', { ...at('ending.end', 'end', {}), state: 'nextPhase' }],
    ['priority while attackers are being declared', at('combat.declareAttackers.declaring', 'declareAttackers', { priority: 'B', combat: { attackers: [], blockers: [], declaredBy: [], firstStrikeStep: false } })],
    ['declaring attackers with no active player', at('combat.declareAttackers.declaring', 'declareAttackers', { priority: null, activePlayer: null })],
    ['declaring blockers with nobody attacked', at('combat.declareBlockers.declaring', 'declareBlockers', { priority: null, combat: { attackers: [], blockers: [], declaredBy: [], firstStrikeStep: false } })],
    ['discarding with nothing to discard', at('ending.cleanup.discarding', 'cleanup', { priority: null, handSizes: { A: 9, B: 7, C: 9 } })],
    ['waiting in a skipped step', at('ending.end', 'end', { skipping: { phase: 'ending', step: 'end', rule: '614.10' } })],
  ])('%s', (_name, input) => {
    expectRefused(input);
  });
});

describe('restoreGame: parts that contradict the rules are INVALID_SNAPSHOT (CR 117.4, 723.1)', () => {
  const snapshot = richSnapshot();
  const patched = (patch: Record<string, unknown>) => ({ ...snapshot, context: { ...snapshot.context, ...patch } });
  it.each([
    ['the player holding priority has passed since the last action (117.4)', patched({ passed: ['A', 'B', 'C'] }), /context\.passed/],
    ["a player controlled during another player's turn (723.1)", patched({ controlledBy: { A: 'C' } }), /context\.controlledBy\.A/],
    ['a player controlled by themselves (723.9)', patched({ controlledBy: { B: 'B' } }), /context\.controlledBy\.B/],
  ])('%s', (_name, input, mentions) => {
    expectRefused(input, mentions);
  });

  it('the same snapshot with its parts agreeing restores', () => {
    expect(tryRestore(patched({ controlledBy: { B: 'C' } }))).toBe('restored');
  });
});

describe('restoreGame: huge and deep input is refused after bounded work', () => {
  const snapshot = richSnapshot();
  it('a stack of 1,000,000 entries', () => {
    const stack = Array.from({ length: 1_000_000 }, (_, i) => ({ id: `s${i}`, controller: 'A', kind: 'spell' }));
    expectBoundedRefusal({ ...snapshot, context: { ...snapshot.context, stack } });
  });
  it('a stack of 20,000 entries (under the node limit, over the stack limit)', () => {
    const stack = Array.from({ length: 20_000 }, (_, i) => ({ id: `s${i}`, controller: 'A', kind: 'spell' }));
    expectBoundedRefusal({ ...snapshot, context: { ...snapshot.context, stack } });
  });
  it('an object with 200,000 keys (twice the node limit)', () => {
    const manaPool: Record<string, number> = {};
    for (let i = 0; i < 200_000; i++) manaPool[`p${i}`] = 0;
    expectBoundedRefusal({ ...snapshot, context: { ...snapshot.context, manaPool } });
  });
  it('deeply nested junk, 100,000 levels', () => {
    for (const where of ['top', 'context', 'stack']) {
      const deep = nested(100_000);
      const input =
        where === 'top'
          ? { ...snapshot, junk: deep }
          : where === 'context'
            ? { ...snapshot, context: { ...snapshot.context, junk: deep } }
            : { ...snapshot, context: { ...snapshot.context, stack: [deep] } };
      expectBoundedRefusal(input);
    }
  });
  it('a cyclic object', () => {
    const cyclic: Record<string, unknown> = { ...snapshot, context: { ...snapshot.context } };
    (cyclic.context as Record<string, unknown>).self = cyclic;
    expectBoundedRefusal(cyclic);
  });
  it.each(['state', 'seat', 'stack id', 'manaPool key', 'top-level key', 'engine'])('a string of 10 MB as %s', (where) => {
    const big = 'x'.repeat(TEN_MB);
    const c = snapshot.context;
    const input =
      where === 'state'
        ? { ...snapshot, state: big }
        : where === 'seat'
          ? { ...snapshot, context: { ...c, seats: [...c.seats, big] } }
          : where === 'stack id'
            ? { ...snapshot, context: { ...c, stack: [{ id: big, controller: 'A', kind: 'spell' }] } }
            : where === 'manaPool key'
              ? { ...snapshot, context: { ...c, manaPool: { ...c.manaPool, [big]: 1 } } }
              : where === 'top-level key'
                ? { ...snapshot, [big]: 1 }
                : { ...snapshot, engine: big };
    expectBoundedRefusal(input);
  });
});

describe('restoreGame: inputs that fight back', () => {
  const snapshot = richSnapshot();
  it('getters that throw', () => {
    const input = { ...snapshot };
    Object.defineProperty(input, 'context', { enumerable: true, get: () => { throw new Error('boom'); } });
    expectRefused(input);
  });
  it('a proxy that throws on every trap', () => {
    const input = new Proxy({}, { get: () => { throw new Error('trap'); }, ownKeys: () => { throw new Error('trap'); } });
    expectRefused(input);
  });
  it('an object with a hostile toString in an error path', () => {
    const evil = { toString: () => { throw new Error('no'); }, valueOf: () => { throw new Error('no'); } };
    expectRefused({ ...snapshot, state: evil });
    expectRefused({ ...snapshot, context: { ...snapshot.context, turn: evil } });
  });
});

describe('restoreGame: random corruption is refused or restores a sound game', () => {
  it('never throws anything but INVALID_SNAPSHOT, and what it accepts plays on: every offered decision is accepted, never stuck', () => {
    const snapshot = richSnapshot();
    const paths = allPaths(snapshot);
    assertProperty(
      fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 3 }), (path, value) => {
        const input = setAt(snapshot, path, value);
        const outcome = tryRestore(input);
        if (outcome !== 'restored') {
          expect(outcome.code).toBe('INVALID_SNAPSHOT');
          return;
        }
        const game = restoreGame(input, { use: allModules });
        const r = seededRandom(path.length);
        for (let i = 0; i < 200 && game.view().gameOver === null; i++) {
          const view = game.view();
          const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
          expect(actions.length, `a restored game is stuck in ${view.phase}/${view.step}`).toBeGreaterThan(0);
          const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
          const event = fill(pass !== undefined && r() < 0.8 ? pass : actions[Math.floor(r() * actions.length)]!, view, r, i);
          const result = game.send(event);
          expect(result.ok ? 'ok' : result.error.message, JSON.stringify(event)).toBe('ok');
        }
        expect(prototypeProblem()).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * Issue 22: every field of the persisted format, in snapshots of real games of every variant
 * (free-for-all, Two-Headed Giant, Archenemy, Emperor, Planechase, Grand Melee) taken mid-combat,
 * awaiting a discard, with triggers waiting or being ordered, with effects in force, in the
 * pregame, over, and in the earlier format that `upgraded` reads. Each mutation (the field
 * deleted, of the wrong type, out of range, another game's, or another field's value) is refused
 * with INVALID_SNAPSHOT, or restores a game that plays to its end: send never throws, every
 * offered decision is accepted, persist() works, and the game saved and restored is equal.
 */
describe('restoreGame: every field of real games, mutated, is refused or plays to its end (issue 22)', () => {
  const pool = snapshotPool();
  const fields = occurrences(pool);

  /** Refused with INVALID_SNAPSHOT, or played to its end; the failure otherwise. */
  function outcome(input: unknown, seed: number): 'refused' | 'played' | string {
    try {
      const restored = restoredOrRefused(input);
      if ('refused' in restored) return restored.refused.length > 0 && restored.refused.length < 2000 ? 'refused' : `a refusal of ${restored.refused.length} characters`;
      // Grand Melee games (several turns, each event checked against each) play fewer events before their players concede.
      playToTheEnd(restored.game, seed, restored.game.view().turns === undefined ? 16 : 8);
      return 'played';
    } catch (err) {
      return String(err);
    }
  }

  it('takes snapshots of every variant at every moment that matters', () => {
    const names = pool.map((e) => e.name).join('\n');
    for (const variant of ['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee']) expect(names).toContain(`${variant} (`);
    for (const moment of ['combat', 'discard', 'orderTriggers', 'pendingTriggers', 'effects', 'pregame', 'over', 'a waiting turn marker', 'in the earlier format']) expect(names).toContain(moment);
    expect(fields.size).toBeGreaterThan(150);
  });

  it('sweeps every field with each kind of mutation', () => {
    const failures: string[] = [];
    const counts = { refused: 0, played: 0 };
    let k = 0;
    for (const [field, where] of [...fields].sort(([a], [b]) => (a < b ? -1 : 1))) {
      for (const kind of MUTATION_KINDS) {
        k++;
        const at = occurrenceFor(where, k);
        const mutation = mutationOf(pool, at, kind, k, fields);
        if (mutation === null) continue;
        const result = outcome(applied((pool[at.entry] as PoolEntry).snapshot, mutation), k);
        if (result === 'refused' || result === 'played') counts[result]++;
        else failures.push(`${field} ${kind} in ${(pool[at.entry] as PoolEntry).name} (${at.path.join('.')} = ${JSON.stringify(mutation.value)?.slice(0, 80)}): ${result}`);
      }
    }
    expect(failures).toEqual([]);
    expect(counts.refused).toBeGreaterThan(300);
    expect(counts.played).toBeGreaterThan(100);
  });

  it('contradicts the fields the engine relies on: variants relabelled, teams, ranges and triggers being ordered of other games, turn markers removed or added, counts at and past their caps', () => {
    const failures: string[] = [];
    const counts = { refused: 0, played: 0 };
    for (const [k, c] of contradictions(pool).entries()) {
      const result = outcome(c.input, k);
      if (result === 'refused' || result === 'played') counts[result]++;
      else failures.push(`${(pool[c.entry] as PoolEntry).name}, ${c.label}: ${result}`);
    }
    expect(failures).toEqual([]);
    expect(counts.refused).toBeGreaterThan(400);
  });

  // numRuns: 150 random mutations (a few milliseconds each: most are refused, an accepted one
  // plays about 30 events) keep this under two seconds; FC_RUNS=5000 runs a deeper search.
  it('a random field of a random snapshot, a random mutation: refused or played to its end', () => {
    assertProperty(
      fc.property(fc.nat(pool.length - 1), fc.nat(), fc.constantFrom(...MUTATION_KINDS), fc.nat(), (entry, pathIndex, kind, k) => {
        const paths = mutablePaths((pool[entry] as PoolEntry).snapshot);
        const where = { entry, path: paths[pathIndex % paths.length] as Path };
        const mutation = mutationOf(pool, where, kind, k, fields);
        if (mutation === null) return;
        const result = outcome(applied((pool[entry] as PoolEntry).snapshot, mutation), k);
        expect(['refused', 'played'], `${(pool[entry] as PoolEntry).name}: ${where.path.join('.')} ${kind} ${JSON.stringify(mutation.value)?.slice(0, 80)}: ${result}`).toContain(result);
      }),
      { numRuns: 150 },
    );
  });
});
