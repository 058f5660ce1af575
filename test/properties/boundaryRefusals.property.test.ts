/**
 * Refusing an oversized input costs no more than refusing a slightly oversized one (issue 22,
 * point 1): every list's length is checked before a single entry is read, for every field of
 * every event sent with `send`, every field of createGame's options and every list of a
 * checkpoint hook's result. Oversized lists (of valid entries, or holes: `new Array(1e7)`),
 * deeply nested values, long strings and objects of many keys are refused with the field's
 * code, change nothing, and are read a bounded number of times: the work is counted through a
 * proxy, not timed (bench/refusal.ts times it: µs per KB of refused input).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allModules } from '../../src/allModules.js';
import { createGame, TurnEngineError, type Game } from '../../src/index.js';
import { parseEvent } from '../../src/schemas.js';
import { EVENT_TYPES } from '../../src/events/index.js';
import { SAMPLE_EVENTS, SAMPLE_PLAYERS, fieldPaths, pathName, withField, type FieldPath } from '../support/sampleEvents.js';
import { counted, nested, prototypeProblem } from './hostile.js';
import { assertProperty } from './seeds.js';

/** At most this many reads (property reads, key listings, `in` checks) refuse any one input, whatever its size. */
const READ_BOUND = 300;

/** An array of `length` holes (`new Array(length)`: nothing in it to read but its length), made once for each length (never changed). */
const holes = memo((length: number): unknown[] => {
  const a: unknown[] = [];
  a.length = length;
  return a;
});

/** `make` made once for each argument: the hostile values are large, and only read. */
function memo<A, R>(make: (a: A) => R): (a: A) => R {
  const made = new Map<A, R>();
  return (a) => {
    if (!made.has(a)) made.set(a, make(a));
    return made.get(a) as R;
  };
}

const entries = memo((key: string) => {
  const [n, sample] = JSON.parse(key) as [number, unknown];
  return Array.from({ length: n }, () => structuredClone(sample));
});
const manyKeys = memo((n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));

/** The hostile values a field is given: each far beyond any bound, whatever the field holds. */
const hostileValue = (sample: unknown): fc.Arbitrary<{ name: string; make: () => unknown }> =>
  fc.oneof(
    fc.constantFrom(1001, 4097, 100_000, 10_000_000).map((n) => ({ name: `${n} holes`, make: () => holes(n) })),
    // A list of entries like the sample's own (or like the sample itself), past every list's bound.
    fc.constantFrom(1001, 20_000).map((n) => ({ name: `${n} entries`, make: () => entries(JSON.stringify([n, Array.isArray(sample) ? (sample[0] ?? 'x') : sample])) })),
    fc.constantFrom(100, 10_000).map((depth) => ({ name: `${depth} levels of nesting`, make: () => nested(depth) })),
    fc.integer({ min: 257, max: 1_000_000 }).map((n) => ({ name: `a string of ${n} characters`, make: () => 'x'.repeat(n) })),
    fc.constantFrom(1000, 50_000).map((n) => ({ name: `an object of ${n} keys`, make: () => manyKeys(n) })),
  );

/** Every (event type, field) pair of the sample events, nested fields and list entries included. */
const EVENT_FIELDS: [string, FieldPath][] = Object.entries(SAMPLE_EVENTS).flatMap(([type, sample]) => fieldPaths(sample).map((p): [string, FieldPath] => [type, p]));

/** The value at a path of a sample. */
const at = (root: unknown, path: FieldPath): unknown => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);

/** The state of a game as a refusal must leave it. */
const stateOf = (game: Game) => JSON.stringify([game.persist(), game.view()]);

describe('sample events (test/support/sampleEvents.ts)', () => {
  it('cover every event type a host may send, and each parses', () => {
    expect(Object.keys(SAMPLE_EVENTS).sort()).toEqual([...EVENT_TYPES].sort());
    for (const sample of Object.values(SAMPLE_EVENTS)) expect(parseEvent(sample)).toMatchObject({ ok: true });
  });
});

describe('events: an oversized, holey or deeply nested field is refused at a cost bounded by the limits, not by its size', () => {
  it('every field of every event type: INVALID_EVENT naming the field, nothing changed, at most READ_BOUND reads', () => {
    const game = createGame({ players: SAMPLE_PLAYERS, use: allModules });
    const emitted: unknown[] = [];
    game.on('*', (e) => emitted.push(e));
    const before = stateOf(game);
    assertProperty(
      fc.property(
        fc.constantFrom(...EVENT_FIELDS).chain(([type, path]) => hostileValue(at(SAMPLE_EVENTS[type as keyof typeof SAMPLE_EVENTS], path)).map((v) => ({ type, path, v }))),
        ({ type, path, v }) => {
          const event = withField(SAMPLE_EVENTS[type as keyof typeof SAMPLE_EVENTS], path, v.make());
          const input = counted(event);
          const result = game.send(input.value as unknown);
          const where = `${type} ${pathName('event', path)} = ${v.name}`;
          expect(result.ok, where).toBe(false);
          if (!result.ok) {
            expect(result.error.code, where).toBe('INVALID_EVENT');
            // The message names the field (or the list or object it is in).
            expect(result.error.message, where).toContain(pathName('event', path.slice(0, 1)));
            expect(result.error.message.length, where).toBeLessThan(500);
          }
          expect(input.reads(), where).toBeLessThanOrEqual(READ_BOUND);
        },
      ),
      { numRuns: 400 },
    );
    expect(stateOf(game)).toBe(before);
    expect(emitted).toEqual([]);
    expect(prototypeProblem()).toBeNull();
  });

  it('lists a hair over their bound and lists of ten million holes are refused alike, each read only for its length', () => {
    const game = createGame({ players: SAMPLE_PLAYERS, use: allModules });
    const lists: [string, FieldPath, number][] = [
      ['DECLARE_ATTACKERS', ['attackers'], 1000],
      ['DECLARE_BLOCKERS', ['blockers'], 1000],
      ['TRIGGER', ['triggers'], 1000],
      ['ORDER_TRIGGERS', ['order'], 1000],
      ['ORDER_BLOCKERS', ['order'], 1000],
      ['ORDER_ATTACKERS', ['order'], 1000],
      ['SET_STOPS', ['stops'], 64],
      ['ADD_EFFECT', ['effect', 'players'], 64],
    ];
    for (const [type, path, bound] of lists) {
      const sample = SAMPLE_EVENTS[type as keyof typeof SAMPLE_EVENTS];
      const entry = (at(sample, path) as unknown[])[0];
      for (const value of [Array.from({ length: bound + 1 }, () => structuredClone(entry)), holes(10_000_000)]) {
        const input = counted(withField(sample, path, value));
        const result = game.send(input.value as unknown);
        expect(result.ok === false && result.error.message, type).toContain(`${pathName('event', path)}: must have at most ${bound} entries, got a list of ${value.length} entries`);
        expect(input.reads(), type).toBeLessThanOrEqual(READ_BOUND);
      }
    }
  });
});

/** createGame's options with every field given (Two-Headed Giant: teams). */
const FULL_OPTIONS = {
  players: ['A', 'B', 'C', 'D'],
  startingPlayer: 'A',
  rules: 'current',
  maxHandSize: 7,
  handSize: 7,
  attack: 'all',
  orderTriggers: 'host',
  pregame: false,
  variant: 'twoHeadedGiant',
  teams: [
    { id: 't1', players: ['A', 'B'] },
    { id: 't2', players: ['C', 'D'] },
  ],
  rangeOfInfluence: 2,
  seed: 1,
};

/** The INVALID_OPTIONS message createGame throws, or 'created'. */
function createOutcome(options: unknown): string {
  try {
    createGame(options as never);
    return 'created';
  } catch (err) {
    if (!(err instanceof TurnEngineError)) throw err;
    expect(err.code).toBe('INVALID_OPTIONS');
    return err.message;
  }
}

describe('createGame options: an oversized, holey or deeply nested option is refused at a bounded cost', () => {
  it('the full options are accepted', () => {
    expect(createOutcome(FULL_OPTIONS)).toBe('created');
  });

  it('every option, and every field of a team: INVALID_OPTIONS naming it, at most READ_BOUND reads', () => {
    const fields = fieldPaths(FULL_OPTIONS);
    assertProperty(
      fc.property(
        fc.constantFrom(...fields).chain((path) => hostileValue(at(FULL_OPTIONS, path)).map((v) => ({ path, v }))),
        ({ path, v }) => {
          const input = counted(withField(FULL_OPTIONS, path, v.make()));
          const where = `${pathName('options', path)} = ${v.name}`;
          const message = createOutcome(input.value);
          expect(message, where).toContain(pathName('options', path.slice(0, 1)));
          expect(message.length, where).toBeLessThan(500);
          expect(input.reads(), where).toBeLessThanOrEqual(READ_BOUND);
        },
      ),
      { numRuns: 200 },
    );
    expect(prototypeProblem()).toBeNull();
  });

  it('ten million players, teams or team members are refused naming the bound, reading only the length', () => {
    for (const path of [['players'], ['teams'], ['teams', 0, 'players']] as FieldPath[]) {
      const input = counted(withField(FULL_OPTIONS, path, holes(10_000_000)));
      expect(createOutcome(input.value)).toBe(`${pathName('options', path)}: must have at most 64 entries, got a list of 10000000 entries`);
      expect(input.reads()).toBeLessThanOrEqual(READ_BOUND);
    }
  });
});

describe('checkpoint hook results: an oversized list is refused (HOOK_FAILED) at a bounded cost', () => {
  it('triggers and events: oversized, holey, nested, and events each spoilt like those sent', () => {
    let result: unknown;
    const game = createGame({ players: SAMPLE_PLAYERS, hooks: { checkpoint: () => result as never } });
    const before = stateOf(game);
    const resultArb = fc.oneof(
      fc.constantFrom('triggers', 'events').chain((key) => hostileValue(key === 'triggers' ? SAMPLE_EVENTS.TRIGGER.triggers : [SAMPLE_EVENTS.ADD_MANA]).map((v) => ({ key, path: [key] as FieldPath, v }))),
      // One event of the result spoilt in one field, as the events sent with `send` above.
      fc.constantFrom(...EVENT_FIELDS).chain(([type, path]) => hostileValue(at(SAMPLE_EVENTS[type as keyof typeof SAMPLE_EVENTS], path)).map((v) => ({ key: 'events', path: ['events', 0, ...path] as FieldPath, v, type }))),
    );
    assertProperty(
      fc.property(resultArb, (c) => {
        const value = c.v.make();
        const raw = c.path.length === 1 ? { [c.key]: value } : { events: [withField(SAMPLE_EVENTS[(c as { type: string }).type as keyof typeof SAMPLE_EVENTS], c.path.slice(2), value)] };
        const input = counted(raw);
        result = input.value;
        const r = game.send({ type: 'PASS_PRIORITY', player: 'A' });
        const where = `${pathName('result', c.path)} = ${c.v.name}`;
        expect(r.ok, where).toBe(false);
        if (!r.ok) {
          expect(r.error.code, where).toBe('HOOK_FAILED');
          expect(r.error.message, where).toContain(pathName('result', c.path.slice(0, c.path.length === 1 ? 1 : 2)));
        }
        expect(input.reads(), where).toBeLessThanOrEqual(READ_BOUND);
      }),
      { numRuns: 200 },
    );
    result = undefined;
    expect(stateOf(game)).toBe(before);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
  });
});
