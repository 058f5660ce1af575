/**
 * The compiled runtime of the turn machine (issue 15): the chart of machines/turn.machine.ts,
 * read once from XState's own StateNode tree, turned into a plan of plain tables, so that the
 * same rules run without XState's interpreter and no rule is written twice.
 *
 * For every leaf state and every event type the plan lists the candidate transitions in
 * XState's priority order (the leaf's own first, then each ancestor's, in document order), each
 * with its guard, its target leaf, and one flattened list of actions: the exit actions of the
 * states it leaves (deepest first), the transition's own actions, the entry actions of the
 * states it enters (outermost first, with initial states), and, when it reaches the final
 * `gameOver` state, the exit actions that XState runs when the machine is done. Eventless
 * (`always`) transitions are listed per leaf the same way. `reenter: true` and the transition
 * domains follow XState's `getTransitionDomain` (SCXML's). Guards are the functions of
 * {@link GUARDS} and actions the effects of {@link ACTION_EFFECTS}, the very tables that
 * `setup()` is given.
 *
 * Supported: compound and atomic states, one final state directly under the root, string and
 * `{ type, params }` guards and actions with static params, targetless transitions. Anything
 * else (parallel or history states, invoke, after, wildcard events, inline functions) makes
 * {@link compileMachine} throw, so a chart that outgrows the compiler fails loudly.
 */
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { ACTION_EFFECTS, GUARDS } from '../../machines/turn.implementations.js';
import { linkPlan, packPlan, type Implementations, type NamedData, type Plan, type PlanData, type TransitionData } from './link.js';

export type { GuardFn, PlanGuard, PlanAction, PlanTransition, PlanLeaf, Plan, PlanData } from './link.js';

/** The turn chart's implementations: the very tables that `setup()` is given. */
export const TURN_IMPLEMENTATIONS: Implementations = { guards: GUARDS, actions: ACTION_EFFECTS };

type ConfigAction = string | { type: string; params?: unknown } | ((...args: unknown[]) => unknown);
type ConfigGuard = string | { type: string; params?: unknown } | ((...args: unknown[]) => unknown) | undefined;
interface TransitionDef {
  source: AnyStateNode;
  target?: readonly AnyStateNode[] | undefined;
  reenter?: boolean;
  actions: readonly ConfigAction[];
  guard?: ConfigGuard;
}

function unsupported(what: string): never {
  throw new Error(`compileMachine: ${what} is not supported by the compiled runtime; extend src/compiled/compile.ts or keep the chart within what it compiles`);
}


function resolveGuard(guard: ConfigGuard, where: string, impl: Implementations, named: Namer): NamedData | null {
  if (guard === undefined) return null;
  if (typeof guard === 'function') return unsupported(`an inline guard function (${where})`);
  const name = typeof guard === 'string' ? guard : guard.type;
  const params = typeof guard === 'string' ? undefined : guard.params;
  if (typeof params === 'function') return unsupported(`guard params computed by a function (${name}, ${where})`);
  if (typeof impl.guards[name] !== 'function') return unsupported(`the guard '${name}' (${where}), which is not in GUARDS`);
  return named(name, params);
}

function resolveAction(action: ConfigAction, where: string, impl: Implementations, named: Namer): NamedData {
  if (typeof action === 'function') return unsupported(`an inline or built-in action (${where})`);
  const name = typeof action === 'string' ? action : action.type;
  const params = typeof action === 'string' ? undefined : action.params;
  if (typeof params === 'function') return unsupported(`action params computed by a function (${name}, ${where})`);
  if (typeof impl.actions[name] !== 'function') return unsupported(`the action '${name}' (${where}), which is not in ACTION_EFFECTS`);
  return named(name, params);
}

/** Names a guard or action with its params, as plan data. */
type Namer = (name: string, params: unknown) => NamedData;

/** Proper ancestors of `node`, from its parent up, stopping before `upTo` (XState's getProperAncestors). */
function properAncestors(node: AnyStateNode, upTo: AnyStateNode | undefined): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  for (let m = node.parent; m !== undefined && m !== upTo; m = m.parent) out.push(m);
  return out;
}

/** Whether `child` is a proper descendant of `parent`. */
function isDescendant(child: AnyStateNode, parent: AnyStateNode | undefined): boolean {
  if (parent === undefined) return false;
  for (let m = child.parent; m !== undefined; m = m.parent) if (m === parent) return true;
  return false;
}

/** XState's getTransitionDomain; undefined stands for "above the root" (a reentering root transition). */
function transitionDomain(t: TransitionDef): AnyStateNode | undefined {
  const targets = t.target ?? [];
  if (!t.reenter && targets.every((s) => s === t.source || isDescendant(s, t.source))) return t.source;
  const [head, ...tail] = [...targets, t.source] as unknown as [AnyStateNode, ...AnyStateNode[]];
  for (const anc of properAncestors(head, undefined)) if (tail.every((s) => isDescendant(s, anc))) return anc;
  if (t.reenter) return undefined;
  return t.source.machine.root as AnyStateNode;
}

/** The chain of initial states below `node`, `node` excluded. */
function initialChain(node: AnyStateNode): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  for (let m = node; m.type === 'compound'; ) {
    const next = m.initial?.target?.[0] as AnyStateNode | undefined;
    if (next === undefined) return unsupported(`a compound state without an initial state (${m.id})`);
    out.push(next);
    m = next;
  }
  return out;
}

/** The active states when `leaf` is active: root first. */
function configurationOf(leaf: AnyStateNode): AnyStateNode[] {
  return [...properAncestors(leaf, undefined).reverse(), leaf];
}

function pathOf(node: AnyStateNode): string {
  return (node.path as string[]).join('.');
}

function checkNode(node: AnyStateNode): void {
  if (node.type === 'parallel' || node.type === 'history') unsupported(`a ${node.type} state (${node.id})`);
  if (node.invoke.length > 0) unsupported(`invoke (${node.id})`);
  if (node.after.length > 0) unsupported(`after (${node.id})`);
  if (node.type === 'final' && node.parent?.parent !== undefined) unsupported(`a final state below the root (${node.id})`);
  for (const type of node.transitions.keys()) if (type === '*' || type.endsWith('.*')) unsupported(`the wildcard event descriptor '${type}' (${node.id})`);
}

/** Every state node, in document order. */
function allNodes(root: AnyStateNode): AnyStateNode[] {
  const out: AnyStateNode[] = [root];
  for (const child of Object.values(root.states) as AnyStateNode[]) out.push(...allNodes(child));
  return out;
}

/** Compiles a machine (the turn machine by default, with the turn setup's guards and actions) into a plan, linked. */
export function compileMachine(machine: AnyStateMachine, impl: Implementations = TURN_IMPLEMENTATIONS): Plan {
  return linkPlan(packPlan(compileMachineData(machine, impl), impl), impl);
}

/** Compiles a machine within the supported subset into plan data (what scripts/generate-plans.ts writes). */
export function compileMachineData(machine: AnyStateMachine, impl: Implementations = TURN_IMPLEMENTATIONS): PlanData {
  const root = machine.root as AnyStateNode;
  const nodes = allNodes(root);
  nodes.forEach(checkNode);
  const leafNodes = nodes.filter((n) => n.type === 'atomic' || n.type === 'final');
  /** Each thing listed once: its index in its table. */
  const lister = <T>(table: T[]) => {
    const index = new Map<string, number>();
    return (item: T): number => {
      const key = JSON.stringify(item);
      let i = index.get(key);
      if (i === undefined) index.set(key, (i = table.push(item) - 1));
      return i;
    };
  };
  const names: string[] = [];
  const nameIndex = lister(names);
  const named: Namer = (name, params) => (params === undefined ? nameIndex(name) : [nameIndex(name), params]);
  const transitions: TransitionData[] = [];
  const indexOf = lister(transitions);
  const entries: PlanData['entries'] = [];
  const entryIndex = lister(entries);
  const exitActions = (s: AnyStateNode) => (s.exit as ConfigAction[]).map((a) => resolveAction(a, `exit of ${s.id}`, impl, named));
  const entryActions = (s: AnyStateNode) => (s.entry as ConfigAction[]).map((a) => resolveAction(a, `entry of ${s.id}`, impl, named));
  const initialActions = (s: AnyStateNode) => ((s.initial?.actions ?? []) as ConfigAction[]).map((a) => resolveAction(a, `initial of ${s.id}`, impl, named));

  /** One transition taken from `leaf` (XState's microstep: exit states, transition content, enter states). */
  function compileTransition(leaf: AnyStateNode, t: TransitionDef, where: string): number {
    const guard = resolveGuard(t.guard, where, impl, named);
    const own = t.actions.map((a) => resolveAction(a, where, impl, named));
    const targets = t.target ?? [];
    if (targets.length === 0) return indexOf([guard, own, null, 0]);
    if (targets.length > 1) return unsupported(`a transition with several targets (${where})`);
    const target = targets[0] as AnyStateNode;
    const config = configurationOf(leaf);
    const domain = transitionDomain(t);
    // Exit set (computeExitSet): active descendants of the domain, and the domain itself when a reentering transition's source is it; deepest first.
    const exits = config.filter((s) => (domain === undefined ? true : isDescendant(s, domain)) || (t.reenter === true && t.source === domain && s === domain));
    exits.sort((a, b) => b.order - a.order);
    // Entry set (computeEntrySet): the target, its initial descendants, its ancestors inside the domain.
    const enter = new Set<AnyStateNode>();
    const defaultEntry = new Set<AnyStateNode>();
    if (t.source !== target || t.source !== domain || t.reenter === true) {
      enter.add(target);
      defaultEntry.add(target);
    }
    for (const s of initialChain(target)) {
      enter.add(s);
      defaultEntry.add(s);
    }
    const reentrancyDomain = t.source.parent === undefined && t.reenter === true ? undefined : domain;
    for (const anc of properAncestors(target, domain)) if (reentrancyDomain === undefined || isDescendant(anc, reentrancyDomain)) enter.add(anc);
    const entered = [...enter].sort((a, b) => a.order - b.order);
    const actions: NamedData[] = [...exits.flatMap(exitActions), ...own];
    for (const s of entered) actions.push(...entryActions(s), ...(defaultEntry.has(s) ? initialActions(s) : []));
    const chain = initialChain(target);
    const next = chain.length === 0 ? target : (chain[chain.length - 1] as AnyStateNode);
    // A final state of the root: the machine is done, and XState runs the exit actions of every active state.
    if (next.type === 'final') for (const s of configurationOf(next).sort((a, b) => b.order - a.order)) actions.push(...exitActions(s));
    return indexOf([guard, actions, pathOf(next), next !== leaf ? 1 : 0]);
  }

  const leaves: PlanData['leaves'] = leafNodes.map((n) => {
    const tags = new Set<string>();
    for (const s of configurationOf(n)) for (const tag of s.tags as string[]) tags.add(tag);
    const chain = [n, ...properAncestors(n, undefined)];
    const on = new Map<string, number[]>();
    for (const s of chain) {
      for (const [type, defs] of s.transitions as Map<string, TransitionDef[]>) {
        let list = on.get(type);
        if (list === undefined) on.set(type, (list = []));
        for (const t of defs) list.push(compileTransition(n, t, `${type} of ${s.id}`));
      }
    }
    const always = chain.flatMap((s) => ((s.always ?? []) as TransitionDef[]).map((t) => compileTransition(n, t, `always of ${s.id}`)));
    return [pathOf(n), n.id, [...tags], n.type === 'final' ? 1 : 0, [...on].map((entry) => entryIndex(entry)), always];
  });

  // Starting: the root is entered with its initial states (XState's initialMicrostep).
  const startChain = initialChain(root);
  const startLeaf = startChain[startChain.length - 1] as AnyStateNode;
  const startActions: NamedData[] = [...entryActions(root), ...initialActions(root)];
  for (const s of startChain) startActions.push(...entryActions(s), ...initialActions(s));
  const start = indexOf([null, startActions, pathOf(startLeaf), 1]);

  const resolve: Record<string, string> = {};
  for (const n of nodes) {
    if (n === root || n.type === 'atomic' || n.type === 'final') continue;
    const chain = initialChain(n);
    resolve[pathOf(n)] = pathOf(chain[chain.length - 1] ?? n);
  }
  return { machineId: root.id, names, transitions, entries, leaves, start, resolve };
}
