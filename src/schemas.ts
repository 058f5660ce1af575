/**
 * zod schemas for every boundary: options, events, hook results and persisted games.
 * (The scenario format's schema lives with the runner, in src/scenarios/schema.ts.)
 */
import { z } from 'zod';
import type { TurnEvent } from '../machines/turn.types.js';

/** Longest id (player, object, creature) the engine accepts. */
export const MAX_ID_LENGTH = 256;
/** Most entries in one list of an event (attackers, blockers, triggers). */
export const MAX_LIST_LENGTH = 1000;
/** Largest amount (mana, hand size) the engine accepts. */
export const MAX_AMOUNT = 1_000_000;

/** Names every JavaScript object already has: a player with such a name would collide with them. */
export const RESERVED_IDS: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype']);

export const PlayerIdSchema = z
  .string()
  .min(1, 'must be a non-empty string')
  .max(MAX_ID_LENGTH)
  .refine((id) => !RESERVED_IDS.has(id), { message: 'is reserved (a property name of every JavaScript object)' });
export const ObjectIdSchema = z.string().min(1, 'must be a non-empty string').max(MAX_ID_LENGTH);
const Amount = z.number().int().min(1).max(MAX_AMOUNT);
const Count = z.number().int().min(0).max(MAX_AMOUNT);

export const RulesProfileSchema = z.enum(['current', 'classic']);
export const PhaseNameSchema = z.enum(['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending']);
export const StepNameSchema = z.enum([
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
export const SkipTargetSchema = z.union([StepNameSchema, z.literal('combat'), z.literal('turn')]);
const Speed = z.enum(['sorcery', 'instant']);

export const TriggerSchema = z.object({ id: ObjectIdSchema, controller: PlayerIdSchema });
export const AttackerSchema = z.object({
  id: ObjectIdSchema,
  defender: PlayerIdSchema,
  firstStrike: z.boolean().optional(),
  doubleStrike: z.boolean().optional(),
});
export const BlockerSchema = z.object({
  id: ObjectIdSchema,
  attacker: ObjectIdSchema,
  firstStrike: z.boolean().optional(),
  doubleStrike: z.boolean().optional(),
});

/** Every event of the contract. Unknown keys are dropped. */
export const TurnEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('PASS_PRIORITY'), player: PlayerIdSchema }),
  z.object({ type: z.literal('CAST_SPELL'), player: PlayerIdSchema, id: ObjectIdSchema, speed: Speed }),
  z.object({ type: z.literal('ACTIVATE_ABILITY'), player: PlayerIdSchema, id: ObjectIdSchema, speed: Speed }),
  z.object({ type: z.literal('PLAY_LAND'), player: PlayerIdSchema }),
  z.object({ type: z.literal('DECLARE_ATTACKERS'), player: PlayerIdSchema, attackers: z.array(AttackerSchema).max(MAX_LIST_LENGTH) }),
  z.object({ type: z.literal('DECLARE_BLOCKERS'), player: PlayerIdSchema, blockers: z.array(BlockerSchema).max(MAX_LIST_LENGTH) }),
  z.object({ type: z.literal('TRIGGER'), triggers: z.array(TriggerSchema).min(1).max(MAX_LIST_LENGTH) }),
  z.object({ type: z.literal('DISCARD'), player: PlayerIdSchema, count: Amount }),
  z.object({ type: z.literal('HAND_SIZE'), player: PlayerIdSchema, size: Count }),
  z.object({ type: z.literal('ADD_MANA'), player: PlayerIdSchema, amount: Amount }),
  z.object({ type: z.literal('SPEND_MANA'), player: PlayerIdSchema, amount: Amount }),
  z.object({ type: z.literal('ADD_EXTRA_TURN'), player: PlayerIdSchema }),
  z.object({ type: z.literal('ADD_EXTRA_COMBAT'), followedByMain: z.boolean().optional() }),
  z.object({ type: z.literal('SKIP_NEXT'), player: PlayerIdSchema, what: SkipTargetSchema }),
  z.object({ type: z.literal('CONCEDE'), player: PlayerIdSchema }),
]);

/** Whether a value passes {@link PlayerIdSchema} (the same checks, without building a result object). */
export function isPlayerId(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= MAX_ID_LENGTH && !RESERVED_IDS.has(value);
}

const isObjectId = (v: unknown): v is string => typeof v === 'string' && v.length >= 1 && v.length <= MAX_ID_LENGTH;
/** The checks of `z.number().int().min(min).max(MAX_AMOUNT)` (zod's int() is a safe integer). */
const isWhole = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= MAX_AMOUNT;

/**
 * The events whose fields are all scalars, accepted without zod's machinery when they pass
 * exactly the checks of their schema in {@link TurnEventSchema}; the result is the object
 * zod would build (the schema's keys, in its order). Anything else, and anything that
 * fails, goes to zod, so refusals keep zod's messages.
 */
function parseScalarEvent(r: Record<string, unknown>): TurnEvent | undefined {
  const { type, player } = r;
  if (!isPlayerId(player)) return undefined;
  switch (type) {
    case 'PASS_PRIORITY':
    case 'PLAY_LAND':
    case 'ADD_EXTRA_TURN':
    case 'CONCEDE':
      return { type, player };
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY': {
      const { id, speed } = r;
      return isObjectId(id) && (speed === 'sorcery' || speed === 'instant') ? { type, player, id, speed } : undefined;
    }
    case 'DISCARD':
      return isWhole(r.count, 1) ? { type, player, count: r.count } : undefined;
    case 'HAND_SIZE':
      return isWhole(r.size, 0) ? { type, player, size: r.size } : undefined;
    case 'ADD_MANA':
    case 'SPEND_MANA':
      return isWhole(r.amount, 1) ? { type, player, amount: r.amount } : undefined;
    default:
      return undefined;
  }
}

/**
 * Parses an event: {@link TurnEventSchema}'s `safeParse`, with a fast path for events whose
 * fields are all scalars (most events of a game: PASS_PRIORITY above all), which yields the
 * same result without zod's machinery.
 */
export function parseEvent(raw: unknown): ReturnType<typeof TurnEventSchema.safeParse> {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) {
    const data = parseScalarEvent(raw as Record<string, unknown>);
    if (data !== undefined) return { success: true, data };
  }
  return TurnEventSchema.safeParse(raw);
}

/** The names of all event types, for messages. */
export const EVENT_TYPES = TurnEventSchema.options.map((o) => o.shape.type.value);

/** What a checkpoint hook may return. */
export const CheckpointResultSchema = z.union([
  z.undefined(),
  z.null(),
  z.object({
    triggers: z.array(TriggerSchema).max(MAX_LIST_LENGTH).optional(),
    stateBasedActions: z.boolean().optional(),
  }),
]);

/** createGame options (hooks are checked separately: zod cannot describe a function's contract). */
export const GameOptionsSchema = z
  .object({
    players: z.array(PlayerIdSchema).min(2, 'needs 2 to 8 players').max(8, 'needs 2 to 8 players'),
    startingPlayer: PlayerIdSchema.optional(),
    rules: RulesProfileSchema.optional(),
    maxHandSize: Count.optional(),
    handSize: Count.optional(),
    hooks: z.object({ checkpoint: z.function().optional() }).optional(),
    inspect: z.unknown().optional(),
  })
  .superRefine((o, ctx) => {
    const seen = new Set<string>();
    o.players.forEach((p, i) => {
      if (seen.has(p)) ctx.addIssue({ code: 'custom', path: ['players', i], message: `player id '${p}' appears twice` });
      seen.add(p);
    });
    if (o.startingPlayer !== undefined && !o.players.includes(o.startingPlayer)) {
      ctx.addIssue({ code: 'custom', path: ['startingPlayer'], message: `'${o.startingPlayer}' is not one of the players` });
    }
  });

/** Formats the first zod issue as "field.path: message". */
export function describeIssue(error: z.ZodError, root = ''): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${root || 'value'}: invalid`;
  const path = [root, ...issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p)))]
    .filter((s) => s !== '')
    .join('.')
    .replace(/\.\[/g, '[');
  return `${path || 'value'}: ${issue.message}`;
}
