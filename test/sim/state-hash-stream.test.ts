/**
 * Issue 34: `stateHash` is FNV-1a 64 over the canonical stream of 32-bit words that
 * src/sim/hash.ts documents. This file writes that stream the plain way (one word at a time, the
 * hash in BigInt) and checks the engine's hash against it, so the fast paths (several words per
 * step in locals, a field's tag fused with its value, keys sorted in place) add exactly the
 * words they stand for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame } from '../../src/index.js';
import { playout } from '../../src/sim/index.js';
import { hashOf, HASHED_FIELDS } from '../../src/sim/hash.js';

const [NULL, FALSE, TRUE, INT, FLOAT, STRING, ARRAY, OBJECT, END, FIELD, CHART] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0x0a, 0x0b];
const CARDS = 0x0e;
const SUB = 0x0f;

function fnvBig(words: number[]): bigint {
  let h = 0xcbf29ce484222325n;
  for (const w of words) h = ((h ^ BigInt(w >>> 0)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

/** The words of a JSON-like value, as the stream's documentation says. */
function valueWords(v: unknown, skip: string | null, out: number[]): void {
  if (typeof v === 'string') {
    out.push(STRING | (v.length << 8));
    for (let i = 0; i < v.length; i += 2) out.push(i + 1 < v.length ? v.charCodeAt(i) | (v.charCodeAt(i + 1) << 16) : v.charCodeAt(i));
  } else if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= -(2 ** 31) && v < 2 ** 31) out.push(INT, v === 0 ? 0 : v);
    else if (Number.isFinite(v)) {
      const view = new DataView(new ArrayBuffer(8));
      view.setFloat64(0, v);
      out.push(FLOAT, view.getUint32(0), view.getUint32(4));
    } else out.push(NULL);
  } else if (typeof v === 'boolean') out.push(v ? TRUE : FALSE);
  else if (Array.isArray(v)) {
    out.push(ARRAY);
    for (const item of v) valueWords(item, skip, out);
    out.push(END);
  } else if (typeof v === 'object' && v !== null) {
    out.push(OBJECT);
    for (const key of Object.keys(v).sort()) {
      const item = (v as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || key === skip) continue;
      valueWords(key, null, out);
      valueWords(item, skip, out);
    }
    out.push(END);
  } else out.push(NULL);
}

/** The reference hash of a turn's state (and a card game's cards' state): each object-valued context field by its own hash. */
function reference(state: { value: string; status: string; context: Record<string, unknown> }, cards?: unknown): string {
  const words: number[] = [CHART];
  valueWords(state.value, null, words);
  valueWords(state.status, null, words);
  HASHED_FIELDS.forEach((name, index) => {
    const v = state.context[name];
    if (v === undefined) return;
    words.push(FIELD | (index << 8));
    if (typeof v !== 'object' || v === null) return valueWords(v, null, words);
    const sub: number[] = [];
    valueWords(v, name === 'pending' ? 'seq' : null, sub);
    const h = fnvBig(sub);
    words.push(SUB, Number(h & 0xffffffffn), Number(h >> 32n));
  });
  words.push(END);
  if (cards !== undefined) {
    words.push(CARDS);
    valueWords(cards, null, words);
  }
  return fnvBig(words).toString(16).padStart(16, '0');
}

describe('stateHash: the stream as documented (issue 34)', () => {
  it('equals the plain word-by-word FNV-1a 64 of the canonical stream along random playouts', () => {
    for (const players of [['A', 'B'], ['A', 'B', 'C']]) {
      for (let seed = 1; seed <= 3; seed++) {
        const game = createGame({ players, seed });
        for (let i = 0; i < 60; i++) {
          if (playout(game, { seed: seed * 100 + i, maxEvents: 3, explore: 0.4 }).events === 0) break;
          const state = (game as unknown as { state: { value: string; status: string; context: Record<string, unknown> } }).state;
          expect(hashOf(state)).toBe(reference(state));
        }
      }
    }
  });

  it('equals it for any cards state: floats, -0, odd-length strings, keys in any order (property)', () => {
    const game = createGame({ players: ['A', 'B'], seed: 4 });
    playout(game, { seed: 4, maxEvents: 30 });
    const state = (game as unknown as { state: { value: string; status: string; context: Record<string, unknown> } }).state;
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.double(), fc.integer(), fc.constant(-0), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(fc.string({ maxLength: 6 }), tie('value'), { maxKeys: 5 }),
    }));
    fc.assert(
      fc.property(json.value, (cards) => {
        expect(hashOf(state, cards)).toBe(reference(state, cards));
      }),
      { numRuns: 300 },
    );
  });
});
