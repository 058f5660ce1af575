/**
 * createGame / restoreGame: the actor behind the contract. Validates every input at the
 * boundary, refuses without changing anything, and delivers emitted events only for
 * accepted events.
 */
import { createActor, type Actor, type InspectionEvent, type Observer, type StateValue } from 'xstate';
import { creatingWith } from '../machines/hooks.js';
import { turnMachine } from '../machines/turn.machine.js';
import type { Attacker, EmittedEvent, EmittedEventType, GameHooks, RulesProfile, Trigger, TurnEvent, TurnView } from '../machines/turn.types.js';
import { ErrorCode, TurnEngineError, type EngineErrorInfo } from './errors.js';
import { PERSISTED_ENGINE, PERSISTED_VERSION, parsePersisted, statePath, stateValue, type PersistedGame } from './persistence.js';
import { explainRefusal } from './refusals.js';
import { sorceryTimingViolation, landViolation } from './rules/timing.js';
import { EVENT_TYPES, GameOptionsSchema, describeIssue, parseEvent } from './schemas.js';
import { awaitingOf, viewOf } from './view.js';

/** Options of {@link createGame}. */
export interface GameOptions {
  /** 2 to 8 unique, non-empty player ids, in turn order. */
  players: string[];
  /** Who takes turn 1 (default: `players[0]`). */
  startingPlayer?: string;
  /** 'current' (default) or 'classic' (before July 2009: mana burn, combat damage on the stack). */
  rules?: RulesProfile;
  /** Cleanup discards down to this (default 7). */
  maxHandSize?: number;
  /** Every player's hand size when the game starts (default 7). */
  handSize?: number;
  /** Host callbacks (the checkpoint hook). */
  hooks?: GameHooks;
  /** An XState inspection observer (e.g. from `@statelyai/inspect`), passed to the actor. */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}

/** Options of {@link restoreGame}: hooks are not persisted, so they are passed again. */
export type RestoreOptions = Pick<GameOptions, 'hooks' | 'inspect'>;

/** What `send` returns. */
export type SendResult = { ok: true } | { ok: false; error: EngineErrorInfo };

/** An event template from `legalActions`: the type and player, plus what the rules fix. */
export interface LegalAction {
  type: TurnEvent['type'];
  player: string;
  speed?: 'sorcery' | 'instant';
  count?: number;
  /** Declarations come with an empty list: sendable as they are (no attackers / no blockers). */
  attackers?: [];
  blockers?: [];
}

/** A listener of emitted events. */
export type Listener<T extends EmittedEvent = EmittedEvent> = (event: T) => void;

/** A running game (CONTRACT.md, "Game"). */
export interface Game {
  /** Sends an event. Never throws; on `ok: false` nothing changed. */
  send(event: unknown): SendResult;
  /** A fresh TurnView. */
  view(): TurnView;
  /** The events that would be accepted now from one player, or from every player. */
  legalActions(player?: string): LegalAction[];
  /** Subscribes to emitted events (`'*'` for all); returns the unsubscribe function. */
  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void;
  /** A JSON-serialisable copy of the game, for {@link restoreGame}. */
  persist(): PersistedGame;
  /** The XState actor running the turn machine, for inspection tools. */
  readonly actor: Actor<typeof turnMachine>;
}

type Snapshot = ReturnType<Actor<typeof turnMachine>['getSnapshot']>;

function refuse(code: EngineErrorInfo['code'], message: string, rule?: string): SendResult {
  return { ok: false, error: rule === undefined ? { code, message } : { code, message, rule } };
}

/** The first player id an event names that is not a seat of the game, as a refusal message (CONTRACT: INVALID_EVENT). */
function unknownPlayer(event: TurnEvent, seats: readonly string[]): string | null {
  const bad = (field: string, id: string) => `event.${field}: '${id}' is not a player of this game`;
  if ('player' in event && !seats.includes(event.player)) return bad('player', event.player);
  if (event.type === 'DECLARE_ATTACKERS') {
    const i = event.attackers.findIndex((a) => !seats.includes(a.defender));
    if (i >= 0) return bad(`attackers[${i}].defender`, (event.attackers[i] as Attacker).defender);
  }
  if (event.type === 'TRIGGER') {
    const i = event.triggers.findIndex((t) => !seats.includes(t.controller));
    if (i >= 0) return bad(`triggers[${i}].controller`, (event.triggers[i] as Trigger).controller);
  }
  return null;
}

class TurnGame implements Game {
  #actor!: Actor<typeof turnMachine>;
  readonly #hooks: GameHooks | undefined;
  readonly #inspect: GameOptions['inspect'];
  /** Listeners by emitted event type; created with the first listener (most games have none). */
  #listeners: Map<string, Set<Listener>> | null = null;
  #outbox: EmittedEvent[] = [];
  /** Accepted events' emitted events not yet delivered: a listener that sends gets its events delivered after the current ones. */
  readonly #deliveries: EmittedEvent[] = [];
  #delivering = false;
  /** True while the actor processes an event: the checkpoint hook runs then, and must not send. */
  #processing = false;
  #failure: unknown = undefined;

  constructor(start: { input: ReturnType<typeof toInput> } | { snapshot: Snapshot }, hooks: GameHooks | undefined, inspect: GameOptions['inspect']) {
    this.#hooks = hooks;
    this.#inspect = inspect;
    this.#boot(start);
    if (this.#failure !== undefined) {
      const err = this.#failure;
      throw err instanceof TurnEngineError ? err : new TurnEngineError(ErrorCode.HOOK_FAILED, String(err));
    }
    this.#outbox = [];
  }

  /** Creates and starts the actor; errors thrown by actions land in #failure. */
  #boot(start: { input: ReturnType<typeof toInput> } | { snapshot: Snapshot }): void {
    const options = { ...start, ...(this.#inspect === undefined ? {} : { inspect: this.#inspect }) };
    const actor = creatingWith(this.#hooks, () => createActor(turnMachine, options as Parameters<typeof createActor<typeof turnMachine>>[1]));
    actor.on('*', (e) => this.#outbox.push(e));
    actor.subscribe({ error: (err) => (this.#failure = err) });
    this.#failure = undefined;
    this.#actor = actor;
    actor.start();
  }

  get actor(): Actor<typeof turnMachine> {
    return this.#actor;
  }

  send(raw: unknown): SendResult {
    if (this.#processing) {
      return refuse(
        ErrorCode.HOOK_FAILED,
        'send was called while the game was processing another event (from the checkpoint hook); report triggers and state-based actions in the hook\'s result instead',
      );
    }
    try {
      return this.#send(raw);
    } catch (err) {
      // Only a bug in the engine can get here; report it rather than throw.
      return refuse(ErrorCode.INVALID_EVENT, `the event could not be processed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  #send(raw: unknown): SendResult {
    const parsed = parseEvent(raw);
    if (!parsed.success) {
      const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
      if (typeof raw !== 'object' || raw === null) return refuse(ErrorCode.INVALID_EVENT, `event: expected an object with a type, got ${raw === null ? 'null' : typeof raw}`);
      if (typeof type !== 'string' || !(EVENT_TYPES as string[]).includes(type)) {
        const got = typeof type === 'string' && type.length > 40 ? `a string of ${type.length} characters` : (JSON.stringify(type) ?? 'undefined');
        return refuse(ErrorCode.INVALID_EVENT, `event.type: must be one of ${EVENT_TYPES.join(', ')}; got ${got}`);
      }
      return refuse(ErrorCode.INVALID_EVENT, `${type}: ${describeIssue(parsed.error, 'event')}`);
    }
    const event = parsed.data as TurnEvent;
    const before = this.#actor.getSnapshot();
    const unknown = unknownPlayer(event, before.context.seats);
    if (unknown !== null) return refuse(ErrorCode.INVALID_EVENT, unknown);
    if (before.status !== 'active') return refuse(ErrorCode.GAME_OVER, `the game is over (winners: ${before.context.winners?.join(', ') ?? 'none'})`);
    this.#outbox.length = 0;
    this.#processing = true;
    try {
      this.#actor.send(event);
    } finally {
      this.#processing = false;
    }
    if (this.#failure !== undefined) {
      const err = this.#failure;
      this.#outbox = [];
      this.#boot({ snapshot: before });
      const info = err instanceof TurnEngineError ? err.toInfo() : { code: ErrorCode.HOOK_FAILED, message: String(err) };
      return { ok: false, error: info };
    }
    const after = this.#actor.getSnapshot();
    if (after === before) return { ok: false, error: explainRefusal(before.context, awaitingOf(before), event) };
    this.#flush();
    return { ok: true };
  }

  /**
   * Delivers what the accepted event emitted; a throwing listener does not stop the others.
   * Events of an event a listener sends are queued behind the ones being delivered, so every
   * listener sees all events in the order they happened.
   */
  #flush(): void {
    const listeners = this.#listeners;
    if (listeners === null || listeners.size === 0) {
      this.#outbox.length = 0;
      return;
    }
    const events = this.#outbox;
    this.#outbox = [];
    this.#deliveries.push(...events);
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let e = this.#deliveries.shift(); e !== undefined; e = this.#deliveries.shift()) this.#deliver(e);
    } finally {
      this.#delivering = false;
    }
  }

  #deliver(e: EmittedEvent): void {
    for (const key of [e.type, '*']) {
      const set = this.#listeners?.get(key);
      if (set === undefined) continue;
      for (const listener of [...set]) {
        try {
          listener(e);
        } catch {
          // A host listener's failure is the host's; the engine goes on.
        }
      }
    }
  }

  view(): TurnView {
    return viewOf(this.#actor.getSnapshot());
  }

  legalActions(player?: string): LegalAction[] {
    const snapshot = this.#actor.getSnapshot();
    const ctx = snapshot.context;
    if (snapshot.status !== 'active') return [];
    const awaiting = awaitingOf(snapshot);
    const out: LegalAction[] = [];
    for (const p of ctx.players) {
      if (player !== undefined && p !== player) continue;
      if (awaiting?.player === p) {
        switch (awaiting.kind) {
          case 'priority': {
            out.push({ type: 'PASS_PRIORITY', player: p });
            const sorcery = sorceryTimingViolation(ctx, p, '307.1') === null;
            for (const type of ['CAST_SPELL', 'ACTIVATE_ABILITY'] as const) {
              out.push({ type, player: p, speed: 'instant' });
              if (sorcery) out.push({ type, player: p, speed: 'sorcery' });
            }
            if (landViolation(ctx, p) === null) out.push({ type: 'PLAY_LAND', player: p });
            break;
          }
          case 'declareAttackers':
            out.push({ type: 'DECLARE_ATTACKERS', player: p, attackers: [] });
            break;
          case 'declareBlockers':
            out.push({ type: 'DECLARE_BLOCKERS', player: p, blockers: [] });
            break;
          case 'discard':
            out.push({ type: 'DISCARD', player: p, count: awaiting.count });
            break;
        }
      }
      out.push({ type: 'CONCEDE', player: p });
    }
    return out;
  }

  on<K extends EmittedEventType | '*'>(type: K, listener: Listener<K extends '*' ? EmittedEvent : Extract<EmittedEvent, { type: K }>>): () => void {
    const listeners = (this.#listeners ??= new Map());
    let set = listeners.get(type);
    if (set === undefined) listeners.set(type, (set = new Set()));
    set.add(listener as Listener);
    return () => {
      set.delete(listener as Listener);
      if (set.size === 0) listeners.delete(type);
    };
  }

  persist(): PersistedGame {
    const snapshot = this.#actor.getSnapshot();
    return {
      engine: PERSISTED_ENGINE,
      version: PERSISTED_VERSION,
      status: snapshot.status === 'done' ? 'done' : 'active',
      state: statePath(snapshot.value),
      context: structuredClone(snapshot.context),
    };
  }
}

function toInput(options: GameOptions) {
  return {
    players: options.players,
    startingPlayer: options.startingPlayer ?? (options.players[0] as string),
    rules: options.rules ?? 'current',
    maxHandSize: options.maxHandSize ?? 7,
    handSize: options.handSize ?? 7,
  };
}

/**
 * Starts a game. Turn 1 has begun: the untap step has been taken and the starting player
 * holds priority in the upkeep step. Throws a {@link TurnEngineError} (`INVALID_OPTIONS`)
 * naming the offending field.
 */
export function createGame(options: GameOptions): Game {
  const parsed = GameOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, describeIssue(parsed.error, 'options'));
  return new TurnGame({ input: toInput(parsed.data as GameOptions) }, options.hooks, options.inspect);
}

/**
 * Restores a game from `game.persist()` (or its JSON round trip). Throws a
 * {@link TurnEngineError} (`INVALID_SNAPSHOT`) saying what is wrong.
 */
export function restoreGame(persisted: unknown, options: RestoreOptions = {}): Game {
  const parsed = parsePersisted(persisted);
  if (!parsed.ok) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, parsed.message);
  if (options.hooks !== undefined && typeof options.hooks.checkpoint !== 'function' && options.hooks.checkpoint !== undefined) {
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.hooks.checkpoint: must be a function');
  }
  const { status, state, context } = parsed.value;
  const snapshot = turnMachine.resolveState({ value: stateValue(state) as StateValue, context: structuredClone(context) });
  const restored = status === 'done' ? ({ ...snapshot, status: 'done' } as Snapshot) : snapshot;
  return new TurnGame({ snapshot: restored }, options.hooks, options.inspect);
}
