/**
 * The options of createGame and restoreGame as the factories read them: each option read once
 * (a getter that returns something else at each read, or a Proxy, is read once and its answer
 * kept), into a plain copy that everything after reads. A value that cannot be read (a getter or
 * a Proxy trap that throws) and a list longer than any option may be (checked before a single
 * entry is read) are INVALID_OPTIONS naming the option (CONTRACT "createGame").
 */
import { ErrorCode, TurnEngineError, describeThrown } from '../errors.js';
import { MAX_PLAYERS } from '../fields.js';
import { show } from '../issues.js';
import type { RestoreOptions } from './types.js';

/** The hooks of the options (CONTRACT "createGame"), each read once. */
const HOOKS = ['checkpoint', 'settled', 'autoPass'] as const;

/** What both factories read: the hooks, the listeners, `inspect` (moved: refused when given) and the internal turn logic. */
export interface ReadOptions extends RestoreOptions {
  inspect?: unknown;
  logic?: unknown;
}

function invalid(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_OPTIONS, message);
}

/** One read of `object[key]`; a throw is INVALID_OPTIONS naming the field. */
function read(object: object, key: PropertyKey, path: string): unknown {
  try {
    return (object as Record<PropertyKey, unknown>)[key];
  } catch (err) {
    throw invalid(`${path}: could not be read (${describeThrown(err)})`);
  }
}

/** A copy of a list option: its length read once and checked before any entry is read (every list option holds at most MAX_PLAYERS entries). */
function listCopy<T>(value: unknown, path: string, entry: (v: unknown, path: string) => T): T[] | unknown {
  let isList: boolean;
  try {
    isList = Array.isArray(value);
  } catch (err) {
    // Array.isArray of a revoked Proxy throws.
    throw invalid(`${path}: could not be read (${describeThrown(err)})`);
  }
  if (!isList) return value;
  const length = read(value as object, 'length', path) as number;
  if (length > MAX_PLAYERS) throw invalid(`${path}: must have at most ${MAX_PLAYERS} entries, got a list of ${length} entries`);
  const out: T[] = [];
  for (let i = 0; i < length; i++) out.push(entry(read(value as object, i, `${path}[${i}]`), `${path}[${i}]`));
  return out;
}

/** A copy of the named fields of an object (anything else is returned as it is, for the schema to refuse). */
function fieldsCopy(value: unknown, path: string, keys: readonly string[], each: (key: string, v: unknown) => unknown = (_k, v) => v): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const v = read(value, key, `${path}.${key}`);
    if (v !== undefined) out[key] = each(key, v);
  }
  return out;
}

/** The options besides the game's own that createGame reads (readCallbacks). */
const CALLBACK_KEYS = ['hooks', 'listeners', 'inspect', 'use'];

/** The hooks, the listeners, `inspect` and the turn logic of either factory, each read once. */
function readCallbacks(options: object, logicKey: symbol, out: Record<string, unknown>): void {
  const hooks = read(options, 'hooks', 'options.hooks');
  if (hooks !== undefined) {
    if (typeof hooks !== 'object' || hooks === null) throw invalid('options.hooks: must be an object');
    const copy: Record<string, unknown> = {};
    for (const name of HOOKS) {
      const hook = read(hooks, name, `options.hooks.${name}`);
      if (hook !== undefined && typeof hook !== 'function') throw invalid(`options.hooks.${name}: must be a function, got ${show(hook)}`);
      if (hook !== undefined) copy[name] = hook;
    }
    out.hooks = copy;
  }
  const listeners = read(options, 'listeners', 'options.listeners');
  if (listeners !== undefined) {
    if (typeof listeners !== 'object' || listeners === null) throw invalid('options.listeners: must be an object of functions');
    let entries: [string, unknown][];
    try {
      entries = Object.entries(listeners);
    } catch (err) {
      throw invalid(`options.listeners: could not be read (${describeThrown(err)})`);
    }
    const copy: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of entries) {
      if (typeof v !== 'function') throw invalid(`options.listeners.${k.length > 40 ? `${k.slice(0, 40)}...` : k}: must be a function, got ${show(v)}`);
      copy[k] = v;
    }
    out.listeners = copy;
  }
  const inspect = read(options, 'inspect', 'options.inspect');
  if (inspect !== undefined) throw invalid("options.inspect: moved to actorOf(game, { inspect }) from 'mtg-turn-engine/xstate' (CONTRACT v3)");
  // CONTRACT v4: the modules (checked by readUse, src/game/module.ts).
  const use = read(options, 'use', 'options.use');
  if (use !== undefined) out.use = listCopy(use, 'options.use', (m) => m);
  const logic = read(options, logicKey, 'options');
  if (logic !== undefined) out.logic = logic;
}

/** Refuses a key of `options` that is none of `known`, naming it and the call (a misspelt option is not dropped for its default). */
export function refuseUnknown(options: object, known: readonly string[], call: string): void {
  let given: string[];
  try {
    given = Object.keys(options);
  } catch (err) {
    throw invalid(`options: could not be read (${describeThrown(err)})`);
  }
  for (const key of given) if (!known.includes(key)) throw invalid(`options.${key.length > 40 ? `${key.slice(0, 40)}...` : key}: is not an option of ${call}`);
}

/** restoreGame's options (and fork's: `call`, with `extra` keys it reads itself), each read once. */
export function readRestoreOptions(options: unknown, logicKey: symbol, call = 'restoreGame', extra: readonly string[] = []): ReadOptions {
  if (typeof options !== 'object' || options === null) throw invalid('options: must be an object');
  refuseUnknown(options, [...CALLBACK_KEYS, 'record', ...extra], call);
  const out: Record<string, unknown> = {};
  readCallbacks(options, logicKey, out);
  return out as ReadOptions;
}

/**
 * createGame's options, each read once: the game's own (`keys`, the fields of the options'
 * schema: lists copied, their lengths checked first), then the hooks, the listeners and the turn logic.
 */
export function readGameOptions(options: unknown, keys: readonly string[], logicKey: symbol): { game: Record<string, unknown>; callbacks: ReadOptions } {
  if (typeof options !== 'object' || options === null) throw invalid('options: must be an object');
  // A misspelt option (`hook`, `maxHandsize`) is named, not dropped for its default.
  refuseUnknown(options, [...keys, ...CALLBACK_KEYS], 'createGame');
  const game: Record<string, unknown> = {};
  for (const key of keys) {
    const path = `options.${key}`;
    let v = read(options, key, path);
    if (v === undefined) continue;
    if (key === 'players') v = listCopy(v, path, (p) => p);
    // A team is read as its id and its players.
    if (key === 'teams') v = listCopy(v, path, (t, at) => fieldsCopy(t, at, ['id', 'players'], (k, x) => (k === 'players' ? listCopy(x, `${at}.players`, (p) => p) : x)));
    // CONTRACT v3: the undo policy is read as its mode, its limit and (v4) its answer time.
    if (key === 'undo') v = fieldsCopy(v, path, ['mode', 'maxPerTurn', 'answerMs']);
    game[key] = v;
  }
  const callbacks: Record<string, unknown> = {};
  readCallbacks(options, logicKey, callbacks);
  return { game, callbacks: callbacks as ReadOptions };
}
