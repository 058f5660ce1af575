/**
 * The reference turn logic: the chart run by XState's own `transition`, microstep by
 * microstep, behind the same gate as the compiled plan. No entry imports it (so no bundle
 * carries it): the lockstep tests play it against the compiled runtime, and `npm run bench`
 * measures it as "engine on XState". States are XState snapshots of the turn machine.
 */
import { createActor, fromTransition, transition, type Actor, type ActorScope, type AnyEventObject } from 'xstate';
import { register, type GameHooksRuntime } from '../../machines/hooks.js';
import { turnMachine } from '../../machines/turn.machine.js';
import type { EmittedEvent, TurnEvent } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { freshSend, gateEvent } from '../gate.js';
import { legalActionsOf } from '../legal.js';
import { nextStopBy } from '../nextStop.js';
import { FULL_FORMAT, PERSISTED_ENGINE, statePath, stateValue } from '../persistence/format.js';
import { viewOf } from '../view.js';
import type { TurnLogic } from '../game/logic.js';

type Snapshot = ReturnType<Actor<typeof turnMachine>['getSnapshot']>;

/** An inert actor standing for a game's hooks runtime: the chart's actions find the runtime through `self`. */
const inert = fromTransition((s: null) => s, null);
const selves = new WeakMap<GameHooksRuntime, Actor<typeof inert>>();
const noRuntime = { inHook: false } as GameHooksRuntime;

/**
 * An actor scope for one transition: actions run at once (as a running actor runs them), what
 * they defer (the emitted events) runs after the transition, and `self` is the game's inert actor.
 */
function scopeFor(runtime: GameHooksRuntime | undefined) {
  const key = runtime ?? noRuntime;
  let self = selves.get(key);
  if (self === undefined) {
    self = createActor(inert);
    if (runtime !== undefined) register(self, runtime);
    selves.set(key, self);
  }
  const emitted: EmittedEvent[] = [];
  const deferred: (() => void)[] = [];
  const scope = {
    self,
    id: '',
    sessionId: '',
    logger: () => undefined,
    stopChild: () => undefined,
    system: self.system,
    defer: (fn: () => void) => void deferred.push(fn),
    emit: (e: EmittedEvent) => void emitted.push(e),
    actionExecutor: (a: { exec?: (info: unknown, params: unknown) => void; info: unknown; params: unknown }) => a.exec?.(a.info, a.params),
  } as unknown as ActorScope<Snapshot, TurnEvent>;
  const flush = () => {
    for (const fn of deferred) fn();
    return emitted;
  };
  return { scope, flush };
}

/** An error status of XState's, as the engine reports it. */
function failed(next: Snapshot): Snapshot {
  if (next.status === 'error') {
    const err = (next as { error?: unknown }).error;
    throw err instanceof TurnEngineError ? err : new TurnEngineError(ErrorCode.HOOK_FAILED, String(err));
  }
  return next;
}

export const xstateLogic: TurnLogic<Snapshot, TurnEvent> = {
  getInitialSnapshot(input, runtime) {
    const { scope, flush } = scopeFor(runtime);
    const state = failed(turnMachine.getInitialSnapshot(scope as never, input));
    return { state, emitted: flush() };
  },

  restoreSnapshot(persisted) {
    const { status, state, context } = persisted;
    const snapshot = turnMachine.resolveState({ value: stateValue(state) as never, context: structuredClone(context) });
    return { state: status === 'done' ? ({ ...snapshot, status: 'done' } as Snapshot) : snapshot, order: null };
  },

  getPersistedSnapshot(snapshot, version) {
    return {
      engine: PERSISTED_ENGINE,
      format: FULL_FORMAT,
      version,
      status: snapshot.status === 'done' ? 'done' : 'active',
      state: statePath(snapshot.value),
      context: snapshot.context,
    };
  },

  gate(snapshot, raw) {
    return gateEvent(snapshot, raw);
  },

  transition(snapshot, event, runtime) {
    const { scope, flush } = scopeFor(runtime);
    const state = failed(turnMachine.transition(freshSend(snapshot), event as AnyEventObject as TurnEvent, scope as never));
    return { state, emitted: flush() };
  },

  view(snapshot, version, seq) {
    return viewOf(snapshot, version, seq);
  },

  legalActions(snapshot, player) {
    return legalActionsOf(snapshot, player);
  },

  nextStop(snapshot, player, _runtime, fromNow) {
    return nextStopBy(
      snapshot,
      player,
      (current, event) => {
        const [next] = transition(turnMachine, freshSend(current), event);
        return next === current ? null : next;
      },
      fromNow,
    );
  },

  chartState(snapshot) {
    return { value: statePath(snapshot.value), context: snapshot.context, status: snapshot.status === 'done' ? 'done' : 'active' };
  },

  pending(snapshot): readonly EmittedEvent[] {
    return snapshot.context.pending;
  },
};
