/**
 * The turn machine's `setup()`: the guards and the actions' effects of turn.implementations.ts,
 * each effect adapted into an XState action (assign its patch, emit its events, raise what it
 * raises). Only the chart and the XState tools import this module; the main entry runs the
 * compiled plan over the same tables.
 */
import { enqueueActions, setup } from 'xstate';
import type { EmittedEvent } from '../src/contract.js';
import type { MachineEvent, TurnContext, TurnInput } from '../src/state.js';
import { adoptContext } from './context.js';
import type { Effect } from './effect.js';
import { runtimeOf, type GameHooksRuntime } from './hooks.js';
import { ACTION_EFFECTS, GUARDS, type EffectOf } from './turn.implementations.js';

export { ACTION_EFFECTS, GUARDS, type EffectOf } from './turn.implementations.js';

/** Adapts a pure effect into an action: assign its patch, emit its events, raise what it raises. */
function perform<TParams extends Record<string, unknown> | undefined = undefined>(run: EffectOf<TParams>) {
  return enqueueActions<TurnContext, MachineEvent, TParams, MachineEvent, never, never, never, never, EmittedEvent>(({ context, event, self, enqueue }, params) => {
    // XState's contexts have a hidden class of their own: the effects see a copy in the engine's.
    const { patch, emit, raise } = run(adoptContext(context), event, runtimeOf(self), params);
    for (const _ in patch) {
      enqueue.assign(patch);
      break;
    }
    for (const e of emit) enqueue.emit(e);
    if (raise) for (const e of raise) enqueue.raise(e);
  });
}

type ParamsOf<F> = F extends (ctx: TurnContext, event: MachineEvent, runtime: GameHooksRuntime | undefined, params: infer P) => Effect ? (unknown extends P ? undefined : P) : undefined;
type Performed<T> = { [K in keyof T]: ReturnType<typeof perform<ParamsOf<T[K]> & (Record<string, unknown> | undefined)>> };

/** Every effect of a table adapted into an action. */
function performAll<T extends Record<string, EffectOf<never>>>(table: T): Performed<T> {
  const out: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(table)) out[name] = perform(run as EffectOf<Record<string, unknown> | undefined>);
  return out as Performed<T>;
}

export const turnSetup = setup({
  types: {
    context: {} as TurnContext,
    events: {} as MachineEvent,
    input: {} as TurnInput,
    emitted: {} as EmittedEvent,
  },
  guards: GUARDS,
  actions: performAll(ACTION_EFFECTS),
});
