/**
 * The event parser's fast path (src/schemas.ts parseEvent) must accept and build exactly
 * what the zod schema of the contract's events does: same verdict, same result (an event carrying
 * the host's clock `at` included).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT, MAX_ID_LENGTH, TurnEventSchema, parseEvent } from '../../src/schemas.js';

const TYPES = ['PASS_PRIORITY', 'PLAY_LAND', 'ADD_EXTRA_TURN', 'CONCEDE', 'CAST_SPELL', 'ACTIVATE_ABILITY', 'DISCARD', 'HAND_SIZE', 'ADD_MANA', 'SPEND_MANA', 'TRIGGER', 'DECLARE_ATTACKERS', 'DECLARE_BLOCKERS', 'NOPE'];
const id = fc.oneof(
  fc.constantFrom('A', 'B', '', 'toString', '__proto__', 'constructor', 'x'.repeat(MAX_ID_LENGTH), 'x'.repeat(MAX_ID_LENGTH + 1)),
  fc.string({ maxLength: 4 }),
);
const num = fc.oneof(
  fc.constantFrom(0, -0, 1, 2, MAX_AMOUNT, MAX_AMOUNT + 1, -1, 1.5, NaN, Infinity, Number.MAX_SAFE_INTEGER + 2),
  fc.integer({ min: -3, max: 12 }),
);
const anyValue = fc.oneof(id, num, fc.constantFrom(null, undefined, true, 'sorcery', 'instant', 'fast'), fc.constant(['A']), fc.constant({}));
// Items of the lists (attackers, blockers, triggers): objects with some of their fields, sometimes wrong or extra.
const item = fc.oneof(
  fc.record(
    {
      id: fc.oneof(id, anyValue),
      defender: fc.oneof(id, anyValue),
      attacker: fc.oneof(id, anyValue),
      controller: fc.oneof(id, anyValue),
      firstStrike: fc.oneof(fc.boolean(), anyValue),
      doubleStrike: fc.oneof(fc.boolean(), fc.constant(undefined), anyValue),
      extra: anyValue,
    },
    { requiredKeys: [] },
  ),
  anyValue,
);
const items = fc.oneof(fc.array(item, { maxLength: 3 }), anyValue);
const event = fc.record(
  {
    type: fc.constantFrom(...TYPES),
    player: fc.oneof(id, anyValue),
    id: fc.oneof(id, anyValue),
    speed: fc.oneof(fc.constantFrom('sorcery', 'instant', 'fast'), anyValue),
    count: fc.oneof(num, anyValue),
    size: fc.oneof(num, anyValue),
    amount: fc.oneof(num, anyValue),
    by: fc.oneof(id, anyValue),
    attackers: items,
    blockers: items,
    triggers: items,
    extra: anyValue,
    // The host's clock (CONTRACT v3), which the table server puts on every send: the fast path reads it too.
    at: fc.oneof(num, fc.double(), anyValue),
  },
  { requiredKeys: ['type'] },
);

describe('event parsing fast path (CONTRACT: INVALID_EVENT)', () => {
  it('gives the same verdict and the same event as the zod schema', () => {
    fc.assert(
      fc.property(fc.oneof(event, anyValue), (raw) => {
        const fast = parseEvent(raw);
        const zod = TurnEventSchema.safeParse(raw);
        // Arrays are never events, whatever fields they carry (the schema alone would read them as objects).
        expect(fast.ok).toBe(zod.success && !Array.isArray(raw));
        if (fast.ok && zod.success) {
          expect(fast.value).toStrictEqual(zod.data);
          expect(Object.keys(fast.value)).toEqual(Object.keys(zod.data));
        }
        if (!fast.ok) expect(fast.message).toMatch(/^(event|[A-Z_]+)[.:]/);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses arrays even when they carry event fields', () => {
    const array = Object.assign([], { type: 'PASS_PRIORITY', player: 'A' });
    const result = parseEvent(array);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('an array');
  });
});
