/**
 * What the cards' part of a card game (src/cards/part.ts) keeps and persists, and the small
 * helpers its steps share: the state's size limit (CONTRACT v4, "Sizes"), the persisted cards,
 * the history undo returns to, the part's input, and how steps are joined.
 */
import type { CardsDefinition, EmittedEvent } from '../contract.js';
import type { PartStep } from '../game/cardsPart.js';
import { ErrorCode } from '../errors.js';
import { refusal, type Refusal } from '../gate.js';
import type { CardRecorder } from './recording.js';
import type { ModuleName } from '../moduleNames.js';

/** CONTRACT v4, "Sizes": the most UTF-8 bytes of JSON the cards' state may take. */
export const MAX_STATE_BYTES = 1024 * 1024;

/** The UTF-8 bytes of a JSON text. */
export function utf8Bytes(json: string): number {
  return json.length * 3 <= MAX_STATE_BYTES ? json.length : new TextEncoder().encode(json).length;
}

/** What a persisted card game keeps of its cards (`persist().cards`). */
export interface PersistedCards {
  /** The definition's name. */
  name: string;
  /** S, as JSON. */
  state: unknown;
  /** The position of the cards' random stream. */
  random: number;
  /** With undo: S at each version of the current turn a player may return to, as [version, random, state], and the `decided` events then owed to the next checkpoint when there were any. */
  history?: ([number, number, unknown] | [number, number, unknown, EmittedEvent[]])[];
  /** The `decided` events of accepted sends that reached no checkpoint, owed to the next checkpoint's `pending` (none: absent). */
  owed?: EmittedEvent[];
}

/** S and the random position at one version (undo). */
export interface Kept<S> {
  readonly state: S;
  readonly random: number;
  /** The `decided` events owed to the next checkpoint at that version. */
  readonly owed: readonly EmittedEvent[];
}

/**
 * CONTRACT v4, "Undo in a card game": the cards after a send committed as `version` with undo,
 * from `now` (as the send left them). An accepted undo returns S, the random position and what was
 * owed to the next checkpoint to what they were at version `to` (the undone sends' decisions are
 * owed to none); no undo goes back past the start of a turn (the history is cleared); the cards
 * now are kept in `history` as `version`.
 */
export function keptAfter<S>(history: Map<number, Kept<S>>, emitted: readonly EmittedEvent[], version: number, now: { state: S; random: number; owed: EmittedEvent[] }): { state: S; random: number; owed: EmittedEvent[] } {
  let { state, random, owed } = now;
  for (const e of emitted) {
    if (e.type === 'undone') {
      // CONTRACT v4: an accepted undo returns S to what it was at version `to`, and what was
      // owed to the next checkpoint then: the undone sends' decisions are owed to none.
      const kept = history.get(e.toVersion);
      if (kept !== undefined) {
        state = kept.state;
        random = kept.random;
        owed = [...kept.owed];
      }
    } else if (e.type === 'turnBegan') {
      // No undo goes back past the start of the turn.
      history.clear();
    }
  }
  const out = { state, random, owed };
  history.set(version, out);
  return out;
}

/** How a part begins: its definition, S, its random position, whether the game has undo, its recorder. */
export interface PartInput<S> {
  definition: CardsDefinition<S>;
  state: S;
  random: number;
  undo: boolean;
  history?: Map<number, Kept<S>>;
  recorder?: CardRecorder | null;
  owed?: EmittedEvent[];
  /** The names of the game's modules (a fork made with `record: true` names them in its recording). */
  use?: ModuleName[];
}

/** A step and the time state it leaves (opaque to the part), as the shell hands them. */
export type Timed = PartStep & { readonly time?: unknown };

/** `out` with `emitted`, keeping the time state of the step before when `out` did not change it. */
export function joined(out: PartStep, before: PartStep | undefined, emitted: EmittedEvent[]): PartStep {
  const time = (out as Timed).time === undefined ? (before as Timed | undefined)?.time : (out as Timed).time;
  return time === undefined ? { ...out, emitted } : ({ ...out, time, emitted } as PartStep);
}

/** Whether an event may carry `data` (a key of its own or inherited; one that cannot be looked at counts). */
export function mayCarryData(raw: Record<string, unknown>): boolean {
  try {
    return 'data' in raw;
  } catch {
    return true;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function failed(message: string): Refusal {
  return refusal(ErrorCode.HOOK_FAILED, message);
}

/**
 * The cards' state S as JSON text (CONTRACT v4: "S must be JSON"), refusing with a TypeError naming
 * the key what JSON would drop or change, so that the state a game goes on with is the one it
 * persists, restores and replays: a function or a symbol, `undefined` in a list, a number that is
 * not finite, an object that is not a plain object or a list (a Date, a Map, a class's instance).
 * A cycle or a BigInt is JSON.stringify's own TypeError.
 */
export function stateJson(state: unknown): string | undefined {
  return JSON.stringify(state, function (this: Record<string, unknown>, key: string, value: unknown) {
    const original = this[key];
    const kind = typeof original;
    const at = key === '' ? 'the state' : `the value at '${key}'`;
    if (kind === 'function' || kind === 'symbol') throw new TypeError(`${at} is a ${kind}`);
    if (kind === 'undefined' && Array.isArray(this)) throw new TypeError(`${at} is undefined in a list`);
    if (kind === 'number' && !Number.isFinite(original)) throw new TypeError(`${at} is ${String(original)}`);
    if (kind === 'object' && original !== null && !Array.isArray(original)) {
      const proto: unknown = Object.getPrototypeOf(original);
      if (proto !== Object.prototype && proto !== null) throw new TypeError(`${at} is ${(proto as { constructor?: { name?: string } }).constructor?.name ?? 'an object'}, not a plain object or list`);
    }
    return value;
  });
}

/** The JSON copy of a value the definition or a host gave (data, refusal messages). */
export function jsonCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
