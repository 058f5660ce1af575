/**
 * The reference Game on XState's interpreter (issue 15): the Game of the contract run by
 * `createActor(turnMachine)` microstep by microstep, behind the same gate as the compiled
 * runtime. The library's `createGame` never uses it (so no bundle carries it); the lockstep
 * differential tests (test/compiled.test.ts, the property harness, `npm run test:soak`) play
 * it against the compiled runtime, and `npm run bench` measures it as "engine on XState".
 * Not part of the public API.
 */
import { createActor, type Actor, type ActorScope, type AnyEventObject } from 'xstate';
import { creatingWith, register, type GameHooksRuntime } from '../machines/hooks.js';
import { turnMachine } from '../machines/turn.machine.js';
import type { Awaiting, EmittedEvent, EmittedEventType, TurnEvent, TurnView } from './contract.js';
import type { TurnContext } from './state.js';
import { gameFromState } from './compiled/game.js';
import { Emitter, Subscribers, type Listener } from './emitter.js';
import { ErrorCode, TurnEngineError, type EngineErrorInfo } from './errors.js';
import { checkCallbacks, toInput, type Game, type GameOptions, type RestoreOptions, type SendResult } from './game.js';
import { checkEvent, freshSend, guardActorSend, refusal, REENTRANT_BUSY, REENTRANT_IN_HOOK } from './gate.js';
import { callHook } from './hookAdapter.js';
import { legalActionsOf, type LegalAction } from './legal.js';
import { nextStopOf, type NextStop } from './nextStop.js';
import { PERSISTED_ENGINE, PERSISTED_VERSION, parsePersisted, statePath, stateValue, type Persisted } from './persistence.js';
import { GameOptionsSchema, describeIssue } from './schemas.js';
import { buildView, deepFreeze, viewOf } from './view.js';

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

/** A game on XState's interpreter (CONTRACT.md, "Game"). */
class TurnGame implements Game {
  readonly #actor: Actor<typeof turnMachine>;
  readonly #runtime: GameHooksRuntime;
  readonly #hooks: RestoreOptions['hooks'];
  #version: number;
  readonly #emitter = new Emitter();
  readonly #subscribers = new Subscribers();
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
    this.#subscribers.notify();
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
    return this.#subscribers.add(listener);
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

/** createGame on XState's interpreter (same options, same errors, same game). */
export function createInterpreterGame(options: GameOptions): Game {
  if (typeof options !== 'object' || options === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options: must be an object');
  const parsed = GameOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, describeIssue(parsed.error, 'options'));
  checkCallbacks(options);
  return new TurnGame({ input: toInput(parsed.data as GameOptions) }, options, 0);
}

/** restoreGame on XState's interpreter (same validation, same errors). */
export function restoreInterpreterGame(persisted: unknown, options: RestoreOptions = {}): Game {
  const parsed = parsePersisted(persisted);
  if (!parsed.ok) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, parsed.message);
  checkCallbacks(options);
  const { status, state, context, version } = parsed.value;
  const snapshot = turnMachine.resolveState({ value: stateValue(state) as never, context: structuredClone(context) });
  return new TurnGame({ snapshot: status === 'done' ? ({ ...snapshot, status: 'done' } as Snapshot) : snapshot }, options, version);
}
