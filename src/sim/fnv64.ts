/**
 * The arithmetic under `stateHash` (./hash.ts, whose header gives the stream): a running FNV-1a
 * 64 hash over 32-bit words in two 32-bit halves ({@link H}), the tag words, and {@link Fnv64},
 * which writes a JSON-like value into it canonically (keys sorted, `undefined` left out) and a
 * context field by its index, each object field's own hash kept per field.
 */

// Tags: the first word of each value (their low bytes differ; a string's length is in the high bits).
// Those exported start the parts of a state (./hash.ts).
const NULL = 0x01;
const FALSE = 0x02;
const TRUE = 0x03;
const INT = 0x04;
const FLOAT = 0x05;
const STRING = 0x06;
const ARRAY = 0x07;
const OBJECT = 0x08;
export const END = 0x09;
const FIELD = 0x0a;
export const CHART = 0x0b;
export const MARKERS = 0x0c;
export const TABLE = 0x0d;
export const CARDS = 0x0e;
const SUB = 0x0f;

const scratch = new DataView(new ArrayBuffer(8));

/** FNV-1a 64's offset basis, 0xcbf29ce484222325, in halves. */
const BASIS_LO = 0x84222325 | 0;
const BASIS_HI = 0xcbf29ce4 | 0;

/** Each hex digit's character code. */
const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Per depth of objects being hashed within each other, their keys in sorted order (the first n of the list). */
const KEYS: string[][] = [];

/** The running hash's two halves: [low, high] 32 bits (a typed array: no number boxed per word). */
export const H = new Int32Array(2);

/** The high 32 bits of `x` (as unsigned) times 0x1b3, under 2^9: from x's 16-bit halves, each product exact in 32 bits. */
function carryOf(x: number): number {
  return ((x >>> 16) * 0x1b3 + (((x & 0xffff) * 0x1b3) >>> 16)) >>> 16;
}

/**
 * One FNV-1a 64 step over a 32-bit word: xor into the low half, multiply by the prime
 * 2^40 + 0x1b3 modulo 2^64, in 32-bit integers only (making the product a double took three
 * times as long): the new low half is the low 32 bits of low × 0x1b3 (`Math.imul`), its high
 * bits a carry into the high half ({@link carryOf}); 2^40 moves the low half 8 bits into the
 * high one. The steps below over several words keep the halves in locals (no store and load
 * of {@link H} per word).
 */
export function fnvWord(w: number): void {
  const x = (H[0] as number) ^ w;
  H[1] = (Math.imul(H[1] as number, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  H[0] = Math.imul(x, 0x1b3);
}

/** {@link fnvWord} over two words. */
function fnvWord2(a: number, b: number): void {
  let x = (H[0] as number) ^ a;
  const hi = (Math.imul(H[1] as number, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  x = Math.imul(x, 0x1b3) ^ b;
  H[1] = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  H[0] = Math.imul(x, 0x1b3);
}

/** {@link fnvWord} over four words (a context field holding an object: its tag, SUB and its hash). */
function fnvWord4(a: number, b: number, c: number, d: number): void {
  let x = (H[0] as number) ^ a;
  let hi = (Math.imul(H[1] as number, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  x = Math.imul(x, 0x1b3) ^ b;
  hi = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  x = Math.imul(x, 0x1b3) ^ c;
  hi = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  x = Math.imul(x, 0x1b3) ^ d;
  H[1] = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  H[0] = Math.imul(x, 0x1b3);
}

/** {@link fnvWord} over three words (a context field holding an integer: its tag, INT and the integer). */
function fnvWord3(a: number, b: number, c: number): void {
  let x = (H[0] as number) ^ a;
  let hi = (Math.imul(H[1] as number, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  x = Math.imul(x, 0x1b3) ^ b;
  hi = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  x = Math.imul(x, 0x1b3) ^ c;
  H[1] = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  H[0] = Math.imul(x, 0x1b3);
}

/** A string's words: its tag with its length, then its UTF-16 code units two to a word. */
function fnvString(s: string): void {
  const n = s.length;
  const x = (H[0] as number) ^ (STRING | (n << 8));
  const hi = (Math.imul(H[1] as number, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  const lo = Math.imul(x, 0x1b3);
  fnvChars(s, n, lo, hi);
}

/** A context field holding a string: the field's tag word, then the string's words ({@link fnvString}). */
function fnvFieldString(field: number, s: string): void {
  const n = s.length;
  let x = (H[0] as number) ^ field;
  let hi = (Math.imul(H[1] as number, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  x = Math.imul(x, 0x1b3) ^ (STRING | (n << 8));
  hi = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
  fnvChars(s, n, Math.imul(x, 0x1b3), hi);
}

/** A string's code units two to a word, from the running halves `lo` and `hi`; the result in {@link H}. */
function fnvChars(s: string, n: number, lo: number, hi: number): void {
  let x: number;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    x = lo ^ (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16));
    hi = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
    lo = Math.imul(x, 0x1b3);
  }
  if (i < n) {
    x = lo ^ s.charCodeAt(i);
    hi = (Math.imul(hi, 0x1b3) + carryOf(x) + (x << 8)) | 0;
    lo = Math.imul(x, 0x1b3);
  }
  H[0] = lo;
  H[1] = hi;
}

/** A running FNV-1a 64 hash over 32-bit words (the state in {@link H}: one hash at a time, never re-entered). */
export class Fnv64 {
  /** How many objects are being hashed within each other (the index into {@link KEYS}). */
  depth = 0;

  constructor() {
    H[0] = BASIS_LO;
    H[1] = BASIS_HI;
  }

  word(w: number): void {
    fnvWord(w);
  }

  string(s: string): void {
    fnvString(s);
  }

  number(x: number): void {
    if ((x | 0) === x) {
      fnvWord2(INT, x);
    } else if (x === 0) {
      // -0 (0 itself took the branch above): JSON writes 0.
      fnvWord2(INT, 0);
    } else if (Number.isFinite(x)) {
      scratch.setFloat64(0, x);
      this.word(FLOAT);
      this.word(scratch.getUint32(0));
      this.word(scratch.getUint32(4));
    } else {
      this.word(NULL);
    }
  }

  /** Any JSON-like value, canonically; `skip`: a key left out of the objects of this value (the events' `seq`). */
  value(v: unknown, skip: string | null): void {
    switch (typeof v) {
      case 'string':
        this.string(v);
        return;
      case 'number':
        this.number(v);
        return;
      case 'boolean':
        this.word(v ? TRUE : FALSE);
        return;
      case 'object':
        if (v === null) this.word(NULL);
        else if (Array.isArray(v)) this.array(v, skip);
        else this.object(v as Record<string, unknown>, skip);
        return;
      default:
        // undefined, functions, symbols in an array: JSON writes null.
        this.word(NULL);
    }
  }

  array(items: readonly unknown[], skip: string | null): void {
    this.word(ARRAY);
    for (let i = 0; i < items.length; i++) this.value(items[i], skip);
    this.word(END);
  }

  object(o: Record<string, unknown>, skip: string | null): void {
    this.word(OBJECT);
    // One pass over the keys into a list kept per depth (no list made per object), sorted by
    // insertion: one comparison a key when they come in order, as they usually do.
    const keys = (KEYS[this.depth] ??= []);
    let n = 0;
    for (const key in o) {
      let j = n++;
      for (; j > 0 && (keys[j - 1] as string) > key; j--) keys[j] = keys[j - 1] as string;
      keys[j] = key;
    }
    this.depth++;
    for (let i = 0; i < n; i++) {
      const key = keys[i] as string;
      this.entry(key, o[key], skip);
    }
    this.depth--;
    this.word(END);
  }

  entry(key: string, v: unknown, skip: string | null): void {
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol' || key === skip) return;
    this.string(key);
    this.value(v, skip);
  }

  /**
   * The context: its fields by their index in the sorted names (the field names are fixed by the
   * format), read one by one by name (mixContext, ./hash.ts); a field holding an object or array by
   * its own hash (two words), kept per object: states share most of their objects with the states
   * before them, and the objects of a state read through `game.state` are never changed again
   * (src/game/ownedStacks.ts).
   */
  field(index: number, v: unknown, pending: boolean): void {
    if (v === undefined) return;
    if (typeof v !== 'object' || v === null) {
      const tag = FIELD | (index << 8);
      if (typeof v === 'string') fnvFieldString(tag, v);
      else if (typeof v === 'number' && (v | 0) === v) fnvWord3(tag, INT, v);
      else if (v === null) fnvWord2(tag, NULL);
      else {
        this.word(tag);
        this.value(v, null);
      }
      return;
    }
    // The last object seen in this field and its hash: consecutive states share most objects.
    if (LAST[index] !== v) {
      // The events kept for the next checkpoint carry their `seq`: not part of the state.
      subHash(this, v, pending ? 'seq' : null);
      LAST[index] = v;
      LAST_LO[index] = SUB_OUT[0] as number;
      LAST_HI[index] = SUB_OUT[1] as number;
    }
    fnvWord4(FIELD | (index << 8), SUB, LAST_LO[index] as number, LAST_HI[index] as number);
  }

  /** The hash as 16 hex digits, high half first (a byte at a time from a table: `toString(16)` and `padStart` took a tenth of a hash). */
  hex(): string {
    const hi = H[1] as number;
    const lo = H[0] as number;
    return String.fromCharCode(
      HEX[hi >>> 28] as number, HEX[(hi >>> 24) & 15] as number, HEX[(hi >>> 20) & 15] as number, HEX[(hi >>> 16) & 15] as number,
      HEX[(hi >>> 12) & 15] as number, HEX[(hi >>> 8) & 15] as number, HEX[(hi >>> 4) & 15] as number, HEX[hi & 15] as number,
      HEX[lo >>> 28] as number, HEX[(lo >>> 24) & 15] as number, HEX[(lo >>> 20) & 15] as number, HEX[(lo >>> 16) & 15] as number,
      HEX[(lo >>> 12) & 15] as number, HEX[(lo >>> 8) & 15] as number, HEX[(lo >>> 4) & 15] as number, HEX[lo & 15] as number,
    );
  }
}

/**
 * Per context field, the last object hashed in it and its hash (by identity: a state's objects
 * never change once read through `game.state`). One entry per field, no map: hashing after every
 * send finds most fields as they were, and keeps nothing alive but the last state's objects.
 */
const LAST: unknown[] = [];
const LAST_LO = new Int32Array(64);
const LAST_HI = new Int32Array(64);
/** The result of {@link subHash}: [low, high]. */
const SUB_OUT = new Int32Array(2);

/** The hash of one value on its own into {@link SUB_OUT} (the running hash is put aside meanwhile). */
function subHash(h: Fnv64, v: object, skip: string | null): void {
  const lo = H[0] as number;
  const hi = H[1] as number;
  H[0] = BASIS_LO;
  H[1] = BASIS_HI;
  h.value(v, skip);
  SUB_OUT[0] = H[0] as number;
  SUB_OUT[1] = H[1] as number;
  H[0] = lo;
  H[1] = hi;
}
