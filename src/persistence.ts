/**
 * The persisted form of a game, and its validation. A persisted game is plain JSON:
 * `{ engine, version, status, state, context }`, where `state` is the dotted path of the
 * machine's active leaf state and `context` the machine's context.
 */
import { z } from 'zod';
import { turnMachine } from '../machines/turn.machine.js';
import type { TurnContext } from '../machines/turn.types.js';
export { statePath } from './view.js';
import { awaitingOf } from './view.js';
import { MAX_CLEANUP_STEPS_PER_TURN } from './rules/cleanup.js';
import { MAX_SKIP_RECORDS, MAX_STACK } from './limits.js';
import { MAX_PENDING_EXTRA_PHASES, MAX_PENDING_EXTRA_TURNS, MAX_PENDING_SKIPS, STEPS_OF_PHASE } from './rules/schedule.js';
import {
  AttackerSchema,
  BlockerSchema,
  MAX_AMOUNT,
  MAX_LIST_LENGTH,
  ObjectIdSchema,
  PhaseNameSchema,
  PlayerIdSchema,
  RESERVED_IDS,
  RulesProfileSchema,
  SkipTargetSchema,
  StepNameSchema,
  TriggerSchema,
  describeIssue,
} from './schemas.js';

/** The `engine` tag of a persisted game. */
export const PERSISTED_ENGINE = 'mtg-turn-engine';
/** The version of the persisted format. */
export const PERSISTED_VERSION = 1;

/** A persisted game (see `game.persist()`). */
export interface PersistedGame {
  engine: typeof PERSISTED_ENGINE;
  version: typeof PERSISTED_VERSION;
  status: 'active' | 'done';
  state: string;
  context: TurnContext;
}

/** Limits that bound the work done on untrusted input before it is refused. */
export const SNAPSHOT_LIMITS = { maxNodes: 100_000, maxDepth: 24, maxStringLength: 4096 } as const;

/** Every leaf state of the machine, as a dotted path ('combat.declareAttackers.priority'). */
export const LEAF_STATES: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  const walk = (node: { states: Record<string, unknown> }, path: string[]): void => {
    const children = Object.entries(node.states);
    if (children.length === 0) out.add(path.join('.'));
    for (const [key, child] of children) walk(child as { states: Record<string, unknown> }, [...path, key]);
  };
  walk(turnMachine.root as unknown as { states: Record<string, unknown> }, []);
  return out;
})();

/** The state value of a dotted path. */
export function stateValue(path: string): string | Record<string, unknown> {
  const parts = path.split('.');
  let value: string | Record<string, unknown> = parts[parts.length - 1] as string;
  for (let i = parts.length - 2; i >= 0; i--) value = { [parts[i] as string]: value };
  return value;
}

/** A key as it appears in a message: long keys are cut, so a message stays short whatever the input. */
function keyLabel(key: string): string {
  return key.length > 40 ? `${key.slice(0, 40)}...(${key.length} characters)` : key;
}

/**
 * Walks untrusted input breadth-first and stops at the first limit it passes, so that
 * refusing a huge or deeply nested value costs no more than the limits allow. Keys count
 * against the limits too, and no key may be a property name of every object (`__proto__`,
 * `constructor`, ...): a persisted game never has one.
 */
export function checkBounds(value: unknown, limits = SNAPSHOT_LIMITS): string | null {
  const queue: { v: unknown; depth: number; path: string }[] = [{ v: value, depth: 0, path: 'snapshot' }];
  const tooMany = `snapshot: more than ${limits.maxNodes} values`;
  for (let i = 0; i < queue.length; i++) {
    const { v, depth, path } = queue[i] as { v: unknown; depth: number; path: string };
    if (typeof v === 'string' && v.length > limits.maxStringLength) return `${path}: a string of ${v.length} characters (limit ${limits.maxStringLength})`;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= limits.maxDepth) return `${path}: nested deeper than ${limits.maxDepth} levels`;
    if (Array.isArray(v)) {
      if (queue.length + v.length > limits.maxNodes) return v.length > limits.maxNodes ? `${path}: an array of ${v.length} entries` : tooMany;
      v.forEach((child, k) => queue.push({ v: child, depth: depth + 1, path: `${path}[${k}]` }));
      continue;
    }
    // Reflect.ownKeys lists the keys in one step; an object with too many is refused before any is read.
    const keys = Reflect.ownKeys(v);
    if (queue.length + keys.length > limits.maxNodes) return keys.length > limits.maxNodes ? `${path}: an object of ${keys.length} keys` : tooMany;
    for (const key of keys) {
      if (typeof key !== 'string') return `${path}: a symbol key`;
      if (!Object.prototype.propertyIsEnumerable.call(v, key)) continue;
      if (key.length > limits.maxStringLength) return `${path}: a key of ${key.length} characters (limit ${limits.maxStringLength})`;
      if (RESERVED_IDS.has(key)) return `${path}.${key}: this key is reserved (a property name of every JavaScript object)`;
      queue.push({ v: (v as Record<string, unknown>)[key], depth: depth + 1, path: `${path}.${keyLabel(key)}` });
    }
  }
  return null;
}

const Int = (min: number, max: number) => z.number().int().min(min).max(max);
const PlayerRecord = <T extends z.ZodType>(v: T) => z.record(PlayerIdSchema, v);
const SkipRecordSchema = z.strictObject({ phase: PhaseNameSchema, step: StepNameSchema.optional(), rule: z.string().min(1).max(32) });

const ContextSchema = z.strictObject({
  rules: RulesProfileSchema,
  seats: z.array(PlayerIdSchema).min(2).max(8),
  players: z.array(PlayerIdSchema).min(1).max(8),
  startingPlayer: PlayerIdSchema,
  maxHandSize: Int(0, MAX_AMOUNT),
  turn: Int(1, Number.MAX_SAFE_INTEGER),
  activePlayer: PlayerIdSchema.nullable(),
  turnOwner: PlayerIdSchema,
  rotation: PlayerIdSchema,
  phase: PhaseNameSchema,
  step: StepNameSchema,
  priority: PlayerIdSchema.nullable(),
  passed: z.array(PlayerIdSchema).max(8),
  stack: z
    .array(
      z.strictObject({
        id: ObjectIdSchema,
        controller: PlayerIdSchema,
        kind: z.enum(['spell', 'ability', 'trigger', 'combatDamage']),
        creatures: z.array(ObjectIdSchema).max(MAX_LIST_LENGTH * 8).optional(),
      }),
    )
    .max(MAX_STACK),
  pendingTriggers: z.array(TriggerSchema).max(MAX_STACK),
  landsPlayed: Int(0, MAX_AMOUNT),
  manaPool: PlayerRecord(Int(0, Number.MAX_SAFE_INTEGER)),
  handSizes: PlayerRecord(Int(0, Number.MAX_SAFE_INTEGER)),
  combat: z
    .strictObject({
      attackers: z.array(AttackerSchema).max(MAX_LIST_LENGTH),
      blockers: z.array(BlockerSchema.extend({ player: PlayerIdSchema })).max(MAX_LIST_LENGTH * 8),
      declaredBy: z.array(PlayerIdSchema).max(8),
      firstStrikeStep: z.boolean(),
    })
    .nullable(),
  extraTurns: z.array(PlayerIdSchema).max(MAX_PENDING_EXTRA_TURNS),
  extraPhases: z.array(z.enum(['combat', 'main'])).max(MAX_PENDING_EXTRA_PHASES),
  regularPhases: Int(0, 5),
  mainPhases: Int(0, Number.MAX_SAFE_INTEGER),
  skips: PlayerRecord(z.partialRecord(SkipTargetSchema, Int(1, MAX_PENDING_SKIPS))),
  skipping: SkipRecordSchema.nullable(),
  skippedThisTurn: z.array(SkipRecordSchema).max(MAX_SKIP_RECORDS),
  cleanupSteps: Int(0, MAX_CLEANUP_STEPS_PER_TURN),
  cleanupCheck: z.enum(['quiet', 'active']).nullable(),
  winners: z.array(PlayerIdSchema).max(8).nullable(),
  nextObjectId: Int(1, Number.MAX_SAFE_INTEGER),
});

const PersistedSchema = z.strictObject({
  engine: z.literal(PERSISTED_ENGINE),
  version: z.literal(PERSISTED_VERSION),
  status: z.enum(['active', 'done']),
  state: z.string().refine((s) => LEAF_STATES.has(s), { message: 'is not a state of the turn machine' }),
  context: ContextSchema,
});

/** Checks the facts that tie the fields of a persisted game together. Returns the first problem. */
function consistencyProblem(p: PersistedGame): string | null {
  const c = p.context;
  const seats = new Set(c.seats);
  if (seats.size !== c.seats.length) return 'context.seats: a player appears twice';
  if (c.players.some((x) => !seats.has(x))) return 'context.players: a player who is not in context.seats';
  if (c.players.some((x, i) => c.players.indexOf(x) !== i)) return 'context.players: a player appears twice';
  const inOrder = c.seats.filter((x) => c.players.includes(x));
  if (inOrder.join('\u0000') !== c.players.join('\u0000')) return 'context.players: not in seat order';
  const inGame = (x: string | null) => x === null || c.players.includes(x);
  if (!seats.has(c.startingPlayer)) return 'context.startingPlayer: not a player of the game';
  if (!seats.has(c.turnOwner) || !seats.has(c.rotation)) return 'context.turnOwner/rotation: not a player of the game';
  if (!inGame(c.activePlayer)) return 'context.activePlayer: not a player in the game';
  if (c.activePlayer !== null && c.activePlayer !== c.turnOwner) return 'context.activePlayer: differs from context.turnOwner';
  if (!inGame(c.priority)) return 'context.priority: not a player in the game';
  if (c.passed.some((x) => !c.players.includes(x))) return 'context.passed: a player not in the game';
  const badStack = c.stack.findIndex((o) => !c.players.includes(o.controller));
  if (badStack >= 0) return `context.stack[${badStack}].controller: not a player in the game`;
  if (c.pendingTriggers.some((t) => !c.players.includes(t.controller))) return 'context.pendingTriggers: a controller not in the game';
  for (const field of ['manaPool', 'handSizes'] as const) {
    const keys = Object.keys(c[field]);
    if (keys.length !== c.players.length || c.players.some((x) => !(x in c[field]))) return `context.${field}: needs exactly one entry per player in the game`;
  }
  if (Object.keys(c.skips).some((x) => !c.players.includes(x))) return 'context.skips: a player not in the game';
  if (c.extraTurns.some((x) => !seats.has(x))) return 'context.extraTurns: a player not in the game';
  if (c.combat !== null) {
    // Attacked players who left stay in combat (CR 800.4e); blockers leave with their player (CR 800.4a).
    const attacker = c.combat.attackers.findIndex((a) => !seats.has(a.defender));
    if (attacker >= 0) return `context.combat.attackers[${attacker}].defender: not a player of the game`;
    const blocker = c.combat.blockers.findIndex((b) => !c.players.includes(b.player));
    if (blocker >= 0) return `context.combat.blockers[${blocker}].player: not a player in the game`;
    if (c.combat.declaredBy.some((x) => !seats.has(x))) return 'context.combat.declaredBy: a player not in the game';
  }
  if (!STEPS_OF_PHASE[c.phase].includes(c.step)) return `context.step: ${c.step} is not a step of the ${c.phase} phase`;
  if (p.status === 'done') {
    if (p.state !== 'gameOver' || c.winners === null || c.players.length !== 1) return 'status: a finished game must be in state gameOver with one winner';
    return null;
  }
  if (p.state === 'gameOver' || c.winners !== null) return 'status: an active game cannot be over';
  if (c.players.length < 2) return 'context.players: an active game needs at least 2 players';
  const [phase] = p.state.split('.');
  if (phase !== c.phase) return `state: ${p.state} is not in the ${c.phase} phase of context.phase`;
  if (!p.state.split('.').includes(c.step)) return `state: ${p.state} is not the ${c.step} step of context.step`;
  return restingProblem(p);
}

/** States a game waits in with nobody holding priority: a declaration or a discard is awaited (CR 508.1, 509.1, 514.1). */
const AWAITS_DECLARATION = new Set(['combat.declareAttackers.declaring', 'combat.declareBlockers.declaring', 'ending.cleanup.discarding']);
/** States a game passes through but never waits in: the untap step (CR 502) and the cleanup step's check (CR 514.3). */
const NEVER_WAITS = new Set(['beginning.untap', 'ending.cleanup.checking']);

/**
 * A live game always waits for someone (CONTRACT.md, TurnView.awaiting: null only when the
 * game is over). A snapshot of a game that waits for nobody would restore a game stuck
 * forever, so it is refused.
 */
function restingProblem(p: PersistedGame): string | null {
  const c = p.context;
  if (NEVER_WAITS.has(p.state)) return `state: a game never waits in ${p.state}`;
  if (c.skipping !== null) return 'context.skipping: a game never waits in a step it skips (CR 614.10)';
  if (!AWAITS_DECLARATION.has(p.state)) return c.priority === null ? `context.priority: in ${p.state} a player must hold priority` : null;
  if (c.priority !== null) return `context.priority: nobody holds priority in ${p.state}`;
  const awaiting = awaitingOf({ status: 'active', context: c, value: stateValue(p.state) });
  if (awaiting === null || (awaiting.kind === 'discard' && awaiting.count < 1)) return `state: in ${p.state} the game would wait for nobody`;
  return null;
}

/** Validates an untrusted persisted game. Returns it typed, or the reason it is not one. */
export function parsePersisted(value: unknown): { ok: true; value: PersistedGame } | { ok: false; message: string } {
  try {
    return parseReadable(value);
  } catch (err) {
    // Getters and proxies can throw while the input is read: that input is not a persisted game either.
    let why = 'reading it threw';
    try {
      why = `reading it threw: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200);
    } catch {
      // An error that cannot even be described.
    }
    return { ok: false, message: `snapshot: not a plain JSON value (${why})` };
  }
}

function parseReadable(value: unknown): { ok: true; value: PersistedGame } | { ok: false; message: string } {
  const bounds = checkBounds(value);
  if (bounds !== null) return { ok: false, message: bounds };
  const parsed = PersistedSchema.safeParse(value);
  if (!parsed.success) return { ok: false, message: describeIssue(parsed.error, 'snapshot') };
  const problem = consistencyProblem(parsed.data as PersistedGame);
  if (problem !== null) return { ok: false, message: problem };
  return { ok: true, value: parsed.data as PersistedGame };
}
