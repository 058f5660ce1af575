/**
 * The compact persisted format (format 3, what `game.persist()` writes): the full form of a
 * persisted game (format 2, format.ts {@link PersistedFull}) with every field at its default
 * value left out, and what repeats written shorter. A restored snapshot is read back into the
 * full form first ({@link expandPersisted}), so the validation (validate.ts, invariants.ts)
 * reads every field in full whatever the format, and names fields by their full names.
 *
 * - A context field may be left out: it then has its default value ({@link CONSTANT_DEFAULTS},
 *   {@link defaultOf}): empty lists and records, null, 0, false, the era's and variant's
 *   defaults ('current', 'freeForAll', 'all', 'host', a maximum hand size of 7), `players` the
 *   seats, `turnOwner` the active player, `phase` and `step` those `state` names, the steps and
 *   phases still to come those of a regular turn at that step (CR 500.1), every player's mana
 *   and spells cast at 0 and hand size at 7, and so on. Left out at the top level: `status`
 *   when 'active', `seq` when 0, and in a Grand Melee game the top-level `context` (turn marker
 *   1's) and, in each later turn marker, the game's shared fields (marker 1's) and `life`,
 *   `removals` at 'takingTurn', 0.
 * - A field written may be in its full form or in its short one: a step or phase of a regular
 *   turn as its name (`"end"` for `{ "step": "end" }`, `"main"` for a main phase with its
 *   steps); the counts of each player (land plays, spells cast, mana, hand sizes, ranges) as a
 *   list in seat order, `null` for a seat without an entry; combatants and combat without
 *   their false flags and empty lists.
 *
 * Reading builds new objects for the fields it fills in; what it does not understand it keeps
 * as it is, for the schema to refuse with the field's name. Builds no game.
 */
import type { CombatState, PhaseEntry, PhaseKind, StepEntry, TurnContext } from '../state.js';
import { CONTEXT_KEYS } from '../../machines/context.js';
import { REGULAR_PHASES, STEPS_OF_KIND, STEPS_OF_PHASE } from '../rules/schedule.js';
import { MAX_PHASES, MAX_STEPS } from '../rules/limits.js';
import { influenceOf } from '../rules/teams.js';
import { RESERVED_IDS } from '../fields.js';
import { SHARED_FIELDS } from '../grandMelee/coordinator.js';
import { FULL_FORMAT, PERSISTED_ENGINE, PERSISTED_VERSION, type Persisted, type PersistedFull, type PersistedMarker, type PersistedTurn } from './format.js';

/** A compact snapshot that cannot be read back: the message names the field. */
export class SnapshotProblem extends Error {}

type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether two JSON values are equal, the order of keys included (a restored game keeps the order its records came in). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Rec)[k], (b as Rec)[k]));
}

/** Sets a field as data, whatever its name ('__proto__' included: the schema refuses it by name). */
function put(record: Rec, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of a default: lists and records are made anew. */
const fresh = (d: unknown): unknown => (Array.isArray(d) ? [...(d as unknown[])] : isRecord(d) ? { ...d } : d);

/** The context fields whose default is a constant. */
export const CONSTANT_DEFAULTS: Readonly<Rec> = {
  rules: 'current',
  maxHandSize: 7,
  attack: 'all',
  turn: 1,
  activePlayer: null,
  priority: null,
  passed: [],
  stack: [],
  pendingTriggers: [],
  landsPlayedBy: {},
  combat: null,
  extraTurns: [],
  skips: {},
  effects: [],
  dayNight: null,
  controlNext: [],
  controlledBy: {},
  yields: {},
  autoPasses: 0,
  autoPassTurns: 0,
  endedInSend: false,
  emptyTurns: 0,
  cleanupSteps: 0,
  cleanupCheck: null,
  reasons: {},
  result: null,
  nextObjectId: 1,
  pending: [],
  orderTriggers: 'host',
  triggerOrder: null,
  variant: 'freeForAll',
  teams: null,
  ranges: null,
  planarRolls: 0,
  // CR 103: only before turn 1 (written in full then).
  pregame: null,
  extraTurn: null,
  waitingToPhaseIn: [],
};

/** The counts of each player, written as a list in seat order. */
const COUNTS: ReadonlySet<string> = new Set(['landsPlayedBy', 'spellsCast', 'manaPool', 'handSizes', 'ranges']);
const SHARED: ReadonlySet<string> = new Set(SHARED_FIELDS);

/** A list of player ids a record may be keyed by (anything else: null, and the schema refuses it by name). */
const playerList = (v: unknown): string[] | null => (Array.isArray(v) && v.every((s) => typeof s === 'string' && !RESERVED_IDS.has(s)) ? (v as string[]) : null);

/** A record with one entry per player, in their order, each `value`. */
const each = (players: readonly string[], value: unknown): Rec => Object.fromEntries(players.map((p) => [p, value]));

/** The records of each player in the game at one value by default: mana and spells cast none, hands of 7, stops unset. */
const EACH: Readonly<Record<string, unknown>> = { spellsCast: 0, manaPool: 0, handSizes: 7, stops: null };

/** Whether a record holds exactly `value` for every player in the game, in their order (without making the record). */
function isEach(v: unknown, players: readonly string[], value: unknown): boolean {
  if (!isRecord(v)) return false;
  let i = 0;
  for (const k in v) if (k !== players[i++] || v[k] !== value) return false;
  return i === players.length;
}

/** How persist() writes each field, in the engine's order: worked out once (persist() is called often enough to count). */
const PLAN = CONTEXT_KEYS.map((key) => ({
  key,
  /** 1: each player at one value; 2: a constant; 0: made by {@link defaultOf}. */
  kind: Object.hasOwn(EACH, key) ? 1 : Object.hasOwn(CONSTANT_DEFAULTS, key) ? 2 : 0,
  value: Object.hasOwn(EACH, key) ? EACH[key] : CONSTANT_DEFAULTS[key],
  shared: SHARED.has(key),
}));

/** Whether a field of a context (the engine's, in full) is at its default: {@link defaultOf} without making it where that is quicker. */
function atDefault(field: (typeof PLAN)[number], v: unknown, c: TurnContext, state: string): boolean {
  if (field.kind === 1) return isEach(v, c.players, field.value);
  const d = field.kind === 2 ? field.value : defaultOf(field.key, c as unknown as Rec, state);
  if (typeof d !== 'object' || d === null || typeof v !== 'object' || v === null) return v === d;
  // An empty list or record: no text made.
  if (Object.keys(d).length === 0) return Object.keys(v).length === 0 && Array.isArray(v) === Array.isArray(d);
  return same(v, d);
}

/** The phase a leaf state names ('combat' of 'combat.declareAttackers.priority'), and its step. */
function phaseAndStep(state: unknown): [string | undefined, string | undefined] {
  const [phase = '', step] = typeof state === 'string' ? state.split('.') : [];
  if (phase === 'pregame') return [phase, phase];
  const steps = Object.hasOwn(STEPS_OF_PHASE, phase) ? (STEPS_OF_PHASE as Record<string, readonly string[]>)[phase] : undefined;
  return steps === undefined ? [undefined, undefined] : [phase, steps.includes(step as string) ? step : undefined];
}

/** The phases of a turn, in order (CR 500.1: both main phases by name). */
const PHASE_ORDER = ['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending'];
const stepsOf = (kind: PhaseKind): StepEntry[] => STEPS_OF_KIND[kind].map((step) => ({ step }));

/**
 * The default of a context field, from the fields before it (read back in the engine's order)
 * and the turn's state; undefined for a field that has none (`seats`, `rng`).
 */
export function defaultOf(field: string, c: Rec, state: unknown): unknown {
  const players = () => playerList(c.players) ?? [];
  switch (field) {
    case 'players':
      return fresh(c.seats);
    case 'startingPlayer':
      return Array.isArray(c.seats) ? c.seats[0] : undefined;
    case 'turnOwner':
      return c.activePlayer ?? c.startingPlayer;
    case 'rotation':
      return c.turnOwner;
    case 'phase':
      return phaseAndStep(state)[0];
    case 'step':
      return phaseAndStep(state)[1];
    case 'steps': {
      // CR 500.1: the steps of the phase after this one.
      const steps = Object.hasOwn(STEPS_OF_PHASE, String(c.phase)) ? (STEPS_OF_PHASE as Record<string, readonly StepEntry['step'][]>)[String(c.phase)] ?? [] : [];
      const at = steps.indexOf(c.step as StepEntry['step']);
      return at < 0 ? [] : steps.slice(at + 1).map((step) => ({ step }));
    }
    case 'phases': {
      const at = PHASE_ORDER.indexOf(String(c.phase));
      return at < 0 ? [] : REGULAR_PHASES.slice(at + 1).map((kind) => ({ kind, steps: stepsOf(kind) }));
    }
    case 'mainSeen':
      // CR 505.1a: from the first main phase on (taken or skipped).
      return c.phase !== 'beginning' && c.phase !== 'pregame';
    case 'spellsCast':
    case 'manaPool':
    case 'handSizes':
    case 'stops':
      return each(players(), EACH[field]);
    case 'previousTurnSpells':
      // CR 731.2a-b: no previous turn before turn 2.
      return c.turn === 1 ? null : 0;
    case 'priorityFresh':
      // Whoever holds priority between sends has mostly just received it.
      return c.priority !== null;
    case 'influence': {
      // CR 801.2c: the players within each player's range as the turn began (those in the game, unless one left since).
      const ranges = c.ranges;
      return isRecord(ranges) && Object.values(ranges).every((n) => Number.isSafeInteger(n) && (n as number) >= 0) ? influenceOf({ players: players(), ranges: ranges as Record<string, number> }) : null;
    }
    default:
      return fresh(CONSTANT_DEFAULTS[field]);
  }
}

/** Fields of a record left out at their defaults (false, [], null), the others in the order of `defaults` (as {@link withDefaults} reads them back), then any it does not know. */
function withoutDefaults(v: Rec, defaults: Readonly<Rec>): Rec {
  const out: Rec = {};
  for (const k in defaults) {
    const x = v[k];
    const d = defaults[k];
    if (Object.hasOwn(v, k) && x !== d && !(Array.isArray(x) && x.length === 0 && Array.isArray(d))) out[k] = x;
  }
  for (const k in v) if (!Object.hasOwn(defaults, k)) out[k] = v[k];
  return out;
}

/** A record with its left-out fields back at their defaults, in the order of `defaults`; fields `defaults` does not have are kept, for the schema to refuse. */
function withDefaults(v: unknown, defaults: Readonly<Rec>): unknown {
  if (!isRecord(v)) return v;
  const out: Rec = {};
  for (const k in defaults) out[k] = Object.hasOwn(v, k) ? v[k] : fresh(defaults[k]);
  for (const k of Object.keys(v)) if (!Object.hasOwn(defaults, k)) put(out, k, v[k]);
  return out;
}

// Combat in the engine's order (src/state.ts); undefined: always written.
const ATTACKER: Readonly<Rec> = { id: undefined, defender: undefined, firstStrike: false, doubleStrike: false, blockedBy: [], blocked: false, dealtFirst: false, ordered: false };
const BLOCKER: Readonly<Rec> = { id: undefined, player: undefined, blocking: [], firstStrike: false, doubleStrike: false, dealtFirst: false, ordered: false };
const COMBAT: Readonly<Rec> = { attackers: [], blockers: [], declared: false, attacksDeclared: false, declaredBy: [], firstStrikeStep: false, defenders: null };

/** The short form of a field that is not at its default. */
function written(field: string, v: unknown, seats: readonly string[]): unknown {
  if (v === null) return v;
  if (COUNTS.has(field)) {
    // Counts as a list in seat order when the record's keys are seats in seat order and its values numbers.
    const out: (number | null)[] = [];
    for (const [k, n] of Object.entries(v as Rec)) {
      const i = seats.indexOf(k);
      if (i < out.length || typeof n !== 'number') return v;
      while (out.length < i) out.push(null);
      out.push(n);
    }
    return out;
  }
  const plain = (s: StepEntry) => (s.passedOver === undefined && Object.keys(s).length === 1 ? s.step : s);
  if (field === 'steps') return (v as StepEntry[]).map(plain);
  if (field === 'phases') {
    // A regular phase (its kind, every step of it, none passed over, not added by an effect) by its kind.
    return (v as PhaseEntry[]).map((p) => (Object.keys(p).length === 2 && same(p.steps, stepsOf(p.kind)) ? p.kind : { ...p, steps: p.steps.map(plain) }));
  }
  if (field === 'combat') {
    const combat = v as CombatState;
    const out = withoutDefaults(combat as unknown as Rec, COMBAT);
    if (combat.attackers.length > 0) out.attackers = combat.attackers.map((a) => withoutDefaults(a as unknown as Rec, ATTACKER));
    if (combat.blockers.length > 0) out.blockers = combat.blockers.map((b) => withoutDefaults(b as unknown as Rec, BLOCKER));
    return out;
  }
  return v;
}

/** The value of a written field, short or full. */
function read(field: string, v: unknown, c: Rec, at: string): unknown {
  // Lists longer than the engine keeps are returned as they are, unread: the schema refuses them by their length.
  const steps = (list: unknown) => (Array.isArray(list) && list.length <= MAX_STEPS ? list.map((s: unknown) => (typeof s === 'string' ? { step: s } : s)) : list);
  if (COUNTS.has(field) && Array.isArray(v)) {
    const seats = playerList(c.seats);
    if (seats === null) throw new SnapshotProblem(`${at}: a list in seat order needs context.seats`);
    if (v.length > seats.length) throw new SnapshotProblem(`${at}: ${v.length} entries for ${seats.length} seats`);
    // Entries, then fromEntries: every key a field of its own.
    return Object.fromEntries(v.flatMap((n: unknown, i) => (n === null ? [] : [[seats[i] as string, n]])));
  }
  if (field === 'steps') return steps(v);
  if (field === 'phases' && Array.isArray(v) && v.length <= MAX_PHASES) {
    return v.map((p: unknown) => {
      if (typeof p === 'string') return { kind: p, steps: Object.hasOwn(STEPS_OF_KIND, p) ? stepsOf(p as PhaseKind) : [] };
      return isRecord(p) ? { ...p, steps: steps(p.steps) } : p;
    });
  }
  if (field === 'combat') {
    const combat = withDefaults(v, COMBAT);
    if (isRecord(combat)) {
      if (Array.isArray(combat.attackers)) combat.attackers = combat.attackers.map((a: unknown) => withDefaults(a, ATTACKER));
      if (Array.isArray(combat.blockers)) combat.blockers = combat.blockers.map((b: unknown) => withDefaults(b, BLOCKER));
    }
    return combat;
  }
  return v;
}

/**
 * A context in the compact form: its fields at their defaults left out, the others short.
 * `first`: turn marker 1's context, whose shared fields a later marker's leaves out. Shares
 * objects with `c` (the caller copies the result).
 */
export function compactContext(c: TurnContext, state: string, first?: TurnContext): Rec {
  const out: Rec = {};
  const ctx = c as unknown as Rec;
  for (const field of PLAN) {
    const v = ctx[field.key];
    if (first !== undefined && field.shared ? !same(v, (first as unknown as Rec)[field.key]) : !atDefault(field, v, c, state)) out[field.key] = written(field.key, v, c.seats);
  }
  return out;
}

/**
 * A context read back from the compact form, every field in place in the engine's order: fields
 * left out at their defaults (or, `first` given, the shared fields at turn marker 1's), short
 * forms read; fields a context does not have are kept after them, for the schema to refuse.
 */
export function expandContext(value: unknown, state: unknown, at: string, first?: Rec): unknown {
  if (!isRecord(value)) return value;
  const out: Rec = {};
  for (const field of CONTEXT_KEYS) {
    const v = Object.hasOwn(value, field) ? read(field, value[field], out, `${at}.${field}`) : first !== undefined && SHARED.has(field) ? first[field] : defaultOf(field, out, state);
    if (v !== undefined) out[field] = v;
  }
  for (const key of Object.keys(value)) if (!CONTEXT_KEYS.includes(key)) put(out, key, value[key]);
  return out;
}

/** A persisted game in the compact form (format 3); shares objects with `full` (the caller copies it). */
export function compactPersisted(full: PersistedFull, seq: number): Persisted {
  const out: Persisted = { engine: PERSISTED_ENGINE, format: PERSISTED_VERSION, version: full.version, ...(seq === 0 ? {} : { seq }), ...(full.status === 'active' ? {} : { status: full.status }), state: full.state };
  const markers = full.markers;
  const first = markers?.[0];
  // Grand Melee: the game's context is turn marker 1's (the validation refuses anything else).
  if (first === undefined || first.state !== full.state || !same(first.context, full.context)) out.context = compactContext(full.context, full.state);
  if (markers !== undefined) {
    out.markers = markers.map(
      (m, i): PersistedMarker => ({
        number: m.number,
        ...(m.life === 'takingTurn' ? {} : { life: m.life }),
        ...(m.removals === 0 ? {} : { removals: m.removals }),
        state: m.state,
        context: compactContext(m.context, m.state, i === 0 ? undefined : first?.context),
      }),
    );
  }
  // CONTRACT v3: the table's records (src/table/tableSnapshot.ts), each undo moment's turn compact as the game's.
  if (full.undo !== undefined) out.undo = { ...full.undo, history: full.undo.history.map(({ game, ...m }) => (game === undefined ? m : { ...m, game: compactTurn(game as PersistedFull) })) };
  if (full.shortcut !== undefined) out.shortcut = full.shortcut;
  return out;
}

/** An undo moment's turn in the compact form: the persisted game's own fields less its header. */
function compactTurn(full: PersistedFull): PersistedTurn {
  const { engine: _e, format: _f, version: _v, seq: _s, ...turn } = compactPersisted(full, 0);
  return turn;
}

/**
 * A snapshot read as the full form the validation checks: a compact one (format 3) read back,
 * anything else returned as it is. Throws {@link SnapshotProblem} for what cannot be read back
 * (a list in seat order longer than the seats).
 */
export function expandPersisted(value: unknown): unknown {
  if (!isRecord(value) || value.format !== PERSISTED_VERSION) return value;
  let first: Rec | undefined;
  const markers = Array.isArray(value.markers)
    ? value.markers.map((m: unknown, i) => {
        if (!isRecord(m)) return m;
        // Its context's phase and step are read from it (the schema would name the context's fields first).
        if (typeof m.state !== 'string') throw new SnapshotProblem(`markers[${i}].state: must be a state of the turn machine, a string`);
        const context = expandContext(m.context, m.state, `markers[${i}].context`, first);
        if (i === 0 && isRecord(context)) first = context;
        const rest = Object.entries(m).filter(([k]) => !['number', 'life', 'removals', 'state', 'context'].includes(k));
        return Object.fromEntries([['number', m.number], ['life', Object.hasOwn(m, 'life') ? m.life : 'takingTurn'], ['removals', Object.hasOwn(m, 'removals') ? m.removals : 0], ['state', m.state], ['context', context], ...rest]);
      })
    : value.markers;
  const hasContext = Object.hasOwn(value, 'context');
  if (!hasContext && Object.hasOwn(value, 'markers') && first === undefined) throw new SnapshotProblem('markers: with the context left out, markers[0] holds it, and there is none');
  const entries: [string, unknown][] = [['engine', value.engine], ['format', FULL_FORMAT], ['version', value.version]];
  if (Object.hasOwn(value, 'seq')) entries.push(['seq', value.seq]);
  entries.push(['status', Object.hasOwn(value, 'status') ? value.status : 'active'], ['state', value.state], ['context', hasContext || first === undefined ? expandContext(value.context, value.state, 'context') : first]);
  if (Object.hasOwn(value, 'markers')) entries.push(['markers', markers]);
  // Entries, then fromEntries: every key a field of its own (the schema refuses those it does not know).
  return Object.fromEntries([...entries, ...Object.entries(value).filter(([k]) => !['engine', 'format', 'version', 'seq', 'status', 'state', 'context', 'markers'].includes(k))]);
}
