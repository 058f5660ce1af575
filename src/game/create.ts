/**
 * createGame / restoreGame, the only factories of the Game (CONTRACT.md): options are checked
 * (INVALID_OPTIONS naming the field), snapshots validated (INVALID_SNAPSHOT), and the game runs
 * on its turn logic: one run of the compiled plan, or one per turn marker in Grand Melee.
 */
import type { z } from 'zod/mini';
import type { TurnInput } from '../state.js';
import { ErrorCode, TurnEngineError, describeThrown } from '../errors.js';
import { parsePersisted } from '../persistence/validate.js';
import { GameOptionsSchema, MAX_PLAYERS, REPORT_INPUT, describeIssue, isPlayerId, type SameType } from '../schemas.js';
import { readGameOptions, readRestoreOptions, type ReadOptions } from './options.js';
import { TAPE, tapeOf, type HookTape } from '../recording/tape.js';
import { randomIndex, seedState } from '../rules/random.js';
import { emperorOf } from '../rules/teams.js';
import { singleLogic } from '../logic/single.js';
import type { TurnLogic } from './logic.js';
import { GameShell } from './shell.js';
import { needs, readUse, type Modules } from './module.js';
import { CARDS_PART, partOf, type CardsPart } from './cardsPart.js';
import type { Game, GameOptions, RecordedOptions, RestoreOptions } from './types.js';
import type { TimeState } from '../table/time.js';

// The options schema and GameOptions describe the same fields (checked both ways at compile time);
// hooks and listeners are functions, which the schema does not describe.
type Defined<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
const optionsAgree: SameType<Defined<z.infer<typeof GameOptionsSchema>>, Defined<Omit<GameOptions, 'hooks' | 'listeners' | 'use'>>> = true;
void optionsAgree;

/**
 * The internal option of the factories, which only the project's own tests and bench use: the
 * turn logic to run (the reference on XState's own transition, src/logic/xstate.ts), given
 * under this symbol in the options (`{ ...options, [LOGIC]: xstateLogic }`). The main entry
 * does not export it.
 */
export const LOGIC: unique symbol = Symbol.for('mtg-turn-engine: turn logic');

/** The options the schema describes, read by createGame (besides the hooks and the listeners). */
const OPTION_KEYS = Object.keys(GameOptionsSchema.shape);

/** The machine input createGame builds from validated options. */
export function toInput(options: GameOptions): TurnInput {
  // CR 904.6: the archenemy takes the first turn.
  const archenemy = options.variant === 'archenemy' ? options.teams?.find((t) => t.players.length === 1)?.players[0] : undefined;
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 32);
  return {
    players: options.players,
    startingPlayer: archenemy ?? options.startingPlayer ?? defaultStartingPlayer(options, seed),
    rules: options.rules ?? 'current',
    maxHandSize: options.maxHandSize ?? 7,
    handSize: options.handSize ?? 7,
    // CR 807.2a-b: Grand Melee's defaults are a range of influence of 1 and attack left.
    attack: options.attack ?? (options.variant === 'grandMelee' ? 'left' : 'all'),
    orderTriggers: options.orderTriggers ?? 'host',
    pregame: options.pregame === true,
    variant: options.variant ?? 'freeForAll',
    teams: options.teams ?? null,
    ...(options.rangeOfInfluence === undefined ? (options.variant === 'grandMelee' ? { rangeOfInfluence: 1 } : {}) : { rangeOfInfluence: options.rangeOfInfluence }),
    seed,
  };
}

/**
 * Who takes turn 1 when the options do not say: the first player, or in Emperor an emperor
 * chosen at random with the game's seed (CR 809.4; a draw of its own, the game's draws are not
 * changed).
 */
function defaultStartingPlayer(options: GameOptions, seed: number): string {
  if (options.variant === 'emperor' && options.teams !== undefined && options.teams.length > 0) {
    const emperors = options.teams.map(emperorOf);
    return emperors[randomIndex(seedState(seed), emperors.length).index] as string;
  }
  return options.players[0] as string;
}

/**
 * CONTRACT v3, "Recordings": what the factories hand the shell beside the hooks and listeners:
 * `record` (read once; createGame's schema has checked its own) and the tape of a game that
 * `replayGame` replays (an internal option, under {@link TAPE}).
 */
function withRecording(callbacks: ReadOptions, options: object, record: unknown): ReadOptions {
  if (record !== undefined && typeof record !== 'boolean') throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.record: must be a boolean');
  const tape = tapeOf(options);
  // CONTRACT v4, "Card games": the cards' part a card game's factories hand on (src/game/cardsPart.ts).
  const part = partOf(options);
  if (record !== true && tape === undefined && part === undefined) return callbacks;
  const out: ReadOptions & { [TAPE]?: HookTape; [CARDS_PART]?: CardsPart } = record === true ? { ...callbacks, record } : { ...callbacks };
  if (tape !== undefined) out[TAPE] = tape;
  if (part !== undefined) out[CARDS_PART] = part;
  return out;
}

/** One read of restoreGame's `record` option; a throw is INVALID_OPTIONS. */
function recordOf(options: unknown): unknown {
  try {
    return typeof options === 'object' && options !== null ? (options as { record?: unknown }).record : undefined;
  } catch (err) {
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.record: could not be read (${describeThrown(err)})`);
  }
}

/**
 * Starts a game. Turn 1 has begun: the untap step has been taken and the starting player
 * holds priority in the upkeep step. Throws a {@link TurnEngineError}: `INVALID_OPTIONS`
 * naming the offending field, or `HOOK_FAILED` when the checkpoint hook fails in turn 1.
 */
export function createGame(options: GameOptions): Game {
  // Each option is read once, into a plain copy: the schema and everything after read the copy.
  const { game, callbacks } = readGameOptions(options, OPTION_KEYS, LOGIC);
  const parsed = plainOptions(game) ?? parsedOptions(game);
  const modules = readUse(callbacks.use);
  const input = toInput(parsed);
  // CONTRACT v4: the options a module serves are refused without it, naming its import.
  const gm = modules.grandMelee;
  if (input.variant === 'grandMelee' && gm === undefined) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.variant: 'grandMelee' ${needs('grandMelee')}`);
  const table = modules.table;
  if (table === undefined) {
    const key = parsed.clock !== undefined ? 'clock' : parsed.undo !== undefined ? 'undo' : parsed.away !== undefined ? 'away' : null;
    if (key !== null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.${key}: ${needs('table')}`);
  }
  // CR 807: Grand Melee runs one turn per turn marker.
  const turn = (callbacks.logic as TurnLogic<unknown, unknown> | undefined) ?? (gm !== undefined && input.variant === 'grandMelee' ? gm.logic : singleLogic);
  // CONTRACT v3, "Playing between people": the table around the turn (undo, shortcuts).
  const logic = table === undefined ? turn : table.wrap(turn, parsed.undo);
  const shellOptions = withRecording(callbacks, options, parsed.record);
  // CONTRACT v3, "Playing between people": the clocks and the seats, when the options ask for them.
  const time = table === undefined ? null : table.newTime(parsed.clock, parsed.away, { teams: input.teams, variant: input.variant, players: input.players, seats: input.players });
  return GameShell.start(logic, input, shellOptions, parsed.record === true ? { from: 'options', options: recordedOptions(parsed, input.seed) } : undefined, time, modules);
}

/** The options as {@link GameOptionsSchema} reads them; throws INVALID_OPTIONS naming the field. */
function parsedOptions(game: Record<string, unknown>): GameOptions {
  const parsed = GameOptionsSchema.safeParse(game, REPORT_INPUT);
  if (!parsed.success) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, describeIssue(parsed.error, 'options'));
  return parsed.data as GameOptions;
}

/**
 * The options most games are made with (`players`, with or without `seed` and `record`) as
 * {@link GameOptionsSchema} reads them, without zod's machinery (a game is made after a game's
 * worth of sends, with none of it in the processor's caches); undefined for any other options,
 * and for anything the schema would refuse: the schema then reads them and says why.
 * `game` is readGameOptions' copy: only the options given, `players` a list of its own.
 */
export function plainOptions(game: Record<string, unknown>): GameOptions | undefined {
  const { players, seed, record } = game;
  let count = 1;
  if (seed !== undefined) {
    if (typeof seed !== 'number' || !Number.isFinite(seed)) return undefined;
    count++;
  }
  if (record !== undefined) {
    if (typeof record !== 'boolean') return undefined;
    count++;
  }
  if (Object.keys(game).length !== count || !Array.isArray(players) || players.length < 2 || players.length > MAX_PLAYERS) return undefined;
  for (let i = 0; i < players.length; i++) if (!isPlayerId(players[i]) || players.indexOf(players[i]) !== i) return undefined;
  // The schema's order of fields (a recording keeps the options).
  const out: GameOptions = { players: players as string[] };
  if (seed !== undefined) out.seed = seed;
  if (record !== undefined) out.record = record;
  return out;
}

/** CONTRACT v3, "Recordings": the options a recording keeps (the schema's copy, less `record`), with the seed the game drew. */
function recordedOptions(parsed: GameOptions, seed: number): RecordedOptions {
  const { record: _record, hooks: _hooks, listeners: _listeners, ...kept } = parsed;
  return { ...kept, seed };
}

/**
 * Restores a game from `game.persist()` (or its JSON round trip). Throws a
 * {@link TurnEngineError} (`INVALID_SNAPSHOT`) saying what is wrong.
 */
export function restoreGame(persisted: unknown, options: RestoreOptions = {}): Game {
  // CONTRACT v4, "Card games": a card game's snapshot carries its cards, which only their import restores.
  if (cardsNameOf(persisted) !== undefined) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, "persisted.cards: a card game's snapshot: restore it with restoreGame from 'mtg-turn-engine/cards'");
  const read = readRestoreOptions(options, LOGIC);
  const modules = readUse(read.use);
  const parse = (value: unknown) => parsePersisted(value, modules);
  const parsed = parse(persisted);
  if (!parsed.ok) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, parsed.message);
  const callbacks = withRecording(read, options, recordOf(options));
  const gm = modules.grandMelee;
  const turn = (callbacks.logic as TurnLogic<unknown, unknown> | undefined) ?? (parsed.value.markers !== undefined && gm !== undefined ? gm.logic : singleLogic);
  const table = modules.table;
  const logic = table === undefined ? turn : table.wrap(turn, undefined, { keepsStates: parsed.value.undo !== undefined, parse });
  const { state, order } = logic.restoreSnapshot(parsed.value);
  return new GameShell(logic, state, parsed.value.version, callbacks, order, parsed.value.seq ?? 0, undefined, restoredTimeOf(parsed.value.time, modules, logic, state), modules);
}

/** The persisted time state against the restored game: the table's check, or the host's clock alone (`{ at }`) without it. */
function restoredTimeOf(persisted: TimeState | undefined, modules: Modules, logic: TurnLogic<unknown, unknown>, state: unknown): TimeState | null {
  if (persisted === undefined) return null;
  const time = structuredClone(persisted);
  return modules.table === undefined ? time : modules.table.restoredTime(modules.table.timed(logic, undefined, (s) => logic.view(s, 0, 0)), state, time);
}

/** Whether a value (a persisted game, a recording) names cards: `cards`, or undefined; a value that cannot be read names none. */
export function cardsNameOf(value: unknown): unknown {
  try {
    return (value as { cards?: unknown } | null)?.cards;
  } catch {
    return undefined;
  }
}
