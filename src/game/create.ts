/**
 * createGame / restoreGame, the only factories of the Game (CONTRACT.md): options are checked
 * (INVALID_OPTIONS naming the field), snapshots validated (INVALID_SNAPSHOT), and the game runs
 * on its turn logic: one run of the compiled plan, or one per turn marker in Grand Melee.
 */
import type { z } from 'zod/mini';
import type { TurnInput } from '../state.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { parsePersisted } from '../persistence/validate.js';
import { GameOptionsSchema, describeIssue, type SameType } from '../schemas.js';
import { randomIndex, seedState } from '../rules/random.js';
import { emperorOf } from '../rules/teams.js';
import { singleLogic } from '../logic/single.js';
import { grandMeleeLogic } from '../logic/grandMelee.js';
import type { TurnLogic } from './logic.js';
import { GameShell } from './shell.js';
import type { Game, GameOptions, RestoreOptions } from './types.js';

// The options schema and GameOptions describe the same fields (checked both ways at compile time);
// hooks and listeners are functions, which the schema does not describe.
type Defined<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
const optionsAgree: SameType<Defined<z.infer<typeof GameOptionsSchema>>, Defined<Omit<GameOptions, 'hooks' | 'listeners'>>> = true;
void optionsAgree;

/**
 * The internal option of the factories, which only the project's own tests and bench use: the
 * turn logic to run (the reference on XState's own transition, src/logic/xstate.ts), given
 * under this symbol in the options (`{ ...options, [LOGIC]: xstateLogic }`). The main entry
 * does not export it.
 */
export const LOGIC: unique symbol = Symbol('mtg-turn-engine: turn logic');

/** The turn logic an options object names under {@link LOGIC}, if any. */
function logicOf(options: object): TurnLogic<unknown, unknown> | undefined {
  return (options as { [LOGIC]?: TurnLogic<unknown, unknown> })[LOGIC];
}

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

export function checkCallbacks(options: RestoreOptions): void {
  if (options.hooks !== undefined && (typeof options.hooks !== 'object' || options.hooks === null)) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.hooks: must be an object');
  for (const name of ['checkpoint', 'settled', 'autoPass'] as const) {
    if (options.hooks?.[name] !== undefined && typeof options.hooks[name] !== 'function') throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.hooks.${name}: must be a function`);
  }
  if (options.listeners !== undefined) {
    if (typeof options.listeners !== 'object' || options.listeners === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.listeners: must be an object of functions');
    for (const [k, v] of Object.entries(options.listeners)) {
      if (typeof v !== 'function') throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.listeners.${k}: must be a function`);
    }
  }
}

/** What the factories do with options that moved (CONTRACT v3): a clear INVALID_OPTIONS rather than an option silently ignored. */
function movedOption(options: object): void {
  if ('inspect' in options && (options as { inspect?: unknown }).inspect !== undefined) {
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, "options.inspect: moved to actorOf(game, { inspect }) from 'mtg-turn-engine/xstate' (CONTRACT v3)");
  }
}

/**
 * Starts a game. Turn 1 has begun: the untap step has been taken and the starting player
 * holds priority in the upkeep step. Throws a {@link TurnEngineError}: `INVALID_OPTIONS`
 * naming the offending field, or `HOOK_FAILED` when the checkpoint hook fails in turn 1.
 */
export function createGame(options: GameOptions): Game {
  if (typeof options !== 'object' || options === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options: must be an object');
  const parsed = GameOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, describeIssue(parsed.error, 'options'));
  checkCallbacks(options);
  movedOption(options);
  const input = toInput(parsed.data as GameOptions);
  // CR 807: Grand Melee runs one turn per turn marker.
  const logic = logicOf(options) ?? (input.variant === 'grandMelee' ? grandMeleeLogic : singleLogic);
  return GameShell.start(logic, input, options);
}

/**
 * Restores a game from `game.persist()` (or its JSON round trip). Throws a
 * {@link TurnEngineError} (`INVALID_SNAPSHOT`) saying what is wrong.
 */
export function restoreGame(persisted: unknown, options: RestoreOptions = {}): Game {
  const parsed = parsePersisted(persisted);
  if (!parsed.ok) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, parsed.message);
  if (typeof options !== 'object' || options === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options: must be an object');
  checkCallbacks(options);
  movedOption(options);
  const logic = logicOf(options) ?? (parsed.value.markers !== undefined ? grandMeleeLogic : singleLogic);
  const { state, order } = logic.restoreSnapshot(parsed.value);
  return new GameShell(logic, state, parsed.value.version, options, order, parsed.value.seq ?? 0);
}
