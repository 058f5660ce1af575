/**
 * The validation of an untrusted persisted game: its size and depth bounded before anything
 * else is read (./bounds.ts), the schema, then the facts that tie its fields together: the named
 * cross-field invariants of src/persistence/invariants.ts (the game's once, then each turn's),
 * and the consistency of one turn (what the plan says of its state: ./statePlan.ts), or of every
 * turn marker of a Grand Melee game against each other. Anything whose parts contradict each
 * other or the rules is refused with a message saying what is wrong: every restored game can play
 * to its end. Builds no game.
 */
import * as z from 'zod/mini';
import type { TurnContext } from '../state.js';
import { MAX_CLEANUP_STEPS_PER_TURN, MAX_EFFECTS, MAX_PENDING_EVENTS, MAX_PENDING_EXTRA_TURNS, MAX_PENDING_SKIPS, MAX_PHASES, MAX_STACK, MAX_STEPS } from '../rules/limits.js';
import { kindOf, STEPS_OF_PHASE } from '../rules/schedule.js';
import { unitOf } from '../rules/units.js';
import {
  DurationSchema,
  EffectSchema,
  MAX_AMOUNT,
  MAX_ID_LENGTH,
  MAX_LIST_LENGTH,
  MAX_PLAYERS,
  ObjectIdSchema,
  PlayerIdSchema,
  RulesEraSchema,
  SkipTargetSchema,
  StopSchema,
  TriggerSchema,
  TurnPhaseSchema,
  TurnStepSchema,
  describeIssue,
  int,
  lengthIn,
  refine,
  type ParseResult,
  type SameType,
} from '../schemas.js';
import { awaitingOf } from '../view.js';

import { turnPlan } from '../compiled/plan.js';
import { CORE_GAME_INVARIANTS, invariantProblem, TURN_INVARIANTS, type SnapshotInvariant } from './invariants.js';
import { FULL_FORMAT, MAX_TURN, PERSISTED_ENGINE, type PersistedFull, upgraded } from './format.js';
import { expandPersisted, SnapshotProblem } from './compact.js';
import { NO_MODULES, type Modules } from '../game/module.js';
import { needs } from '../moduleNames.js';
import { checkBounds, SNAPSHOT_LIMITS } from './bounds.js';
import { STEPS_OF_PHASE_KIND, tagsOf } from './statePlan.js';

export { checkBounds, SNAPSHOT_LIMITS } from './bounds.js';

/** Every leaf state of the machine, as a dotted path ('combat.declareAttackers.priority'). */
export const LEAF_STATES: ReadonlySet<string> = new Set(turnPlan.leaves.keys());

// The kinds of schemas.ts (bounds as `refine`, src/fields.ts): a host that restores games bundles no further kind.
const Int = int;
const list = <T extends z.ZodMiniType>(item: T, max: number) => z.array(item).check(lengthIn(0, max));
/**
 * A record as z.record(key, value) reads it, made of kinds every bundle has (issue 33: zod's
 * record kind is 0.5 KB): an object whose every entry is a `value` (zod's catchall), then, when
 * the entries pass, its keys checked by `key` (a key that fails: an `invalid_key` issue, or with
 * `unknown` one `unrecognized_keys` issue naming them, as z.partialRecord of an enum reports
 * them). Objects of other kinds than plain ones (a Date, a Map), which z.record refused, are
 * refused before, by checkBounds on the snapshot's copy.
 */
function recordOf<V extends z.ZodMiniType>(key: z.ZodMiniType<string>, value: V, unknown = false) {
  return z.catchall(z.object({}), value).check(
    // zod's plain check (its issues pushed as they are: superRefine's addIssue is never called).
    z.check((ctx) => {
      const o = ctx.value;
      const bad = Object.keys(o).filter((k) => {
        const parsed = key.safeParse(k);
        if (!parsed.success && !unknown) ctx.issues.push({ code: 'invalid_key', origin: 'record', issues: parsed.error.issues, input: k, path: [k] });
        return !parsed.success;
      });
      if (unknown && bad.length > 0) ctx.issues.push({ code: 'unrecognized_keys', keys: bad, input: o });
    }),
  );
}
const PlayerRecord = <T extends z.ZodMiniType>(v: T) => recordOf(PlayerIdSchema, v) as unknown as z.ZodMiniType<Record<string, z.output<T>>>;
/**
 * The schema of a persisted game, built on first use: a host that never restores a game does not
 * bundle it (the main entry's browser bundle stays small, CONTRACT "Package").
 */
function buildPersistedSchema() {
  const Players = list(PlayerIdSchema, MAX_PLAYERS);
  const StepEntrySchema = z.strictObject({ step: TurnStepSchema, passedOver: z.optional(z.string().check(lengthIn(0, 16))) });
  const Strike = { firstStrike: z.boolean(), doubleStrike: z.boolean(), dealtFirst: z.boolean(), ordered: z.boolean() };
  const Ids = list(ObjectIdSchema, MAX_LIST_LENGTH);
  // zod/mini's looseObject written as the object and catchall it is (kinds a restoring host pays for already).
  const EmittedSchema = z.catchall(z.object({ type: z.string().check(lengthIn(0, 32)) }), z.unknown());
  const Whole = Int(0, Number.MAX_SAFE_INTEGER);
  const Reasons = PlayerRecord(z.string().check(lengthIn(0, MAX_ID_LENGTH)));
  const LeafState = z.string().check(refine<string>((s) => LEAF_STATES.has(s), 'is not a state of the turn machine'));

  const ContextSchema = z.strictObject({
    rules: RulesEraSchema,
    seats: Players.check(lengthIn(2, MAX_PLAYERS)),
    players: Players.check(lengthIn(1, MAX_PLAYERS)),
    startingPlayer: PlayerIdSchema,
    maxHandSize: Int(0, MAX_AMOUNT),
    attack: z.enum(['all', 'chooseOne', 'left', 'right']),
    turn: Int(1, MAX_TURN),
    activePlayer: z.nullable(PlayerIdSchema),
    turnOwner: PlayerIdSchema,
    rotation: PlayerIdSchema,
    phase: z.enum([...TurnPhaseSchema.options, 'pregame']),
    step: z.enum([...TurnStepSchema.options, 'pregame']),
    steps: list(StepEntrySchema, MAX_STEPS),
    phases: list(z.strictObject({ kind: z.enum(['beginning', 'main', 'combat', 'ending']), steps: list(StepEntrySchema, MAX_STEPS), extra: z.optional(z.boolean()) }), MAX_PHASES),
    mainSeen: z.boolean(),
    priority: z.nullable(PlayerIdSchema),
    passed: Players,
    stack: list(
      z.strictObject({
        id: ObjectIdSchema,
        controller: PlayerIdSchema,
        kind: z.enum(['spell', 'ability', 'trigger', 'combatDamage', 'copy']),
        creatures: z.optional(list(ObjectIdSchema, MAX_LIST_LENGTH * 8)),
      }),
      MAX_STACK,
    ),
    pendingTriggers: list(TriggerSchema, MAX_STACK),
    // Counts that grow with the game: bounded here by type, by MAX_COUNT in invariants.ts (countersWithinCaps).
    landsPlayedBy: PlayerRecord(Whole),
    spellsCast: PlayerRecord(Whole),
    previousTurnSpells: z.nullable(Whole),
    manaPool: PlayerRecord(Whole),
    handSizes: PlayerRecord(Whole),
    combat: z.nullable(
      z.strictObject({
        attackers: list(z.strictObject({ id: ObjectIdSchema, defender: PlayerIdSchema, blockedBy: Ids, blocked: z.boolean(), ...Strike }), MAX_LIST_LENGTH * 8),
        blockers: list(z.strictObject({ id: ObjectIdSchema, player: PlayerIdSchema, blocking: Ids, ...Strike }), MAX_LIST_LENGTH * 8),
        declared: z.boolean(),
        attacksDeclared: z.boolean(),
        declaredBy: Players,
        firstStrikeStep: z.boolean(),
        defenders: z.nullable(Players),
      }),
    ),
    extraTurns: list(z.strictObject({ player: PlayerIdSchema, id: z.optional(ObjectIdSchema), beforeNextTurn: z.optional(z.boolean()) }), MAX_PENDING_EXTRA_TURNS),
    skips: PlayerRecord(recordOf(SkipTargetSchema, Int(1, MAX_PENDING_SKIPS), true) as unknown as z.ZodMiniType<Partial<Record<z.output<typeof SkipTargetSchema>, number>>>),
    effects: list(z.strictObject({ id: ObjectIdSchema, effect: EffectSchema, duration: DurationSchema, controller: z.optional(PlayerIdSchema), since: Int(1, MAX_TURN) }), MAX_EFFECTS),
    dayNight: z.nullable(z.enum(['day', 'night'])),
    controlNext: list(z.strictObject({ controller: PlayerIdSchema, player: PlayerIdSchema }), 64),
    controlledBy: PlayerRecord(PlayerIdSchema),
    stops: PlayerRecord(z.nullable(list(StopSchema, 64))),
    yields: PlayerRecord(z.strictObject({ until: z.enum(['stackResolved', 'endOfTurn', 'nextTurn']), evenIfStackChanges: z.boolean() })),
    autoPasses: Whole,
    autoPassTurns: Whole,
    priorityFresh: z.boolean(),
    endedInSend: z.boolean(),
    emptyTurns: Int(0, MAX_PLAYERS * 2),
    cleanupSteps: Int(0, MAX_CLEANUP_STEPS_PER_TURN),
    cleanupCheck: z.nullable(z.enum(['quiet', 'active'])),
    reasons: Reasons,
    result: z.nullable(z.strictObject({ winners: Players, draw: z.boolean(), reasons: Reasons })),
    nextObjectId: Int(1, Number.MAX_SAFE_INTEGER),
    pending: list(EmittedSchema, MAX_PENDING_EVENTS),
    orderTriggers: z.enum(['host', 'players']),
    rng: Int(0, 2 ** 32 - 1),
    variant: z.enum(['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee']),
    teams: z.nullable(list(z.strictObject({ id: ObjectIdSchema, players: Players }), MAX_PLAYERS)),
    ranges: z.nullable(PlayerRecord(Int(0, MAX_PLAYERS))),
    influence: z.nullable(PlayerRecord(Players)),
    planarRolls: Whole,
    pregame: z.nullable(
      z.strictObject({
        chooser: PlayerIdSchema,
        starting: z.nullable(PlayerIdSchema),
        handSize: Int(0, MAX_AMOUNT),
        mulligans: PlayerRecord(Int(0, MAX_AMOUNT)),
        kept: Players,
        decided: Players,
        bottom: PlayerRecord(Int(1, MAX_AMOUNT)),
        handsDone: Players,
      }),
    ),
    triggerOrder: z.nullable(z.strictObject({ batch: list(TriggerSchema, MAX_STACK), orders: PlayerRecord(Ids), about: z.nullable(PlayerIdSchema) })),
    // v3; absent in earlier snapshots, read as a regular turn (persistence/format.ts upgraded).
    extraTurn: z.nullable(z.strictObject({ id: z.optional(ObjectIdSchema) })),
    waitingToPhaseIn: list(z.strictObject({ player: PlayerIdSchema, due: z.boolean() }), MAX_PLAYERS),
  });

  return z.strictObject({
    engine: z.enum([PERSISTED_ENGINE]),
    format: z.number().check(refine((v) => v === FULL_FORMAT)),
    version: Whole,
    seq: z.optional(Whole),
    status: z.enum(['active', 'done']),
    state: LeafState,
    context: ContextSchema,
    markers: z.optional(
      list(z.strictObject({ number: Int(1, MAX_PLAYERS), life: z.enum(['takingTurn', 'waiting']), removals: Int(0, MAX_PLAYERS), state: LeafState, context: ContextSchema }), 16),
    ),
    // CONTRACT v3, undo and shortcuts: read and checked by the table (src/table/tableSnapshot.ts) as the game is restored.
    undo: z.optional(z.unknown()),
    shortcut: z.optional(z.unknown()),
    // CONTRACT v3: the host's clock, the clocks and the seats: checked by the table module (src/persistence/time.ts), or `{ at }` alone (timeProblem below).
    time: z.optional(z.unknown()),
  });
}
let persistedSchema: ReturnType<typeof buildPersistedSchema> | undefined;

/** Checks the facts that tie the fields of a persisted game together. Returns the first problem. */
function consistencyProblem(p: PersistedFull): string | null {
  const c = p.context;
  const seats = new Set(c.seats);
  if (seats.size !== c.seats.length) return 'context.seats: a player appears twice';
  if (c.players.some((x) => !seats.has(x))) return 'context.players: a player who is not in context.seats';
  const inOrder = c.seats.filter((x) => c.players.includes(x));
  if (inOrder.join('\u0000') !== c.players.join('\u0000')) return 'context.players: not in seat order, or twice';
  if (!seats.has(c.startingPlayer)) return 'context.startingPlayer: not a player of the game';
  if (!seats.has(c.turnOwner) || !seats.has(c.rotation)) return 'context.turnOwner/rotation: not a player of the game';
  // With shared team turns priority and the turn belong to a team, named by its first player,
  // who may have left while the team plays on (Archenemy, 904): a unit with a member in the game.
  const unitInGame = (x: string | null) => x === null || c.players.includes(x) || c.players.some((p) => unitOf(c, p) === x);
  if (!unitInGame(c.activePlayer)) return 'context.activePlayer: not a player (or team) in the game';
  if (c.activePlayer !== null && c.activePlayer !== c.turnOwner) return 'context.activePlayer: differs from context.turnOwner';
  if (!unitInGame(c.priority)) return 'context.priority: not a player (or team) in the game';
  if (c.passed.some((x) => !unitInGame(x))) return 'context.passed: a player (or team) not in the game';
  const badStack = c.stack.findIndex((o) => !c.players.includes(o.controller));
  if (badStack >= 0) return `context.stack[${badStack}].controller: not a player in the game`;
  const ids = new Set<string>();
  for (const [i, o] of [...c.stack, ...c.pendingTriggers].entries()) {
    if (ids.has(o.id)) return `context.stack[${i}].id: ${o.id} is on the stack twice`;
    ids.add(o.id);
  }
  if (c.pendingTriggers.some((t) => !c.players.includes(t.controller))) return 'context.pendingTriggers: a controller not in the game';
  for (const field of ['manaPool', 'handSizes', 'spellsCast', 'stops'] as const) {
    const keys = Object.keys(c[field]);
    if (c.players.some((x) => !(x in c[field]))) return `context.${field}: needs an entry for every player in the game`;
    // CR 800.4i: the spells of a player who left this turn are kept until the turn ends.
    if (field === 'spellsCast' ? keys.some((x) => !seats.has(x)) : keys.length !== c.players.length) return `context.${field}: needs exactly one entry per player in the game`;
  }
  if (Object.keys(c.landsPlayedBy).some((x) => !seats.has(x))) return 'context.landsPlayedBy: a player who is not in context.seats';
  if (Object.keys(c.skips).some((x) => !unitInGame(x))) return 'context.skips: a player (or team) not in the game';
  for (const field of ['yields', 'controlledBy'] as const) {
    if (Object.keys(c[field]).some((x) => !c.players.includes(x))) return `context.${field}: a player not in the game`;
  }
  if (Object.values(c.controlledBy).some((x) => !c.players.includes(x))) return 'context.controlledBy: a controller not in the game';
  if ((c.ranges === null) !== (c.influence === null)) return 'context.influence: present exactly when context.ranges is (CR 801.2c)';
  if (c.influence !== null) {
    const influence = c.influence;
    if (c.players.some((x) => influence[x] === undefined)) return 'context.influence: needs an entry for every player in the game';
    if (Object.entries(influence).some(([x, within]) => !seats.has(x) || within.some((y) => !seats.has(y)))) return 'context.influence: a player who is not in context.seats';
  }
  if (c.controlNext.some((x) => !c.players.includes(x.player) || !c.players.includes(x.controller))) return 'context.controlNext: a player not in the game';
  // CR 800.4a, 800.4m: the effects of a player who left last their duration: a controller is one of the seats.
  if (c.effects.some((e) => e.controller !== undefined && !c.seats.includes(e.controller))) return 'context.effects: a controller not in context.seats';
  if (new Set(c.effects.map((e) => e.id)).size !== c.effects.length) return 'context.effects: two effects with the same id';
  // Grand Melee: effects are the game's, created in any marker's turn (each marker counts its own turns, CR 807.4).
  if (c.variant !== 'grandMelee' && c.effects.some((e) => e.since > c.turn)) return 'context.effects: an effect created after the current turn';
  // A departed player's extra turns stay until passed over (CR 800.4k).
  if (c.extraTurns.some((x) => !c.seats.includes(x.player))) return 'context.extraTurns: a player (or team) not seated';
  if (p.status === 'done') {
    if (p.state !== 'gameOver' || c.result === null) return 'status: a finished game must be in state gameOver with a result';
    return null;
  }
  // CR 807.4c-d: a Grand Melee turn that is over rests until its marker may begin the next (what
  // it holds then is checked by the module, GRAND_MELEE_TURN; without it the markers are refused).
  if (p.state === 'turnMarkerPassed') return c.variant !== 'grandMelee' || p.markers === undefined ? 'state: turnMarkerPassed exists only in Grand Melee (CR 807.4c)' : null;
  if (c.combat !== null) {
    if (c.phase !== 'combat') return `context.combat: not null in the ${c.phase} phase`;
    // CR 508.1b: a creature attacks an opponent, never the active player.
    const attacker = c.combat.attackers.findIndex((a) => !seats.has(a.defender) || a.defender === c.activePlayer);
    if (attacker >= 0) return `context.combat.attackers[${attacker}].defender: not an opponent (CR 508.1b)`;
    // A team that plays on keeps the blocks it declared together, a departed member's included (805.10).
    const blocker = c.combat.blockers.findIndex((b) => !unitInGame(unitOf(c, b.player)));
    if (blocker >= 0) return `context.combat.blockers[${blocker}].player: not a player (or team) in the game`;
    const declared = c.combat.declaredBy.findIndex((p) => !seats.has(p));
    if (declared >= 0) return `context.combat.declaredBy[${declared}]: not a player of the game`;
    const defender = c.combat.defenders?.findIndex((p) => !seats.has(p)) ?? -1;
    if (defender >= 0) return `context.combat.defenders[${defender}]: not a player of the game`;
  } else if (c.phase === 'combat') {
    return 'context.combat: null in the combat phase';
  }
  const phaseNow = c.phase;
  const inPregame = p.state.startsWith('pregame');
  if (inPregame !== (c.pregame !== null) || inPregame !== (phaseNow === 'pregame') || (phaseNow === 'pregame') !== (c.step === 'pregame')) {
    return `state: ${p.state} does not agree with context.phase, context.step and context.pregame`;
  }
  if (phaseNow === 'pregame') return p.status === 'active' && awaitingOf({ status: 'active', context: c, hasTag: (tag) => tagsOf(p.state).has(tag) }) === null ? `state: in ${p.state} the game would wait for nobody` : null;
  if (!STEPS_OF_PHASE[phaseNow].includes(c.step as never)) return `context.step: ${c.step} is not a step of the ${phaseNow} phase`;
  if (c.steps.some((s) => !STEPS_OF_PHASE[phaseNow].includes(s.step))) return `context.steps: a step that is not of the ${phaseNow} phase`;
  for (const [i, ph] of c.phases.entries()) {
    if (ph.steps.length === 0) return `context.phases[${i}].steps: a phase needs at least one step`;
    if (ph.steps.some((s) => kindOf(STEPS_OF_PHASE_KIND(s.step)) !== ph.kind)) return `context.phases[${i}].steps: a step that is not of a ${ph.kind} phase`;
  }
  if (p.state === 'gameOver' || c.result !== null) return 'status: an active game cannot be over';
  if (c.players.length < 2) return 'context.players: an active game needs at least 2 players';
  const [phase] = p.state.split('.');
  if (phase !== c.phase) return `state: ${p.state} is not in the ${c.phase} phase of context.phase`;
  if (!p.state.split('.').includes(c.step)) return `state: ${p.state} is not the ${c.step} step of context.step`;
  const awaiting = awaitingOf({ status: 'active', context: c, hasTag: (tag) => tagsOf(p.state).has(tag) });
  if (awaiting === null) return `state: in ${p.state} the game would wait for nobody`;
  if (awaiting.kind === 'discard' && awaiting.count < 1) return `state: in ${p.state} the game would wait for a discard of no cards`;
  if (c.priority !== null && !tagsOf(p.state).has('awaiting:priority')) return `context.priority: nobody holds priority in ${p.state}`;
  // CR 117.4: a player who passed and then received priority again would have ended the step (or
  // resolved the top object). Not in Grand Melee, where priority after a player leaves goes on in
  // turn order (800.4a) to a player who may have passed in this stack's circle (807.5a).
  if (c.variant !== 'grandMelee' && c.priority !== null && c.passed.includes(c.priority)) {
    return `context.passed: ${c.priority} holds priority, so has not passed (CR 117.4)`;
  }
  // CR 723.1: a player is controlled during their own (team's) turn only, and never by themselves (723.9: that is no control).
  const unit = c.activePlayer ?? c.turnOwner;
  for (const [x, by] of Object.entries(c.controlledBy)) {
    if (x === by) return `context.controlledBy.${x}: a player does not control themselves (CR 723.9)`;
    if (unitOf(c, x) !== unit) return `context.controlledBy.${x}: a player is controlled only during their own turn (CR 723.1)`;
  }
  return null;
}

/** The first problem of one turn (the game's, or a turn marker's): its named invariants (invariants.ts), a module's (`extra`: Grand Melee's), then the consistency of its fields. */
function turnProblem(p: PersistedFull, extra: readonly SnapshotInvariant[] = []): string | null {
  return invariantProblem(p, TURN_INVARIANTS) ?? invariantProblem(p, extra) ?? consistencyProblem(p);
}

/**
 * A snapshot with turn markers restored without the Grand Melee module: each marker's turn is
 * checked as any turn is (its problem named as the module would name it), then the markers are
 * refused naming the import; checking them against each other (CR 807.4) is the module's.
 */
function markersWithoutModule(p: PersistedFull): string {
  for (const [i, m] of (p.markers ?? []).entries()) {
    const problem = turnProblem({ ...p, state: m.state, context: m.context });
    if (problem !== null) return `markers[${i}]: ${problem}`;
  }
  return `markers: a Grand Melee game ${needs('grandMelee')}`;
}

/**
 * CONTRACT v4: the parts of a snapshot that need the table module when the restore was not given
 * it (its undo or shortcut vote, its clocks or seats), or null. Turn markers, which need the Grand
 * Melee module, are refused before (parsePersisted).
 */
function modulesProblem(p: PersistedFull, modules: Modules): string | null {
  if (modules.table !== undefined) return null;
  if (p.undo !== undefined) return `undo: a game with undo ${needs('table')}`;
  if (p.shortcut !== undefined) return `shortcut: a game with a shortcut proposed ${needs('table')}`;
  const time = p.time as Record<string, unknown> | undefined;
  if (time !== undefined && typeof time === 'object' && time !== null && Object.keys(time).some((k) => k !== 'at')) return `time: a game with clocks or seats ${needs('table')}`;
  return null;
}

/** `time`: the table module's check, or without it the host's clock alone (`{ at }`: null or a finite number). */
function timeProblem(p: PersistedFull, modules: Modules): string | null {
  const time: unknown = p.time;
  if (time === undefined) return null;
  if (modules.table !== undefined) return modules.table.timeProblem(time, p.context, p.version);
  const at = typeof time === 'object' && time !== null ? (time as { at?: unknown }).at : undefined;
  return at === null || (typeof at === 'number' && Number.isFinite(at)) ? null : 'snapshot.time.at: must be null or a finite number';
}

/**
 * Validates an untrusted persisted game: a compact one (format 3) read back into the full form
 * first (compact.ts), an earlier one upgraded (format.ts). Returns it in the full form, typed, or
 * the reason it is not one: a copy of its own, plain data, whose objects list their keys in the
 * order they came in (the schema's output lists them in its own order), so that the restored
 * game persists to the same JSON.
 */
export function parsePersisted(value: unknown, modules: Modules = NO_MODULES): ParseResult<PersistedFull> {
  try {
    const bounds = checkBounds(value);
    if (bounds !== null) return { ok: false, message: bounds };
    // Read once, into plain data (a proxy or a function cannot be copied), and bounded again: a getter may answer differently the second time.
    const copy: unknown = structuredClone(value);
    const copyBounds = checkBounds(copy, SNAPSHOT_LIMITS, 'snapshot', true);
    if (copyBounds !== null) return { ok: false, message: copyBounds };
    const full = expandPersisted(copy);
    const input = full === copy ? upgraded(copy) : full;
    const parsed = (persistedSchema ??= buildPersistedSchema()).safeParse(input);
    if (!parsed.success) return { ok: false, message: describeIssue(parsed.error, 'snapshot') };
    const persisted = input as PersistedFull;
    // The game's invariants, then its turn markers (checked by the Grand Melee module, which a
    // snapshot with markers needs) or its one turn, then what needs a module the restore was not given.
    const problem =
      invariantProblem(persisted, CORE_GAME_INVARIANTS) ??
      (persisted.markers === undefined ? turnProblem(persisted) : modules.grandMelee === undefined ? markersWithoutModule(persisted) : modules.grandMelee.snapshotProblem(persisted, turnProblem)) ??
      modulesProblem(persisted, modules) ??
      timeProblem(persisted, modules);
    if (problem !== null) return { ok: false, message: problem };
    return { ok: true, value: persisted };
  } catch (err) {
    if (err instanceof SnapshotProblem) return { ok: false, message: err.message };
    let why = 'reading it threw';
    try {
      why = `reading it threw: ${err instanceof Error ? err.message : String(err)}`.slice(0, 200);
    } catch {
      // An error that cannot even be described.
    }
    return { ok: false, message: `snapshot: not a plain JSON value (${why})` };
  }
}

// The snapshot schema and the context type describe the same fields (checked both ways at compile
// time), except `pending`: the emitted events the hook has not seen yet are checked only for a
// `type` (their fields are the engine's own, and the hook reads them as EmittedEvent).
type Defined<T> = T extends unknown ? { [K in keyof T]: Exclude<T[K], undefined> } : never;
const contextAgrees: SameType<Defined<Omit<z.infer<ReturnType<typeof buildPersistedSchema>>['context'], 'pending'>>, Defined<Omit<TurnContext, 'pending'>>> = true;
void contextAgrees;
