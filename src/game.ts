/**
 * createGame / restoreGame: the Game of the contract. Every game runs on the compiled runtime
 * (src/compiled/game.ts) behind a gate that checks every event (from `game.send` or sent to
 * the actor directly) exactly once: schema, players, game over, the legality table,
 * re-entrance. A refused event leaves the state as it was and emits nothing; an event whose
 * hook fails is refused the same way. The XState actor of `game.actor` is built from the
 * state on first read, or at once when `inspect` is given, and stays in step from then on.
 */
import type { z } from 'zod/mini';
import type { Actor, InspectionEvent, Observer } from 'xstate';
import type { turnMachine } from '../machines/turn.machine.js';
import type { EmittedEvent, EmittedEventType, GameHooks, RulesEra, TurnEvent, TurnView, AttackOption, Team, Variant } from './contract.js';
import type { Listener } from './emitter.js';
import { ErrorCode, TurnEngineError, type EngineErrorInfo } from './errors.js';
import type { LegalAction } from './legal.js';
import type { NextStop } from './nextStop.js';
import { parsePersisted, type Persisted } from './persistence.js';
import { GameOptionsSchema, describeIssue } from './schemas.js';
import { CompiledGame, compiledGameOf } from './compiled/game.js';
import { GrandMeleeGame } from './grandMelee/game.js';
import { restoreGrandMelee } from './grandMelee/persistence.js';
import { randomIndex, seedState } from './rules/random.js';
import { emperorOf } from './rules/teams.js';

export type { Listener } from './emitter.js';

/** Options of {@link createGame} (CONTRACT.md, "createGame"). */
export interface GameOptions {
  /** 2 to 64 unique, non-empty player ids, in turn order (seating order). */
  players: string[];
  /** Who takes turn 1 (default: `players[0]`). */
  startingPlayer?: string;
  /** The rules era: 'current' (default), 'm10' (2009-2024: damage assignment order) or 'classic' (before July 2009). */
  rules?: RulesEra;
  /** Cleanup discards down to this (default 7); effects can change it per player. */
  maxHandSize?: number;
  /** Every player's hand size when the game starts (default 7). */
  handSize?: number;
  /** How attacks are directed in multiplayer games (CR 802, 803; default 'all'). */
  attack?: AttackOption;
  /** Who orders simultaneous triggers: the host (default) or the players. */
  orderTriggers?: 'host' | 'players';
  /** Players in teams, in seat order within each team; a team wins or loses together (CR 104.2, 808). */
  teams?: Team[];
  /** The variant (default 'freeForAll'). */
  variant?: Variant;
  /** Each player's range of influence in seats (CR 801); unlimited by default. */
  rangeOfInfluence?: number;
  /** Start before turn 1: choosing the starting player, mulligans, opening hand actions (CR 103). */
  pregame?: boolean;
  /** The seed of every random choice the engine makes. */
  seed?: number;
  /** Host callbacks (the checkpoint hook). */
  hooks?: GameHooks;
  /** Listeners of emitted events by type (or '*'), subscribed before anything happens. */
  listeners?: { [K in EmittedEventType | '*']?: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>> };
  /** An XState inspection observer (e.g. from `@statelyai/inspect`), passed to the actor. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}

// The options schema and GameOptions describe the same fields (checked both ways at compile time);
// hooks, listeners and inspect are functions, which the schema does not describe.
type SameType<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Defined<T> = { [K in keyof T]-?: Exclude<T[K], undefined> };
const optionsAgree: SameType<Defined<z.infer<typeof GameOptionsSchema>>, Defined<Omit<GameOptions, 'hooks' | 'listeners' | 'inspect'>>> = true;
void optionsAgree;

/** Options of {@link restoreGame}: hooks, listeners and inspect are not persisted, so they are passed again. */
export type RestoreOptions = Pick<GameOptions, 'hooks' | 'inspect' | 'listeners'>;

/** What `send` returns. */
export type SendResult = { ok: true; events: EmittedEvent[] } | { ok: false; error: EngineErrorInfo };

/** A running game (CONTRACT.md, "Game"). */
export interface Game {
  /** Sends an event. Never throws; on `ok: false` nothing changed and nothing was emitted. */
  send(event: TurnEvent): SendResult;
  /**
   * Sends untrusted input (a value typed `unknown`, e.g. parsed JSON); it is checked like any
   * event. Only values typed `unknown` or `any` match this overload, so a misspelt event
   * literal is still a compile error.
   */
  send<T>(event: T & (unknown extends T ? unknown : never)): SendResult;
  /** A fresh TurnView (mutating it changes nothing). */
  view(): TurnView;
  /** The current TurnView, deeply frozen, the same object until the next accepted event. */
  getSnapshot(): TurnView;
  /** Calls `listener()` after every accepted event; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** The decisions that would be accepted now, from one player or from every player. */
  legalActions(player?: string): LegalAction[];
  /** Subscribes to emitted events (`'*'` for all); returns the unsubscribe function. */
  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void;
  /** Where the game will next ask that player (or anyone) for a decision, if nobody else acts. */
  nextStop(player?: string): NextStop | null;
  /** A JSON-serialisable copy of the game, for {@link restoreGame}. */
  persist(): Persisted;
  /** The XState actor running the turn machine, for inspection tools: one for the life of the game. */
  readonly actor: Actor<typeof turnMachine>;
  /**
   * An independent game in exactly this state, sharing its immutable state (no validation, no
   * copy): for playouts and search. It keeps this game's hooks unless `options.hooks` is given;
   * listeners, subscribers and inspection are not carried over.
   */
  fork(options?: RestoreOptions): Game;
}

/** The machine input createGame builds from validated options. */
export function toInput(options: GameOptions) {
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
  if (options.hooks?.checkpoint !== undefined && typeof options.hooks.checkpoint !== 'function') {
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.hooks.checkpoint: must be a function');
  }
  if (options.listeners !== undefined) {
    if (typeof options.listeners !== 'object' || options.listeners === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.listeners: must be an object of functions');
    for (const [k, v] of Object.entries(options.listeners)) {
      if (typeof v !== 'function') throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.listeners.${k}: must be a function`);
    }
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
  const input = toInput(parsed.data as GameOptions);
  // CR 807: Grand Melee runs one turn per turn marker.
  return input.variant === 'grandMelee' ? GrandMeleeGame.start(input, options) : CompiledGame.start(input, options);
}

/**
 * Restores a game from `game.persist()` (or its JSON round trip). Throws a
 * {@link TurnEngineError} (`INVALID_SNAPSHOT`) saying what is wrong.
 */
export function restoreGame(persisted: unknown, options: RestoreOptions = {}): Game {
  const parsed = parsePersisted(persisted);
  if (!parsed.ok) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, parsed.message);
  checkCallbacks(options);
  return parsed.value.markers !== undefined ? restoreGrandMelee(parsed.value, options) : compiledGameOf(parsed.value, options);
}

export type { LegalAction } from './legal.js';
export type { NextStop } from './nextStop.js';
