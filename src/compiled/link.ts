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

/** A guard or an action as the generated file writes it: its index among the implementations' names of its kind, with its params when it has any. */
export type PackedName = number | [index: number, params: unknown];

/**
 * {@link PlanData} as the generated file writes it, smaller in a bundle:
 * - no list of names: a guard is written as its index among the keys of the implementations'
 *   guards (`Object.keys(GUARDS)`, -1: none), an action among those of their actions, so the
 *   names are in the bundle once (as the keys of the tables they are linked to);
 * - a target is the index of its leaf (-1: none), and `resolve` gives leaf indexes;
 * - a leaf's XState id is not written (it is always the machine's id, a dot, and the path);
 * - in the lists of a leaf's entries and eventless transitions a run of three or more
 *   consecutive indexes `a, a+1, ..., b` is written `a, -b`.
 * {@link linkPlan} reads it; a test proves the linked plan is a fresh compile's.
 */
export interface PackedPlan {
  machineId: string;
  transitions: [guard: PackedName, actions: PackedName[], target: number, changes: 0 | 1][];
  entries: PlanData['entries'];
  leaves: [path: string, tags: string[], final: 0 | 1, entries: number[], always: number[]][];
  start: number;
  resolve: Record<string, number>;
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

/** Plan data as the generated file writes it ({@link PackedPlan}), for the implementations it is linked to; throws when a name it needs is not theirs. */
export function packPlan(data: PlanData, impl: Implementations): PackedPlan {
  const guards = Object.keys(impl.guards);
  const actions = Object.keys(impl.actions);
  const leafIndex = new Map(data.leaves.map(([path], i) => [path, i]));
  const ref = (d: NamedData, keys: string[]): PackedName => {
    const [i, params] = typeof d === 'number' ? [d, undefined] : d;
    const k = keys.indexOf(data.names[i] as string);
    if (k < 0) throw new Error(`packPlan: ${data.machineId} names '${data.names[i]}', which its implementations lack`);
    return params === undefined ? k : [k, params];
  };
  const leaf = (path: string | null) => (path === null ? -1 : (leafIndex.get(path) as number));
  return {
    machineId: data.machineId,
    transitions: data.transitions.map(([g, a, t, c]) => [g === null ? -1 : ref(g, guards), a.map((x) => ref(x, actions)), leaf(t), c]),
    entries: data.entries,
    leaves: data.leaves.map(([path, id, tags, final, on, always]) => {
      if (id !== `${data.machineId}.${path}`) throw new Error(`packPlan: the leaf ${path} has the id ${id}, not ${data.machineId}.${path}`);
      return [path, tags, final, packRuns(on), packRuns(always)];
    }),
    start: data.start,
    resolve: Object.fromEntries(Object.entries(data.resolve).map(([path, to]) => [path, leaf(to)])),
  };
}

/** The tables a plan's names resolve against (machines/turn.implementations.ts for the turn chart). */
export interface Implementations {
  guards: Readonly<Record<string, unknown>>;
  actions: Readonly<Record<string, unknown>>;
}

/** Links plan data as the generated file writes it to its implementations; throws when the data names a guard or action the tables lack. */
export function linkPlan(packed: PackedPlan, impl: Implementations): Plan {
  type MutableLeaf = { -readonly [K in keyof PlanLeaf]: PlanLeaf[K] };
  const leaves = new Map<string, MutableLeaf>();
  const byIndex = packed.leaves.map(([path, tags, final]): MutableLeaf => {
    const leaf: MutableLeaf = { path, id: `${packed.machineId}.${path}`, tags: new Set(tags), final: final === 1, on: new Map(), always: [] };
    leaves.set(path, leaf);
    return leaf;
  });
  const named = <F>(table: Readonly<Record<string, unknown>>, names: string[], what: string, d: PackedName): { name: string; fn: F; params: unknown } => {
    const [index, params] = typeof d === 'number' ? [d, undefined] : d;
    const name = names[index];
    const fn = name !== undefined && Object.hasOwn(table, name) ? table[name] : undefined;
    if (typeof fn !== 'function') throw new Error(`linkPlan: ${packed.machineId} names the ${what} '${name ?? `number ${index}`}', which its implementations lack`);
    return { name: name as string, fn: fn as F, params };
  };
  const guards = Object.keys(impl.guards);
  const actions = Object.keys(impl.actions);
  const transitions: PlanTransition[] = packed.transitions.map(([g, a, t, c]) => ({
    guard: g === -1 ? null : named<GuardFn>(impl.guards, guards, 'guard', g),
    actions: a.map((x) => named<ActionFn>(impl.actions, actions, 'action', x)),
    target: byIndex[t] ?? null,
    changesStates: c === 1,
  }));
  const at = (i: number) => transitions[i] as PlanTransition;
  const entries = packed.entries.map(([type, list]) => [type, list.map(at)] as const);
  packed.leaves.forEach(([, , , on, always], i) => {
    const leaf = byIndex[i] as MutableLeaf;
    leaf.on = new Map(unpackRuns(on).map((k) => entries[k] as readonly [string, PlanTransition[]]));
    leaf.always = unpackRuns(always).map(at);
  });
  return {
    machineId: packed.machineId,
    leaves,
    start: at(packed.start),
    resolve(path: string) {
      return leaves.get(path) ?? (Object.hasOwn(packed.resolve, path) ? byIndex[packed.resolve[path] as number] : undefined);
    },
  };
}
