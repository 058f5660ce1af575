/**
 * The plan as data (issue 21, CONTRACT v3 "Package"): the compiled chart's tables, generated
 * from the chart at build time (scripts/generate-plans.ts writes src/compiled/plans.generated.ts
 * from {@link ./compile.ts}'s `compileMachine`), and linked here to the guard and action tables
 * by name. The main entry runs the linked plan and imports nothing of XState; a test proves the
 * generated tables equal a fresh compile of the chart.
 */
import type { MachineEvent, TurnContext } from '../state.js';
import type { GameHooksRuntime } from '../../machines/hooks.js';
import type { Effect } from '../../machines/effect.js';

/** A guard as the plan calls it. */
export type GuardFn = (args: { context: TurnContext; event: MachineEvent; runtime?: GameHooksRuntime | undefined }, params: unknown) => boolean;
/** An action as the plan calls it: a pure effect of the context, the event, the hooks runtime and its params. */
export type ActionFn = (ctx: TurnContext, event: MachineEvent, runtime: GameHooksRuntime | undefined, params: unknown) => Effect;

/** A guard of the chart, resolved to its function and params. */
export interface PlanGuard {
  readonly name: string;
  readonly fn: GuardFn;
  readonly params: unknown;
}

/** An action of the chart, resolved to its effect and params. */
export interface PlanAction {
  readonly name: string;
  readonly fn: ActionFn;
  readonly params: unknown;
}

/** One candidate transition from a leaf. */
export interface PlanTransition {
  readonly guard: PlanGuard | null;
  /** Exit, transition and entry actions, in the order XState runs them. */
  readonly actions: readonly PlanAction[];
  /** The leaf the machine is in afterwards; null for a targetless transition (it stays). */
  readonly target: PlanLeaf | null;
  /** Whether the set of active states changes (XState's microstep then yields a new snapshot). */
  readonly changesStates: boolean;
}

/** A leaf state (an atomic state node) and everything the runtime needs while in it. */
export interface PlanLeaf {
  /** The dot path of the leaf, e.g. 'combat.declareAttackers.priority' (the persisted `state`). */
  readonly path: string;
  /** XState's id of the node ('turn.combat.declareAttackers.priority'). */
  readonly id: string;
  /** The tags of the leaf and its ancestors (XState's `snapshot.tags`). */
  readonly tags: ReadonlySet<string>;
  /** Whether this is a final state of the root: the machine is done. */
  readonly final: boolean;
  /** Candidate transitions by event type, in priority order. */
  readonly on: ReadonlyMap<string, readonly PlanTransition[]>;
  /** Candidate eventless transitions, in priority order. */
  readonly always: readonly PlanTransition[];
}

/** The compiled machine. */
export interface Plan {
  readonly machineId: string;
  /** Every leaf by its dot path. */
  readonly leaves: ReadonlyMap<string, PlanLeaf>;
  /** The actions run when the machine starts (the root's initial states are entered) and the leaf reached. */
  readonly start: PlanTransition;
  /** The leaf a (possibly partial) dot path resolves to: a compound state goes to its initial descendants. */
  resolve(path: string): PlanLeaf | undefined;
}

/** A guard or action as data: the index of its name in `names`, with its params when it has any. */
export type NamedData = number | [name: number, params: unknown];

/** A transition as data: guard (null: none), actions, the target leaf's path (null: none), whether the states change (1 or 0). */
export type TransitionData = [guard: NamedData | null, actions: NamedData[], target: string | null, changes: 0 | 1];

/**
 * A compiled machine as plain data, each thing listed once and referred to by index: the names
 * of guards and actions, the transitions, and the (event type, candidate transitions) entries
 * that leaves share (a host event handled at the root has the same candidates in every leaf).
 */
export interface PlanData {
  machineId: string;
  names: string[];
  transitions: TransitionData[];
  entries: [type: string, transitions: number[]][];
  /** Every leaf: path, XState id, tags, final (1 or 0), its entries (indexes), its eventless transitions (indexes). */
  leaves: [path: string, id: string, tags: string[], final: 0 | 1, entries: number[], always: number[]][];
  /** The transition that starts the machine (an index). */
  start: number;
  /** The dot paths of the compound states, each with the leaf it resolves to. */
  resolve: Record<string, string>;
}

/**
 * {@link PlanData} as the generated file writes it, smaller in a bundle: a leaf's XState id is not
 * written (it is always the machine's id, a dot, and the path), and in the lists of a leaf's
 * entries and eventless transitions a run of three or more consecutive indexes `a, a+1, ..., b`
 * is written `a, -b`. {@link unpackPlan} rebuilds the data.
 */
export interface PackedPlan extends Omit<PlanData, 'leaves'> {
  leaves: [path: string, tags: string[], final: 0 | 1, entries: number[], always: number[]][];
}

/** Writes a list of indexes with its runs of three or more consecutive indexes as `first, -last`. */
export function packRuns(list: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < list.length; ) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === (list[j] as number) + 1) j++;
    if (j - i >= 2) out.push(list[i] as number, -(list[j] as number));
    else out.push(...list.slice(i, j + 1));
    i = j + 1;
  }
  return out;
}

/** Reads a list written by {@link packRuns}. */
function unpackRuns(list: readonly number[]): number[] {
  const out: number[] = [];
  for (const x of list) {
    if (x >= 0) out.push(x);
    else for (let k = (out[out.length - 1] as number) + 1; k <= -x; k++) out.push(k);
  }
  return out;
}

/** The plan data a {@link PackedPlan} was written from. */
export function unpackPlan(packed: PackedPlan): PlanData {
  return { ...packed, leaves: packed.leaves.map(([path, tags, final, on, always]) => [path, `${packed.machineId}.${path}`, tags, final, unpackRuns(on), unpackRuns(always)]) };
}

/** The tables a plan's names resolve against (machines/turn.implementations.ts for the turn chart). */
export interface Implementations {
  guards: Readonly<Record<string, unknown>>;
  actions: Readonly<Record<string, unknown>>;
}

/** Links plan data to its implementations; throws when the data names a guard or action the tables lack. */
export function linkPlan(data: PlanData, impl: Implementations): Plan {
  type MutableLeaf = { -readonly [K in keyof PlanLeaf]: PlanLeaf[K] };
  const leaves = new Map<string, MutableLeaf>();
  for (const [path, id, tags, final] of data.leaves) leaves.set(path, { path, id, tags: new Set(tags), final: final === 1, on: new Map(), always: [] });
  const named = <F>(table: Readonly<Record<string, unknown>>, what: string, d: NamedData): { name: string; fn: F; params: unknown } => {
    const [index, params] = typeof d === 'number' ? [d, undefined] : d;
    const name = data.names[index] as string;
    const fn = Object.hasOwn(table, name) ? table[name] : undefined;
    if (typeof fn !== 'function') throw new Error(`linkPlan: ${data.machineId} names the ${what} '${name}', which its implementations lack`);
    return { name, fn: fn as F, params };
  };
  const transitions: PlanTransition[] = data.transitions.map(([g, a, t, c]) => ({
    guard: g === null ? null : named<GuardFn>(impl.guards, 'guard', g),
    actions: a.map((x) => named<ActionFn>(impl.actions, 'action', x)),
    target: t === null ? null : (leaves.get(t) ?? null),
    changesStates: c === 1,
  }));
  const at = (i: number) => transitions[i] as PlanTransition;
  const entries = data.entries.map(([type, list]) => [type, list.map(at)] as const);
  for (const [path, , , , on, always] of data.leaves) {
    const leaf = leaves.get(path) as MutableLeaf;
    leaf.on = new Map(on.map((i) => entries[i] as readonly [string, PlanTransition[]]));
    leaf.always = always.map(at);
  }
  return {
    machineId: data.machineId,
    leaves,
    start: at(data.start),
    resolve(path: string) {
      return leaves.get(path) ?? (Object.hasOwn(data.resolve, path) ? leaves.get(data.resolve[path] as string) : undefined);
    },
  };
}
