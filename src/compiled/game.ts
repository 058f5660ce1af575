/**
 * The Game of the contract on the compiled runtime: the same gate (schema, players, game
 * over, the legality table, re-entrance), the same chart (compiled once from `turnMachine`),
 * the same guards and effects, without an XState actor per game.
 *
 * - The state is one immutable {@link CompiledState}; `fork()` shares it with a new game (no
 *   validation, no copy), so forking costs a few objects and playouts can branch freely.
 * - The XState actor of the contract (`game.actor`) is built on first read (or at once when
 *   `inspect` is given) from the current state with `turnMachine.resolveState`; from then on
 *   every event, from `game.send` or sent to the actor directly, goes through the actor, whose
 *   logic runs the compiled step behind the same gate. Emitted events reach `actor.on` too.
 */
import { createActor, type Actor, type ActorScope, type AnyEventObject, type InspectionEvent, type Observer } from 'xstate';
import type { GameHooksRuntime } from '../../machines/hooks.js';
import { initialContext } from '../../machines/turn.effects.js';
import { turnMachine } from '../../machines/turn.machine.js';
import type { EmittedEvent, EmittedEventType, TurnEvent, TurnView } from '../contract.js';
import type { TurnContext, TurnInput } from '../state.js';
import { Emitter, Subscribers } from '../emitter.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { Game, GameOptions, Listener, RestoreOptions, SendResult } from '../game.js';
import { checkCallbacks, toInput } from '../game.js';
import { checkEvent, freshSendContext, fullGate, guardActorSend, laneEvent, refusal, REENTRANT_BUSY, REENTRANT_IN_HOOK, type Refusal } from '../gate.js';
import { cloneContext, CONTEXT_KEYS } from '../../machines/context.js';
import { hookRuntime } from '../hookAdapter.js';
import { legalActionsOf, type LegalAction } from '../legal.js';
import { nextStopBy, type NextStop } from '../nextStop.js';
import { PERSISTED_ENGINE, PERSISTED_VERSION, parsePersisted, stateValue, type Persisted, type PersistedGame } from '../persistence.js';
import { GameOptionsSchema, describeIssue } from '../schemas.js';
import { deepFreeze, viewOf, type SnapshotLike } from '../view.js';
import { compileMachine, type Plan } from './compile.js';
import { initialState, sendStep, snapshotOf, step, type CompiledState, type StepResult } from './runtime.js';

/** The turn machine, compiled once. */
export const turnPlan: Plan = compileMachine(turnMachine);

type XSnapshot = ReturnType<Actor<typeof turnMachine>['getSnapshot']>;
/** What the gate and the step made of an event: the step (accepted) or the refusal. */
type Processed = StepResult | Refusal;

/** A Game that can be forked. */
export interface ForkableGame extends Game {
  /**
   * An independent game in exactly this state, sharing its immutable state (no validation,
   * no copy). It keeps this game's hooks unless `options.hooks` is given; listeners,
   * subscribers and the actor are not carried over.
   */
  fork(options?: RestoreOptions): ForkableGame;
}

const NO_OPTIONS: RestoreOptions = {};




/** The actors' logic: the turn machine whose transitions run the compiled step of the game behind each actor. */
const bridges = new WeakMap<object, (snapshot: XSnapshot, event: AnyEventObject, scope: ActorScope<XSnapshot, TurnEvent>) => XSnapshot>();
const bridgeMachine: typeof turnMachine = Object.create(turnMachine, {
  transition: {
    value(snapshot: XSnapshot, event: AnyEventObject, scope: ActorScope<XSnapshot, TurnEvent>) {
      const bridge = bridges.get(scope.self);
      if (bridge === undefined || (typeof event?.type === 'string' && event.type.startsWith('xstate.'))) return turnMachine.transition(snapshot, event as TurnEvent, scope as never);
      return bridge(snapshot, event, scope);
    },
  },
});

/** A game on the compiled runtime (CONTRACT.md, "Game"). */
export class CompiledGame implements ForkableGame {
  #state: CompiledState;
  #version: number;
  /** Only games with a checkpoint hook need one (without a hook the effects behave as with none). */
  readonly #runtime: GameHooksRuntime | undefined;
  readonly #emitter = new Emitter();
  /** Made on the first subscription: most games (forks, playouts) have none. */
  #subscribers: Subscribers | null = null;
  #frozen: TurnView | null = null;
  /** What the gate, the view and the legal actions read of the state, made once per state. */
  #snap: SnapshotLike | null = null;
  #actor: Actor<typeof turnMachine> | null = null;
  /** The actor's own send (marking the game busy) once the actor exists. */
  #guard: ReturnType<typeof guardActorSend> | null = null;
  #hooks: RestoreOptions['hooks'];
  #sending = false;
  #outcome: Processed | null = null;
  /** The order of the context's fields as restored, when it is not that of {@link cloneContext}; what the game hands out keeps it. */
  readonly #order: readonly string[] | null;

  /** A game in `state` (trusted: from the runtime, a fork or a validated snapshot). `order`: see {@link contextOrder}. */
  constructor(state: CompiledState, version: number, options: RestoreOptions = {}, order: readonly string[] | null = null) {
    // `useSyncExternalStore(game.subscribe, game.getSnapshot)` passes them unbound (CONTRACT "Game").
    this.subscribe = this.subscribe.bind(this);
    this.getSnapshot = this.getSnapshot.bind(this);
    this.#state = state;
    this.#version = version;
    this.#order = order;
    this.#hooks = options.hooks;
    this.#runtime = hookRuntime(options.hooks?.checkpoint, () => this.#version);
    if (options.listeners !== undefined) for (const [type, listener] of Object.entries(options.listeners)) if (typeof listener === 'function') this.on(type as '*', listener as Listener);
    if (options.inspect !== undefined) this.#actor = this.#makeActor(options.inspect);
  }

  /** Starts a game from its input: turn 1's events (or the pregame's) reach the listeners given. Throws HOOK_FAILED as createGame does. */
  static start(input: TurnInput, options: RestoreOptions = {}): CompiledGame {
    const game = new CompiledGame({ value: turnPlan.start.target?.path as string, context: {} as TurnContext, status: 'active' }, 0, { ...options, inspect: undefined });
    let emitted: EmittedEvent[];
    try {
      const first = initialState(turnPlan, input, initialContext, game.#runtime);
      game.#state = first.state;
      game.#snap = null;
      emitted = first.emitted;
    } catch (err) {
      throw err instanceof TurnEngineError ? err : new TurnEngineError(ErrorCode.HOOK_FAILED, String(err));
    }
    if (options.inspect !== undefined) game.#actor = game.#makeActor(options.inspect);
    game.#flush(emitted);
    return game;
  }

  /** The compiled state (immutable). */
  get state(): CompiledState {
    return this.#state;
  }

  get actor(): Actor<typeof turnMachine> {
    return (this.#actor ??= this.#makeActor(undefined));
  }

  fork(options?: RestoreOptions): CompiledGame {
    if (options === undefined) return new CompiledGame(this.#state, this.#version, this.#hooks === undefined ? NO_OPTIONS : { hooks: this.#hooks }, this.#order);
    return new CompiledGame(this.#state, this.#version, options.hooks === undefined && this.#hooks !== undefined ? { ...options, hooks: this.#hooks } : options, this.#order);
  }

  send(raw: unknown): SendResult {
    const guard = this.#guard;
    let out: Processed;
    if (guard === null) {
      // No actor: the gate and the step (#process refuses a send from inside the hook).
      out = this.#process(raw);
    } else {
      if (this.#runtime?.inHook === true) return refusal(ErrorCode.REENTRANT, REENTRANT_IN_HOOK);
      if (guard.isBusy()) return refusal(ErrorCode.REENTRANT, REENTRANT_BUSY);
      const checked = checkEvent(this.#snapshot(), raw, false);
      if (!checked.ok) return checked;
      this.#outcome = null;
      this.#sending = true;
      try {
        guard.send(checked.event);
      } catch (err) {
        this.#outcome = refusal(ErrorCode.INVALID_EVENT, `the event could not be processed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        this.#sending = false;
      }
      out = this.#outcome ?? refusal(ErrorCode.INVALID_EVENT, 'event: expected an object with a type');
      this.#outcome = null;
    }
    if ('error' in out) return out;
    return { ok: true, events: this.#accepted(out.state, out.emitted) };
  }

  /** The gate and the compiled step; changes nothing. */
  #process(raw: unknown): Processed {
    if (this.#runtime?.inHook === true) return refusal(ErrorCode.REENTRANT, REENTRANT_IN_HOOK);
    // The lane needs no snapshot (most events take it); the full gate reads the state's tags too.
    const event = laneEvent(this.#state, raw) ?? fullGate(this.#snapshot(), raw);
    if ('error' in event) return event;
    try {
      return sendStep(turnPlan, this.#state, event, this.#runtime);
    } catch (err) {
      return { ok: false, error: err instanceof TurnEngineError ? err.toInfo() : { code: ErrorCode.HOOK_FAILED, message: `the event could not be processed: ${String(err)}` } };
    }
  }

  /** Bookkeeping of an accepted event: the state, the version, then listeners and subscribers. */
  #accepted(state: CompiledState, emitted: EmittedEvent[]): EmittedEvent[] {
    this.#commit(state);
    return this.#notify(emitted);
  }

  #commit(state: CompiledState): void {
    this.#state = state;
    this.#snap = null;
    this.#version++;
    this.#frozen = null;
  }

  #notify(emitted: EmittedEvent[], pending: readonly EmittedEvent[] = this.#state.context.pending): EmittedEvent[] {
    // The host gets events nobody else holds: the step's own, but copies of those the context
    // keeps as `pending` for the next checkpoint, and of all once an actor emits them too
    // (Object.assign: V8 copies the events' many shapes faster so than a spread). Listeners get
    // copies of their own.
    const copyAll = this.#actor !== null;
    const events = !copyAll && pending.length === 0 ? emitted : emitted.map((e) => (copyAll || pending.includes(e) ? Object.assign({}, e) : e));
    this.#flush(emitted);
    this.#subscribers?.notify();
    return events;
  }

  #flush(events: readonly EmittedEvent[]): void {
    this.#emitter.deliver(events);
  }

  #snapshot(): SnapshotLike {
    return (this.#snap ??= snapshotOf(turnPlan, this.#state));
  }

  #makeActor(inspect: Observer<InspectionEvent> | ((event: InspectionEvent) => void) | undefined): Actor<typeof turnMachine> {
    const actor = createActor(bridgeMachine, { snapshot: resolved(this.#state, this.#order), ...(inspect === undefined ? {} : { inspect }) } as unknown as Parameters<typeof createActor<typeof turnMachine>>[1]);
    bridges.set(actor, (snapshot, event, scope) => {
      const out = this.#process(event);
      if ('error' in out) {
        if (this.#sending) this.#outcome = out;
        return snapshot;
      }
      for (const e of out.emitted) scope.defer(() => scope.emit(e as never));
      if (this.#sending) {
        this.#outcome = out;
      } else {
        // Accepted through actor.send: the game's bookkeeping now, its listeners once the actor has finished.
        this.#commit(out.state);
        queueMicrotask(() => void this.#notify(out.emitted, out.state.context.pending));
      }
      return resolved(out.state, this.#order);
    });
    actor.subscribe({ error: () => undefined });
    actor.start();
    this.#guard = guardActorSend(actor, () => this.#runtime?.inHook === true);
    return actor;
  }

  view(): TurnView {
    return viewOf(this.#snapshot(), this.#version);
  }

  getSnapshot(): TurnView {
    return (this.#frozen ??= deepFreeze(this.view()));
  }

  subscribe(listener: () => void): () => void {
    return (this.#subscribers ??= new Subscribers()).add(listener);
  }

  legalActions(player?: string): LegalAction[] {
    return legalActionsOf(this.#snapshot(), player);
  }

  nextStop(player?: string): NextStop | null {
    type Node = SnapshotLike & { state: CompiledState };
    const nodeOf = (state: CompiledState): Node => snapshotOf(turnPlan, state);
    return nextStopBy<Node>(nodeOf(this.#state), player, (current, event) => {
      const ctx = freshSendContext(current.state.context);
      const next = step(turnPlan, { ...current.state, context: ctx }, event).state;
      return next.value === current.state.value && next.context === current.state.context ? null : nodeOf(next);
    });
  }

  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void {
    return this.#emitter.on(type, listener);
  }

  persist(): Persisted {
    return {
      engine: PERSISTED_ENGINE,
      format: PERSISTED_VERSION,
      version: this.#version,
      status: this.#state.status,
      state: this.#state.value,
      context: structuredClone(inOrder(this.#state.context, this.#order)),
    };
  }
}

/** The fields of the context in the order given (null: as they are). */
function inOrder(ctx: TurnContext, order: readonly string[] | null): TurnContext {
  if (order === null) return ctx;
  const from = ctx as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of order) out[key] = from[key];
  return out as unknown as TurnContext;
}

/** The order of a context's fields if it is not that of {@link cloneContext} (a context restored from JSON), else null. */
function contextOrder(ctx: TurnContext): readonly string[] | null {
  const keys = Object.keys(ctx);
  return keys.length === CONTEXT_KEYS.length && keys.every((k, i) => k === CONTEXT_KEYS[i]) ? null : keys;
}

function resolved(state: CompiledState, order: readonly string[] | null): XSnapshot {
  const s = turnMachine.resolveState({ value: stateValue(state.value) as never, context: inOrder(state.context, order) });
  return state.status === 'done' && s.status !== 'done' ? ({ ...s, status: 'done' } as XSnapshot) : s;
}

/** createGame on the compiled runtime (same options, same errors). */
export function createCompiledGame(options: GameOptions): CompiledGame {
  if (typeof options !== 'object' || options === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options: must be an object');
  const parsed = GameOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, describeIssue(parsed.error, 'options'));
  checkCallbacks(options);
  return CompiledGame.start(toInput(parsed.data as GameOptions), options);
}

/** restoreGame on the compiled runtime (same validation, same errors). */
export function restoreCompiledGame(persisted: unknown, options: RestoreOptions = {}): CompiledGame {
  const parsed = parsePersisted(persisted);
  if (!parsed.ok) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, parsed.message);
  checkCallbacks(options);
  return compiledGameOf(parsed.value, options);
}

/** A game on the compiled runtime from a validated persisted game (options already checked). */
export function compiledGameOf(persisted: PersistedGame, options: RestoreOptions): CompiledGame {
  const { status, state, context, version } = persisted;
  const leaf = turnPlan.resolve(state);
  if (leaf === undefined) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, `state: '${state}' is not a state of the turn machine`);
  return gameFromState({ value: leaf.path, context: structuredClone(context), status: status === 'done' || leaf.final ? 'done' : 'active' }, version, options);
}

/**
 * A game on the compiled runtime in `state` (trusted state: no validation), e.g. restored or
 * forked from a game on XState. Its context is copied into the runtime's field order; the
 * order it came in is kept for what the game hands out (`persist`, `actor`).
 */
export function gameFromState(state: CompiledState, version: number, options?: RestoreOptions): CompiledGame {
  return new CompiledGame({ ...state, context: cloneContext(state.context) }, version, options, contextOrder(state.context));
}
