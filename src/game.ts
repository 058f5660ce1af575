/**
 * createGame / restoreGame: the actor behind the contract. One actor for the life of a game;
 * its logic is the turn machine behind a gate that checks every event (from `game.send` or
 * sent to the actor directly) exactly once: schema, players, game over, the legality table,
 * re-entrance. A refused event leaves the snapshot as it was and emits nothing; an event
 * whose hook fails is refused the same way.
 */
import type { z } from 'zod/mini';
import { createActor, type Actor, type ActorScope, type AnyEventObject, type InspectionEvent, type Observer } from 'xstate';
import { creatingWith, register, type GameHooksRuntime } from '../machines/hooks.js';
import { turnMachine } from '../machines/turn.machine.js';
import type { Awaiting, EmittedEvent, EmittedEventType, GameHooks, RulesEra, TurnContext, TurnEvent, TurnView, AttackOption, Team, Variant } from '../machines/turn.types.js';
import { Emitter, type Listener } from './emitter.js';
import { ErrorCode, TurnEngineError, type EngineErrorInfo } from './errors.js';
import { callHook } from './hookAdapter.js';
import { checkEvent, freshSend, guardActorSend, refusal, REENTRANT_BUSY, REENTRANT_IN_HOOK } from './gate.js';
import { legalActionsOf, type LegalAction } from './legal.js';
import { nextStopOf, type NextStop } from './nextStop.js';
import { PERSISTED_ENGINE, PERSISTED_VERSION, parsePersisted, statePath, stateValue, type Persisted } from './persistence.js';
import { GameOptionsSchema, describeIssue } from './schemas.js';
import { buildView, deepFreeze, viewOf } from './view.js';
// Issue 15: games run on the compiled runtime, except games with `inspect` (XState's interpreter, microstep by microstep).
import { CompiledGame, gameFromState, turnPlan } from './compiled/game.js';

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

type Snapshot = ReturnType<Actor<typeof turnMachine>['getSnapshot']>;
type Outcome = { ok: true } | { ok: false; error: EngineErrorInfo };

/** The games behind each gated actor. */
const games = new WeakMap<object, TurnGame>();

/**
 * The turn machine behind the gate: the same machine (its root, config and every method
 * come from it), whose `transition` first checks the event as `game.send` does.
 */
const gatedMachine: typeof turnMachine = Object.create(turnMachine, {
  transition: {
    value(snapshot: Snapshot, event: AnyEventObject, scope: ActorScope<Snapshot, TurnEvent>) {
      const game = games.get(scope.self);
      if (game === undefined || (typeof event?.type === 'string' && event.type.startsWith('xstate.'))) return turnMachine.transition(snapshot, event as TurnEvent, scope as never);
      return game.gate(snapshot, event, scope);
    },
  },
});

class TurnGame implements Game {
  readonly #actor: Actor<typeof turnMachine>;
  readonly #runtime: GameHooksRuntime;
  readonly #hooks: RestoreOptions['hooks'];
  #version: number;
  readonly #emitter = new Emitter();
  readonly #subscribers = new Set<() => void>();
  #outbox: EmittedEvent[] = [];
  #sending = false;
  #outcome: Outcome | null = null;
  #frozen: TurnView | null = null;

  constructor(start: { input: ReturnType<typeof toInput> } | { snapshot: Snapshot }, options: RestoreOptions, version: number) {
    // `useSyncExternalStore(game.subscribe, game.getSnapshot)` passes them unbound (CONTRACT "Game").
    this.subscribe = this.subscribe.bind(this);
    this.getSnapshot = this.getSnapshot.bind(this);
    this.#version = version;
    this.#hooks = options.hooks;
    const hook = options.hooks?.checkpoint;
    const view = (ctx: TurnContext, awaiting: Awaiting | null) => buildView(ctx, awaiting, this.#version);
    const runtime: GameHooksRuntime = { inHook: false };
    if (hook !== undefined) runtime.check = (ctx, about) => callHook(hook, view, ctx, about, (inHook) => (runtime.inHook = inHook));
    this.#runtime = runtime;
    for (const [type, listener] of Object.entries(options.listeners ?? {})) if (typeof listener === 'function') this.on(type as '*', listener as Listener);
    const actorOptions = { ...start, ...(options.inspect === undefined ? {} : { inspect: options.inspect }) } as Parameters<typeof createActor<typeof turnMachine>>[1];
    this.#actor = creatingWith(this.#runtime, () => createActor(gatedMachine, actorOptions));
    register(this.#actor, this.#runtime);
    games.set(this.#actor, this);
    this.#guard = guardActorSend(this.#actor, () => runtime.inHook);
    this.#actor.on('*', (e) => this.#outbox.push(e));
    this.#actor.subscribe({ next: (s) => this.#observed(s), error: () => undefined });
    const initial = this.#actor.getSnapshot();
    if (initial.status === 'error') {
      const err = (initial as { error?: unknown }).error;
      throw err instanceof TurnEngineError ? err : new TurnEngineError(ErrorCode.HOOK_FAILED, String(err));
    }
    this.#last = initial;
    this.#actor.start();
    this.#last = this.#actor.getSnapshot();
    this.#flush();
  }

  #last: Snapshot;
  readonly #guard: ReturnType<typeof guardActorSend>;

  get actor(): Actor<typeof turnMachine> {
    return this.#actor;
  }

  /** The gate every event passes through (called by the actor's logic). */
  gate(snapshot: Snapshot, raw: AnyEventObject, scope: ActorScope<Snapshot, TurnEvent>): Snapshot {
    const outcome = this.#check(snapshot, raw);
    if (!outcome.ok) {
      this.#outcome = outcome;
      return snapshot;
    }
    const deferred: (() => void)[] = [];
    const inner = { ...scope, defer: (fn: () => void) => deferred.push(fn) };
    let next: Snapshot;
    try {
      next = turnMachine.transition(freshSend(snapshot), this.#event as TurnEvent, inner as never);
    } catch (err) {
      this.#outcome = { ok: false, error: err instanceof TurnEngineError ? err.toInfo() : { code: ErrorCode.HOOK_FAILED, message: `the event could not be processed: ${String(err)}` } };
      return snapshot;
    }
    if (next.status === 'error') {
      this.#outcome = refusal(ErrorCode.HOOK_FAILED, String((next as { error?: unknown }).error));
      return snapshot;
    }
    for (const fn of deferred) scope.defer(fn);
    this.#outcome = { ok: true };
    return next;
  }

  #event: TurnEvent | null = null;

  #check(snapshot: Snapshot, raw: unknown): Outcome {
    const checked = checkEvent(snapshot, raw, this.#runtime.inHook);
    if (checked.ok) this.#event = checked.event;
    return checked.ok ? { ok: true } : checked;
  }

  send(raw: unknown): SendResult {
    if (this.#guard.isBusy()) return refusal(ErrorCode.REENTRANT, this.#runtime.inHook ? REENTRANT_IN_HOOK : REENTRANT_BUSY);
    this.#outcome = null;
    this.#outbox = [];
    const current = this.#actor.getSnapshot();
    if (current.status !== 'active') {
      const outcome = this.#check(current, raw);
      return outcome.ok ? { ok: false, error: { code: ErrorCode.GAME_OVER, message: 'the game is over; no event is accepted' } } : outcome;
    }
    const checked = this.#check(current, raw);
    if (!checked.ok) return { ok: false, error: checked.error };
    this.#sending = true;
    try {
      this.#guard.send(this.#event as TurnEvent);
    } catch (err) {
      this.#outcome = refusal(ErrorCode.INVALID_EVENT, `the event could not be processed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      this.#sending = false;
    }
    const outcome = this.#outcome ?? refusal(ErrorCode.INVALID_EVENT, 'event: expected an object with a type');
    this.#outcome = null;
    if (!outcome.ok) {
      this.#outbox = [];
      return { ok: false, error: outcome.error };
    }
    const events = this.#accepted();
    return { ok: true, events };
  }

  /** A snapshot the actor reports: a direct `actor.send` that was accepted is delivered after it finishes. */
  #observed(snapshot: Snapshot): void {
    if (snapshot === this.#last) return;
    if (this.#sending) return;
    // Accepted through actor.send: deliver once the actor has finished processing.
    queueMicrotask(() => {
      if (this.#actor.getSnapshot() !== this.#last) this.#accepted();
    });
  }

  /** Bookkeeping of an accepted event: the version, the snapshot, then listeners and subscribers. */
  #accepted(): EmittedEvent[] {
    this.#version++;
    this.#last = this.#actor.getSnapshot();
    this.#frozen = null;
    const events = this.#outbox.map((e) => ({ ...e }));
    this.#flush();
    for (const s of [...this.#subscribers]) {
      try {
        s();
      } catch {
        // A subscriber's failure is the host's; the engine goes on.
      }
    }
    return events;
  }

  /**
   * Delivers what an accepted event emitted; a throwing listener does not stop the others.
   * Events of an event a listener sends are queued behind the ones being delivered.
   */
  #flush(): void {
    const events = this.#outbox;
    this.#outbox = [];
    this.#emitter.deliver(events);
  }

  view(): TurnView {
    return viewOf(this.#actor.getSnapshot(), this.#version);
  }

  getSnapshot(): TurnView {
    return (this.#frozen ??= deepFreeze(this.view()));
  }

  subscribe(listener: () => void): () => void {
    const wrapped = () => listener();
    this.#subscribers.add(wrapped);
    return () => {
      this.#subscribers.delete(wrapped);
    };
  }

  legalActions(player?: string): LegalAction[] {
    return legalActionsOf(this.#actor.getSnapshot(), player);
  }

  nextStop(player?: string): NextStop | null {
    return nextStopOf(this.#actor.getSnapshot(), player);
  }

  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void {
    return this.#emitter.on(type, listener);
  }

  fork(options?: RestoreOptions): Game {
    const s = this.#actor.getSnapshot();
    return gameFromState({ value: statePath(s.value), context: s.context, status: s.status === 'done' ? 'done' : 'active' }, this.#version, { ...options, hooks: options?.hooks ?? this.#hooks });
  }

  persist(): Persisted {
    const snapshot = this.#actor.getSnapshot();
    return {
      engine: PERSISTED_ENGINE,
      format: PERSISTED_VERSION,
      version: this.#version,
      status: snapshot.status === 'done' ? 'done' : 'active',
      state: statePath(snapshot.value),
      context: structuredClone(snapshot.context),
    };
  }
}

/** The machine input createGame builds from validated options. */
export function toInput(options: GameOptions) {
  // CR 904.6: the archenemy takes the first turn.
  const archenemy = options.variant === 'archenemy' ? options.teams?.find((t) => t.players.length === 1)?.players[0] : undefined;
  return {
    players: options.players,
    startingPlayer: archenemy ?? options.startingPlayer ?? (options.players[0] as string),
    rules: options.rules ?? 'current',
    maxHandSize: options.maxHandSize ?? 7,
    handSize: options.handSize ?? 7,
    attack: options.attack ?? 'all',
    orderTriggers: options.orderTriggers ?? 'host',
    pregame: options.pregame === true,
    variant: options.variant ?? 'freeForAll',
    teams: options.teams ?? null,
    ...(options.rangeOfInfluence === undefined ? {} : { rangeOfInfluence: options.rangeOfInfluence }),
    seed: options.seed ?? Math.floor(Math.random() * 2 ** 32),
  };
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
  return options.inspect === undefined ? CompiledGame.start(input, options) : new TurnGame({ input }, options, 0);
}

/**
 * Restores a game from `game.persist()` (or its JSON round trip). Throws a
 * {@link TurnEngineError} (`INVALID_SNAPSHOT`) saying what is wrong.
 */
export function restoreGame(persisted: unknown, options: RestoreOptions = {}): Game {
  const parsed = parsePersisted(persisted);
  if (!parsed.ok) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, parsed.message);
  checkCallbacks(options);
  const { status, state, context, version } = parsed.value;
  const leaf = turnPlan.resolve(state);
  if (options.inspect === undefined && leaf !== undefined) {
    return gameFromState({ value: leaf.path, context: structuredClone(context), status: status === 'done' || leaf.final ? 'done' : 'active' }, version, options);
  }
  const snapshot = turnMachine.resolveState({ value: stateValue(state) as never, context: structuredClone(context) });
  const restored = status === 'done' ? ({ ...snapshot, status: 'done' } as Snapshot) : snapshot;
  return new TurnGame({ snapshot: restored }, options, version);
}

export type { LegalAction } from './legal.js';
export type { NextStop } from './nextStop.js';
