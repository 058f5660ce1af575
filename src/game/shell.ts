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
 *
 * Beside it: the pure parts of a send (./sendSteps.ts), the hooks around one (./sendHooks.ts),
 * what the XState bridge may read and do (./access.ts) and the key of the view's changes
 * (./viewKey.ts).
 */
import type { GameHooksRuntime } from '../../machines/hooks.js';
import type { Deadline, EmittedEvent, EmittedEventType, SeatEvent, SeatOptions, TurnView } from '../contract.js';
import { Emitter, Subscribers, copyEvent, type Listener } from '../emitter.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { ForkOptions, Game, Recording, RestoreOptions, SendResult } from './types.js';
import { REENTRANT_BUSY, REENTRANT_IN_HOOK, refusal, type Refusal } from '../gate.js';
import { hookRuntime } from '../hookAdapter.js';
import { OwnedStacks } from './ownedStacks.js';
import type { LegalAction } from '../legal.js';
import { NEXT_STOPS, type NextStop } from '../nextStop.js';
import type { Persisted } from '../persistence/format.js';
import { compactPersisted } from '../persistence/compact.js';
import { deepFreeze } from '../view.js';
import { LAST_INPUT, Recorder, type RecordingBase } from '../recording/recorder.js';
import type { RecordedInput } from '../recording/format.js';
import { newTape, tapeOf, type HookTape } from '../recording/tape.js';
import { seatEvent, seatView, viewerKey, viewerOf, type Viewer } from '../seats.js';
import { gatedStep, isRefusal, type ContextOrder, type Stepped, type TurnLogic } from './logic.js';
import type { TimedTurn, TimeState } from '../table/time.js';
import { NO_MODULES, type Modules, type TableModule } from './module.js';
import { sendAt } from './at.js';
import { partOf, type CardsPart, type ShellSteps } from './cardsPart.js';
import { readRestoreOptions } from './options.js';
import type { ShellAccess } from './access.js';
import { unchangedOf, VIEW_KEY } from './viewKey.js';
import { checkEvent, failed, numbered, reseeded, workOf } from './sendSteps.js';
import { settleHooks, takeLog, withUse } from './sendHooks.js';

export type { ActorBridge, ShellAccess } from './access.js';
export { VIEW_KEY, withViewChanges } from './viewKey.js';

const NO_OPTIONS: RestoreOptions = {};
/** The key under which a fork finds no turn logic of its own (it plays its original's). */
const NO_LOGIC = Symbol('mtg-turn-engine: no logic');

/** A step of the game with the time state it leaves (src/table/time.ts), when the send took the table's path. */
type Timed<S> = Stepped<S> & { readonly time?: TimeState | null };

/** The key of a game's access for the bridge: not a name hosts see on the Game. */
const ACCESS: unique symbol = Symbol.for('mtg-turn-engine: the game for its XState bridge');

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
  /** The stacks this game may pop in place (src/game/ownedStacks.ts); null when its logic does not. */
  readonly #stacks: OwnedStacks | null;
  /** The hooks' runtime (without hooks the effects behave as with none), with the stacks the game owns. */
  readonly #runtime: GameHooksRuntime | undefined;
  /** The listeners of `on` (and of the `listeners` option), made when the first is added. */
  #emitter: Emitter | null = null;
  /** Made on the first subscription: most games (forks, playouts) have none. */
  #subscribers: Subscribers | null = null;
  #frozen: TurnView | null = null;
  /** CONTRACT v3, private seats: each seat's (and the spectators') frozen view, made on request, dropped with `#frozen`. */
  #seatFrozen: Map<string, TurnView> | null = null;
  /** The state before the last accepted send, kept once {@link VIEW_KEY} was asked (undefined: nobody asks, nothing kept). */
  #before: S | null | undefined = undefined;
  /**
   * What the XState bridge reads and sets (src/game/actor.ts), made on first request (most games
   * never have an actor): it holds the bridge, once `actorOf` has asked for the actor, and `busy`.
   */
  #access: ShellAccess | null = null;
  /** CONTRACT v3, "Recordings": the tape of a recorded or replayed game (its hooks' answers), else null. */
  readonly #tape: HookTape | null;
  /** The recording of a game made with `record: true`, else null. */
  readonly #recorder: Recorder | null;
  /** CONTRACT v3, "Playing between people": the host's clock, the clocks and the seats (src/table/time.ts); null for a game that has none. */
  #time: TimeState | null;
  /** CONTRACT v4: the modules the game was given (`use`), carried on by fork. */
  readonly #modules: Modules;
  /** The table module, when given: the only way the shell reaches the clocks and the seats. */
  readonly #table: TableModule | null;
  /** CONTRACT v4, "Card games": the cards' part of a card game (src/cards/part.ts), else null. */
  readonly #part: CardsPart | null;
  /** The steps the cards' part may take in a send, made once. */
  #steps: ShellSteps | null = null;

  /**
   * A game in `state` (trusted: from the logic, a fork or a validated snapshot). With
   * `record: true` it records from here: from `base` (createGame's options, given by
   * {@link GameShell.start}), else from its persisted state.
   */
  constructor(logic: TurnLogic<S, W>, state: S, version: number, options: RestoreOptions = NO_OPTIONS, order: ContextOrder = null, seq = 0, base?: RecordingBase, time: TimeState | null = null, modules: Modules = NO_MODULES) {
    this.#logic = logic;
    this.#state = state;
    this.#version = version;
    this.#seq = seq;
    this.#time = time;
    this.#modules = modules;
    this.#table = modules.table ?? null;
    this.#order = order;
    // A card game's hooks are its definition's functions, bound to its part (its factories record it).
    const part = (this.#part = partOf(options) ?? null);
    this.#hooks = part?.hooks ?? options.hooks;
    this.#tape = tapeOf(options) ?? (options.record === true ? newTape() : null);
    const hooks = hookRuntime(this.#hooks, () => this.#version, this.#tape ?? undefined);
    // A card game's send takes several steps, any of which may refuse it: nothing is popped in place.
    this.#stacks = logic.popsOwnedStacks === true && part === null ? new OwnedStacks() : null;
    if (this.#stacks !== null) (this.#runtime = hooks ?? { inHook: false, seq: 0, calls: 0, numbers: null }).stacks = this.#stacks;
    else this.#runtime = hooks;
    this.#recorder = options.record === true ? new Recorder(withUse(base ?? { from: 'persisted', options: this.persist() }, modules), options.hooks) : null;
    if (base === undefined) this.#recorder?.started(null);
    part?.attach(this);
    if (options.listeners !== undefined) for (const [type, listener] of Object.entries(options.listeners)) if (typeof listener === 'function') this.on(type as '*', listener as Listener);
  }

  /** @internal The bridge's access to this game (src/game/actor.ts; hosts use `actorOf`). */
  [ACCESS](): ShellAccess {
    return (this.#access ??= {
      chartState: () => {
        // The actor holds the state from now on: the game owns no stack it could pop in place.
        this.#stacks?.forget();
        return this.#logic.chartState(this.#state, this.#order);
      },
      process: (raw) => this.#processForActor(raw),
      bridge: null,
      actor: null,
      busy: false,
      inHook: () => this.#runtime?.inHook === true,
      pendingVote: () => this.#logic.pendingVote?.(this.#state) ?? null,
    });
  }

  /** Starts a game: turn 1's events (or the pregame's) reach the listeners given. Throws HOOK_FAILED as createGame does. */
  static start<S, W>(logic: TurnLogic<S, W>, input: Parameters<TurnLogic<S, W>['getInitialSnapshot']>[0], options: RestoreOptions = NO_OPTIONS, base?: RecordingBase, time: TimeState | null = null, modules: Modules = NO_MODULES): GameShell<S, W> {
    let first: Stepped<S> | undefined;
    const game = new GameShell<S, W>(logic, undefined as S, 0, options, null, 0, base, null, modules);
    game.#beginSend();
    try {
      first = logic.getInitialSnapshot(input, game.#runtime);
    } catch (err) {
      game.#part?.refused();
      game.#settle(false);
      throw err instanceof TurnEngineError ? err : new TurnEngineError(ErrorCode.HOOK_FAILED, String(err));
    }
    game.#state = first.state;
    // Without clocks there is nothing to settle (no table view made for a game without time).
    game.#time = time?.clock === undefined || game.#table === null ? time : game.#table.settledTime(game.#timed(undefined), first.state, time);
    game.#seq = numbered(first.emitted, 0, game.#runtime?.numbers);
    game.#part?.committed(0, first.emitted);
    game.#recorder?.started(takeLog(game.#tape));
    game.#settle(true);
    game.#emitter?.deliver(first.emitted);
    return game;
  }

  /** The logic's state (immutable), for tests and tools. */
  get state(): S {
    // Whoever reads it may keep it: the game owns no stack it could pop in place any more (and
    // from inside a hook, with a step in progress, gets a copy of its own).
    return (this.#stacks?.stepping === true ? this.#detached() : this.#shared()).state;
  }

  /** The state to share with a fork: the game owns no stack it could pop in place any more. */
  #shared(): { state: S; order: ContextOrder } {
    this.#stacks?.forget();
    return { state: this.#state, order: this.#order };
  }

  /** The state as it was before the step in progress, with nothing shared with it: what a hook may keep (a fork). */
  #detached(): { state: S; order: ContextOrder } {
    // The persisted form shares the state's objects (persistence/compact.ts): restored from a copy of it.
    return (this.#stacks as OwnedStacks).read(() => ({ state: this.#logic.restoreSnapshot(structuredClone(this.#logic.getPersistedSnapshot(this.#state, this.#version))).state, order: this.#order }));
  }

  /** A read of the game: from inside a hook, with a step in progress, it sees the state as it was (src/game/ownedStacks.ts). */
  #read<T>(read: () => T): T {
    const stacks = this.#stacks;
    return stacks !== null && stacks.stepping ? stacks.read(read) : read();
  }

  send(raw: unknown): SendResult {
    // CONTRACT v4, "Time-outs are facts of time": a send carrying `at` at or past a deadline first
    // commits the time-outs due (a TICK at its `at`, src/table/time.ts) as an accepted step of its
    // own; the send's result carries their events before its own event's (a refusal: theirs alone).
    const tick = this.#time === null || this.#table === null || this.#access?.busy === true || this.#runtime?.inHook === true ? null : this.#table.dueTick(this.#timed(undefined), this.#state, this.#time, raw);
    if (tick === null) return this.#sendOne(raw);
    const early = this.#sendOne(tick);
    const result = this.#sendOne(raw);
    if (!early.ok) return result;
    return result.ok ? { ok: true, events: [...early.events, ...result.events] } : { ...result, events: early.events };
  }

  /** One send: gated, taken and committed, or refused with nothing changed. */
  #sendOne(raw: unknown): SendResult {
    const out = this.#process(raw);
    // Not isRefusal: a check of its own at this site sees only the steps' results and refusals (a
    // shared helper's `in` sees every shape of event the gates return, and is slow for all of them).
    if ('error' in out) {
      // A send from inside a hook or a subscriber (REENTRANT) touches nothing of the send in progress.
      if (out.error.code !== ErrorCode.REENTRANT) this.#refused();
      return out;
    }
    this.#commit(raw, out);
    this.#settle(true);
    const access = this.#access;
    if (access?.bridge != null) {
      access.busy = true;
      try {
        access.bridge.committed(raw, out.emitted);
      } finally {
        access.busy = false;
      }
    }
    return { ok: true, events: this.#deliver(out.emitted, out.state) };
  }

  /** Re-entrance, the gate and the transition; changes nothing. `fromActor`: sent to the actor, which is busy taking it. */
  #process(raw: unknown, fromActor = false): Timed<S> | Refusal {
    if (this.#runtime?.inHook === true) return refusal(ErrorCode.REENTRANT, REENTRANT_IN_HOOK);
    if (this.#access?.busy === true && !fromActor) return refusal(ErrorCode.REENTRANT, REENTRANT_BUSY);
    if (this.#part !== null) {
      // CONTRACT v4, "Card games": the part makes the send one transaction of steps, each taken by #step.
      this.#beginSend();
      return this.#part.process(raw, (this.#steps ??= {
        step: (r, from) => this.#step(r, (from as Timed<S> | undefined) ?? this.#here()),
        here: () => this.#here(),
        gate: (r) => workOf(this.#logic, this.#table, this.#state, this.#time, r),
        nextSeq: () => (this.#runtime === undefined ? this.#seq + 1 : ++(this.#runtime as { seq: number }).seq),
      })) as Timed<S> | Refusal;
    }
    // The lane (most events a game is sent) accepts without a refusal to look for, in a game without
    // time state (it declines any event with an `at`); anything else takes the gate.
    const logic = this.#logic;
    const time = this.#time;
    const table = this.#table;
    let work: W | null | undefined = (time === null || table === null) && logic.lane !== undefined ? logic.lane(this.#state, raw) : undefined;
    if (work === undefined) {
      // CONTRACT v3, "Playing between people": a game with time state, or an event about time, takes the table's path (src/table/time.ts).
      const gated = workOf(logic, table, this.#state, time, raw);
      if (isRefusal(gated)) return gated;
      work = gated;
    }
    this.#beginSend();
    return this.#step(raw, this.#here(), work);
  }

  /** The game as committed, as a step that emitted nothing. */
  #here(): Timed<S> {
    return { state: this.#state, time: this.#time, emitted: [] };
  }

  /** One event taken from `from`: gated (unless `work` is given), then the transition or the table's path. */
  #step(raw: unknown, from: Timed<S>, work?: W | null): Timed<S> | Refusal {
    const { state } = from;
    const time = from.time === undefined ? this.#time : from.time;
    const table = this.#table;
    if (work === undefined) {
      const gated = workOf(this.#logic, table, state, time, raw);
      if (isRefusal(gated)) return gated;
      work = gated;
    }
    // The stacks the game owns are popped in place only here, while no actor holds the state.
    const stacks = this.#access?.bridge == null ? this.#stacks : null;
    stacks?.open();
    try {
      if (work === null) {
        const out = table === null ? sendAt(gatedStep(this.#logic, this.#runtime), state, time, raw) : table.sendTimed(this.#timed(this.#runtime), state, time, raw);
        stacks?.close(isRefusal(out));
        return out;
      }
      // A transition refuses nothing (it throws when the hook fails): no refusal to look for.
      const out = this.#logic.transition(state, work, this.#runtime);
      stacks?.close(false);
      return out;
    } catch (err) {
      stacks?.close(true);
      return failed(err);
    }
  }

  /** The table's views of the turn: without hooks, and with the game's own (its runtime never changes; each reads the game's version when called). */
  #timedBy: (TimedTurn<S> | undefined)[] = [];

  /** What the table (src/table/time.ts) reads and does of this game's turn; `runtime`: the send's hooks (none for `check`). Made once each (issue 31: two or three a send). */
  #timed(runtime: GameHooksRuntime | undefined): TimedTurn<S> {
    return (this.#timedBy[runtime ? 1 : 0] ??= (this.#table as TableModule).timed(this.#logic, runtime, (state) => this.#logic.view(state, this.#version, this.#seq)));
  }

  /** An event sent to the actor: the same route as `send`, its delivery left to the bridge (after the actor has taken it). */
  #processForActor(raw: unknown): ReturnType<ShellAccess['process']> {
    const out = this.#process(raw, true);
    if (isRefusal(out)) {
      if (out.error.code !== ErrorCode.REENTRANT) this.#refused();
      return out;
    }
    this.#commit(raw, out);
    this.#settle(true);
    return { ok: true, emitted: out.emitted, deliver: () => void this.#deliver(out.emitted, out.state) };
  }

  #commit(raw: unknown, { state, emitted, time }: Timed<S>): void {
    if (this.#before !== undefined) this.#before = this.#state;
    this.#state = state;
    if (time !== undefined) this.#time = time;
    this.#version++;
    this.#seq = numbered(emitted, this.#seq, this.#runtime?.numbers);
    // The logic's own record of versions (undo) learns the version and seq the host sees.
    if (this.#logic.committed !== undefined) this.#state = this.#logic.committed(this.#state, this.#version, this.#seq);
    // Then the cards' part, which may persist the game as committed (its recording's snapshots).
    this.#part?.committed(this.#version, emitted);
    this.#frozen = null;
    this.#seatFrozen = null;
    this.#recorder?.sent(raw, takeLog(this.#tape), this.#version, () => this.persist());
  }

  /** A send is refused: the hooks' answers dropped, the cards' changes undone, `settled` told. */
  #refused(): void {
    takeLog(this.#tape);
    this.#part?.refused();
    this.#settle(false);
  }

  /** A send (or createGame) begins: the hook runtime numbers events from the game's `seq` and counts checkpoint calls. */
  #beginSend(): void {
    const runtime = this.#runtime;
    if (runtime === undefined) return;
    runtime.seq = this.#seq;
    runtime.calls = 0;
    runtime.numbers = null;
    if (this.#recorder !== null && this.#tape !== null) this.#tape.log = [];
  }

  /** CONTRACT v3, `hooks.settled`: once at the end of a send that called the checkpoint (./sendHooks.ts). */
  #settle(ok: boolean): void {
    settleHooks(this.#hooks, this.#runtime, ok, this.#version, this.#seq);
  }

  /** CONTRACT v3, `check(event)`: the answer `send` would give now, changing nothing and calling no hook (./sendSteps.ts). */
  check(raw: unknown): { ok: true } | Refusal {
    return this.#read(() => checkEvent(this.#logic, this.#table, this.#state, this.#time, () => this.#timed(undefined), raw));
  }

  /**
   * Listeners and subscribers of an accepted event. The host gets events nobody else holds:
   * the step's own, but copies of those the state keeps as `pending` for the next checkpoint
   * (nested parts included: `persist()` writes them), and of all once an actor emits them too.
   * Listeners get copies of their own.
   */
  #deliver(emitted: EmittedEvent[], state: S): EmittedEvent[] {
    let events = emitted;
    if (this.#access?.bridge != null) events = emitted.map((e) => copyEvent(e));
    // Most sends emit nothing: no event to copy or deliver.
    else if (emitted.length > 0) {
      const pending = this.#logic.pending(state);
      if (pending.length > 0) events = emitted.map((e) => (pending.includes(e) ? copyEvent(e) : e));
    }
    if (emitted.length > 0) this.#emitter?.deliver(emitted);
    this.#subscribers?.notify();
    return events;
  }

  view(options?: SeatOptions): TurnView {
    const view = this.#read(() => this.#logic.view(this.#state, this.#version, this.#seq));
    if (this.#time !== null && this.#table !== null) this.#table.withTimeView(view, this.#time, this.#logic.chartState(this.#state, null).context);
    return options === undefined ? view : seatView(view, this.#viewer(options, 'view'));
  }

  nextDeadline(): Deadline | null {
    const table = this.#table;
    return table === null ? null : this.#read(() => table.deadlineOf(this.#timed(undefined), this.#state, this.#time));
  }

  /**
   * `subscribe` and `getSnapshot` bound to this game, made when either is first read:
   * `useSyncExternalStore(game.subscribe, game.getSnapshot)` passes them unbound (CONTRACT
   * "Game"), and each read gives the same function. A game nobody reads them of (a simulator's
   * thousands) keeps none.
   */
  #bound: Pick<Game, 'subscribe' | 'getSnapshot'> | null = null;

  #bind(): Pick<Game, 'subscribe' | 'getSnapshot'> {
    return (this.#bound ??= { subscribe: (listener) => this.#subscribe(listener), getSnapshot: (options) => this.#getSnapshot(options) });
  }

  /** The view, frozen: the same object until the next accepted event (bound to this game). */
  get getSnapshot(): (options?: SeatOptions) => TurnView {
    return this.#bind().getSnapshot;
  }

  /** Calls `listener` after each accepted event; returns the unsubscribe function (bound to this game). */
  get subscribe(): (listener: () => void) => () => void {
    return this.#bind().subscribe;
  }

  #getSnapshot(options?: SeatOptions): TurnView {
    const full = (this.#frozen ??= deepFreeze(this.view()));
    if (options === undefined) return full;
    // A seat's snapshot shares the host's frozen parts; only its private records are its own.
    const viewer = this.#viewer(options, 'getSnapshot');
    const frozen = (this.#seatFrozen ??= new Map());
    const key = viewerKey(viewer);
    let seen = frozen.get(key);
    if (seen === undefined) frozen.set(key, (seen = deepFreeze(seatView({ ...full }, viewer))));
    return seen;
  }

  /** CONTRACT v3, private seats: who `options` say looks (a seat is any player the game began with); throws INVALID_OPTIONS. */
  #viewer(options: unknown, method: string): Viewer {
    return viewerOf(options, this.#logic.chartState(this.#state, null).context.seats, method);
  }

  #subscribe(listener: () => void): () => void {
    return (this.#subscribers ??= new Subscribers()).add(listener);
  }

  legalActions(player?: string): LegalAction[] {
    const actions = this.#read(() => this.#logic.legalActions(this.#state, player));
    // CONTRACT v4: no undo request while another player in the game is away.
    const time = this.#time;
    const table = this.#table;
    if (time?.seats === undefined || table === null) return actions;
    const ctx = this.#logic.chartState(this.#state, null).context;
    return actions.filter((a) => a.type !== 'UNDO' || table.awayOther(time, ctx, a.player) === null);
  }

  nextStop(player?: string): NextStop | null {
    // CONTRACT v3: nextStop calls no hook but hooks.autoPass (neither recorded nor replayed: the tape's look ahead).
    const ask = this.#tape === null ? this.#runtime?.autoPass : this.#tape.lookAhead;
    return this.#read(() => this.#logic.nextStop(this.#state, player, ask === undefined ? undefined : { inHook: false, seq: 0, calls: 0, numbers: null, autoPass: ask }));
  }

  /** @internal `nextStop` of each of `players` from one look ahead (src/nextStop.ts `nextStopsOver`): the same answers as one call each. */
  [NEXT_STOPS](players: readonly string[]): Record<string, NextStop | null> {
    const ask = this.#tape === null ? this.#runtime?.autoPass : this.#tape.lookAhead;
    const runtime = ask === undefined ? undefined : { inHook: false, seq: 0, calls: 0, numbers: null, autoPass: ask };
    const logic = this.#logic;
    if (logic.nextStops === undefined || players.length < 2) return Object.fromEntries(players.map((p) => [p, this.nextStop(p)]));
    return this.#read(() => (logic.nextStops as NonNullable<typeof logic.nextStops>)(this.#state, players, runtime));
  }

  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void;
  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? SeatEvent : Extract<SeatEvent, { type: K }>>, options?: SeatOptions): () => void;
  on(type: EmittedEventType | '*', listener: Listener<never>, options?: SeatOptions): () => void {
    if (options === undefined) return (this.#emitter ??= new Emitter()).on(type, listener as Listener);
    // CONTRACT v3, private seats: the emitter hands each listener its own copy, which the seat's filter may change.
    const viewer = this.#viewer(options, 'on');
    const seat = listener as Listener<SeatEvent>;
    return (this.#emitter ??= new Emitter()).on(type, (e) => seat(seatEvent(e, viewer)));
  }

  persist(): Persisted {
    // The full form shares the state's objects: its compact form is copied (persistence/compact.ts).
    const persisted = this.#read(() => structuredClone(compactPersisted(this.#logic.getPersistedSnapshot(this.#state, this.#version), this.#seq)));
    // CONTRACT v3: only a game with time state persists it (every other game's JSON is as before).
    if (this.#time !== null) persisted.time = structuredClone(this.#time);
    return persisted;
  }

  /** @internal The view fields the last accepted send left unchanged (src/viewChanges.ts); null the first time it is asked, or when not known. */
  [VIEW_KEY](): ReadonlySet<keyof TurnView> | null {
    const before = this.#before;
    if (before === undefined) this.#before = null;
    if (before === undefined || before === null || unchangedOf === null) return null;
    return unchangedOf(this.#logic.chartState(before, null).context, this.#logic.chartState(this.#state, null).context);
  }

  /** @internal The input of the send just accepted (or of the start), null without `record` (src/server writes it to its store). */
  [LAST_INPUT](): Readonly<RecordedInput> | null {
    return this.#recorder?.last() ?? null;
  }

  recording(): Recording {
    if (this.#recorder === null) {
      throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.record: this game keeps no recording (createGame or restoreGame with record: true)');
    }
    return this.#recorder.recording();
  }

  fork(options?: ForkOptions): GameShell<S, W> {
    // The fork shares the state: neither game owns a stack it could pop in place. From inside a
    // hook, with a step in progress, the fork gets a copy of the state as it was.
    const shared = this.#stacks?.stepping === true ? this.#detached() : this.#shared();
    const { order } = shared;
    let { state } = shared;
    // CONTRACT v4: the fork has the modules of this game.
    if (options === undefined) return new GameShell(this.#logic, state, this.#version, this.#hooks === undefined ? NO_OPTIONS : { hooks: this.#hooks }, order, this.#seq, undefined, this.#time, this.#modules);
    // Checked as restoreGame checks its own: a hook that is not a function, a misspelt key (INVALID_OPTIONS naming it).
    const given: ForkOptions = { ...options, ...readRestoreOptions(options, NO_LOGIC, 'fork', ['seed']) };
    // Issue 34: a new random stream, started as createGame starts the seed's (src/rules/random.ts).
    if (given.seed !== undefined) state = reseeded(this.#logic, state, given.seed);
    return new GameShell(this.#logic, state, this.#version, given.hooks === undefined && this.#hooks !== undefined ? { ...given, hooks: this.#hooks } : given, order, this.#seq, undefined, this.#time, this.#modules);
  }
}
