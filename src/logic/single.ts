/**
 * The turn logic of every game but Grand Melee: the plan compiled from the chart
 * (src/compiled/), behind the gate (the PASS_PRIORITY lane, then the full gate). States are
 * immutable {@link CompiledState}s.
 */
import type { GameHooksRuntime } from '../../machines/hooks.js';
import { initialContext } from '../../machines/turn.effects.js';
import { cloneContext, CONTEXT_KEYS } from '../../machines/context.js';
import type { EmittedEvent, TurnEvent } from '../contract.js';
import type { TurnContext } from '../state.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import { fullGate, laneEvent } from '../gate.js';
import { legalActionsOf } from '../legal.js';
import { nextStopBy, nextStopsBy } from '../nextStop.js';
import { FULL_FORMAT, PERSISTED_ENGINE, type PersistedFull } from '../persistence/format.js';
import { viewOf } from '../view.js';
import { initialState, sendStep, snapshotOf, type CompiledState } from '../compiled/runtime.js';
import { turnPlan } from '../compiled/plan.js';
import type { ContextOrder, TurnLogic } from '../game/logic.js';

/** The fields of the context in the order given (null: as they are). */
export function inOrder(ctx: TurnContext, order: ContextOrder): TurnContext {
  if (order === null) return ctx;
  const from = ctx as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of order) out[key] = from[key];
  return out as unknown as TurnContext;
}

/** The order of a context's fields if it is not that of {@link cloneContext} (a context restored from JSON), else null. */
export function contextOrder(ctx: TurnContext): ContextOrder {
  const keys = Object.keys(ctx);
  return keys.length === CONTEXT_KEYS.length && keys.every((k, i) => k === CONTEXT_KEYS[i]) ? null : keys;
}

/** The compiled state of a validated persisted turn (no copy of anything shared: the context is cloned into the runtime's field order). */
export function compiledStateOf(state: string, context: TurnContext, status: 'active' | 'done', where = 'state'): CompiledState {
  const leaf = turnPlan.resolve(state);
  // The validation (src/persistence/validate.ts) refuses states the plan does not have: this is a last guard.
  if (leaf === undefined) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, `${where}: the plan has no state '${state}'`);
  return { value: leaf.path, context, status: status === 'done' || leaf.final ? 'done' : 'active' };
}

/** Next state for nextStop's look ahead: the step with the per-send counters at zero, no hook; null when nothing changed. */
export function lookAhead(state: CompiledState, event: TurnEvent, runtime?: GameHooksRuntime): CompiledState | null {
  // sendStep: one copy of the context with the counters at zero, which the step then patches in place (not a spread and a copy).
  const next = sendStep(turnPlan, state, event, runtime).state;
  return next.value === state.value && next.context === state.context ? null : next;
}

export const singleLogic: TurnLogic<CompiledState, TurnEvent> = {
  popsOwnedStacks: true,

  getInitialSnapshot(input, runtime) {
    const first = initialState(turnPlan, input, initialContext, runtime);
    return { state: first.state, emitted: first.emitted };
  },

  restoreSnapshot(persisted: PersistedFull) {
    const { status, state, context } = persisted;
    // The validation's own copy of the snapshot (persistence/validate.ts): nothing shared with the caller.
    const restored = compiledStateOf(state, context, status);
    return { state: { ...restored, context: cloneContext(restored.context) }, order: contextOrder(restored.context) };
  },

  getPersistedSnapshot(state, version) {
    return { engine: PERSISTED_ENGINE, format: FULL_FORMAT, version, status: state.status, state: state.value, context: state.context };
  },

  gate(state, raw) {
    // The lane needs no snapshot (most events take it); the full gate reads the state's tags too.
    return laneEvent(state, raw) ?? fullGate(snapshotOf(turnPlan, state), raw);
  },

  lane(state, raw) {
    return laneEvent(state, raw);
  },

  transition(state, event, runtime) {
    // The step's own result (it has the state and what it emitted): no object made per event.
    return sendStep(turnPlan, state, event, runtime);
  },

  view(state, version, seq) {
    return viewOf(snapshotOf(turnPlan, state), version, seq);
  },

  legalActions(state, player) {
    return legalActionsOf(snapshotOf(turnPlan, state), player);
  },

  nextStop(state, player, runtime, fromNow) {
    return nextStopBy(
      snapshotOf(turnPlan, state),
      player,
      (current, event) => {
        const next = lookAhead(current.state, event, runtime);
        return next === null ? null : snapshotOf(turnPlan, next);
      },
      fromNow,
    );
  },

  nextStops(state, players, runtime, fromNow) {
    return nextStopsBy(
      snapshotOf(turnPlan, state),
      players,
      (current, event) => {
        const next = lookAhead(current.state, event, runtime);
        return next === null ? null : snapshotOf(turnPlan, next);
      },
      fromNow,
    );
  },

  chartState(state, order) {
    return order === null ? state : { value: state.value, context: inOrder(state.context, order), status: state.status };
  },

  pending(state): readonly EmittedEvent[] {
    return state.context.pending;
  },

  reseed(state, rng) {
    const context = cloneContext(state.context);
    context.rng = rng;
    return { value: state.value, context, status: state.status };
  },
};
