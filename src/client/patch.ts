/**
 * Updates that carry what changed (CONTRACT v4, "Serving games"). After the first update of a
 * connection, the server sends each update as a JSON merge patch (RFC 7386) of the connection's
 * state document {@link StateDoc} against the previous update to that connection, with the
 * events in full. RFC 7386 reads a `null` as "remove the key": a part whose new value holds a
 * `null` the patch would have to write goes in `whole` instead, sent whole and put in place after
 * the patch (a view field, or `nextStop`), so a client keeps every `null` of the view.
 *
 * The server diffs only inside the view fields the engine says may have changed
 * (src/viewChanges.ts), never the whole view. Imports nothing of Colyseus.
 */
import type { TurnView } from '../contract.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';

/** What a connection is told, as one document: the view, the legal actions, `nextStop` (and, for card games, the card view). */
export interface StateDoc {
  view: TurnView;
  legalActions: LegalAction[];
  nextStop: Record<string, NextStop | null>;
  /** The seat's card view (CONTRACT v4, served card games); absent without one. */
  cardView?: unknown;
}

/** A JSON merge patch (RFC 7386) of a {@link StateDoc}. */
export type MergePatch = { [key: string]: unknown };

/** The parts of a {@link StateDoc} sent whole (put in place after the patch): view fields by name, `nextStop`, `cardView`. */
export interface WholeParts {
  view?: { [field: string]: unknown };
  nextStop?: Record<string, NextStop | null>;
  cardView?: unknown;
}

/** The change from one document to the next: a merge patch and the parts sent whole (each omitted when empty). */
export interface DocChange {
  patch?: MergePatch;
  whole?: WholeParts;
}

/** Marks a diff that would have to write a null (RFC 7386 would remove the key instead). */
const HAS_NULL = Symbol('hasNull');
/** Marks "no change". */
const SAME = Symbol('same');

type Diff = unknown | typeof HAS_NULL | typeof SAME;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether two JSON values are equal (deeply; arrays by order, objects by keys). Allocates nothing (issue 31: no key lists). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  let count = 0;
  for (const k in ra) {
    if (!Object.hasOwn(ra, k)) continue;
    if (!Object.hasOwn(rb, k)) return false;
    if (!jsonEqual(ra[k], rb[k])) return false;
    count++;
  }
  for (const k in rb) if (Object.hasOwn(rb, k)) count--;
  return count === 0;
}

/** Whether a value, written as a merge patch value, holds a null RFC 7386 would read as "remove" (arrays are taken whole: theirs do not count). */
function holdsNull(v: unknown): boolean {
  if (v === null) return true;
  if (!isObject(v)) return false;
  for (const k in v) if (holdsNull(v[k])) return true;
  return false;
}

/** The merge patch from `a` to `b`: SAME, a patch value, or HAS_NULL when it would have to write a null. */
function diff(a: unknown, b: unknown): Diff {
  if (a === b) return SAME;
  if (isObject(a) && isObject(b)) {
    let out: Record<string, unknown> | null = null;
    for (const k in b) {
      // An undefined value is no value (JSON leaves the key out).
      if (b[k] === undefined) {
        if (a[k] !== undefined) (out ??= {})[k] = null;
        continue;
      }
      const d = a[k] !== undefined ? diff(a[k], b[k]) : holdsNull(b[k]) ? HAS_NULL : b[k];
      if (d === SAME) continue;
      if (d === HAS_NULL) return HAS_NULL;
      (out ??= {})[k] = d;
    }
    for (const k in a) if (a[k] !== undefined && !Object.hasOwn(b, k)) (out ??= {})[k] = null;
    return out === null ? SAME : out;
  }
  if (jsonEqual(a, b)) return SAME;
  return holdsNull(b) ? HAS_NULL : b;
}

/**
 * The view fields' diffs of one send, shared by its connections (issue 31, point 6): the seats'
 * views share every field that is not private (the same objects), so a field's diff between the
 * same two values is made once. Made by {@link diffMemo}; a diff is reused only for the very same
 * two values, at the same place in the same list of fields looked at (`v` holds, for the field at
 * index i, its two values and their diff at 3i, 3i + 1, 3i + 2: no object per field).
 */
export interface DiffMemo {
  fields: readonly string[] | null;
  readonly v: unknown[];
}

/** An empty {@link DiffMemo} (one per send). */
export function diffMemo(): DiffMemo {
  return { fields: null, v: [] };
}

/** Whether two lists of keys are the same, in the same order. */
function sameKeys(x: readonly string[], y: readonly string[]): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The fields of a view's keys (`keys`) not in an `unchanged` set, by that set (the engine shares each set between sends with the same changes). */
const toLook = new WeakMap<ReadonlySet<string>, { keys: readonly string[]; fields: readonly string[] }>();

/** The view fields of `keys` (a view's own, in order) not in `unchanged`: made once per set and keys. */
function fieldsToLook(keys: readonly string[], unchanged: ReadonlySet<string>): readonly string[] {
  const seen = toLook.get(unchanged);
  if (seen !== undefined && sameKeys(seen.keys, keys)) return seen.fields;
  const fields = keys.filter((field) => !unchanged.has(field));
  toLook.set(unchanged, { keys, fields });
  return fields;
}

/** The view's keys, when the caller knows them (`Object.keys` of each view, in order: the server keeps them per connection). */
export interface ViewKeys {
  readonly before: readonly string[];
  readonly after: readonly string[];
}

/**
 * A seat's own values of some view fields over a view shared by every seat (the server's: a seat's
 * view is the host's with its private fields as the seat sees them), by field; null: none.
 */
export type OwnFields = Readonly<Record<string, unknown>> | null;

/**
 * The change from `before` to `after`. `unchanged`: view fields known to be the same (the engine's
 * word, src/viewChanges.ts; null: none known), not looked at; every other view field is diffed
 * inside. Legal actions (an array) go whole when they differ. `keys`: the two views' own keys,
 * when known (otherwise read here). `own`: each document's own values of some of its view's
 * fields (each view is then read as that view with those fields in its place).
 */
export function docChange(before: StateDoc, after: StateDoc, unchanged: ReadonlySet<string> | null, memo?: DiffMemo, keys?: ViewKeys, own?: { readonly before: OwnFields; readonly after: OwnFields }): DocChange {
  const a = before.view as unknown as Record<string, unknown>;
  const b = after.view as unknown as Record<string, unknown>;
  const ownA = own?.before ?? null;
  const ownB = own?.after ?? null;
  const keysOfB = keys?.after ?? Object.keys(b);
  // The usual case (issue 31): both views have the same fields, so only those the engine does not
  // know unchanged are looked at, and none is gone. Otherwise every field of each.
  const same = unchanged !== null && sameKeys(keys?.before ?? Object.keys(a), keysOfB);
  const fields = same ? fieldsToLook(keysOfB, unchanged) : keysOfB;
  let shared: DiffMemo | undefined;
  if (memo !== undefined && same && (memo.fields === null || memo.fields === fields)) {
    memo.fields = fields;
    shared = memo;
  }
  let viewPatch: Record<string, unknown> | undefined;
  let viewWhole: Record<string, unknown> | undefined;
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    if (!same && unchanged?.has(field) === true && Object.hasOwn(a, field)) continue;
    const bv = ownB !== null && Object.hasOwn(ownB, field) ? ownB[field] : b[field];
    let d: Diff;
    if (!same && !Object.hasOwn(a, field)) d = holdsNull(bv) ? HAS_NULL : bv;
    else {
      const av = ownA !== null && Object.hasOwn(ownA, field) ? ownA[field] : a[field];
      const v = shared?.v;
      if (v !== undefined && v.length > 3 * i && v[3 * i] === av && v[3 * i + 1] === bv) d = v[3 * i + 2];
      else {
        d = diff(av, bv);
        if (v !== undefined && v.length >= 3 * i) {
          v[3 * i] = av;
          v[3 * i + 1] = bv;
          v[3 * i + 2] = d;
        }
      }
    }
    if (d === SAME) continue;
    if (d === HAS_NULL) (viewWhole ??= {})[field] = bv;
    else (viewPatch ??= {})[field] = d;
  }
  // A field the view no longer has (a table field a game stops showing).
  if (!same) {
    for (const field of Object.keys(a)) if (!Object.hasOwn(b, field)) (viewPatch ??= {})[field] = null;
  }
  let patch: MergePatch | undefined;
  let whole: WholeParts | undefined;
  if (viewPatch !== undefined) patch = { view: viewPatch };
  if (viewWhole !== undefined) whole = { view: viewWhole };
  if (!jsonEqual(before.legalActions, after.legalActions)) (patch ??= {}).legalActions = after.legalActions;
  const stops = diff(before.nextStop, after.nextStop);
  if (stops === HAS_NULL) (whole ??= {}).nextStop = after.nextStop;
  else if (stops !== SAME) (patch ??= {}).nextStop = stops;
  if (before.cardView !== undefined || after.cardView !== undefined) {
    const cards = after.cardView === undefined ? null : before.cardView === undefined ? (holdsNull(after.cardView) ? HAS_NULL : after.cardView) : diff(before.cardView, after.cardView);
    if (cards === HAS_NULL) (whole ??= {}).cardView = after.cardView;
    else if (cards !== SAME) (patch ??= {}).cardView = cards;
  }
  const out: DocChange = {};
  if (patch !== undefined) out.patch = patch;
  if (whole !== undefined) out.whole = whole;
  return out;
}

/**
 * RFC 7386: `target` with `patch` applied. Nothing is changed in place: what the patch changes is
 * new, what it does not is shared (a frozen target stays valid).
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) delete out[k];
    else out[k] = applyMergePatch(out[k], v);
  }
  return out;
}

/** The document after a change: the patch applied, then the parts sent whole put in place. */
export function applyDocChange(doc: StateDoc, change: DocChange): StateDoc {
  const next = (change.patch === undefined ? { ...doc } : applyMergePatch(doc, change.patch)) as StateDoc;
  const whole = change.whole;
  if (whole !== undefined) {
    if (whole.view !== undefined) next.view = { ...next.view, ...whole.view } as TurnView;
    if (whole.nextStop !== undefined) next.nextStop = whole.nextStop;
    if (Object.hasOwn(whole, 'cardView')) next.cardView = whole.cardView;
  }
  return next;
}
