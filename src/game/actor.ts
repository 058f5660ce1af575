/**
 * The one bridge from a Game to XState (CONTRACT v3: `actorOf` on `mtg-turn-engine/xstate`):
 * the game's actor, a real actor of the turn machine whose snapshot is the game's chart state
 * (the first running turn's in Grand Melee), made on first request and the same object for the
 * life of the game. The game stays the one route for events:
 *
 * - `game.send`: the game gates and performs the event once, commits it, then hands the actor
 *   the event with the state already reached (the actor's logic only resolves it), so
 *   subscribers and inspectors see every accepted event as it happens;
 * - `actor.send`: the actor's logic asks the game to gate and perform it (the same checks as
 *   `game.send`), and the game's listeners get its events once the actor has taken it.
 *
 * While the actor tells its subscribers and inspectors, sends from them are refused
 * (REENTRANT): XState would run them inside the send being processed. Anything sent to the
 * actor that is not an event is dropped (XState would throw on `null` and stop for good).
 */
import { createActor, toObserver, type Actor, type ActorScope, type AnyEventObject, type InspectionEvent, type Observer, type SnapshotFrom } from 'xstate';
import { turnMachine } from '../../machines/turn.machine.js';
import type { EmittedEvent, TurnEvent } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { copyEvent } from '../emitter.js';
import { stateValue } from '../persistence/format.js';
import { eventOrMessage } from '../schemas.js';
import type { ChartState } from './logic.js';
import { shellAccess, type ShellAccess } from './shell.js';
import type { Game } from './types.js';

type XSnapshot = SnapshotFrom<typeof turnMachine>;
type Transition = (snapshot: XSnapshot, event: AnyEventObject, scope: ActorScope<XSnapshot, TurnEvent>) => XSnapshot;

/** Options of {@link actorOf}. */
export interface ActorOptions {
  /** An XState inspection observer (e.g. from `@statelyai/inspect`'s `inspector.inspect`). */
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
}

/** Each actor's transition (the bridge of its game), found through the actor. */
const bridges = new WeakMap<object, Transition>();
let bridgeLogic: typeof turnMachine | null = null;

/** The turn machine whose transitions each actor's game performs (XState's own for its internal events). */
function logic(): typeof turnMachine {
  if (bridgeLogic !== null) return bridgeLogic;
  // The same chart with the same implementations; its snapshots are the turn machine's own (the
  // same state nodes: what tools that compare transitions with `turnMachine`'s see).
  const machine = turnMachine.provide({});
  machine.restoreSnapshot = (snapshot, scope) => turnMachine.restoreSnapshot(snapshot, scope);
  machine.transition = (snapshot, event, scope) => {
    const bridge = bridges.get(scope.self);
    if (bridge === undefined || (typeof event?.type === 'string' && event.type.startsWith('xstate.'))) return turnMachine.transition(snapshot, event, scope);
    return bridge(snapshot, event as AnyEventObject, scope as never);
  };
  return (bridgeLogic = machine);
}

/** The XState snapshot of a chart state. */
function resolved(chart: ChartState): XSnapshot {
  const s = turnMachine.resolveState({ value: stateValue(chart.value) as never, context: chart.context });
  return chart.status === 'done' && s.status !== 'done' ? ({ ...s, status: 'done' } as XSnapshot) : s;
}

/**
 * The XState snapshot of the game's chart as it is now (what its actor shows), without making
 * an actor: for tools that draw or walk the chart. Throws INVALID_OPTIONS as {@link actorOf} does.
 */
export function chartSnapshotOf(game: Game): XSnapshot {
  const shell = shellAccess(game);
  if (shell === undefined) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'chartSnapshotOf: game must be a game made by createGame, restoreGame or fork');
  return resolved(shell.chartState());
}

/**
 * The game's XState actor running the turn machine, for inspection tools: the same object for
 * the life of the game. Subscribing to it never throws or errors (refused events included);
 * events sent to it directly get exactly the checks of `game.send`. `inspect` adds an
 * inspection observer (on a later call too). Throws INVALID_OPTIONS for anything that is not
 * a game made by createGame, restoreGame or fork.
 */
export function actorOf(game: Game, options: ActorOptions = {}): Actor<typeof turnMachine> {
  const shell = shellAccess(game);
  if (shell === undefined) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'actorOf: game must be a game made by createGame, restoreGame or fork');
  if (options.inspect !== undefined && typeof options.inspect !== 'function' && (typeof options.inspect !== 'object' || options.inspect === null)) {
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options.inspect: must be an inspection observer or function');
  }
  if (shell.actor !== null) {
    const actor = shell.actor as Actor<typeof turnMachine>;
    if (options.inspect !== undefined) actor.system.inspect(toObserver(options.inspect));
    return actor;
  }
  return makeActor(shell, options.inspect);
}

function makeActor(shell: ShellAccess, inspect: ActorOptions['inspect']): Actor<typeof turnMachine> {
  /** What the game committed and the actor is taking now (from `game.send`). */
  let staged: readonly EmittedEvent[] | null = null;
  /** Deliveries of events sent to the actor directly, made once the actor has taken them. */
  const deliveries: (() => void)[] = [];
  const options = { snapshot: resolved(shell.chartState()), ...(inspect === undefined ? {} : { inspect }) } as unknown as Parameters<typeof createActor<typeof turnMachine>>[1];
  const actor = createActor(logic(), options);
  bridges.set(actor, (snapshot, event, scope) => {
    let emitted: readonly EmittedEvent[];
    if (staged !== null) {
      emitted = staged;
      staged = null;
    } else {
      const out = shell.process(event);
      if ('error' in out) return snapshot;
      emitted = out.emitted;
      deliveries.push(out.deliver);
    }
    // Copies: the game keeps its pending events (and persist() writes them); the actor's handlers may change what they get.
    for (const e of emitted) scope.defer(() => scope.emit(copyEvent(e) as never));
    return resolved(shell.chartState());
  });
  actor.subscribe({ error: () => undefined });
  actor.start();
  const own = actor.send.bind(actor);
  const take = (event: TurnEvent) => {
    shell.busy = true;
    try {
      own(event);
    } finally {
      shell.busy = false;
    }
  };
  Object.defineProperty(actor, 'send', {
    configurable: true,
    writable: false,
    value: (raw: unknown) => {
      if (shell.busy || shell.inHook()) return;
      const event = eventOrMessage(raw);
      if (typeof event === 'string') return;
      take(event);
      for (let d = deliveries.shift(); d !== undefined; d = deliveries.shift()) d();
    },
  });
  shell.bridge = {
    committed(raw, emitted) {
      const event = eventOrMessage(raw);
      if (typeof event === 'string') return;
      staged = emitted;
      try {
        own(event);
      } finally {
        staged = null;
      }
    },
  };
  shell.actor = actor;
  return actor;
}
