/**
 * The types of a running game (CONTRACT.md, "createGame", "Game"), documented once.
 */
import type { AwayOptions, ClockOptions, Deadline, EmittedEvent, EmittedEventType, GameHooks, RulesEra, SeatEvent, SeatOptions, TurnEvent, TurnView, AttackOption, Team, UndoOptions, Variant } from '../contract.js';
import type { Listener } from '../emitter.js';
import type { EngineErrorInfo } from '../errors.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';
import type { Persisted } from '../persistence/format.js';
import type { GameModule, ModuleName } from './module.js';
import type { HookAnswer, RecordedInput, RecordedSnapshot, RECORDING_FORMAT } from '../recording/format.js';

export type { Listener } from '../emitter.js';

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
  /**
   * CONTRACT v3, "Recordings": keep the game's recording (every accepted send's event and every
   * answer the hooks gave, with `persist()` every 256 versions), read with `game.recording()`
   * and replayed with `replayGame` (default false).
   */
  record?: boolean;
  /**
   * CONTRACT v3, "Playing between people": undo with a policy (default: none). 'own': a player
   * returns at once to any version since their horizon (`view().undo`); 'consent': every other
   * player is asked first. `maxPerTurn`: the most UNDO requests one player makes in a turn.
   */
  undo?: UndoOptions;
  /**
   * CONTRACT v3, "Playing between people": chess clocks, charged from the `at` the events carry
   * (see {@link ClockOptions}); persisted with the game. Default: none.
   */
  clock?: ClockOptions;
  /** CONTRACT v3: what the engine does for a player whose seat is away (SET_SEAT_STATUS), see {@link AwayOptions}. Default: none. */
  away?: AwayOptions;
  /**
   * CONTRACT v4: the modules the game may use: `table` from `mtg-turn-engine/table` (the options
   * `clock`, `undo`, `away`, and the table's events), `grandMelee` from `mtg-turn-engine/variants`
   * (`variant: 'grandMelee'`). Without the module these are refused, naming its import.
   * `fork()` carries them on; a recording names them.
   */
  use?: readonly GameModule[];
  /** Host callbacks (the checkpoint hook). */
  hooks?: GameHooks;
  /** Listeners of emitted events by type (or '*'), subscribed before anything happens. */
  listeners?: { [K in EmittedEventType | '*']?: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>> };
}

/**
 * Options of {@link restoreGame}: hooks and listeners are not persisted, so they are passed again;
 * `record: true` records the restored game from here (its recording starts from the persisted game).
 */
export type RestoreOptions = Pick<GameOptions, 'hooks' | 'listeners' | 'record' | 'use'>;

/**
 * Options of {@link Game.fork}: those of a restore, and (issue 34) `seed`, a new random stream
 * for the fork: every random draw it makes from then on (the engine's, a card game's
 * `ctx.random`) comes from the generator started at `seed` as `createGame({ seed })` starts it.
 * Without `seed` the fork draws what the original would.
 */
export interface ForkOptions extends RestoreOptions {
  /** A finite number: the fork's new seed. */
  seed?: number;
}

/** What `send` returns. */
/**
 * What `send` answers. A refused send changes nothing, with one exception (CONTRACT v4, "Time-outs
 * are facts of time"): a send carrying `at` past a deadline first commits the time-outs due as an
 * accepted step of their own (their events come first in an accepted send's `events`); if the
 * event is then refused, `events` carries what those time-outs emitted (absent otherwise).
 */
export type SendResult = { ok: true; events: EmittedEvent[] } | { ok: false; error: EngineErrorInfo; events?: EmittedEvent[] };

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
  /**
   * A fresh TurnView (mutating it changes nothing). CONTRACT v3, private seats: with
   * `{ seat }` or `{ spectator: true }`, the view that seat (or a spectator) may see: another
   * player's `stops` are null. Without options, the host's full view. Options that name no
   * player of the game (or say nothing of who looks) throw INVALID_OPTIONS naming the field.
   */
  view(options?: SeatOptions): TurnView;
  /**
   * The current TurnView, deeply frozen, the same object until the next accepted event; with
   * `{ seat }` or `{ spectator: true }` that seat's (or a spectator's) view, as {@link Game.view}
   * says, the same object for that seat until the next accepted event.
   */
  getSnapshot(options?: SeatOptions): TurnView;
  /** Calls `listener()` after every accepted event; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** The decisions that would be accepted now, from one player or from every player. */
  legalActions(player?: string): LegalAction[];
  /** Subscribes to emitted events (`'*'` for all); returns the unsubscribe function. */
  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void;
  /**
   * CONTRACT v3, private seats: the events as one seat (or a spectator) receives them: the same
   * events in the same order, but an `autoPass` made for another player arrives without `reason`
   * (a plain pass). Throws INVALID_OPTIONS as {@link Game.view} does.
   */
  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? SeatEvent : Extract<SeatEvent, { type: K }>>, options?: SeatOptions): () => void;
  /**
   * CONTRACT v3: the answer `send(event)` would give now, `{ ok: true }` or `{ ok: false, error }`,
   * changing nothing, emitting nothing and calling no hook (so it cannot foresee a refusal that
   * only the hook's result would cause). A hook may ask it before returning an event; a UI may
   * grey out a button.
   */
  check(event: unknown): { ok: true } | { ok: false; error: EngineErrorInfo };
  /** Where the game will next ask that player (or anyone) for a decision, if nobody else acts. */
  nextStop(player?: string): NextStop | null;
  /**
   * CONTRACT v3, "Playing between people": when, on the host's clock, the next clock, away or
   * (v4) undo-request time-out falls and whose it is, if nothing happens before; null without
   * the `clock` or `away` option or an undo request made with `at`, before the first `at`, while nothing can time out (the clocks paused, nobody away) or
   * once the game is over. A server keeps one timer for all its games, and sends
   * `{ type: 'TICK', at }` to a game when its deadline comes (a late TICK gives the same game).
   */
  nextDeadline(): Deadline | null;
  /** A JSON-serialisable copy of the game, for {@link restoreGame}. */
  persist(): Persisted;
  /**
   * An independent game in exactly this state, sharing its immutable state (no validation, no
   * copy): for playouts and search. It keeps this game's hooks unless `options.hooks` is given;
   * listeners, subscribers and inspection are not carried over. With `options.seed` (issue 34)
   * the fork draws from a new random stream (see {@link ForkOptions}); a seed that is not a finite
   * number throws a TurnEngineError (`INVALID_OPTIONS`, naming `options.seed`).
   */
  fork(options?: ForkOptions): Game;
  /**
   * CONTRACT v3, "Recordings": the game's recording, a fresh JSON object (see {@link Recording}).
   * Only a game made with `record: true` has one: otherwise this throws a TurnEngineError
   * (`INVALID_OPTIONS`, naming the option).
   */
  recording(): Recording;
}

/** The createGame options a recording keeps: those given, less hooks, listeners and `record`, with the seed the game drew. */
export type RecordedOptions = Omit<GameOptions, 'hooks' | 'listeners' | 'record'> & { seed: number };

/**
 * A recorded game (CONTRACT.md v3, "Recordings"), plain JSON: `inputs[i]` made version
 * `start + i`, where `start` is 0 for a game made by createGame and the persisted game's version
 * for one recorded from a restore or a fork.
 */
export interface Recording {
  format: typeof RECORDING_FORMAT;
  /** The engine that recorded it ('mtg-turn-engine'); the snapshots of another engine are not read. */
  engine: string;
  /** What `options` holds: the createGame options, or the persisted game a restored (or forked) game was recorded from. */
  from: 'options' | 'persisted';
  /** The createGame options less hooks and listeners (with the seed the game drew), or the persisted game. */
  options: RecordedOptions | Persisted;
  /** Which hooks the recorded game had: only their answers are in `inputs` (the others were never asked). */
  hooks: { checkpoint: boolean; autoPass: boolean };
  /** CONTRACT v4: the modules the recorded game had (absent: none); replayGame needs them in its `use`. */
  use?: ModuleName[];
  /** The game's start, then every accepted send, each with the answers the hooks gave during it. */
  inputs: RecordedInput[];
  /** `persist()` at every version that is a multiple of 256, oldest first. */
  snapshots: RecordedSnapshot[];
}

/** The first difference between the hooks given to `replayGame` and the recorded answers. */
export interface ReplayDrift {
  /** The game's version when the hook was asked, as its view showed it (the send under way makes version + 1). */
  version: number;
  /**
   * Which hook answered otherwise; 'cards' (a card game's replay, `mtg-turn-engine/cards`): after
   * the send the cards' state or random position differ from the recorded game's.
   */
  hook: 'checkpoint' | 'autoPass' | 'cards';
  /** The recorded answer (the one the replay used), or the recorded check of the cards (`{ cards }`). */
  recorded: HookAnswer | { cards: string };
  /** What the hook given answered, in the same form, or the error it failed with. */
  got: HookAnswer | { cards: string } | { error: string };
}

/** Options of `replayGame`. */
export interface ReplayOptions extends Pick<GameOptions, 'hooks' | 'listeners' | 'use'> {
  /**
   * Stop at this version (default: the last one recorded). Without hooks and listeners the replay
   * starts from the nearest snapshot at or before it; with them, from the start (they see everything).
   */
  until?: number;
}

/** What a replay found, on the game it returns. */
export interface ReplayReport {
  /** The first difference between the hooks given and the recorded answers; null when none (or no hooks were given). */
  drift: ReplayDrift | null;
}

/** The game `replayGame` returns: a Game in the recorded state (it plays on live, with the hooks given), and what the replay found. */
export type ReplayedGame = Game & { readonly replay: ReplayReport };

