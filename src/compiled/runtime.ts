/**
 * The pure step of the compiled runtime: XState's macrostep over a {@link Plan}.
 *
 * A state is an immutable `{ value, context, status }` (`value` is the leaf's dot path).
 * `step` takes the first enabled candidate for the event, then, as XState does, takes enabled
 * eventless transitions until none is enabled (re-selecting them only while a microstep
 * changed something), then the raised events in order, each followed by the eventless
 * transitions again; it stops as soon as the machine is done. Nothing given is mutated: the
 * first action that patches the context makes one new context for the step, which the later
 * actions patch before anyone else sees it; the emitted and raised events are returned in order.
 */
import { assignPatch, cloneContext, isFreshSend } from '../../machines/context.js';
import { draftWriteCount, setDraft } from '../../machines/effect.js';
import type { GameHooksRuntime } from '../../machines/hooks.js';
import type { EmittedEvent } from '../contract.js';
import type { MachineEvent, TurnContext, TurnInput } from '../state.js';
import type { SnapshotLike } from '../view.js';
import type { Plan, PlanLeaf, PlanTransition } from './link.js';

/** A state of the compiled runtime. Immutable: share it freely. */
export interface CompiledState {
  /** The active leaf state's dot path (the persisted `state`). */
  readonly value: string;
  readonly context: TurnContext;
  /** 'done' once the machine has reached its final state. */
  readonly status: 'active' | 'done';
}

/** What one step did. */
export interface StepResult {
  readonly state: CompiledState;
  /** The emitted events, in order. */
  readonly emitted: EmittedEvent[];
  /** The events raised (and processed) during the step, in order. */
  readonly raised: MachineEvent[];
  /** Whether some transition was enabled for the event itself. */
  readonly handled: boolean;
}

/** A microstep's working registers. */
interface Registers {
  leaf: PlanLeaf;
  context: TurnContext;
  emitted: EmittedEvent[];
  raised: MachineEvent[];
  queue: MachineEvent[];
  /**
   * The context this step has made and nobody else has seen yet (or null): the step patches it
   * in place instead of copying the whole context for every action. The guards and effects
   * only read the context they are given and keep no reference to it, and the state is
   * published (immutable from then on) only when the step returns.
   */
  own: TurnContext | null;
}

function select(candidates: readonly PlanTransition[] | undefined, context: TurnContext, event: MachineEvent, runtime: GameHooksRuntime | undefined): PlanTransition | null {
  if (candidates === undefined) return null;
  for (let i = 0; i < candidates.length; i++) {
    const t = candidates[i] as PlanTransition;
    if (t.guard === null || t.guard.fn({ context, event, runtime }, t.guard.params)) return t;
  }
  return null;
}

/** Takes one transition: runs its actions in order; returns whether the snapshot would change (XState: a new snapshot object). */
function microstep(t: PlanTransition, r: Registers, event: MachineEvent, runtime: GameHooksRuntime | undefined): boolean {
  let changed = t.changesStates;
  const actions = t.actions;
  // The step's own context, made before its first action: the actions write into it in place
  // (machines/effect.ts `andThen` on the draft) instead of copying it for every effect they compose.
  if (actions.length > 0 && r.own !== r.context) r.own = r.context = cloneContext(r.context);
  const writes = draftWriteCount();
  for (let i = 0; i < actions.length; i++) {
    const a = actions[i] as PlanTransition['actions'][number];
    setDraft(r.context);
    let out;
    try {
      out = a.fn(r.context, event, runtime, a.params);
    } finally {
      setDraft(null);
    }
    const { patch, emit, raise } = out;
    for (const _ in patch) {
      assignPatch(r.context, patch);
      changed = true;
      break;
    }
    for (let j = 0; j < emit.length; j++) r.emitted.push(emit[j] as EmittedEvent);
    if (raise !== undefined) for (let j = 0; j < raise.length; j++) r.queue.push(raise[j] as MachineEvent);
  }
  if (t.target !== null) r.leaf = t.target;
  return changed || draftWriteCount() !== writes;
}

/** Eventless transitions and raised events until the machine rests (XState's macrostep loop). */
function settle(r: Registers, event: MachineEvent, runtime: GameHooksRuntime | undefined): void {
  let current = event;
  let selectEventless = true;
  while (!r.leaf.final) {
    const t = selectEventless ? select(r.leaf.always, r.context, current, runtime) : null;
    if (t !== null) {
      selectEventless = microstep(t, r, current, runtime);
      continue;
    }
    const next = r.queue.shift();
    if (next === undefined) break;
    current = next;
    r.raised.push(next);
    const u = select(r.leaf.on.get(next.type), r.context, next, runtime);
    if (u !== null) microstep(u, r, next, runtime);
    selectEventless = true;
  }
}

function result(r: Registers, handled: boolean): StepResult {
  return { state: { value: r.leaf.path, context: r.context, status: r.leaf.final ? 'done' : 'active' }, emitted: r.emitted, raised: r.raised, handled };
}

/**
 * The state after `event` (XState's `transition(machine, snapshot, event)`), with what it
 * emitted and raised. `owned`: `state.context` was made for this step and nobody has seen it,
 * so the step may patch it in place.
 */
export function step(plan: Plan, state: CompiledState, event: MachineEvent, runtime?: GameHooksRuntime, owned = false): StepResult {
  const leaf = plan.leaves.get(state.value);
  if (leaf === undefined) throw new Error(`compiled runtime: '${state.value}' is not a leaf state of ${plan.machineId}`);
  if (state.status !== 'active') return { state, emitted: [], raised: [], handled: false };
  const r: Registers = { leaf, context: state.context, emitted: [], raised: [], queue: [], own: owned ? state.context : null };
  const t = select(leaf.on.get(event.type), r.context, event, runtime);
  if (t !== null) microstep(t, r, event, runtime);
  settle(r, event, runtime);
  return result(r, t !== null);
}


/**
 * One `send`'s worth of the runtime: the per-send counters of the auto-pass loop guard at zero
 * (src/gate.ts `freshSendContext`, on a copy the step then patches in place), then {@link step}.
 * This is all the game does with an event once the gate has accepted it.
 */
export function sendStep(plan: Plan, state: CompiledState, event: MachineEvent, runtime?: GameHooksRuntime): StepResult {
  const ctx = state.context;
  if (isFreshSend(ctx)) return step(plan, state, event, runtime);
  // FRESH_SEND (machines/context.ts), written field by field into the copy.
  const fresh = cloneContext(ctx);
  fresh.autoPasses = 0;
  fresh.autoPassTurns = 0;
  fresh.priorityFresh = false;
  fresh.endedInSend = false;
  return step(plan, { value: state.value, context: fresh, status: state.status }, event, runtime, true);
}

/** The initial state for an input (XState's `getInitialSnapshot`): the context, then the initial states and what follows them. */
export function initialState(plan: Plan, input: TurnInput, makeContext: (input: TurnInput) => TurnContext, runtime?: GameHooksRuntime): StepResult {
  const event = { type: 'xstate.init', input } as unknown as MachineEvent;
  const context = cloneContext(makeContext(input));
  const r: Registers = { leaf: plan.start.target as PlanLeaf, context, emitted: [], raised: [], queue: [], own: context };
  microstep(plan.start, r, event, runtime);
  settle(r, event, runtime);
  return result(r, true);
}

/** What the view and the legality table need from a state: its status, context and tags. */
export function snapshotOf(plan: Plan, state: CompiledState): SnapshotLike & { readonly state: CompiledState } {
  return new LeafSnapshot(state, (plan.leaves.get(state.value) as PlanLeaf).tags);
}

/** A {@link SnapshotLike} of a compiled state, with the state (a class: no closure per snapshot; do not spread it, `hasTag` is on the prototype). */
class LeafSnapshot implements SnapshotLike {
  readonly status: string;
  readonly context: TurnContext;

  constructor(
    readonly state: CompiledState,
    readonly tags: ReadonlySet<string>,
  ) {
    this.status = state.status;
    this.context = state.context;
  }

  hasTag(tag: string): boolean {
    return this.tags.has(tag);
  }
}
