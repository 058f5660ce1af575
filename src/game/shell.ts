/**
 * The Game of the contract, written once (CONTRACT.md, "Game"): a {@link GameShell} runs a
 * game over any {@link TurnLogic}. It keeps the version, the listeners and subscribers, the
 * frozen snapshot, the hooks runtime and re-entrance; the logic decides what a turn is.
 *
 * The data path: `send(raw)` -> re-entrance -> `logic.gate(state, raw)` (every event gated
 * once) -> `logic.transition` (the hook runs inside) -> commit (state, version, the frozen view
 * dropped) -> the XState actor, if anyone asked for it (src/game/actor.ts), sees the new
 * snapshot -> listeners and subscribers. An event sent to the actor directly takes the same
 * route: the actor's logic calls {@link GameShell.process}.
 */
import type { GameHooksRuntime } from '../../machines/hooks.js';
import type { EmittedEvent, EmittedEventType, TurnView } from '../contract.js';
import { Emitter, Subscribers, type Listener } from '../emitter.js';
import { describeThrown, ErrorCode, TurnEngineError } from '../errors.js';
import type { Game, RestoreOptions, SendResult } from './types.js';
import { REENTRANT_BUSY, REENTRANT_IN_HOOK, refusal, type Refusal } from '../gate.js';
import { hookRuntime } from '../hookAdapter.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';
import type { Persisted } from '../persistence/format.js';
import { compactPersisted } from '../persistence/compact.js';
import { deepFreeze } from '../view.js';
import { isRefusal, type ChartState, type ContextOrder, type Stepped, type TurnLogic } from './logic.js';

const NO_OPTIONS: RestoreOptions = {};

/** What the XState bridge (src/game/actor.ts) is told of the game: accepted events as they commit. */
export interface ActorBridge {
  /** An event was accepted and committed: the actor takes it with what it emitted. */
  committed(event: unknown, emitted: readonly EmittedEvent[]): void;
}

/** What the bridge may read and do (src/game/actor.ts). */
export interface ShellAccess {
  /** The chart's state now, as the actor shows it. */
  chartState(): ChartState;
  /** Gates and performs an event sent to the actor; commits it without telling the bridge, and delivers it when `deliver` is called. */
  process(raw: unknown): { ok: true; emitted: EmittedEvent[]; deliver(): void } | Refusal;
  /** The bridge, made once. */
  bridge: ActorBridge | null;
  /** The actor object the bridge made (the same for the life of the game). */
  actor: unknown;
  /** True while the bridge is telling the actor (its subscribers and inspectors may not send). */
  busy: boolean;
  /** Whether a send from here would be from inside the checkpoint hook. */
  inHook(): boolean;
}

/**
 * Numbers the events a send emitted, in order, after `seq` (CONTRACT v3): those the checkpoint
 * already numbered (it hands them out in `pending`) keep their numbers. Returns the last.
 */
function numbered(emitted: readonly EmittedEvent[], seq: number, numbers: ReadonlyMap<EmittedEvent, number> | null | undefined): number {
  let last = seq;
  for (const e of emitted) {
    if (e.seq === undefined) e.seq = numbers?.get(e) ?? last + 1;
    if (e.seq > last) last = e.seq;
  }
  return last;
}

/** The key of a game's access for the bridge: not a name hosts see on the Game. */
const ACCESS: unique symbol = Symbol('mtg-turn-engine: the game for its XState bridge');

/** The access of a game made by createGame / restoreGame / fork (made on first request), or undefined for anything else. */
export function shellAccess(game: unknown): ShellAccess | undefined {
  return game instanceof GameShell ? game[ACCESS]() : undefined;
}

/** A game over a turn logic (CONTRACT.md, "Game"). */
export class GameShell<S, W> implements Game {
  readonly #logic: TurnLogic<S, W>;
  #state: S;
  #version: number;
  /** The `seq` of the last event emitted (CONTRACT v3: persisted, continued by restoreGame and forks). */
  #seq: number;
  /** The order of the context's fields as restored, when it is not the engine's; what the game hands out keeps it. */
  readonly #order: ContextOrder;
  readonly #hooks: RestoreOptions['hooks'];
  /** Only games with a checkpoint hook need one (without a hook the effects behave as with none). */
  readonly #runtime: GameHooksRuntime | undefined;
  readonly #emitter = new Emitter();
  /** Made on the first subscription: most games (forks, playouts) have none. */
  #subscribers: Subscribers | null = null;
  #frozen: TurnView | null = null;
  /** The XState bridge, once `actorOf` has asked for the actor (src/game/actor.ts). */
  #bridge: ActorBridge | null = null;
  #actor: unknown = null;
  /** True while the bridge tells the actor of an event: its subscribers and inspectors may not send. */
  #busy = false;
  /** What the bridge reads and sets, made on first request (most games never have an actor). */
  #access: ShellAccess | null = null;

  /** A game in `state` (trusted: from the logic, a fork or a validated snapshot). */
  constructor(logic: TurnLogic<S, W>, state: S, version: number, options: RestoreOptions = NO_OPTIONS, order: ContextOrder = null, seq = 0) {
    // `useSyncExternalStore(game.subscribe, game.getSnapshot)` passes them unbound (CONTRACT "Game").
    this.subscribe = this.subscribe.bind(this);
    this.getSnapshot = this.getSnapshot.bind(this);
    this.#logic = logic;
    this.#state = state;
    this.#version = version;
    this.#seq = seq;
    this.#order = order;
    this.#hooks = options.hooks;
    this.#runtime = hookRuntime(options.hooks, () => this.#version);
    if (options.listeners !== undefined) for (const [type, listener] of Object.entries(options.listeners)) if (typeof listener === 'function') this.on(type as '*', listener as Listener);
  }

  /** @internal The bridge's access to this game (src/game/actor.ts; hosts use `actorOf`). */
  [ACCESS](): ShellAccess {
    if (this.#access !== null) return this.#access;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the accessors below read and set this game's private fields
    const game = this;
    return (this.#access = {
      chartState: () => game.#logic.chartState(game.#state, game.#order),
      process: (raw) => game.#processForActor(raw),
      get bridge() {
        return game.#bridge;
      },
      set bridge(bridge) {
        game.#bridge = bridge;
      },
      get actor() {
        return game.#actor;
      },
      set actor(actor) {
        game.#actor = actor;
      },
      get busy() {
        return game.#busy;
      },
      set busy(busy) {
        game.#busy = busy;
      },
      inHook: () => game.#runtime?.inHook === true,
    });
  }

  /** Starts a game: turn 1's events (or the pregame's) reach the listeners given. Throws HOOK_FAILED as createGame does. */
  static start<S, W>(logic: TurnLogic<S, W>, input: Parameters<TurnLogic<S, W>['getInitialSnapshot']>[0], options: RestoreOptions = NO_OPTIONS): GameShell<S, W> {
    let first: Stepped<S> | undefined;
    const game = new GameShell<S, W>(logic, undefined as S, 0, options);
    game.#beginSend();
    try {
      first = logic.getInitialSnapshot(input, game.#runtime);
    } catch (err) {
      game.#settle(false);
      throw err instanceof TurnEngineError ? err : new TurnEngineError(ErrorCode.HOOK_FAILED, String(err));
    }
    game.#state = first.state;
    game.#seq = numbered(first.emitted, 0, game.#runtime?.numbers);
    game.#settle(true);
    game.#emitter.deliver(first.emitted);
    return game;
  }

  /** The logic's state (immutable), for tests and tools. */
  get state(): S {
    return this.#state;
  }

  send(raw: unknown): SendResult {
    const out = this.#process(raw);
    if (isRefusal(out)) {
      this.#settle(false);
      return out;
    }
    this.#commit(out.state, out.emitted);
    this.#settle(true);
    const bridge = this.#bridge;
    if (bridge !== null) {
      this.#busy = true;
      try {
        bridge.committed(raw, out.emitted);
      } finally {
        this.#busy = false;
      }
    }
    return { ok: true, events: this.#deliver(out.emitted, out.state) };
  }

  /** Re-entrance, the gate and the transition; changes nothing. `fromActor`: sent to the actor, which is busy taking it. */
  #process(raw: unknown, fromActor = false): Stepped<S> | Refusal {
    if (this.#runtime?.inHook === true) return refusal(ErrorCode.REENTRANT, REENTRANT_IN_HOOK);
    if (this.#busy && !fromActor) return refusal(ErrorCode.REENTRANT, REENTRANT_BUSY);
    const work = this.#logic.gate(this.#state, raw);
    if (isRefusal(work)) return work;
    this.#beginSend();
    try {
      return this.#logic.transition(this.#state, work, this.#runtime);
    } catch (err) {
      return { ok: false, error: err instanceof TurnEngineError ? err.toInfo() : { code: ErrorCode.HOOK_FAILED, message: `the event could not be processed: ${String(err)}` } };
    }
  }

  /** An event sent to the actor: the same route as `send`, its delivery left to the bridge (after the actor has taken it). */
  #processForActor(raw: unknown): ReturnType<ShellAccess['process']> {
    const out = this.#process(raw, true);
    if (isRefusal(out)) {
      this.#settle(false);
      return out;
    }
    this.#commit(out.state, out.emitted);
    this.#settle(true);
    return { ok: true, emitted: out.emitted, deliver: () => void this.#deliver(out.emitted, out.state) };
  }

  #commit(state: S, emitted: EmittedEvent[]): void {
    this.#state = state;
    this.#version++;
    this.#seq = numbered(emitted, this.#seq, this.#runtime?.numbers);
    this.#frozen = null;
  }

  /** A send (or createGame) begins: the hook runtime numbers events from the game's `seq` and counts checkpoint calls. */
  #beginSend(): void {
    const runtime = this.#runtime;
    if (runtime === undefined) return;
    runtime.seq = this.#seq;
    runtime.calls = 0;
    runtime.numbers = null;
  }

  /** CONTRACT v3, `hooks.settled`: once at the end of a send that called the checkpoint; a throw is reported, never raised. */
  #settle(ok: boolean): void {
    const settled = this.#hooks?.settled;
    const runtime = this.#runtime;
    if (settled === undefined || runtime === undefined || runtime.calls === 0) return;
    runtime.calls = 0;
    try {
      settled({ ok, version: this.#version, seq: this.#seq });
    } catch (err) {
      console.error(`mtg-turn-engine: hooks.settled threw (ignored): ${describeThrown(err)}`);
    }
  }

  /** CONTRACT v3, `check(event)`: the answer `send` would give now, changing nothing and calling no hook. */
  check(raw: unknown): { ok: true } | Refusal {
    const work = this.#logic.gate(this.#state, raw);
    if (isRefusal(work)) return work;
    try {
      this.#logic.transition(this.#state, work, undefined);
    } catch (err) {
      return { ok: false, error: err instanceof TurnEngineError ? err.toInfo() : { code: ErrorCode.HOOK_FAILED, message: `the event could not be processed: ${String(err)}` } };
    }
    return { ok: true };
  }

  /**
   * Listeners and subscribers of an accepted event. The host gets events nobody else holds:
   * the step's own, but copies of those the state keeps as `pending` for the next checkpoint,
   * and of all once an actor emits them too (Object.assign: V8 copies the events' many shapes
   * faster so than a spread). Listeners get copies of their own.
   */
  #deliver(emitted: EmittedEvent[], state: S): EmittedEvent[] {
    const pending = this.#logic.pending(state);
    const copyAll = this.#bridge !== null;
    const events = !copyAll && pending.length === 0 ? emitted : emitted.map((e) => (copyAll || pending.includes(e) ? Object.assign({}, e) : e));
    this.#emitter.deliver(emitted);
    this.#subscribers?.notify();
    return events;
  }

  view(): TurnView {
    return this.#logic.view(this.#state, this.#version, this.#seq);
  }

  getSnapshot(): TurnView {
    return (this.#frozen ??= deepFreeze(this.view()));
  }

  subscribe(listener: () => void): () => void {
    return (this.#subscribers ??= new Subscribers()).add(listener);
  }

  legalActions(player?: string): LegalAction[] {
    return this.#logic.legalActions(this.#state, player);
  }

  nextStop(player?: string): NextStop | null {
    // CONTRACT v3: nextStop calls no hook but hooks.autoPass.
    const ask = this.#runtime?.autoPass;
    return this.#logic.nextStop(this.#state, player, ask === undefined ? undefined : { inHook: false, seq: 0, calls: 0, numbers: null, autoPass: ask });
  }

  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void {
    return this.#emitter.on(type, listener);
  }

  persist(): Persisted {
    // The full form shares the state's objects: its compact form is copied (persistence/compact.ts).
    return structuredClone(compactPersisted(this.#logic.getPersistedSnapshot(this.#state, this.#version), this.#seq));
  }

  fork(options?: RestoreOptions): GameShell<S, W> {
    if (options === undefined) return new GameShell(this.#logic, this.#state, this.#version, this.#hooks === undefined ? NO_OPTIONS : { hooks: this.#hooks }, this.#order, this.#seq);
    return new GameShell(this.#logic, this.#state, this.#version, options.hooks === undefined && this.#hooks !== undefined ? { ...options, hooks: this.#hooks } : options, this.#order, this.#seq);
  }
}
