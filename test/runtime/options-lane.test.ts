/**
 * createGame's plain options (src/game/create.ts `plainOptions`): the options most games are made
 * with (`players`, with or without `seed` and `record`) are read without zod's machinery. The
 * plain reading may only accept what createGame's schema accepts, and build the same options
 * (the same fields, in the same order: a recording keeps them); whatever it declines, the schema
 * reads, refusing with its own message (INVALID_OPTIONS naming the field).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainOptions } from '../../src/game/create.js';
import { createGame } from '../../src/index.js';
import { GameOptionsSchema, REPORT_INPUT } from '../../src/schemas.js';
import { assertProperty } from '../properties/seeds.js';

/** Player ids as hosts, typos and hostile clients give them. */
const playerArb = fc.oneof(
  fc.constantFrom('A', 'B', 'C', 'D', 'alice', 'bob'),
  fc.constantFrom('', 'toString', '__proto__', 'constructor', 'x'.repeat(256), 'x'.repeat(257), 7, null, undefined, ['A'], { id: 'A' }),
  fc.string({ maxLength: 4 }),
);
const playersArb = fc.oneof(
  fc.array(playerArb, { minLength: 0, maxLength: 6 }),
  fc.uniqueArray(fc.string({ minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 70 }),
  fc.constantFrom(undefined, 'A', null, 2),
);
const seedArb = fc.oneof(fc.constant(undefined), fc.integer(), fc.double(), fc.constantFrom(Number.NaN, Infinity, -Infinity, '1', null, true));
const recordArb = fc.constantFrom(undefined, true, false, 'yes', 1, null);
/** A further option, as readGameOptions copies it (absent most of the time). */
const otherArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constantFrom({ startingPlayer: 'A' }, { rules: 'm10' }, { pregame: false }, { variant: 'freeForAll' }, { variant: 'grandMelee' }, { rangeOfInfluence: 2 }, { maxHandSize: 8 }) },
);

describe('createGame: plain options read without zod', () => {
  it('accepts exactly options the schema accepts, and builds what it builds (fields and their order)', () => {
    let accepted = 0;
    assertProperty(
      fc.property(playersArb, seedArb, recordArb, otherArb, (players, seed, record, other) => {
        // readGameOptions' copy: only the options given.
        const game: Record<string, unknown> = { ...(players === undefined ? {} : { players }), ...other, ...(seed === undefined ? {} : { seed }), ...(record === undefined ? {} : { record }) };
        const plain = plainOptions(game);
        const parsed = GameOptionsSchema.safeParse(game, REPORT_INPUT);
        if (plain === undefined) return;
        accepted++;
        expect(parsed.success).toBe(true);
        expect(plain).toStrictEqual(parsed.data);
        expect(Object.keys(plain)).toEqual(Object.keys(parsed.data as object));
      }),
      { numRuns: 3000 },
    );
    // The plain reading was taken, not only declined.
    expect(accepted).toBeGreaterThan(100);
  });

  it('declines what the schema refuses, which names the field', () => {
    for (const [options, message] of [
      [{ players: ['A', 'A'] }, "options.players[1]: player id 'A' appears twice"],
      [{ players: ['A'] }, 'options.players: needs 2 to 64 players'],
      [{ players: ['A', 'toString'] }, 'options.players[1]: is reserved (a property name of every JavaScript object)'],
      [{ players: ['A', 'B'], seed: Number.NaN }, 'options.seed: must be a number, got NaN'],
      [{ players: ['A', 'B'], record: 'yes' }, "options.record: must be a boolean, got 'yes'"],
    ] as const) {
      expect(plainOptions(options as unknown as Record<string, unknown>)).toBeUndefined();
      expect(() => createGame(options as never)).toThrow(message);
    }
  });
});
