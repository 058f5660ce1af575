/**
 * Helpers for hostile-snapshot tests: a rich valid snapshot to corrupt, every path in it,
 * values of the wrong type for each, and a proxy that counts how much of an input the
 * engine reads (so "bounded work" is checked by counting, not by timing).
 */
import { createGame, restoreGame, TurnEngineError, type Game } from '../../src/index.js';
import type { PersistedFull } from '../../src/persistence/format.js';
import { fullSnapshot } from '../support/persisted.js';

/** A three-player game in combat with every part of the context filled in. */
export function richGame(): Game {
  const game = createGame({ players: ['A', 'B', 'C'], startingPlayer: 'B', handSize: 9, maxHandSize: 7 });
  const send = (event: unknown) => {
    const r = game.send(event);
    if (!r.ok) throw new Error(`richGame: ${JSON.stringify(event)} refused: ${r.error.message}`);
  };
  send({ type: 'SKIP_NEXT', player: 'C', what: 'draw' });
  send({ type: 'SKIP_NEXT', player: 'A', what: 'turn' });
  send({ type: 'ADD_EXTRA_TURN', player: 'A' });
  while (game.view().step !== 'declareAttackers') {
    const a = game.view().awaiting;
    send({ type: 'PASS_PRIORITY', player: a?.player });
  }
  send({ type: 'ADD_EXTRA_COMBAT' });
  send({ type: 'TRIGGER', triggers: [{ id: 'trigger-1', controller: 'A' }] });
  send({ type: 'DECLARE_ATTACKERS', player: 'B', attackers: [{ id: 'b1', defender: 'A', firstStrike: true }, { id: 'b2', defender: 'C' }] });
  send({ type: 'ADD_MANA', player: 'C', amount: 3 });
  send({ type: 'CAST_SPELL', player: 'B', id: 'spell-1', speed: 'instant' });
  return game;
}

/** The rich game's snapshot in the full form (format 2, every field written), as it comes back from JSON. */
export function richSnapshot(): PersistedFull {
  return fullSnapshot(richGame());
}

/** A path into a JSON value: keys and indexes. */
export type Path = (string | number)[];

/** Every path of a JSON value, the value itself included ([]). */
export function allPaths(value: unknown, path: Path = []): Path[] {
  const out: Path[] = [path];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...allPaths(v, [...path, i])));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) out.push(...allPaths(v, [...path, k]));
  return out;
}

/** Reads the value at a path. */
export function getAt(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);
}

/** A deep copy of `root` with the value at `path` replaced. */
export function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  const parent = getAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1] as string | number] = value;
  return copy;
}

/** Values of a type other than the original's, none of which the field can accept. */
export function wrongTypes(original: unknown): unknown[] {
  // Nullable fields hold numbers, lists or records: these are wrong for all of them.
  if (original === null) return [true, 'x'.repeat(3), -1.5];
  if (Array.isArray(original)) return ['[]', 0, { length: 0 }, true];
  switch (typeof original) {
    case 'string':
      return [42, true, [original], { value: original }];
    case 'number':
      return [String(original), true, null, [original], { value: original }, Number.NaN];
    case 'boolean':
      return ['true', 1, null, [original]];
    default:
      return [[], 'object', 7, true];
  }
}

/** Restores `input`; returns the error's code and message, or 'restored'. Anything other than a TurnEngineError fails. */
export function tryRestore(input: unknown): { code: string; message: string } | 'restored' {
  try {
    restoreGame(input);
    return 'restored';
  } catch (err) {
    if (!(err instanceof TurnEngineError)) throw new Error(`restoreGame threw something other than a TurnEngineError: ${String(err)}`);
    return { code: err.code, message: err.message };
  }
}

/**
 * Wraps a value so that every property read, key listing and descriptor lookup is counted:
 * a bound on the count is a bound on the work restoreGame does before refusing.
 */
export function counted<T>(value: T): { value: T; reads: () => number } {
  let reads = 0;
  const proxies = new WeakMap<object, object>();
  const wrap = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const known = proxies.get(v);
    if (known !== undefined) return known;
    const proxy = new Proxy(v, {
      get(target, key, receiver) {
        reads++;
        return wrap(Reflect.get(target, key, receiver));
      },
      ownKeys(target) {
        reads++;
        return Reflect.ownKeys(target);
      },
      getOwnPropertyDescriptor(target, key) {
        reads++;
        return Reflect.getOwnPropertyDescriptor(target, key);
      },
      has(target, key) {
        reads++;
        return Reflect.has(target, key);
      },
    });
    proxies.set(v, proxy);
    return proxy;
  };
  return { value: wrap(value) as T, reads: () => reads };
}

/** Nested arrays `depth` deep, built without recursion. */
export function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { deeper: v };
  return v;
}

/** Nothing may ever be added to Object.prototype. */
export function prototypeProblem(): string | null {
  const probe = {} as Record<string, unknown>;
  // Pollution by assignment adds enumerable keys; none are there in a clean runtime.
  if (probe.polluted !== undefined || Object.keys(Object.prototype).length > 0) return `Object.prototype was polluted: ${Object.keys(Object.prototype).join(', ')}`;
  return null;
}
