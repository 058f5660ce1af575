/**
 * `stateHash(game)` (issue 34, CONTRACT v4 "Simulation"): a 64-bit hash of a game's state, for
 * transposition tables and for telling positions apart in simulations.
 *
 * What is hashed: the turn's state as persisted (the chart's state, its status and the context;
 * each turn marker's in Grand Melee; the shortcut vote, an undo request awaiting answers and the
 * undo requests made this turn at the table) and, in a card game, the
 * cards' state, as canonical values: object keys in sorted order, `undefined` fields left out,
 * numbers by value (`-0` is 0; NaN and infinities are null, as in JSON). Not hashed: `version`,
 * `seq` (also the `seq` of the events a state keeps for the next checkpoint), the context's
 * per-send fields (reset by every send), history (undo's kept states, recordings), and the
 * table's time state (clocks, seats). So games equal as JSON hash equal whatever route reached them.
 *
 * How: FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 2^40 + 0x1b3) over a stream of 32-bit
 * words, in two 32-bit halves: each value is a tag word then its payload (a string: its length
 * then its UTF-16 code units two to a word; an integer of 32 bits: one word; another number: the
 * two words of its float64; a context field: its index in the sorted field names). The stream
 * decodes one way only, so different states give different streams. The hash depends on nothing
 * but the state (no per-process seed, no insertion order): it is the same in every process and
 * every version of the engine that writes the same persisted format.
 */
import { CONTEXT_KEYS, FRESH_SEND } from '../../machines/context.js';
import type { TurnContext } from '../state.js';
import { CARDS_OWED, CARDS_RANDOM } from '../game/cardsPart.js';

// Tags: the first word of each value (their low bytes differ; a string's length is in the high bits).
const NULL = 0x01;
const FALSE = 0x02;
const TRUE = 0x03;
const INT = 0x04;
const FLOAT = 0x05;
const STRING = 0x06;
const ARRAY = 0x07;
const OBJECT = 0x08;
const END = 0x09;
const FIELD = 0x0a;
const CHART = 0x0b;
const MARKERS = 0x0c;
const TABLE = 0x0d;
const CARDS = 0x0e;
const SUB = 0x0f;

/**
 * The context's fields in sorted order (the order a canonical JSON writes them), less the fields
 * that last one send (FRESH_SEND: the auto-pass loop guard, whether priority was just given):
 * every send starts them afresh, so they tell routes apart, not states. {@link mixContext} reads
 * them in this order (a test holds the two together: test/sim/state-hash.test.ts).
 */
export const HASHED_FIELDS: readonly string[] = ['activePlayer', 'attack', 'cleanupCheck', 'cleanupSteps', 'combat', 'controlNext', 'controlledBy', 'dayNight', 'effects', 'emptyTurns', 'extraTurn', 'extraTurns', 'handSizes', 'influence', 'landsPlayedBy', 'mainSeen', 'manaPool', 'maxHandSize', 'nextObjectId', 'orderTriggers', 'passed', 'pending', 'pendingTriggers', 'phase', 'phases', 'planarRolls', 'players', 'pregame', 'previousTurnSpells', 'priority', 'ranges', 'reasons', 'result', 'rng', 'rotation', 'rules', 'seats', 'skips', 'spellsCast', 'stack', 'startingPlayer', 'step', 'steps', 'stops', 'teams', 'triggerOrder', 'turn', 'turnOwner', 'variant', 'waitingToPhaseIn', 'yields'];

/** The fields {@link HASHED_FIELDS} should list: the context's, less the per-send ones, sorted. */
export function hashedFieldsOfContext(): string[] {
  return CONTEXT_KEYS.filter((k) => !(k in FRESH_SEND)).sort();
}

const scratch = new DataView(new ArrayBuffer(8));

/** FNV-1a 64's offset basis, 0xcbf29ce484222325, in halves. */
const BASIS_LO = 0x84222325 | 0;
const BASIS_HI = 0xcbf29ce4 | 0;

/** Each hex digit's character code. */
const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/** Per depth of objects being hashed within each other, their keys in sorted order (the first n of the list). */
const KEYS: string[][] = [];

/** The running hash's two halves: [low, high] 32 bits (a typed array: no number boxed per word). */
const H = new Int32Array(2);

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
class Fnv64 {
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
   * format), read one by one by name ({@link mixContext}); a field holding an object or array by
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

/** The context's fields, in the order of {@link HASHED_FIELDS}, each read by its name (one shape of context: fast reads). */
function mixContext(h: Fnv64, c: TurnContext): void {
  h.field(0, c.activePlayer, false);
  h.field(1, c.attack, false);
  h.field(2, c.cleanupCheck, false);
  h.field(3, c.cleanupSteps, false);
  h.field(4, c.combat, false);
  h.field(5, c.controlNext, false);
  h.field(6, c.controlledBy, false);
  h.field(7, c.dayNight, false);
  h.field(8, c.effects, false);
  h.field(9, c.emptyTurns, false);
  h.field(10, c.extraTurn, false);
  h.field(11, c.extraTurns, false);
  h.field(12, c.handSizes, false);
  h.field(13, c.influence, false);
  h.field(14, c.landsPlayedBy, false);
  h.field(15, c.mainSeen, false);
  h.field(16, c.manaPool, false);
  h.field(17, c.maxHandSize, false);
  h.field(18, c.nextObjectId, false);
  h.field(19, c.orderTriggers, false);
  h.field(20, c.passed, false);
  h.field(21, c.pending, true);
  h.field(22, c.pendingTriggers, false);
  h.field(23, c.phase, false);
  h.field(24, c.phases, false);
  h.field(25, c.planarRolls, false);
  h.field(26, c.players, false);
  h.field(27, c.pregame, false);
  h.field(28, c.previousTurnSpells, false);
  h.field(29, c.priority, false);
  h.field(30, c.ranges, false);
  h.field(31, c.reasons, false);
  h.field(32, c.result, false);
  h.field(33, c.rng, false);
  h.field(34, c.rotation, false);
  h.field(35, c.rules, false);
  h.field(36, c.seats, false);
  h.field(37, c.skips, false);
  h.field(38, c.spellsCast, false);
  h.field(39, c.stack, false);
  h.field(40, c.startingPlayer, false);
  h.field(41, c.step, false);
  h.field(42, c.steps, false);
  h.field(43, c.stops, false);
  h.field(44, c.teams, false);
  h.field(45, c.triggerOrder, false);
  h.field(46, c.turn, false);
  h.field(47, c.turnOwner, false);
  h.field(48, c.variant, false);
  h.field(49, c.waitingToPhaseIn, false);
  h.field(50, c.yields, false);
  h.word(END);
}

/** A turn's state on the compiled plan (src/compiled/runtime.ts). */
interface ChartLike {
  readonly value: string;
  readonly context: TurnContext;
  readonly status: string;
}

function isChart(s: unknown): s is ChartLike {
  return typeof s === 'object' && s !== null && typeof (s as ChartLike).value === 'string' && typeof (s as ChartLike).context === 'object' && (s as ChartLike).context !== null;
}

/** Mixes a logic's state: a turn, Grand Melee's markers, or a table around either (its undo history left out). */
function mixState(h: Fnv64, state: unknown): void {
  if (isChart(state)) {
    h.word(CHART);
    h.string(state.value);
    h.string(state.status);
    mixContext(h, state.context);
    return;
  }
  if (Array.isArray(state)) {
    h.word(MARKERS);
    for (const m of state as { number: number; life: string; removals: number; turn: unknown }[]) {
      h.number(m.number);
      h.string(m.life);
      h.number(m.removals);
      mixState(h, m.turn);
    }
    h.word(END);
    return;
  }
  if (typeof state === 'object' && state !== null && 'game' in state && 'shortcut' in state) {
    const table = state as { game: unknown; shortcut: unknown; undo?: { vote: { requester: string; asked: readonly string[] } | null; requests: Readonly<Record<string, number>> } | null };
    h.word(TABLE);
    mixState(h, table.game);
    h.value(table.shortcut, null);
    // An undo request awaiting answers and the requests made this turn (maxPerTurn) are state: what may be sent differs. Its `to` is a version, and history, as the kept moments are.
    const undo = table.undo;
    if (undo !== null && undo !== undefined && (undo.vote !== null || Object.keys(undo.requests).length > 0)) h.value({ requests: undo.requests, vote: undo.vote === null ? null : { requester: undo.vote.requester, asked: undo.vote.asked } }, null);
    return;
  }
  throw new TypeError('stateHash: the game is not one made by createGame, restoreGame, fork or a card game (its state is not the engine\'s)');
}

/** What stateHash reads of a game: the logic's state (`GameShell.state`) and, in a card game, the cards' state and random position. */
export interface Hashable {
  readonly state: unknown;
  /** A card game's (mtg-turn-engine/cards): the cards' state for the host. */
  cards?: () => unknown;
  /** A card game's: the position of the cards' random stream (what `ctx.random` gives next). */
  [CARDS_RANDOM]?: () => number;
  /** A card game's: the decisions owed to the next checkpoint (their events, without seq). */
  [CARDS_OWED]?: () => readonly unknown[];
}

/** The 64-bit hash of a logic state and a card game's state, as 16 hex characters. */
export const hashOf = Object.assign(hashState, {
  /** @internal The running hash's halves, for the test of {@link fnvWord} against BigInt. */
  __state: H,
});

function hashState(state: unknown, cards?: unknown, random?: number, owed?: readonly unknown[]): string {
  const h = new Fnv64();
  mixState(h, state);
  if (cards !== undefined) {
    h.word(CARDS);
    h.value(cards, null);
    // The cards' random position: equal cards that will draw differently are not the same state.
    if (random !== undefined) h.word(random);
    // Decisions the checkpoint is still to be given (none: the hash of a game that owes none is unchanged).
    if (owed !== undefined && owed.length > 0) h.value(owed, null);
  }
  return h.hex();
}

/**
 * The game's state hash: 16 hex characters (64 bits), equal for games whose turn state and
 * cards' state are equal, whatever route reached them; `version`, `seq` and history are not
 * part of it. Throws a TypeError for an object that is not a game of this engine.
 */
export function stateHash(game: object): string {
  const g = game as Hashable;
  if (!('state' in g)) throw new TypeError('stateHash: expected a Game made by createGame, restoreGame, fork or createCardGame');
  const random = g[CARDS_RANDOM];
  const owed = g[CARDS_OWED];
  return hashOf(g.state, typeof g.cards === 'function' ? g.cards() : undefined, typeof random === 'function' ? random() : undefined, typeof owed === 'function' ? owed() : undefined);
}
