/**
 * zod schemas for every boundary: options, events, hook results. Written with `zod/mini`
 * (tree-shakable: the browser bundle stays small) and tied to the TypeScript types of
 * src/contract.ts, so the two cannot drift apart. Each event's schema, and its zod-free reading
 * for the events most games send, is in its record (src/events/); the values they are made of
 * are in src/fields.ts.
 */
import * as z from 'zod/mini';
import type { CheckpointResult, Trigger, TurnEvent } from './contract.js';
import { describeThrown } from './errors.js';
import { EVENT_SCHEMAS, EVENT_TYPES, PARSERS } from './events/index.js';
import { describeIssue } from './issues.js';
import { Count, MAX_CLOCK_MS, MAX_PLAYERS, ObjectIdSchema, PlayerIdSchema, RulesEraSchema, TriggerSchema, int, isPlayerId, lengthIn, list, opt, variantTeamsRule } from './fields.js';

export {
  AttackerSchema,
  BlockerSchema,
  DurationSchema,
  EffectSchema,
  MAX_AMOUNT,
  MAX_CLOCK_MS,
  MAX_ID_LENGTH,
  MAX_LIST_LENGTH,
  MAX_PLAYERS,
  ObjectIdSchema,
  PlayerIdSchema,
  RESERVED_IDS,
  RulesEraSchema,
  SkipTargetSchema,
  StopSchema,
  TriggerSchema,
  TurnPhaseSchema,
  TurnStepSchema,
  int,
  isPlayerId,
  lengthIn,
  refine,
} from './fields.js';
export { EVENT_TYPES } from './events/index.js';
export { describeIssue } from './issues.js';

/** Every event of the contract (parseEvent dispatches on the type to the event's own schema). */
export const TurnEventSchema = /* @__PURE__ */ z.union(EVENT_SCHEMAS);

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
  return isPlayerId(player) && !('by' in r) && !('at' in r) && !('data' in r) ? { type: 'PASS_PRIORITY', player } : undefined;
}

/** The outcome of parsing untrusted input: the value, or a message naming the field. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

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

/** zod keeps the value of each issue, for the message to say what was given. */
export const REPORT_INPUT = { reportInput: true } as const;

/** CONTRACT v4, "Decisions carry card data": the most UTF-8 bytes of JSON a decision's `data` may take. */
export const MAX_DATA_BYTES = 4096;

function parseEventUnsafe(raw: unknown): TurnEvent | string {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return `event: expected an object with a type, got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}`;
  }
  const type = (raw as { type?: unknown }).type;
  // CONTRACT v4, "Card games": a card action is for the cards, which a game made by createGame has none of.
  if (type === 'CARD_ACTION') return "CARD_ACTION needs a card game (createCardGame, 'mtg-turn-engine/cards')";
  // CONTRACT v4: a decision may carry `data`, JSON of at most 4,096 UTF-8 bytes (kept for the cards; the engine reads none of it).
  if ('data' in raw && new TextEncoder().encode(JSON.stringify((raw as { data?: unknown }).data) ?? '').length > MAX_DATA_BYTES) return `event.data: more than ${MAX_DATA_BYTES} bytes of JSON`;
  const parser = typeof type === 'string' ? PARSERS[type] : undefined;
  if (parser === undefined) {
    const got = typeof type === 'string' && type.length > 40 ? `a string of ${type.length} characters` : (JSON.stringify(type) ?? 'undefined');
    return `event.type: must be one of ${EVENT_TYPES.join(', ')}; got ${got}`;
  }
  // The events most games send are read without zod's machinery when they pass exactly the checks
  // of their schema; anything else, and anything that fails, goes to zod, so every refusal is described by src/issues.ts.
  // An event carrying `at` (every send of the table server) too, when `at` is finite and no turn marker is given (zod's key order: type, at, then the rest).
  const at = (raw as { at?: unknown }).at;
  const timed = 'at' in raw;
  const read = timed && (!Number.isFinite(at) || 'turnMarker' in raw) ? undefined : parser.fast?.(raw as Record<string, unknown>);
  const fast = timed && read !== undefined ? ({ type: read.type, at, ...(read as object) } as TurnEvent) : read;
  if (fast !== undefined) return fast;
  const parsed = parser.schema.safeParse(raw, REPORT_INPUT);
  if (!parsed.success) return `${type as string}: ${describeIssue(parsed.error, 'event')}`;
  return parsed.data as TurnEvent;
}

const CheckpointResultSchema = z.strictObject({
  triggers: opt(list(TriggerSchema)),
  stateBasedActions: opt(z.boolean()),
  events: opt(list(z.unknown())),
});

/**
 * Parses what a checkpoint hook returned (undefined and null: nothing to report). A Promise, or
 * any other thenable, is refused: the hook is called synchronously, and what it would resolve to
 * comes after the check it answers. Each field is read once; the lists' lengths are checked before
 * their entries are read, then each event is parsed as `send` parses it.
 */
export function parseHookResult(raw: unknown): ParseResult<{ triggers: Trigger[]; stateBasedActions: boolean; events: TurnEvent[] }> {
  let parsed: ReturnType<typeof CheckpointResultSchema.safeParse>;
  try {
    if (isThenable(raw)) {
      // A rejected Promise is the hook's failure, reported here: not an unhandled rejection as well.
      if (raw instanceof Promise) raw.then(undefined, () => undefined);
      return { ok: false, message: 'result: is a Promise (or another thenable); the checkpoint hook must be synchronous' };
    }
    parsed = CheckpointResultSchema.safeParse(raw, REPORT_INPUT);
    if (!parsed.success) return { ok: false, message: describeIssue(parsed.error, 'result') };
  } catch (err) {
    return { ok: false, message: `result: could not be read (${describeThrown(err)})` };
  }
  const result = parsed.data as CheckpointResult & { events?: unknown[] };
  const events: TurnEvent[] = [];
  for (const [i, e] of (result.events ?? []).entries()) {
    const event = parseEvent(e);
    if (!event.ok) return { ok: false, message: `result.events[${i}]: ${event.message}` };
    events.push(event.value);
  }
  return { ok: true, value: { triggers: result.triggers ?? [], stateBasedActions: result.stateBasedActions === true, events } };
}

/** Whether a value has a `then` method (a Promise or any other thenable). Reads `then` once; a hostile value may throw (the caller catches). */
function isThenable(raw: unknown): boolean {
  return ((typeof raw === 'object' && raw !== null) || typeof raw === 'function') && typeof (raw as { then?: unknown }).then === 'function';
}

/** createGame options (hooks, listeners and inspect are checked separately: zod cannot describe a function's contract). */
export const GameOptionsSchema = z
  .object({
    players: list(PlayerIdSchema, MAX_PLAYERS).check(lengthIn(2, MAX_PLAYERS, `needs 2 to ${MAX_PLAYERS} players`)),
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
    record: opt(z.boolean()),
    // CONTRACT v3, "Playing between people": undo with a policy (src/table/undo.ts).
    undo: opt(z.object({ mode: z.enum(['none', 'own', 'consent']), maxPerTurn: opt(z.nullable(Count)), answerMs: opt(int(1, MAX_CLOCK_MS)) })),
    clock: opt(
      z.object({
        initialMs: int(1, MAX_CLOCK_MS),
        incrementMs: opt(int(0, MAX_CLOCK_MS)),
        delayMs: opt(int(0, MAX_CLOCK_MS)),
        onTimeout: z.enum(['lose', 'pass']),
      }),
    ),
    away: opt(z.object({ graceMs: int(0, MAX_CLOCK_MS), then: z.enum(['wait', 'pass', 'concede']) })),
  })
  .check(
    // zod's plain check (its issues pushed as they are: superRefine's addIssue is never called).
    z.check((ctx) => {
      const o = ctx.value;
      const issue = (path: (string | number)[], message: string, input: unknown) => ctx.issues.push({ code: 'custom', path, message, input });
      const seen = new Set<string>();
      o.players.forEach((p, i) => {
        if (seen.has(p)) issue(['players', i], `player id '${p}' appears twice`, p);
        seen.add(p);
      });
      if (o.teams !== undefined) {
        const inTeams = new Map<string, number>();
        o.teams.forEach((t, i) => {
          if (o.teams?.findIndex((u) => u.id === t.id) !== i) issue(['teams', i, 'id'], `team id '${t.id}' appears twice`, t.id);
          t.players.forEach((p, j) => {
            if (!o.players.includes(p)) issue(['teams', i, 'players', j], `'${p}' is not one of the players`, p);
            if (inTeams.has(p)) issue(['teams', i, 'players', j], `'${p}' is on two teams`, p);
            inTeams.set(p, i);
          });
        });
        const missing = o.players.find((p) => !inTeams.has(p));
        if (missing !== undefined) issue(['teams'], `player '${missing}' is on no team`, o.teams);
        if (o.teams.length < 2) issue(['teams'], 'a team game needs at least 2 teams', o.teams);
      }
      // Emperor's rule names the variant; the others' name the teams.
      const teamsRule = variantTeamsRule(o.variant, o.teams);
      if (teamsRule !== null) issue([o.variant === 'emperor' ? 'variant' : 'teams'], teamsRule, o.variant === 'emperor' ? o.variant : o.teams);
      if (o.variant === 'grandMelee') {
        // CR 807.1: Grand Melee is for games begun with ten or more players, each on their own.
        const why = o.players.length < 10 ? ['players', "'grandMelee' needs 10 or more players (CR 807.1)"] : o.teams !== undefined ? ['teams', "'grandMelee' is played without teams (CR 807.1)"] : o.pregame === true ? ['pregame', "'grandMelee' starts at turn 1, without the pregame"] : null;
        if (why !== null) issue([why[0] as string], why[1] as string, o.variant);
      }
      if (o.startingPlayer !== undefined && !o.players.includes(o.startingPlayer)) {
        issue(['startingPlayer'], `'${o.startingPlayer}' is not one of the players`, o.startingPlayer);
      }
    }),
  );

/** Whether two types are the same (checked both ways): a schema and the type it describes are compared with it at compile time. */
export type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
