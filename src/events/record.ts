/**
 * The shape of an event's record: everything the engine knows about one event type beside
 * what its effect does (machines/). src/events/index.ts assembles one record per TurnEvent
 * type and derives from them every table the gate, `legalActions`, `nextStop`, the scenario
 * runner, the model and Grand Melee read.
 */
import type * as z from 'zod/mini';
import type { Awaiting, PlayerId } from '../contract.js';
import type { Violation } from '../errors.js';
import type { MachineEvent, TurnContext } from '../state.js';

/** The type names of all events: a host's, and the engine's own. */
export type EventType = MachineEvent['type'];

/** The event of one type. */
export type EventOf<T extends EventType> = Extract<MachineEvent, { type: T }>;

/** What makes an event illegal now (the violated rule and what to do instead), or null. */
export type Check<T extends EventType> = (ctx: TurnContext, awaiting: Awaiting | null, e: EventOf<T>) => Violation | null;

/** What a game can await (TurnView.awaiting.kind). */
export type AwaitedKind = Awaiting['kind'];

/**
 * Where a field naming a player sits in the event: `player`, `object.controller` (a field of an
 * object), `triggers[].controller` (a field of each item of a list), `effect.players[]` (each
 * item of a list). The first name must be a field of the event.
 */
export type PlayerPath<T extends EventType> = `${KeysOf<EventOf<T>>}${'' | `.${string}` | `[].${string}` | `.${string}[]`}`;
type KeysOf<E> = E extends unknown ? Exclude<keyof E, 'type' | 'turnMarker'> & string : never;

/**
 * Which turns of a Grand Melee game take the event (CR 807.5b): 'leaving', every turn (one
 * decides who leaves, the others follow: 800.4a); 'gameWide', the first running turn, the
 * others following (it is about the game, not a turn); 'turn', the turn it fits (the router
 * sends a YIELD to the turn where its player holds priority, and each TRIGGER and PUT_ON_STACK
 * to the stack its controller may use, 807.5a).
 */
export type Route = 'leaving' | 'gameWide' | 'turn';

/** What a LegalAction's template is made from: the fields the caller chooses, and the others offered. */
export interface Template<T extends EventType> {
  /** The fields the caller must choose (`LegalAction.choose`), each filled the plainest way by `fill`. */
  choose: readonly Exclude<keyof EventOf<T>, 'type'>[];
  /**
   * The template's fields beside its type, player and `by`, from what is awaited: one object
   * per template offered (a spell at each speed). Absent: one template with none.
   */
  fields?: (awaiting: Awaiting) => readonly Partial<EventOf<T>>[];
  /**
   * Sets the chosen fields of a template (less its `choose`) the plainest way: an unused id, no
   * creatures, the first defender, the order as listed. Absent when nothing is chosen.
   */
  fill?: (event: Record<string, unknown>, awaiting: Awaiting | null, ctx: Pick<TurnContext, 'stack' | 'pendingTriggers'>) => void;
}

/** Everything the engine knows about one event type beside its effect. */
export type EventRecord<T extends EventType> = RecordOf<T> & (DecisionRecord | HostEventRecord);

/** A player's decision. */
interface DecisionRecord {
  /** What it answers: what the game awaits ('priority' for what a player does holding priority, CR 117.1). */
  awaits: AwaitedKind;
  /**
   * With shared team turns, whether any member of the awaited player's team may make it
   * (CR 805.5, 805.10); false for each player's own decisions (805.7: discards, mulligans...).
   */
  teammateMayAnswer: boolean;
}

/** A host event: what the host's cards did, or a setting. */
interface HostEventRecord {
  awaits?: undefined;
  teammateMayAnswer?: undefined;
}

interface RecordOf<T extends EventType> {
  /**
   * The zod schema of the event as a host sends it (unknown keys are dropped); null for the
   * engine's own events, refused from hosts (INVALID_EVENT).
   */
  schema: z.ZodMiniType<{ type: T }> | null;
  /**
   * For the events most games send: the event zod's schema would build from a raw object, read
   * without zod's machinery, or undefined when it does not pass exactly the checks of the schema
   * (zod then says why). A raw object's fields are read once each.
   */
  fast?: (r: Record<string, unknown>) => EventOf<T> | undefined;
  /** The fields that name players, in the order they are checked to be seats of the game (INVALID_EVENT). */
  players: readonly PlayerPath<T>[];
  /** What makes the event illegal now: read by the gate, its refusal messages and `legalActions`. */
  legality: Check<T>;
  /**
   * How `legalActions` offers it. A decision's templates are offered to whoever may answer what
   * it awaits, with `by` when someone else decides for them (CR 723.5); an event offered without
   * `awaits` (CONCEDE) is offered to every player at any time, made by the player themselves.
   */
  template?: Template<T>;
  /**
   * What the plainest game sends: the one plainest answer to what it awaits (what `passUntil`,
   * `nextStop` and `legalActions` put first), or the coordinator's own next step.
   */
  plainest?: true;
  /** Its effect is `hostEffect` (machines/host.effects.ts): applied wherever the turn is, and from a checkpoint hook's result. */
  hostEffect?: true;
  /** Its consequences come later in the turn or in later turns: the model follows it from an anchor state (src/model/events.ts). */
  changesLater?: true;
  /** Which turns of a Grand Melee game take it. */
  route: Route;
  /**
   * CONTRACT v3, "Serving games" (who may send what): a setting or request a player sends for
   * themselves at any time (SET_STOPS, YIELD), though it answers nothing awaited. A player's
   * client may send it, and the decisions (`awaits`) and the events offered to every player
   * (CONCEDE); every other event is the host's.
   */
  byPlayer?: true;
  /**
   * CONTRACT v3, "Playing between people": taken by the table around the turn (src/table/: the
   * host's clock, the clocks, the seats), never by the chart. Sent with `game.send` only: a
   * checkpoint hook may not return it.
   */
  table?: true;
  /**
   * CONTRACT v3, "Playing between people": taken by the table logic around the turn
   * (src/table/tableLogic.ts: undo and shortcuts), never by the turn: the chart has no transition
   * for it, the turn's gate refuses it, a checkpoint may not return it, and the table decides
   * whether it is legal (its `legality` row says only what the turn can: the player is in the
   * game) and offers it in `legalActions`.
   */
  atTable?: true;
}

/** A record for every event type: the mapped type makes one compulsory. */
export type EventRecords = { [T in EventType]: EventRecord<T> };

/** Who makes a decision: its player, and who decides for them when someone else does (CR 723.5). */
export type Who = { player: PlayerId; by?: PlayerId };
