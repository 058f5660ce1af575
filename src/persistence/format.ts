/**
 * The persisted format of a game (CONTRACT.md, "Game": persist/restoreGame): plain JSON,
 * `{ engine, format, version, seq?, status, state, context, markers? }`, where `state` is the
 * dotted path of the chart's active leaf state, `context` the chart's context and `version` the
 * view's version; how states are written as paths; and how snapshots of earlier versions of the
 * engine are read as today's. `persist()` writes format 3, the compact form of format 2 (fields
 * at their defaults left out, src/persistence/compact.ts); a restored snapshot of format 3 is
 * read back into format 2, the full form, which the validation (src/persistence/validate.ts)
 * checks. None of these builds a game.
 */
import type { PlayerId, ShortcutPoint } from '../contract.js';
import type { TurnContext } from '../state.js';
import type { TimeState } from '../table/time.js';

/** The `engine` tag of a persisted game. */
export const PERSISTED_ENGINE = 'mtg-turn-engine';
/** The version of the persisted format `persist()` writes: the compact form (src/persistence/compact.ts). */
export const PERSISTED_VERSION = 3;
/** The version of the full form: every field written; what a compact snapshot is read back into, and what the validation checks. */
export const FULL_FORMAT = 2;
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

/**
 * A persisted game, as `game.persist()` writes it: plain JSON to store and hand back to
 * `restoreGame` as it is (format 3, docs/api.md "Persisted games"). Its context lists only the
 * fields that are not at their default values, some in a short form; read it through
 * `restoreGame`, not field by field.
 */
export interface Persisted {
  engine: typeof PERSISTED_ENGINE;
  format: typeof PERSISTED_VERSION;
  /** The view's version when it was persisted. */
  version: number;
  /** The `seq` of the last event the game emitted (CONTRACT v3: continued by restoreGame); absent: 0. */
  seq?: number;
  /** Absent: 'active'. */
  status?: 'active' | 'done';
  state: string;
  /** The fields of the turn's context that are not at their defaults (absent in a Grand Melee game: turn marker 1's). */
  context?: PersistedContext;
  /** Grand Melee only: every turn marker, its statechart's state and its turn (CR 807.4); `state` and `context` are marker 1's. */
  markers?: PersistedMarker[];
  /**
   * CONTRACT v3, "Playing between people": the host's last `at`, the clocks and the seats
   * (src/table/time.ts); absent for a game that has none (no `clock` or `away` option, no `at` seen).
   */
  time?: TimeState;
  /** CONTRACT v3, undo: a game made with the `undo` option only (src/table/tableSnapshot.ts writes it), each moment's turn in the compact form. */
  undo?: PersistedUndo;
  /** CONTRACT v3, shortcuts: a proposal being voted on, only while there is one. */
  shortcut?: PersistedShortcut;
}

/** The turn of a persisted game in the compact form (its chart's state and context, its turn markers in Grand Melee): what an undo moment keeps. */
export type PersistedTurn = Pick<Persisted, 'status' | 'state' | 'context' | 'markers'>;

/** A persisted game's record of undo (CONTRACT v3; src/table/undo.ts), its moments' turns in the compact form (`persist()`), or each moment a persisted game in the full form (the logics'). */
export interface PersistedUndo<Turn = PersistedTurn> {
  mode: 'own' | 'consent';
  /** The limit of requests per player and turn; absent: none (CONTRACT v4 games write their default, 3). */
  maxPerTurn?: number;
  /** CONTRACT v4: how long a consent request waits for its answer (ms); absent: 30,000. */
  answerMs?: number;
  /** UNDO requests each player made this turn. */
  requests: Record<PlayerId, number>;
  /** The states the players may return to, oldest first; the last is the game's current state (the persisted game itself: it has no `game`). */
  history: { version: number; seq: number; horizons: Record<PlayerId, number>; game?: Turn; also?: { version: number; seq: number }[] }[];
  /** A request awaiting the other players' consent. */
  vote: { requester: PlayerId; to: number; asked: PlayerId[]; since?: number } | null;
}

/** A persisted shortcut proposal (CONTRACT v3; src/table/shortcuts.ts). */
export interface PersistedShortcut {
  proposer: PlayerId;
  until: ShortcutPoint;
  asked: PlayerId[];
}

/** The fields of a persisted turn's context that are not at their defaults (src/persistence/compact.ts). */
export type PersistedContext = { [field: string]: unknown };

/** A persisted Grand Melee turn marker (format 3): `life` absent is 'takingTurn', `removals` absent 0. */
export interface PersistedMarker {
  number: number;
  life?: 'takingTurn' | 'waiting';
  removals?: number;
  state: string;
  /** Its context's fields that are not at their defaults; after turn marker 1, the game's shared fields are marker 1's. */
  context?: PersistedContext;
}

/** A persisted game in the full form (format 2): every field written. What the validation checks and the logics read and write. */
export interface PersistedFull {
  engine: typeof PERSISTED_ENGINE;
  format: typeof FULL_FORMAT;
  version: number;
  /** Absent in snapshots made before v3 (0). */
  seq?: number;
  status: 'active' | 'done';
  state: string;
  context: TurnContext;
  markers?: PersistedFullMarker[];
  /**
   * CONTRACT v3: as in {@link Persisted}. The logics write each moment as a persisted game in the
   * full form, which the shell compacts (src/persistence/compact.ts); a snapshot read back keeps
   * its compact moments, which src/table/tableRead.ts validates one by one.
   */
  undo?: PersistedUndo<PersistedFull | PersistedTurn>;
  shortcut?: PersistedShortcut;
  /** CONTRACT v3: the host's clock, the clocks and the seats, as in {@link Persisted} (the same in both forms). */
  time?: TimeState;
}

/** A persisted Grand Melee turn marker in the full form. */
export interface PersistedFullMarker {
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
 * A snapshot of an earlier version of the engine in the full form (format 2), read as today's, each field in its place:
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
  // v3: a context without `extraTurn` (made before v3) is in a regular turn; one without `waitingToPhaseIn` (before 702.26n) has nobody waiting. (A spread keeps a '__proto__' key as a field.)
  const ctx = 'waitingToPhaseIn' in value ? value : { ...value, ...('extraTurn' in value ? {} : { extraTurn: null }), waitingToPhaseIn: [] };
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

