/**
 * The values events and snapshots are made of (ids, amounts, lists, steps, phases, effects,
 * durations, stops), each as a zod schema written with `zod/mini` and, for the events most games
 * send, as a zod-free check that accepts exactly what the schema accepts. Each event's own
 * schema is in its record (src/events/); src/schemas.ts assembles the parsers.
 */
import * as z from 'zod/mini';
import type { Effect, Variant } from './contract.js';

/** Longest id (player, object, creature) the engine accepts. */
export const MAX_ID_LENGTH = 256;
/** Most entries in one list of an event (attackers, blockers, triggers). */
export const MAX_LIST_LENGTH = 1000;
/** Largest amount (mana, hand size) the engine accepts. */
export const MAX_AMOUNT = 1_000_000;
/** Most players in a game. */
export const MAX_PLAYERS = 64;
/** Longest time the clock and away options may name (ms: about 34 years), so that clocks stay exact integers however long a game lasts. */
export const MAX_CLOCK_MS = 2 ** 40;

/** Names every JavaScript object already has: a player with such a name would collide with them. */
export const RESERVED_IDS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype']);

// Every bound of a value is one kind of check, `refine` below with a message naming the bound (each
// further kind of check adds to every browser bundle); a list's greatest length is zod's
// `maxLength`, which zod checks before it reads a single entry (so that refusing a list of ten
// million entries costs no more than refusing one of a thousand and one).
/**
 * A check of a value, refused with the engine's message (and, for a check of an object, the path
 * of the field it names): zod's refinement written as zod's plain check, which every bundle has
 * (issue 33: zod's custom kind, `z.refine`, is left out). Its issue is the one `z.refine` reports
 * (`custom`, the message, the value, going on to the next check); without a message zod's
 * "Invalid input", which describeIssue words as "is not valid".
 */
export const refine = <T>(test: (v: T) => boolean, message?: string, path: readonly PropertyKey[] = []) =>
  z.check<T>((ctx) => {
    if (!test(ctx.value)) ctx.issues.push({ code: 'custom', input: ctx.value, path: [...path], message, continue: true });
  });

/** A length from `min` to `max` (strings, lists); the message names the bound. */
export const lengthIn = (min: number, max: number, message = max === Infinity ? `must have a length of at least ${min}` : `must have a length from ${min} to ${max}`) =>
  refine<{ length: number }>((v) => v.length >= min && v.length <= max, message);
const NON_EMPTY = 'must be a non-empty string';
const SHORT = `must be at most ${MAX_ID_LENGTH} characters long`;
export const PlayerIdSchema = z.string().check(
  lengthIn(1, Infinity, NON_EMPTY),
  lengthIn(0, MAX_ID_LENGTH, SHORT),
  refine<string>((id) => !RESERVED_IDS.has(id), 'is reserved (a property name of every JavaScript object)'),
);
export const ObjectIdSchema = z.string().check(lengthIn(1, Infinity, NON_EMPTY), lengthIn(0, MAX_ID_LENGTH, SHORT));
/** A safe integer from `min` to `max`; the message names both. */
export const int = (min: number, max: number) => z.number().check(refine<number>((v) => Number.isSafeInteger(v) && v >= min && v <= max, `must be an integer from ${min} to ${max}`));
/** An amount from 0 (mana, a hand size). */
export const Count = int(0, MAX_AMOUNT);
/** An amount from 1 (cards to discard or to put on the bottom). */
export const Positive = int(1, MAX_AMOUNT);
const Signed = int(-MAX_AMOUNT, MAX_AMOUNT);
/** A list of at least `min` and at most `max` items; the length is checked before any item is read. */
export const list = <T extends z.ZodMiniType>(item: T, max = MAX_LIST_LENGTH, min = 0) =>
  z.array(item).check(z.maxLength(max), ...(min > 0 ? [lengthIn(min, Infinity, `must have at least ${min} ${min === 1 ? 'entry' : 'entries'}`)] : []));
export const opt = z.optional;

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
/** The speed of a spell or an ability. */
export const Speed = z.enum(['sorcery', 'instant']);
/** Who makes a decision for its player (CR 723.5). */
export const By = opt(PlayerIdSchema);
const Players = opt(list(PlayerIdSchema, MAX_PLAYERS));

export const TriggerSchema = z.object({ id: ObjectIdSchema, controller: PlayerIdSchema, turnMarker: opt(int(1, MAX_PLAYERS)) });
/** The optional first strike and double strike of a creature in combat. */
export const Strikes = { firstStrike: opt(z.boolean()), doubleStrike: opt(z.boolean()) };
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
/** CR 502.4: no player receives priority in the untap step, so no stop can name it. */
const StopStepSchema = TurnStepSchema.check(refine((step) => step !== 'untap', "'untap' gives no priority (CR 502.4)"));
export const StopSchema = z.object({ step: StopStepSchema, turn: z.enum(['own', 'others', 'any']) });

/** CR 807.5b: in Grand Melee any event may name its turn marker (read by the Grand Melee game; ignored elsewhere). */
const TurnMarker = opt(int(1, MAX_PLAYERS));

/** CONTRACT v3: the host's clock an event may carry (ms; clocks and the away policy read it). */
export const AtSchema = z.number().check(refine<number>((v) => Number.isFinite(v), 'must be a finite number'));

/**
 * The schema of an event: its type, the turn marker and the host's clock (`at`) any event may
 * name, and its own fields. Unknown keys are dropped.
 */
export const eventSchema = <const T extends string, S extends Record<string, z.ZodMiniType>>(type: T, shape: S) => z.object({ type: z.enum([type]), turnMarker: TurnMarker, at: opt(AtSchema), ...shape });

/** The schema of an event that needs the host's clock (`at` required: TICK, SET_SEAT_STATUS, ...). */
export const timedEventSchema = <const T extends string, S extends Record<string, z.ZodMiniType>>(type: T, shape: S) => z.object({ type: z.enum([type]), turnMarker: TurnMarker, at: AtSchema, ...shape });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type StripUndefined<T> = T extends unknown ? { [K in keyof T]: Exclude<T[K], undefined> } : never;
/** Whether a schema's output and a type describe the same values (optional keys alike, with or without `undefined`). */
export type Agrees<Output, T> = Same<StripUndefined<Output>, StripUndefined<T>>;
const effectsAgree: Agrees<z.infer<typeof EffectSchema>, Effect> = true;
void effectsAgree;

// The zod-free checks: each accepts exactly what its schema above accepts.

/** Whether a value passes {@link PlayerIdSchema} (the same checks, without building a result object). */
export function isPlayerId(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= MAX_ID_LENGTH && (value.length < SHORTEST_RESERVED_ID || !RESERVED_IDS.has(value));
}

/** The length of the shortest reserved id: shorter ids are not looked up. */
const SHORTEST_RESERVED_ID = Math.min(...[...RESERVED_IDS].map((id) => id.length));

/** Whether a value passes {@link ObjectIdSchema}. */
export const isObjectId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= MAX_ID_LENGTH;
/** Whether a value is a safe integer from `min` to MAX_AMOUNT ({@link Count}, {@link Positive}). */
export const isWhole = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= MAX_AMOUNT;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `player` of a raw decision and its `by` (undefined when absent), when both pass their schemas; else undefined. */
export function deciderOf(r: Record<string, unknown>): { player: string; by: unknown } | undefined {
  const { player, by } = r;
  return isPlayerId(player) && (by === undefined || isPlayerId(by)) ? { player, by } : undefined;
}

/** The event with the `by` of the raw one, as zod builds it: an optional key given as undefined is kept. */
export function withByOf<T extends object>(r: Record<string, unknown>, e: T): T {
  if (!('by' in r)) return e;
  (e as { by?: unknown }).by = r.by;
  return e;
}

/** A list of objects as `list(schema)` with `min` entries at least parses it, each item by `item`; undefined if anything fails. */
export function listOf<T>(value: unknown, min: number, item: (o: Record<string, unknown>) => T | undefined): T[] | undefined {
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
export function withStrikes<T extends object>(base: T, from: Record<string, unknown>): (T & { firstStrike?: boolean; doubleStrike?: boolean }) | undefined {
  const { firstStrike, doubleStrike } = from;
  if ((firstStrike !== undefined && typeof firstStrike !== 'boolean') || (doubleStrike !== undefined && typeof doubleStrike !== 'boolean')) return undefined;
  // As zod builds it: an optional key given as undefined is kept.
  const out: T & { firstStrike?: boolean; doubleStrike?: boolean } = base;
  if ('firstStrike' in from) out.firstStrike = firstStrike as boolean | undefined as boolean;
  if ('doubleStrike' in from) out.doubleStrike = doubleStrike as boolean | undefined as boolean;
  return out;
}

/**
 * What the teams of a variant must be, as createGame's options and a restored game's invariants
 * both say it (CR 809.1, 809.6: Emperor; 810.1, 810.11: Two-Headed Giant; 904.2: Archenemy), or null when
 * `teams` (absent: none) are such teams.
 */
export function variantTeamsRule(variant: Variant | undefined, teams: readonly { readonly players: readonly string[] }[] | null | undefined): string | null {
  switch (variant) {
    case 'emperor':
      return teams != null && teams.every((t) => t.players.length >= 3 && t.players.length === teams[0]?.players.length) ? null : "'emperor' needs teams of three or more, all the same size (CR 809.1, 809.6)";
    case 'twoHeadedGiant':
      // CR 810.11: or of more than two, the same size (Three-Headed Giant, ...).
      return teams?.length === 2 && teams.every((t) => t.players.length >= 2 && t.players.length === teams[0]?.players.length) ? null : "'twoHeadedGiant' needs two teams of two or more players, both the same size (CR 810.1, 810.11)";
    case 'archenemy':
      return teams?.length === 2 && teams.some((t) => t.players.length === 1) ? null : "'archenemy' needs two teams, one of them the archenemy alone (CR 904.2)";
    default:
      return null;
  }
}
