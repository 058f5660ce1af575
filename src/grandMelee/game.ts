/**
 * The Game of the contract for Grand Melee (CR 807): the turn markers of coordinator.ts
 * behind the same gate as every game (schema, players, game over, the legality table,
 * re-entrance), each marker's turn on the compiled runtime of the turn chart.
 *
 * An event goes to the turn it is for: a player decision to the turn that awaits it from that
 * player, host events about a turn to that turn, game-wide ones to the first running turn
 * (every turn then follows), players leaving to every turn. A player with decisions in
 * several turns names the `turnMarker` (807.5b), and so does the host for a turn event that
 * fits several turns.
 */
import { createActor, fromTransition, type Actor } from 'xstate';
import { initialContext } from '../../machines/turn.effects.js';
import type { turnMachine } from '../../machines/turn.machine.js';
import type { EmittedEventType, TurnEvent, TurnView, Trigger } from '../contract.js';
import type { TurnInput } from '../state.js';
import type { GameHooksRuntime } from '../../machines/hooks.js';
import { Emitter, Subscribers } from '../emitter.js';
import { ErrorCode, TurnEngineError, type EngineErrorInfo } from '../errors.js';
import type { Game, Listener, RestoreOptions, SendResult } from '../game.js';
import { freshSendContext, REENTRANT_IN_HOOK, refusal, seatOrGameOverRefusal } from '../gate.js';
import { hookRuntime } from '../hookAdapter.js';
import { legalActionsOf, type LegalAction } from '../legal.js';
import { nextStopBy, type NextStop } from '../nextStop.js';
import { violationOf } from '../rules/legality.js';
import { initialHolders, priorityPlayers } from '../rules/grandMelee.js';
import { seatDistance } from '../rules/teams.js';
import { parseEvent } from '../schemas.js';
import { deepFreeze, awaitingOf } from '../view.js';
import { turnPlan } from '../compiled/game.js';
import { initialState, snapshotOf, step, type CompiledState } from '../compiled/runtime.js';
import { coordinate, isTakingTurn, sharedOf, tag, type Marker, type Tagged } from './coordinator.js';
import { meleeView } from './view.js';
import { PERSISTED_ENGINE, PERSISTED_VERSION, type Persisted } from '../persistence.js';

type Outcome = { ok: true; markers: Marker[]; emitted: Tagged[] } | { ok: false; error: EngineErrorInfo };
type Routed = { marker: Marker; event: TurnEvent }[];

/** Events that leave the game: every turn takes them (CR 800.4a). */
const LEAVING = new Set(['CONCEDE', 'LOSE', 'WIN', 'DRAW_GAME']);
/** Host events about the game, not a turn: the first running turn takes them and the others follow. */
const GAME_WIDE = new Set(['HAND_SIZE', 'ADD_MANA', 'SPEND_MANA', 'ADD_EFFECT', 'REMOVE_EFFECT', 'SKIP_NEXT', 'CONTROL_PLAYER', 'SET_DAY_NIGHT', 'SET_STOPS', 'ADD_EXTRA_TURN']);

function snap(m: Marker) {
  return snapshotOf(turnPlan, m.turn);
}

/** The turn marker number an event names (`turnMarker`), undefined, or a refusal. */
function namedMarker(raw: unknown, field = 'event.turnMarker'): number | undefined | EngineErrorInfo {
  const n = typeof raw === 'object' && raw !== null ? (raw as { turnMarker?: unknown }).turnMarker : undefined;
  if (n === undefined) return undefined;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : { code: ErrorCode.INVALID_EVENT, message: `${field}: must be a turn marker's number (an integer from 1)` };
}

/** A Grand Melee game (CONTRACT.md, "Game"; CR 807). */
export class GrandMeleeGame implements Game {
  #markers: Marker[];
  #version: number;
  readonly #runtime: GameHooksRuntime | undefined;
  readonly #hooks: RestoreOptions['hooks'];
  readonly #emitter = new Emitter();
  readonly #subscribers = new Subscribers();
  #frozen: TurnView | null = null;
  #actor: Actor<typeof turnMachine> | null = null;

  constructor(markers: Marker[], version: number, options: RestoreOptions = {}) {
    this.subscribe = this.subscribe.bind(this);
    this.getSnapshot = this.getSnapshot.bind(this);
    this.#markers = markers;
    this.#version = version;
    this.#hooks = options.hooks;
    this.#runtime = hookRuntime(options.hooks?.checkpoint, () => this.#version);
    if (options.listeners !== undefined) for (const [type, listener] of Object.entries(options.listeners)) if (typeof listener === 'function') this.on(type as '*', listener as Listener);
  }

  /** CR 807.4b: each marker's holder begins turn 1 at the same time, marker 1 first. */
  static start(input: TurnInput, options: RestoreOptions = {}): GrandMeleeGame {
    const game = new GrandMeleeGame([], 0, options);
    const holders = initialHolders(input.players, input.startingPlayer);
    const emitted: Tagged[] = [];
    try {
      let markers: Marker[] = holders.map((holder, i) => {
        const first = initialState(turnPlan, { ...input, startingPlayer: holder }, initialContext, game.#runtime);
        emitted.push(...tag(first.emitted, i + 1, holders.length > 1));
        return { number: i + 1, life: 'takingTurn', removals: 0, turn: first.state };
      });
      markers = coordinate(markers, sharedOf((markers[0] as Marker).turn.context), turnPlan, emitted, game.#runtime);
      game.#markers = markers;
    } catch (err) {
      throw err instanceof TurnEngineError ? err : new TurnEngineError(ErrorCode.HOOK_FAILED, String(err));
    }
    game.#emitter.deliver(emitted);
    return game;
  }

  /** The markers (immutable), for persistence and tests. */
  get markers(): readonly Marker[] {
    return this.#markers;
  }

  get actor(): Actor<typeof turnMachine> {
    if (this.#actor === null) {
      // The coordinator as one actor: events sent to it get exactly the checks of `send`; its snapshot's context is the view.
      const logic = fromTransition((_view: TurnView, event: TurnEvent) => (this.send(event), this.view()), this.view());
      const actor = createActor(logic);
      actor.start();
      this.#actor = actor as unknown as Actor<typeof turnMachine>;
    }
    return this.#actor;
  }

  send(raw: unknown): SendResult {
    const out = this.#process(raw);
    if (!out.ok) return { ok: false, error: out.error };
    this.#markers = out.markers;
    this.#version++;
    this.#frozen = null;
    const events = out.emitted.map((e) => ({ ...e }));
    this.#emitter.deliver(out.emitted);
    this.#subscribers.notify();
    return { ok: true, events };
  }

  #process(raw: unknown): Outcome {
    if (this.#runtime?.inHook === true) return refusal(ErrorCode.REENTRANT, REENTRANT_IN_HOOK);
    const parsed = parseEvent(raw);
    if (!parsed.ok) return refusal(ErrorCode.INVALID_EVENT, parsed.message);
    const event = parsed.value;
    const markers = this.#markers;
    const first = markers.find(isTakingTurn) ?? (markers[0] as Marker);
    const ctx = first.turn.context;
    const refused = seatOrGameOverRefusal(ctx, first.turn.status, event);
    if (refused !== null) return refused;
    const routed = this.#route(raw, event);
    if (!('length' in routed)) return { ok: false, error: routed };
    const emitted: Tagged[] = [];
    const many = markers.length > 1;
    let next = markers;
    try {
      for (const { marker, event: e } of routed) {
        const current = next.find((m) => m.number === marker.number) as Marker;
        const r = step(turnPlan, { ...current.turn, context: freshSendContext(current.turn.context) }, e, this.#runtime);
        emitted.push(...tag(r.emitted, marker.number, many));
        next = next.map((m) => (m === current ? { ...m, turn: r.state } : m));
      }
      next = coordinate(next, sharedOf(ctx), turnPlan, emitted, this.#runtime);
    } catch (err) {
      return { ok: false, error: err instanceof TurnEngineError ? err.toInfo() : { code: ErrorCode.HOOK_FAILED, message: `the event could not be processed: ${String(err)}` } };
    }
    return { ok: true, markers: next, emitted };
  }

  /** Which turns take an event (CR 807.5b), or why none can. */
  #route(raw: unknown, event: TurnEvent): Routed | EngineErrorInfo {
    const running = this.#markers.filter(isTakingTurn);
    const named = namedMarker(raw);
    if (typeof named === 'object') return named;
    const check = (m: Marker, e: TurnEvent) => violationOf(m.turn.context, awaitingOf(snap(m)), e);
    const illegal = (message: string, rule: string): EngineErrorInfo => ({ code: ErrorCode.ILLEGAL_ACTION, message, rule });
    if (LEAVING.has(event.type)) {
      // One turn decides who leaves (a WIN's losers depend on the range of influence, fixed as
      // that turn began, 801.2c, 801.14); the others follow it (coordinator: players who left
      // leave every turn), so every turn agrees on who is still in the game.
      const m = running[0] ?? (this.#markers[0] as Marker);
      const v = check(m, event);
      return v !== null ? illegal(v.message, v.rule) : [{ marker: m, event }];
    }
    if (named !== undefined) {
      const m = this.#markers.find((x) => x.number === named);
      if (m === undefined) return { code: ErrorCode.INVALID_EVENT, message: `event.turnMarker: there is no turn marker ${named} (markers: ${this.#markers.map((x) => x.number).join(', ')})` };
      if (!isTakingTurn(m)) return illegal(`turn marker ${named} is waiting to begin its next turn`, '807.4d');
      const v = check(m, event);
      return v !== null ? illegal(v.message, v.rule) : [{ marker: m, event }];
    }
    const firstRunning = running[0] ?? (this.#markers[0] as Marker);
    if (GAME_WIDE.has(event.type)) {
      const v = check(firstRunning, event);
      return v !== null ? illegal(v.message, v.rule) : [{ marker: firstRunning, event }];
    }
    if (event.type === 'YIELD') {
      const m = running.find((x) => x.turn.context.priority === event.player) ?? firstRunning;
      const v = check(m, event);
      return v !== null ? illegal(v.message, v.rule) : [{ marker: m, event }];
    }
    if (event.type === 'TRIGGER') return this.#routeTriggers(raw, event, running);
    const candidates = event.type === 'PUT_ON_STACK' ? this.#stacksFor(event.object.controller, running) : running;
    const fits = candidates.filter((m) => check(m, event) === null);
    if (fits.length === 1) return [{ marker: fits[0] as Marker, event }];
    if (fits.length > 1) {
      const who = 'player' in event && typeof event.player === 'string' ? `${event.player} can do this in several turns` : 'this event fits several turns';
      return illegal(`${who} (turn markers ${fits.map((m) => m.number).join(', ')}): name the turnMarker`, '807.5b');
    }
    const player = 'player' in event ? event.player : undefined;
    const best = candidates.find((m) => awaitingOf(snap(m))?.player === player) ?? candidates[0] ?? firstRunning;
    const v = check(best, event);
    return illegal(v?.message ?? 'no turn can take this event now', v?.rule ?? '807.5');
  }

  /** The running turns whose stack a player may use (807.5a), or the nearest one when none. */
  #stacksFor(player: string, running: Marker[]): Marker[] {
    const mine = running.filter((m) => priorityPlayers(m.turn.context).includes(player));
    if (mine.length > 0) return mine;
    const ctx = running[0]?.turn.context;
    if (ctx === undefined) return [];
    const near = [...running].sort((a, b) => seatDistance(ctx, player, a.turn.context.turnOwner) - seatDistance(ctx, player, b.turn.context.turnOwner));
    return near.slice(0, 1);
  }

  /** CR 807.5b: each trigger goes on the stack its entry names, or the one stack its controller may use. */
  #routeTriggers(raw: unknown, event: Extract<TurnEvent, { type: 'TRIGGER' }>, running: Marker[]): Routed | EngineErrorInfo {
    const entries = (raw as { triggers?: unknown[] }).triggers ?? [];
    const by = new Map<Marker, Trigger[]>();
    for (const [i, t] of event.triggers.entries()) {
      const named = namedMarker(entries[i], `event.triggers[${i}].turnMarker`);
      if (typeof named === 'object') return named;
      let m: Marker | undefined;
      if (named !== undefined) {
        m = running.find((x) => x.number === named);
        if (m === undefined) return { code: ErrorCode.ILLEGAL_ACTION, message: `event.triggers[${i}].turnMarker: turn marker ${named} is not taking a turn`, rule: '807.5b' };
      } else {
        const stacks = this.#stacksFor(t.controller, running);
        if (stacks.length > 1) return { code: ErrorCode.ILLEGAL_ACTION, message: `trigger ${t.id}: ${t.controller} has priority for several stacks (turn markers ${stacks.map((x) => x.number).join(', ')}): name its turnMarker`, rule: '807.5b' };
        m = stacks[0];
      }
      if (m === undefined) return { code: ErrorCode.ILLEGAL_ACTION, message: 'no turn is running', rule: '807.5' };
      by.set(m, [...(by.get(m) ?? []), t]);
    }
    const routed: Routed = [];
    for (const [marker, triggers] of by) {
      const e: TurnEvent = { type: 'TRIGGER', triggers };
      const v = violationOf(marker.turn.context, awaitingOf(snap(marker)), e);
      if (v !== null) return { code: ErrorCode.ILLEGAL_ACTION, message: v.message, rule: v.rule };
      routed.push({ marker, event: e });
    }
    return routed;
  }

  view(): TurnView {
    return meleeView(this.#markers, this.#version);
  }

  getSnapshot(): TurnView {
    return (this.#frozen ??= deepFreeze(this.view()));
  }

  subscribe(listener: () => void): () => void {
    return this.#subscribers.add(listener);
  }

  /** Every decision in every running turn; with several markers each names its `turnMarker` (807.5b). */
  legalActions(player?: string): LegalAction[] {
    const first = this.#markers[0] as Marker;
    if (first.turn.status !== 'active' || first.turn.context.result !== null) return [];
    const many = this.#markers.length > 1;
    const out: LegalAction[] = [];
    for (const p of first.turn.context.players) {
      if (player !== undefined && p !== player) continue;
      for (const m of this.#markers) {
        if (!isTakingTurn(m)) continue;
        for (const a of legalActionsOf(snap(m), p)) if (a.type !== 'CONCEDE') out.push(many ? ({ ...a, turnMarker: m.number } as LegalAction) : a);
      }
      out.push({ type: 'CONCEDE', player: p, choose: [] });
    }
    return out;
  }

  /** Per turn marker: the first running turn (lowest number) in which that player (or anyone) is next asked, within that turn; with its `turnMarker`. */
  nextStop(player?: string): NextStop | null {
    type Node = ReturnType<typeof snapshotOf> & { state: CompiledState };
    const nodeOf = (state: CompiledState): Node => snapshotOf(turnPlan, state);
    for (const m of this.#markers) {
      if (!isTakingTurn(m)) continue;
      const found = nextStopBy<Node>(nodeOf(m.turn), player, (current, event) => {
        const next = step(turnPlan, { ...current.state, context: freshSendContext(current.state.context) }, event).state;
        return next.value === current.state.value && next.context === current.state.context ? null : nodeOf(next);
      });
      if (found !== null) return this.#markers.length > 1 ? { ...found, turnMarker: m.number } : found;
    }
    return null;
  }

  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? Tagged : Extract<Tagged, { type: K }>>): () => void {
    return this.#emitter.on(type, listener as never);
  }

  fork(options?: RestoreOptions): Game {
    return new GrandMeleeGame(this.#markers, this.#version, { ...options, hooks: options?.hooks ?? this.#hooks });
  }

  persist(): Persisted {
    const first = this.#markers[0] as Marker;
    return {
      engine: PERSISTED_ENGINE,
      format: PERSISTED_VERSION,
      version: this.#version,
      status: first.turn.status,
      state: first.turn.value,
      context: structuredClone(first.turn.context),
      markers: this.#markers.map((m) => ({ number: m.number, life: m.life, removals: m.removals, state: m.turn.value, context: structuredClone(m.turn.context) })),
    };
  }
}
