/**
 * One record per event (src/events/record.ts), and every table the engine reads about events,
 * derived from them: the schemas and the zod-free parsers (src/schemas.ts), the players each
 * event names and the legality rows (the gate), the decisions and what they answer, who may
 * answer, the templates and the plainest answers (`legalActions`, `nextStop`, the scenario
 * runner, the model), the events `hostEffect` applies (machines/host.effects.ts) and Grand
 * Melee's routing. Nothing else lists event types (test/contract/events.test.ts checks).
 *
 * A new decision that awaits a player touches six files: its type in src/contract.ts (and the
 * Awaiting kind it answers), its record in a file of this folder (added to EVENTS below), the
 * rule it applies in src/rules/, a tagged state in machines/turn.machine.ts, the names of its
 * guards and actions in machines/turn.implementations.ts, and its effect in machines/. A new host event
 * applied wherever the turn is says `hostEffect` in its record: its transition in the chart is
 * `applyHostEvent` and its effect an entry of HOST_EFFECTS (machines/host.effects.ts). The
 * compiler, or test/contract/events.test.ts, points at whatever is missing.
 */
import type * as z from 'zod/mini';
import type { Agrees } from '../fields.js';
import type { Awaiting, TurnEvent, TurnEventType } from '../contract.js';
import type { Violation } from '../errors.js';
import type { MachineEvent, TurnContext } from '../state.js';
import { ADD_ATTACKER, ADD_BLOCKER, CHOOSE_DEFENDER, DECLARE_ATTACKERS, DECLARE_BLOCKERS, END_COMBAT, ORDER_ATTACKERS, ORDER_BLOCKERS, REMOVE_FROM_COMBAT, SET_COMBAT_ABILITIES } from './combat.js';
import { ADD_EFFECT, ADD_MANA, CONTROL_PLAYER, HAND_SIZE, REMOVE_EFFECT, SET_DAY_NIGHT, SET_STOPS, SPEND_MANA, YIELD } from './host.js';
import { CONCEDE, DRAW_GAME, LOSE, WIN } from './leaving.js';
import { BOTTOM, CHOOSE_STARTING_PLAYER, KEEP, MULLIGAN, OPENING_HAND_DONE } from './pregame.js';
import { ACTIVATE_ABILITY, CAST_SPELL, PASS_PRIORITY, PLAY_LAND, ROLL_PLANAR_DIE } from './priority.js';
import { ORDER_TRIGGERS, PUT_ON_STACK, REMOVE_FROM_STACK, TRIGGER } from './stack.js';
import { ACCEPT_SHORTCUT, PROPOSE_SHORTCUT, SHORTEN_SHORTCUT } from './shortcuts.js';
import { ACCEPT_UNDO, DECLINE_UNDO, MARK_IRREVERSIBLE, UNDO } from './undo.js';
import { PAUSE_CLOCKS, RESUME_CLOCKS, SET_SEAT_STATUS, TICK } from './table.js';
import { ADD_EXTRA_COMBAT, ADD_EXTRA_PHASE, ADD_EXTRA_STEP, ADD_EXTRA_TURN, BEGIN_MARKER_TURN, DISCARD, END_TURN, SKIP_NEXT } from './turn.js';
import type { AwaitedKind, Check, EventOf, EventRecord, EventRecords, EventType, Route } from './record.js';

export type { AwaitedKind, Check, EventOf, EventRecord, EventRecords, EventType, PlayerPath, Route, Template, Who } from './record.js';

/**
 * The record of every event type, in the contract's order (the order refusal messages list the
 * types in). Leaving one out does not compile.
 */
export const EVENTS = {
  PASS_PRIORITY,
  CAST_SPELL,
  ACTIVATE_ABILITY,
  PLAY_LAND,
  DECLARE_ATTACKERS,
  DECLARE_BLOCKERS,
  DISCARD,
  CHOOSE_DEFENDER,
  ORDER_BLOCKERS,
  ORDER_ATTACKERS,
  ORDER_TRIGGERS,
  CHOOSE_STARTING_PLAYER,
  MULLIGAN,
  KEEP,
  BOTTOM,
  OPENING_HAND_DONE,
  ROLL_PLANAR_DIE,
  CONCEDE,
  TRIGGER,
  HAND_SIZE,
  ADD_MANA,
  SPEND_MANA,
  ADD_EXTRA_TURN,
  ADD_EXTRA_COMBAT,
  ADD_EXTRA_STEP,
  ADD_EXTRA_PHASE,
  SKIP_NEXT,
  ADD_EFFECT,
  REMOVE_EFFECT,
  REMOVE_FROM_STACK,
  PUT_ON_STACK,
  END_TURN,
  END_COMBAT,
  REMOVE_FROM_COMBAT,
  SET_COMBAT_ABILITIES,
  ADD_ATTACKER,
  ADD_BLOCKER,
  CONTROL_PLAYER,
  LOSE,
  WIN,
  DRAW_GAME,
  SET_DAY_NIGHT,
  SET_STOPS,
  YIELD,
  UNDO,
  ACCEPT_UNDO,
  DECLINE_UNDO,
  MARK_IRREVERSIBLE,
  PROPOSE_SHORTCUT,
  ACCEPT_SHORTCUT,
  SHORTEN_SHORTCUT,
  TICK,
  PAUSE_CLOCKS,
  RESUME_CLOCKS,
  SET_SEAT_STATUS,
  BEGIN_MARKER_TURN,
} satisfies EventRecords;

type Records = typeof EVENTS;
type AnyRecord = EventRecord<EventType>;

/** Every event type, in the records' order. */
export const ALL_EVENT_TYPES = Object.keys(EVENTS) as readonly EventType[];

const recordOf = (type: EventType): AnyRecord => EVENTS[type] as AnyRecord;

/** The event types whose record passes `test`, in the records' order (a table no bundle reads is dropped with it: no side effects). */
/* @__NO_SIDE_EFFECTS__ */
function typesWhere(test: (r: AnyRecord) => boolean): EventType[] {
  return ALL_EVENT_TYPES.filter((t) => test(recordOf(t)));
}

// The schemas.

/** The schema of every event a host may send, in the records' order. */
type Schema = NonNullable<Records[EventType]['schema']>;
export const EVENT_SCHEMAS: readonly Schema[] = /* @__PURE__ */ schemasOf();
function schemasOf(): Schema[] {
  return Object.values(EVENTS).flatMap((r) => (r.schema === null ? [] : [r.schema as Schema]));
}

// Each schema builds exactly its event (checked both ways at compile time; the engine's own events have none).
type SchemasAgree = { [T in EventType]: Records[T]['schema'] extends z.ZodMiniType<infer O> ? Agrees<O, EventOf<T>> : Records[T]['schema'] extends null ? true : false };
const schemasAgree: SchemasAgree = null as unknown as { [T in EventType]: true };
void schemasAgree;

// The engine's own events (no schema: refused from hosts) are exactly those outside the public
// TurnEvent (src/state.ts InternalEvent), checked at compile time both ways.
type OwnEvent = { [T in EventType]: Records[T]['schema'] extends null ? T : never }[EventType];
const ownEventsAreInternal: [OwnEvent, Exclude<EventType, TurnEventType>] extends [Exclude<EventType, TurnEventType>, OwnEvent] ? true : false = true;
void ownEventsAreInternal;

/**
 * A table looked up by an event's type, without a prototype: the gate reads two or three of them
 * for every event that leaves its lane, and V8 looks such an object up by a changing key about
 * twice as fast as an object of as many properties made by Object.fromEntries.
 */
function byType<V>(entries: [string, V][]): Record<string, V> {
  return Object.assign(Object.create(null) as Record<string, V>, Object.fromEntries(entries));
}

/** The names of the event types a host may send, for messages. */
export const EVENT_TYPES: readonly string[] = typesWhere((r) => r.schema !== null);

/** How to read an event of each type a host may send: its schema and the zod-free reading, looked up by a raw type (no prototype). */
export const PARSERS: { readonly [type: string]: { schema: Schema; fast: ((r: Record<string, unknown>) => TurnEvent | undefined) | undefined } | undefined } = byType(
  EVENT_TYPES.map((t) => [t, { schema: recordOf(t as EventType).schema as Schema, fast: recordOf(t as EventType).fast as ((r: Record<string, unknown>) => TurnEvent | undefined) | undefined }]),
);

// The gate.

/** For every event type, what makes it illegal now (the records' `legality`). */
export const LEGALITY = byType(ALL_EVENT_TYPES.map((t) => [t, recordOf(t).legality])) as unknown as { [T in EventType]: Check<T> };

/** What makes an event illegal now, or null when it is allowed. */
export function violationOf(ctx: TurnContext, awaiting: Awaiting | null, e: MachineEvent): Violation | null {
  return (LEGALITY[e.type] as Check<typeof e.type>)(ctx, awaiting, e as never);
}

/** A field naming players, as the gate walks it (src/gate.ts `unknownPlayer`). */
export interface PlayerField {
  /** The field as messages name it, `[]` standing for an index. */
  path: string;
  key: string;
  /** The field of `key`'s object (or of each of its items) that names the player. */
  sub: string | undefined;
  /** Whether `key` is a list of objects (`triggers[].controller`) or `sub` a list of ids (`effect.players[]`). */
  list: 'items' | 'ids' | undefined;
}

function playerField(path: string): PlayerField {
  const m = /^(\w+)(\[\])?(?:\.(\w+)(\[\])?)?$/.exec(path);
  if (m === null) throw new Error(`src/events: '${path}' is not a path to a player field`);
  return { path, key: m[1] as string, sub: m[3], list: m[2] !== undefined ? 'items' : m[4] !== undefined ? 'ids' : undefined };
}

/** For every event type, the fields that name players, in the order the gate checks them. */
export const PLAYER_FIELDS = byType(ALL_EVENT_TYPES.map((t) => [t, recordOf(t).players.map(playerField)])) as unknown as { readonly [T in EventType]: readonly PlayerField[] };

/** The decisions whose legality row reads what is awaited ({@link READS_AWAITING}). */
const READS_AWAITING_TYPES = typesWhere((r) => r.awaits !== undefined && r.awaits !== 'priority' && r.atTable !== true);

/** What the gate reads about one event type (src/gate.ts), in one row: whether the table takes it, the players it names, whether its legality row reads what is awaited, and that row. */
export interface GateRow {
  /** Whether its record says `atTable` (the table logic takes it, never the turn's gate). */
  readonly atTable: boolean;
  readonly players: readonly PlayerField[];
  readonly readsAwaiting: boolean;
  readonly legality: Check<EventType>;
}

/**
 * Every type's {@link GateRow}, looked up once for an event that leaves the gate's lane (three
 * tables looked up by a changing key cost the gate about as much as reading the event's fields).
 */
export const GATE_ROWS = byType(
  ALL_EVENT_TYPES.map((t) => [t, { atTable: recordOf(t).atTable === true, players: PLAYER_FIELDS[t], readsAwaiting: READS_AWAITING_TYPES.includes(t), legality: LEGALITY[t] as Check<EventType> } satisfies GateRow]),
) as unknown as { readonly [T in EventType]: GateRow };

/**
 * The decisions that answer something else the game awaits (attackers, blockers, a discard,
 * an order, the pregame's choices). Their rows are the ones that read what the game awaits (the
 * table's second argument); the others ignore it, so the gate does not work it out for them
 * (test/runtime/legality-table.test.ts checks this set against the rows).
 */
export const READS_AWAITING: ReadonlySet<EventType> = /* @__PURE__ */ new Set(READS_AWAITING_TYPES);

/** The player decisions: everything else is a host event (or a setting). */
export const DECISIONS: ReadonlySet<EventType> = new Set(typesWhere((r) => r.awaits !== undefined));

/**
 * CONTRACT v3, "Serving games" (who may send what): the events a player's client may send: the
 * decisions, the events offered to every player (a concession) and the settings and requests
 * marked `byPlayer`. Everything else is a host event, which only the server's cards send.
 */
export const PLAYER_EVENTS: ReadonlySet<EventType> = /* @__PURE__ */ new Set(typesWhere((r) => r.awaits !== undefined || r.template !== undefined || r.byPlayer === true));

// What is awaited, and its answers.

// Every kind of Awaiting is answered by some decision (checked at compile time).
type Answered = { [T in EventType]: Records[T] extends { awaits: infer K } ? K : never }[EventType];
const everyKindAnswered: [AwaitedKind] extends [Answered] ? true : false = true;
void everyKindAnswered;

const KINDS = [...new Set(ALL_EVENT_TYPES.map((t) => recordOf(t).awaits).filter((k) => k !== undefined))] as AwaitedKind[];

/** For each kind of what is awaited, the decisions that answer it: the plainest answer first, then the others in the records' order. */
export const ANSWERS = Object.fromEntries(
  KINDS.map((k) => [k, [...typesWhere((r) => r.awaits === k && r.plainest === true), ...typesWhere((r) => r.awaits === k && r.plainest !== true)]]),
) as unknown as { readonly [K in AwaitedKind]: readonly EventType[] };

/** For each kind of what is awaited, its plainest answer (what `passUntil` sends). */
export const PLAINEST_ANSWER = /* @__PURE__ */ Object.fromEntries(/* @__PURE__ */ KINDS.map((k) => [k, ANSWERS[k][0]])) as unknown as { readonly [K in AwaitedKind]: EventType };

/** For each kind of what is awaited, whether a teammate of the awaited player may answer it with shared team turns (CR 805.5, 805.7, 805.10). */
export const TEAMMATE_MAY_ANSWER = Object.fromEntries(KINDS.map((k) => [k, ANSWERS[k].every((t) => recordOf(t).teammateMayAnswer === true)])) as unknown as { readonly [K in AwaitedKind]: boolean };

/** The events `legalActions` offers every player at any time, whatever is awaited (a concession, CR 104.3a). */
export const ALWAYS_OFFERED: readonly EventType[] = typesWhere((r) => r.template !== undefined && r.awaits === undefined && r.atTable !== true);

/** What the plainest game sends: the plainest answer to each kind of what is awaited, and the coordinator's own next step. */
export const PLAINEST: ReadonlySet<EventType> = new Set(typesWhere((r) => r.plainest === true));

// The effects.

/** The events whose effect is `hostEffect` (machines/host.effects.ts). */
export type HostEffectType = { [T in EventType]: Records[T] extends { hostEffect: true } ? T : never }[EventType];
export const HOST_EFFECT_TYPES: ReadonlySet<EventType> = /* @__PURE__ */ new Set(/* @__PURE__ */ typesWhere((r) => r.hostEffect === true));

/** Host events whose consequences come later in the turn or in later turns (the model follows them from an anchor). */
export const CHANGES_LATER: ReadonlySet<EventType> = /* @__PURE__ */ new Set(/* @__PURE__ */ typesWhere((r) => r.changesLater === true));

// The table around the turn (CONTRACT v3, "Playing between people").

/** The events the table takes (the host's clock, the clocks, the seats: src/table/time.ts), never the chart. */
export const TABLE_EVENTS: ReadonlySet<string> = new Set(typesWhere((r) => r.table === true));

/** The events the table logic takes (src/table/tableLogic.ts: undo and shortcuts), never the chart: the turn's gate refuses them. */
export const AT_TABLE_EVENTS: ReadonlySet<string> = new Set(typesWhere((r) => r.atTable === true));

/** The types of the events the table logic takes (their records say `atTable`). */
export type AtTableEventType = { [T in EventType]: Records[T] extends { atTable: true } ? T : never }[EventType];

// Grand Melee.

/** For each route, the event types that take it. */
function routed(route: Route): ReadonlySet<string> {
  return new Set(typesWhere((r) => r.route === route));
}
/** Events that leave the game: every turn takes them (CR 800.4a). */
export const LEAVING: ReadonlySet<string> = routed('leaving');

/** The events whose record routes them as 'leaving': a player leaves, or the game ends (CR 800.4a, 104). */
export type LeavingEvent = { [T in EventType]: (typeof EVENTS)[T] extends { route: 'leaving' } ? EventOf<T> : never }[EventType];

/** Whether an event makes a player leave or ends the game (its record's route is 'leaving'). */
export function isLeaving(e: TurnEvent): e is LeavingEvent {
  return LEAVING.has(e.type);
}
/** Host events about the game, not a turn: the first running turn takes them and the others follow. */
export const GAME_WIDE: ReadonlySet<string> = /* @__PURE__ */ routed('gameWide');

// LegalAction.

/** A decision of type `T` less the fields in `Chosen`, which the caller fills in (listed in `choose`). */
export type LegalActionTemplate<T extends TurnEvent['type'], Chosen extends string = never> = Omit<Extract<TurnEvent, { type: T }>, Chosen> & { choose: Chosen[] };

/** The LegalAction of one event type: its template when its record offers one (never otherwise). */
export type LegalActionOf<T extends TurnEventType> = Records[T] extends { template: { choose: readonly (infer C)[] } } ? LegalActionTemplate<T, C & string> : never;

/**
 * A decision that would be accepted now: the event less the fields in `choose` (drop
 * `choose` before sending). Discriminated by `type`.
 */
export type LegalAction = { [T in TurnEventType]: LegalActionOf<T> }[TurnEventType];

/** The names of the fields a LegalAction leaves to choose (the items of its `choose`); never when it leaves none. */
export type ChosenFieldOf<A extends LegalAction> = A extends { choose: (infer C)[] } ? C : never;

/**
 * What `fillAction` takes for a LegalAction: exactly the fields it leaves to choose, typed as
 * the event types them (`{ attackers: Attacker[] }` for DECLARE_ATTACKERS, `{ id: string }` for
 * CAST_SPELL, `{}` when it leaves none).
 */
export type ActionChoices<A extends LegalAction> = A extends { type: infer T extends TurnEventType; choose: (infer C)[] }
  ? { [K in C & keyof Extract<TurnEvent, { type: T }>]: Extract<TurnEvent, { type: T }>[K] }
  : never;

/** The event a LegalAction becomes once `fillAction` has filled in its choices (its `choose` dropped). */
export type FilledAction<A extends LegalAction> = A extends { type: infer T extends TurnEventType } ? Extract<TurnEvent, { type: T }> : never;
