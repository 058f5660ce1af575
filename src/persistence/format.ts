/**
 * The persisted format of a game (CONTRACT.md, "Game": persist/restoreGame): plain JSON,
 * `{ engine, format, version, status, state, context, markers? }`, where `state` is the dotted
 * path of the chart's active leaf state, `context` the chart's context and `version` the view's
 * version; how states are written as paths; and how snapshots of earlier versions of the engine
 * are read as today's. Validation is src/persistence/validate.ts; neither builds a game.
 */
import type { TurnContext } from '../state.js';
import type { TimeState } from '../table/time.js';

/** The `engine` tag of a persisted game. */
export const PERSISTED_ENGINE = 'mtg-turn-engine';
/** The version of the persisted format. */
export const PERSISTED_VERSION = 2;
/** The largest turn number (CONTRACT: an integer from 1 to 2^31 - 1). */
export const MAX_TURN = 2 ** 31 - 1;
/**
 * The largest turn a restored game may be at: half of {@link MAX_TURN}, so that a restored game
 * has 2^30 turns to go before its turn number passes what a snapshot may hold (the engine does not
 * stop at a cap: a game at the cap would be one it could not save).
 */
export const MAX_RESTORED_TURN = 2 ** 30;
/**
 * The largest count a persisted game may hold (its version, mana in a pool, spells cast, lands
 * played, planar die rolls, object ids): 2^48, so that a restored game can take 2^33 events more,
 * each adding at most MAX_AMOUNT (10^6) to a count, before any count stops being an exact
 * integer (Number.MAX_SAFE_INTEGER) and the game could no longer be saved.
 */
export const MAX_COUNT = 2 ** 48;

/** A persisted game (see `game.persist()`). */
export interface Persisted {
  engine: typeof PERSISTED_ENGINE;
  format: typeof PERSISTED_VERSION;
  /** The view's version when it was persisted. */
  version: number;
  /** The `seq` of the last event the game emitted (CONTRACT v3: continued by restoreGame); absent in snapshots made before v3 (0). */
  seq?: number;
  status: 'active' | 'done';
  state: string;
  context: TurnContext;
  /** Grand Melee only: every turn marker, its statechart's state and its turn (CR 807.4); `state` and `context` are marker 1's. */
  markers?: PersistedMarker[];
  /**
   * CONTRACT v3, "Playing between people": the host's last `at`, the clocks and the seats
   * (src/table/time.ts); absent for a game that has none (no `clock` or `away` option, no `at` seen).
   */
  time?: TimeState;
}

/** A persisted Grand Melee turn marker. */
export interface PersistedMarker {
  number: number;
  life: 'takingTurn' | 'waiting';
  removals: number;
  state: string;
  context: TurnContext;
}
/** @deprecated the old name of {@link Persisted}. */
export type PersistedGame = Persisted;

/** The dotted path of a state value's leaf ('combat.declareAttackers.priority'). */
export function statePath(value: unknown): string {
  const parts: string[] = [];
  let v: unknown = value;
  while (typeof v === 'object' && v !== null) {
    const [key, child] = Object.entries(v as Record<string, unknown>)[0] ?? [];
    if (key === undefined) break;
    parts.push(key);
    v = child;
  }
  if (typeof v === 'string') parts.push(v);
  return parts.join('.');
}

/** The state value of a dotted path. */
export function stateValue(path: string): string | Record<string, unknown> {
  const parts = path.split('.');
  let value: string | Record<string, unknown> = parts[parts.length - 1] as string;
  for (let i = parts.length - 2; i >= 0; i--) value = { [parts[i] as string]: value };
  return value;
}

/**
 * A snapshot of an earlier version of the engine, read as today's, each field in its place:
 * the lands of the turn counted in one number, `context.landsPlayed` (the active player's), become
 * `landsPlayedBy` (805.4c); a context without `endedInSend` gets it (false: snapshots are taken
 * between sends); one without `extraTurn` (before v3) is in a regular turn. Anything else is
 * returned as it is.
 */
export function upgraded(value: unknown): unknown {
  if (!isRecord(value)) return value;
  const context = upgradedContext(value.context);
  const markers = Array.isArray(value.markers) ? value.markers.map((m: unknown) => (isRecord(m) ? withField(m, 'context', upgradedContext(m.context)) : m)) : value.markers;
  if (context === value.context && markers === value.markers) return value;
  return withField(withField(value, 'context', context), 'markers', markers);
}

function upgradedContext(value: unknown): unknown {
  if (!isRecord(value)) return value;
  // v3: a context without `extraTurn` (made before v3) is in a regular turn. (A spread keeps a '__proto__' key as a field.)
  const ctx = 'extraTurn' in value ? value : { ...value, extraTurn: null };
  // The earlier context is told by its `landsPlayed` count (a missing field of today's is refused as missing).
  const lands = ctx.landsPlayed;
  if ('landsPlayedBy' in ctx || typeof lands !== 'number' || !Number.isSafeInteger(lands) || lands < 0) return ctx;
  const noEnded = !('endedInSend' in ctx);
  // Entries, then fromEntries: a key such as '__proto__' stays a field (and the schema refuses it).
  const entries: [string, unknown][] = [];
  for (const [key, v] of Object.entries(ctx)) {
    if (key === 'landsPlayed') entries.push(['landsPlayedBy', lands > 0 && typeof ctx.activePlayer === 'string' ? Object.fromEntries([[ctx.activePlayer, lands]]) : {}]);
    else entries.push([key, v]);
    if (key === 'priorityFresh' && noEnded) entries.push(['endedInSend', false]);
  }
  return Object.fromEntries(entries);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of a record with one field's value replaced when it has that field (own keys as data, '__proto__' included). */
function withField(record: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  if (!Object.hasOwn(record, key) || record[key] === value) return record;
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, k === key ? value : v]));
}

