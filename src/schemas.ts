/**
 * zod schemas for every boundary: options, events, hook results. Written with `zod/mini`
 * (tree-shakable: the browser bundle stays small) and tied to the TypeScript types of
 * src/contract.ts, so the two cannot drift apart.
 */
import * as z from 'zod/mini';
import type { CheckpointResult, Effect, Trigger, TurnEvent } from './contract.js';

/** Longest id (player, object, creature) the engine accepts. */
export const MAX_ID_LENGTH = 256;
/** Most entries in one list of an event (attackers, blockers, triggers). */
export const MAX_LIST_LENGTH = 1000;
/** Largest amount (mana, hand size) the engine accepts. */
export const MAX_AMOUNT = 1_000_000;
/** Most players in a game. */
export const MAX_PLAYERS = 64;

/** Names every JavaScript object already has: a player with such a name would collide with them. */
export const RESERVED_IDS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype']);

// Every bound is one kind of check, `z.refine` (each further kind of check adds to every browser bundle).
/** A length from `min` to `max` (strings, lists); the message names what is wrong. */
export const lengthIn = (min: number, max: number, message?: string) => z.refine<{ length: number }>((v) => v.length >= min && v.length <= max, message);
const NON_EMPTY = 'must be a non-empty string';
export const PlayerIdSchema = z.string().check(
  lengthIn(1, Infinity, NON_EMPTY),
  lengthIn(0, MAX_ID_LENGTH),
  z.refine((id) => !RESERVED_IDS.has(id), 'is reserved (a property name of every JavaScript object)'),
);
export const ObjectIdSchema = z.string().check(lengthIn(1, Infinity, NON_EMPTY), lengthIn(0, MAX_ID_LENGTH));
/** A safe integer from `min` to `max`. */
export const int = (min: number, max: number) => z.number().check(z.refine((v) => Number.isSafeInteger(v) && v >= min && v <= max));
const Count = int(0, MAX_AMOUNT);
const Positive = int(1, MAX_AMOUNT);
const Signed = int(-MAX_AMOUNT, MAX_AMOUNT);
const list = <T extends z.ZodMiniType>(item: T, max = MAX_LIST_LENGTH, min = 0) => z.array(item).check(lengthIn(min, max));
const opt = z.optional;

export const RulesEraSchema = z.enum(['current', 'm10', 'classic']);
export const TurnPhaseSchema = z.enum(['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending']);
export const TurnStepSchema = z.enum([
  'untap',
  'upkeep',
  'draw',
  'main',
  'beginningOfCombat',
  'declareAttackers',
  'declareBlockers',
  'firstStrikeDamage',
  'combatDamage',
  'endOfCombat',
  'end',
  'cleanup',
]);
export const SkipTargetSchema = z.enum([...TurnStepSchema.options, ...TurnPhaseSchema.options, 'turn']);
const Speed = z.enum(['sorcery', 'instant']);
const By = opt(PlayerIdSchema);
const Players = opt(list(PlayerIdSchema, MAX_PLAYERS));

export const TriggerSchema = z.object({ id: ObjectIdSchema, controller: PlayerIdSchema, turnMarker: opt(int(1, MAX_PLAYERS)) });
const Strikes = { firstStrike: opt(z.boolean()), doubleStrike: opt(z.boolean()) };
export const AttackerSchema = z.object({ id: ObjectIdSchema, defender: PlayerIdSchema, ...Strikes });
export const BlockerSchema = z.object({ id: ObjectIdSchema, attacker: ObjectIdSchema, ...Strikes });

// Unions of objects told apart by a tag are plain `z.union`s (one kind fewer in every bundle than
// `z.discriminatedUnion`): events are dispatched on their type by parseEvent, and describeIssue
// reports the issue of the option whose tag matched.
export const EffectSchema = z.union([
  z.object({ kind: z.enum(['skip']), what: z.enum([...SkipTargetSchema.options, 'extraTurn']), players: Players }),
  z.object({ kind: z.enum(['maxHandSize']), set: opt(z.nullable(Count)), change: opt(Signed), players: Players }),
  z.object({ kind: z.enum(['landPlays']), change: opt(Signed), set: opt(Count), players: Players }),
  z.object({ kind: z.enum(['spellLimit']), perTurn: Count, players: Players }),
  z.object({ kind: z.enum(['keepMana']), players: Players }),
]);
export const DurationSchema = z.union([
  z.enum(['untilRemoved', 'endOfTurn', 'endOfCombat', 'untilYourNextTurn']),
  z.object({ untilStep: TurnStepSchema, ofPlayer: opt(PlayerIdSchema) }),
]);
export const StopSchema = z.object({ step: TurnStepSchema, turn: z.enum(['own', 'others', 'any']) });

/** CR 807.5b: in Grand Melee any event may name its turn marker (read by the Grand Melee game; ignored elsewhere). */
const TurnMarker = opt(int(1, MAX_PLAYERS));
const ev = <const T extends string, S extends Record<string, z.ZodMiniType>>(type: T, shape: S) => z.object({ type: z.enum([type]), turnMarker: TurnMarker, ...shape });

/** The schema of each event of the contract. Unknown keys are dropped. */
const EVENT_SCHEMAS = [
  ev('PASS_PRIORITY', { player: PlayerIdSchema, by: By }),
  ev('CAST_SPELL', { player: PlayerIdSchema, id: ObjectIdSchema, speed: Speed, by: By }),
  ev('ACTIVATE_ABILITY', { player: PlayerIdSchema, id: ObjectIdSchema, speed: Speed, by: By }),
  ev('PLAY_LAND', { player: PlayerIdSchema, by: By }),
  ev('DECLARE_ATTACKERS', { player: PlayerIdSchema, attackers: list(AttackerSchema), by: By }),
  ev('DECLARE_BLOCKERS', { player: PlayerIdSchema, blockers: list(BlockerSchema), by: By }),
  ev('DISCARD', { player: PlayerIdSchema, count: Positive, by: By }),
  ev('CHOOSE_DEFENDER', { player: PlayerIdSchema, defender: PlayerIdSchema, by: By }),
  ev('ORDER_BLOCKERS', { player: PlayerIdSchema, attacker: ObjectIdSchema, order: list(ObjectIdSchema), by: By }),
  ev('ORDER_ATTACKERS', { player: PlayerIdSchema, blocker: ObjectIdSchema, order: list(ObjectIdSchema), by: By }),
  ev('ORDER_TRIGGERS', { player: PlayerIdSchema, order: list(ObjectIdSchema), by: By }),
  ev('CHOOSE_STARTING_PLAYER', { player: PlayerIdSchema, starting: PlayerIdSchema, by: By }),
  ev('MULLIGAN', { player: PlayerIdSchema, by: By }),
  ev('KEEP', { player: PlayerIdSchema, by: By }),
  ev('BOTTOM', { player: PlayerIdSchema, count: Positive, by: By }),
  ev('OPENING_HAND_DONE', { player: PlayerIdSchema, by: By }),
  ev('ROLL_PLANAR_DIE', { player: PlayerIdSchema, by: By }),
  ev('CONCEDE', { player: PlayerIdSchema, by: opt(PlayerIdSchema) }),
  ev('TRIGGER', { triggers: list(TriggerSchema, MAX_LIST_LENGTH, 1) }),
  ev('HAND_SIZE', { player: PlayerIdSchema, size: Count }),
  ev('ADD_MANA', { player: PlayerIdSchema, amount: Count }),
  ev('SPEND_MANA', { player: PlayerIdSchema, amount: Count }),
  ev('ADD_EXTRA_TURN', { player: PlayerIdSchema, id: opt(ObjectIdSchema) }),
  ev('ADD_EXTRA_COMBAT', { followedByMain: opt(z.boolean()), after: opt(TurnPhaseSchema) }),
  ev('ADD_EXTRA_STEP', { step: TurnStepSchema, after: opt(TurnStepSchema), before: opt(TurnStepSchema), afterPhase: opt(TurnPhaseSchema), player: opt(PlayerIdSchema) }),
  ev('ADD_EXTRA_PHASE', { phase: TurnPhaseSchema, after: opt(TurnPhaseSchema), player: opt(PlayerIdSchema) }),
  ev('SKIP_NEXT', { player: PlayerIdSchema, what: SkipTargetSchema }),
  ev('ADD_EFFECT', { id: ObjectIdSchema, effect: EffectSchema, duration: opt(DurationSchema), controller: opt(PlayerIdSchema) }),
  ev('REMOVE_EFFECT', { id: ObjectIdSchema }),
  ev('REMOVE_FROM_STACK', { id: ObjectIdSchema, reason: opt(z.enum(['countered', 'exiled', 'removed'])) }),
  ev('PUT_ON_STACK', {
    object: z.object({ id: ObjectIdSchema, controller: PlayerIdSchema, kind: z.enum(['spell', 'ability', 'trigger', 'copy']) }),
    cast: opt(z.boolean()),
  }),
  ev('END_TURN', {}),
  ev('END_COMBAT', {}),
  ev('REMOVE_FROM_COMBAT', { id: ObjectIdSchema }),
  ev('SET_COMBAT_ABILITIES', { id: ObjectIdSchema, ...Strikes }),
  ev('ADD_ATTACKER', { id: ObjectIdSchema, defender: PlayerIdSchema, ...Strikes }),
  ev('ADD_BLOCKER', { id: ObjectIdSchema, attacker: ObjectIdSchema, ...Strikes }),
  ev('CONTROL_PLAYER', { controller: PlayerIdSchema, player: PlayerIdSchema }),
  ev('LOSE', { player: PlayerIdSchema, reason: opt(ObjectIdSchema) }),
  ev('WIN', { player: PlayerIdSchema }),
  ev('DRAW_GAME', {}),
  ev('SET_DAY_NIGHT', { value: z.enum(['day', 'night']) }),
  ev('SET_STOPS', { player: PlayerIdSchema, stops: z.nullable(list(StopSchema, 64)) }),
  ev('YIELD', { player: PlayerIdSchema, until: z.nullable(z.enum(['stackResolved', 'endOfTurn', 'nextTurn'])), evenIfStackChanges: opt(z.boolean()) }),
];
/** Every event of the contract (parseEvent dispatches on the type to the event's own schema). */
export const TurnEventSchema = z.union(EVENT_SCHEMAS);

// The schema and the TurnEvent type describe the same events (checked both ways at compile time).
type Parsed = z.infer<typeof TurnEventSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventsAgree: Same<StripUndefined<Parsed>, StripUndefined<Exclude<TurnEvent, { type: 'BEGIN_MARKER_TURN' }>>> = true;
void eventsAgree;
type StripUndefined<T> = T extends unknown ? { [K in keyof T]: Exclude<T[K], undefined> } : never;
const effectsAgree: Same<StripUndefined<z.infer<typeof EffectSchema>>, StripUndefined<Effect>> = true;
void effectsAgree;

/** Whether a value passes {@link PlayerIdSchema} (the same checks, without building a result object). */
export function isPlayerId(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= MAX_ID_LENGTH && (value.length < SHORTEST_RESERVED_ID || !RESERVED_IDS.has(value));
}

/** The length of the shortest reserved id: shorter ids are not looked up. */
const SHORTEST_RESERVED_ID = Math.min(...[...RESERVED_IDS].map((id) => id.length));

const isObjectId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= MAX_ID_LENGTH;
const isWhole = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= MAX_AMOUNT;

/**
 * The events most games send (those whose fields are scalars, and attackers and blockers),
 * accepted without zod's machinery when they pass exactly the checks of their schema; the
 * result is the object zod would build. Anything else, and anything that fails, goes to zod,
 * so refusals keep zod's messages.
 */
function parseScalarEvent(r: Record<string, unknown>): TurnEvent | undefined {
  const { type, player, by } = r;
  if (!isPlayerId(player) || (by !== undefined && !isPlayerId(by))) return undefined;
  switch (type) {
    case 'PASS_PRIORITY':
    case 'PLAY_LAND':
      return withByOf(r, { type, player });
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY': {
      const { id, speed } = r;
      return isObjectId(id) && (speed === 'sorcery' || speed === 'instant') ? withByOf(r, { type, player, id, speed } as TurnEvent) : undefined;
    }
    case 'ADD_MANA':
    case 'SPEND_MANA':
      return by === undefined && isWhole(r.amount, 0) ? { type, player, amount: r.amount } : undefined;
    case 'HAND_SIZE':
      return by === undefined && isWhole(r.size, 0) ? { type, player, size: r.size } : undefined;
    case 'DISCARD':
      return isWhole(r.count, 1) ? withByOf(r, { type, player, count: r.count }) : undefined;
    case 'ADD_EXTRA_TURN': {
      // As zod builds it: an optional key given as undefined is kept.
      if (by !== undefined) return undefined;
      if (!('id' in r)) return { type, player };
      const { id } = r;
      return id === undefined || isObjectId(id) ? { type, player, id } : undefined;
    }
    case 'DECLARE_ATTACKERS': {
      const attackers = listOf(r.attackers, 0, (a) => (isObjectId(a.id) && isPlayerId(a.defender) ? withStrikes({ id: a.id, defender: a.defender }, a) : undefined));
      return attackers === undefined ? undefined : withByOf(r, { type, player, attackers });
    }
    case 'DECLARE_BLOCKERS': {
      const blockers = listOf(r.blockers, 0, (b) => (isObjectId(b.id) && isObjectId(b.attacker) ? withStrikes({ id: b.id, attacker: b.attacker }, b) : undefined));
      return blockers === undefined ? undefined : withByOf(r, { type, player, blockers });
    }
    default:
      return undefined;
  }
}

/**
 * The one event most games send most (a PASS_PRIORITY without `by`: 85% of the benchmark's
 * events) as {@link parseEvent} parses it, or undefined for anything else, which parseEvent
 * then reads. Reads each field once; a hostile value may throw (the caller catches).
 */
export function plainPassOf(raw: unknown): Extract<TurnEvent, { type: 'PASS_PRIORITY' }> | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  if (r.type !== 'PASS_PRIORITY') return undefined;
  const player = r.player;
  return isPlayerId(player) && !('by' in r) ? { type: 'PASS_PRIORITY', player } : undefined;
}

/** The event with the `by` of the raw one, as zod builds it: an optional key given as undefined is kept. */
function withByOf<T extends object>(r: Record<string, unknown>, e: T): T {
  if (!('by' in r)) return e;
  (e as { by?: unknown }).by = r.by;
  return e;
}

/** TRIGGER, the one event without a player that most games send, the same way. */
function parseTriggerEvent(r: Record<string, unknown>): TurnEvent | undefined {
  const triggers = listOf(r.triggers, 1, (t) => (isObjectId(t.id) && isPlayerId(t.controller) ? { id: t.id, controller: t.controller } : undefined));
  return triggers === undefined ? undefined : { type: 'TRIGGER', triggers };
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list of objects as `list(schema)` with `min` entries at least parses it, each item by `item`; undefined if anything fails. */
function listOf<T>(value: unknown, min: number, item: (o: Record<string, unknown>) => T | undefined): T[] | undefined {
  if (!Array.isArray(value) || value.length < min || value.length > MAX_LIST_LENGTH) return undefined;
  const out: T[] = [];
  for (const v of value) {
    const parsed = isPlainObject(v) ? item(v) : undefined;
    if (parsed === undefined) return undefined;
    out.push(parsed);
  }
  return out;
}

/** The optional `firstStrike` and `doubleStrike` of an attacker or blocker (booleans when given). */
function withStrikes<T extends object>(base: T, from: Record<string, unknown>): (T & { firstStrike?: boolean; doubleStrike?: boolean }) | undefined {
  const { firstStrike, doubleStrike } = from;
  if ((firstStrike !== undefined && typeof firstStrike !== 'boolean') || (doubleStrike !== undefined && typeof doubleStrike !== 'boolean')) return undefined;
  // As zod builds it: an optional key given as undefined is kept.
  const out: T & { firstStrike?: boolean; doubleStrike?: boolean } = base;
  if ('firstStrike' in from) out.firstStrike = firstStrike as boolean | undefined as boolean;
  if ('doubleStrike' in from) out.doubleStrike = doubleStrike as boolean | undefined as boolean;
  return out;
}

/** The outcome of parsing untrusted input: the value, or a message naming the field. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

type Issue = { path: readonly PropertyKey[]; message: string; code?: string; values?: readonly unknown[]; errors?: readonly (readonly Issue[])[] };

/**
 * Formats the first zod issue as "field.path: message". In a union of objects told apart by a
 * tag (a one-value enum), the issue is the one of the option whose tag matched, or the first
 * option's when none did.
 */
export function describeIssue(error: { issues: readonly Issue[] }, root = ''): string {
  let issue = error.issues[0];
  if (issue === undefined) return `${root || 'value'}: invalid`;
  let keys = issue.path;
  while (issue.errors !== undefined) {
    const options: readonly (readonly Issue[])[] = issue.errors;
    const inner = (options.find((o) => !o.some((i) => i.values?.length === 1)) ?? options[0])?.[0];
    if (inner === undefined) break;
    issue = inner;
    keys = [...keys, ...inner.path];
  }
  const path = [root, ...keys.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))]
    .filter((s) => s !== '')
    .join('.')
    .replace(/\.\[/g, '[');
  return `${path || 'value'}: ${issue.message}`;
}

/** The names of all event types, for messages. */
export const EVENT_TYPES: readonly string[] = EVENT_SCHEMAS.map((o) => o.shape.type.options[0] as string);
const EVENT_SCHEMA_OF: ReadonlyMap<string, (typeof EVENT_SCHEMAS)[number]> = new Map(EVENT_SCHEMAS.map((o) => [o.shape.type.options[0] as string, o]));

/**
 * Parses an event: {@link TurnEventSchema}, with a fast path for events whose fields are all
 * scalars (most events of a game: PASS_PRIORITY above all). The message names the field.
 */
export function parseEvent(raw: unknown): ParseResult<TurnEvent> {
  const out = eventOrMessage(raw);
  return typeof out === 'string' ? { ok: false, message: out } : { ok: true, value: out };
}

/** {@link parseEvent} without a result object: the event, or the message (the gate's path, taken by every event sent). */
export function eventOrMessage(raw: unknown): TurnEvent | string {
  try {
    return parseEventUnsafe(raw);
  } catch (err) {
    // Getters, proxies and toString/toJSON that throw: the value cannot be read (CONTRACT: send never throws).
    return `event: could not be read (${describeThrown(err)})`;
  }
}

/** A short description of whatever a hostile value threw. */
function describeThrown(err: unknown): string {
  try {
    const message = err instanceof Error ? err.message : typeof err === 'string' ? err : typeof err;
    return message.length > 200 ? `${message.slice(0, 200)}...` : message;
  } catch {
    return 'an unreadable error';
  }
}

function parseEventUnsafe(raw: unknown): TurnEvent | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return `event: expected an object with a type, got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}`;
  }
  const fast = (raw as { type?: unknown }).type === 'TRIGGER' ? parseTriggerEvent(raw as Record<string, unknown>) : parseScalarEvent(raw as Record<string, unknown>);
  if (fast !== undefined) return fast;
  const type = (raw as { type?: unknown }).type;
  const schema = typeof type === 'string' ? EVENT_SCHEMA_OF.get(type) : undefined;
  if (schema === undefined) {
    const got = typeof type === 'string' && type.length > 40 ? `a string of ${type.length} characters` : (JSON.stringify(type) ?? 'undefined');
    return `event.type: must be one of ${EVENT_TYPES.join(', ')}; got ${got}`;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return `${type as string}: ${describeIssue(parsed.error, 'event')}`;
  return parsed.data as TurnEvent;
}

const CheckpointResultSchema = z.object({
  triggers: opt(list(TriggerSchema)),
  stateBasedActions: opt(z.boolean()),
  events: opt(list(z.unknown())),
});

/** Parses what a checkpoint hook returned (undefined and null: nothing to report). */
export function parseHookResult(raw: unknown): ParseResult<{ triggers: Trigger[]; stateBasedActions: boolean; events: TurnEvent[] }> {
  let parsed: ReturnType<typeof CheckpointResultSchema.safeParse>;
  try {
    parsed = CheckpointResultSchema.safeParse(raw);
  } catch (err) {
    return { ok: false, message: `reading it threw: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!parsed.success) return { ok: false, message: describeIssue(parsed.error, 'result') };
  const result = parsed.data as CheckpointResult & { events?: unknown[] };
  const events: TurnEvent[] = [];
  for (const [i, e] of (result.events ?? []).entries()) {
    const event = parseEvent(e);
    if (!event.ok) return { ok: false, message: `result.events[${i}]: ${event.message}` };
    events.push(event.value);
  }
  return { ok: true, value: { triggers: result.triggers ?? [], stateBasedActions: result.stateBasedActions === true, events } };
}

/** createGame options (hooks, listeners and inspect are checked separately: zod cannot describe a function's contract). */
export const GameOptionsSchema = z
  .object({
    players: z.array(PlayerIdSchema).check(lengthIn(2, MAX_PLAYERS, `needs 2 to ${MAX_PLAYERS} players`)),
    startingPlayer: opt(PlayerIdSchema),
    rules: opt(RulesEraSchema),
    maxHandSize: opt(Count),
    handSize: opt(Count),
    attack: opt(z.enum(['all', 'chooseOne', 'left', 'right'])),
    orderTriggers: opt(z.enum(['host', 'players'])),
    pregame: opt(z.boolean()),
    variant: opt(z.enum(['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee'])),
    teams: opt(list(z.object({ id: ObjectIdSchema, players: list(PlayerIdSchema, MAX_PLAYERS, 1) }), MAX_PLAYERS)),
    rangeOfInfluence: opt(int(1, MAX_PLAYERS)),
    seed: opt(z.number()),
  })
  .check(
    z.superRefine((o, ctx) => {
      const seen = new Set<string>();
      o.players.forEach((p, i) => {
        if (seen.has(p)) ctx.issues.push({ code: 'custom', path: ['players', i], message: `player id '${p}' appears twice`, input: p });
        seen.add(p);
      });
      if (o.teams !== undefined) {
        const inTeams = new Map<string, number>();
        o.teams.forEach((t, i) => {
          if (o.teams?.findIndex((u) => u.id === t.id) !== i) ctx.issues.push({ code: 'custom', path: ['teams', i, 'id'], message: `team id '${t.id}' appears twice`, input: t.id });
          t.players.forEach((p, j) => {
            if (!o.players.includes(p)) ctx.issues.push({ code: 'custom', path: ['teams', i, 'players', j], message: `'${p}' is not one of the players`, input: p });
            if (inTeams.has(p)) ctx.issues.push({ code: 'custom', path: ['teams', i, 'players', j], message: `'${p}' is on two teams`, input: p });
            inTeams.set(p, i);
          });
        });
        const missing = o.players.find((p) => !inTeams.has(p));
        if (missing !== undefined) ctx.issues.push({ code: 'custom', path: ['teams'], message: `player '${missing}' is on no team`, input: o.teams });
        if (o.teams.length < 2) ctx.issues.push({ code: 'custom', path: ['teams'], message: 'a team game needs at least 2 teams', input: o.teams });
      }
      if (o.variant === 'emperor' && (o.teams === undefined || o.teams.some((t) => t.players.length < 3 || t.players.length !== o.teams?.[0]?.players.length))) {
        ctx.issues.push({ code: 'custom', path: ['variant'], message: "'emperor' needs teams of three or more players each, all the same size (CR 809.1, 809.6)", input: o.variant });
      }
      if (o.variant === 'twoHeadedGiant' && (o.teams === undefined || o.teams.length !== 2 || o.teams.some((t) => t.players.length !== 2))) {
        ctx.issues.push({ code: 'custom', path: ['teams'], message: "'twoHeadedGiant' needs two teams of two players (CR 810.1)", input: o.teams });
      }
      if (o.variant === 'archenemy' && (o.teams === undefined || o.teams.length !== 2 || !o.teams.some((t) => t.players.length === 1))) {
        ctx.issues.push({ code: 'custom', path: ['teams'], message: "'archenemy' needs two teams, one of them the archenemy alone (CR 904.2)", input: o.teams });
      }
      if (o.variant === 'grandMelee') {
        // CR 807.1: Grand Melee is for games begun with ten or more players, each on their own.
        const why = o.players.length < 10 ? ['players', "'grandMelee' needs 10 or more players (CR 807.1)"] : o.teams !== undefined ? ['teams', "'grandMelee' is played by individuals, without teams (CR 807.1)"] : o.pregame === true ? ['pregame', "'grandMelee' starts at turn 1 in this version: the pregame is not supported with turn markers"] : null;
        if (why !== null) ctx.issues.push({ code: 'custom', path: [why[0] as string], message: why[1] as string, input: o.variant });
      }
      if (o.startingPlayer !== undefined && !o.players.includes(o.startingPlayer)) {
        ctx.issues.push({ code: 'custom', path: ['startingPlayer'], message: `'${o.startingPlayer}' is not one of the players`, input: o.startingPlayer });
      }
    }),
  );
