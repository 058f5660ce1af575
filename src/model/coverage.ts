/**
 * Coverage of the statechart by the model's paths: every state node (from `machine.root`)
 * and every transition (the event transitions of `toDirectedGraph`, plus the eventless
 * `always` transitions), and the path that covers each.
 *
 * Which transitions an event fires is observed, not guessed: the machine is stepped with
 * an inspection observer, and each `@xstate.microstep` inspection event carries the
 * transitions it took (`_transitions`) and the snapshot it reached.
 */
import type { AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { getStateNodes, toDirectedGraph, type DirectedGraphNode } from 'xstate/graph';
import { turnMachine } from '../../machines/turn.machine.js';
import { freshSend } from '../gate.js';
import { serializeState } from './abstraction.js';
import { modelEvents } from './events.js';
import type { MachineEvent } from '../state.js';
import {
  configName,
  createTurnModel,
  accepts,
  eventsOfTestPath,
  initialSnapshot,
  initialSnapshotObserved,
  modelActorScope,
  unreachableWhy,
  type ModelConfig,
  type ModelPath,
  type TurnSnapshot,
} from './model.js';

/** A transition of the machine, named `<source>:<event>[<index>]` ('turn.ending.cleanup.discarding:DISCARD[0]'). */
export interface MachineTransition {
  id: string;
  source: string;
  event: string;
  guard: string | null;
  /** The transition's own actions, as the chart names them: 'passOverStep(508.8)', 'takeNextStep'. */
  actions: string[];
  targets: string[];
}

/** The elements of the machine that coverage counts. */
export interface MachineElements {
  /** Every state node id, the root included ('turn', 'turn.beginning', ...). */
  stateNodes: string[];
  transitions: MachineTransition[];
  /** The transition id of each transition definition. */
  idOf: Map<AnyTransitionDefinition, string>;
}

/** A readable guard: 'isStepOver', 'and(isStepOver, hasAttackers)', 'isNextPhase(combat)'. */
export function describeGuard(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const g = guard as { name?: string; guards?: unknown[] };
    return `${g.name ?? 'guard'}(${(g.guards ?? []).map(describeGuard).join(', ')})`;
  }
  const g = guard as { type?: string; params?: Record<string, unknown> };
  const params = g.params === undefined ? '' : `(${Object.values(g.params).join(', ')})`;
  return `${g.type ?? 'guard'}${params}`;
}

/** A readable action: 'takeNextStep', 'passOverStep(508.8)'. */
export function describeAction(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') return (action as { name?: string }).name || 'action';
  const a = action as { type?: string; params?: Record<string, unknown> };
  const params = a.params === undefined ? '' : `(${Object.values(a.params).join(', ')})`;
  return `${a.type ?? 'action'}${params}`;
}

/** Lists the machine's state nodes and transitions, from `machine.root` and `toDirectedGraph`. */
export function machineElements(): MachineElements {
  const nodes: AnyStateNode[] = [turnMachine.root, ...getStateNodes(turnMachine.root)];
  const transitions: MachineTransition[] = [];
  const idOf = new Map<AnyTransitionDefinition, string>();
  const add = (t: AnyTransitionDefinition, event: string, index: number): void => {
    const id = `${t.source.id}:${event}[${index}]`;
    if (idOf.has(t)) return;
    idOf.set(t, id);
    transitions.push({ id, source: t.source.id, event, guard: describeGuard(t.guard), actions: (t.actions ?? []).map(describeAction), targets: (t.target ?? []).map((n) => n.id) });
  };
  const walk = (graph: DirectedGraphNode): void => {
    for (const edge of graph.edges) {
      const event = edge.transition.eventType;
      add(edge.transition, event, [...(graph.stateNode.transitions.get(event) ?? [])].indexOf(edge.transition));
    }
    (graph.stateNode.always ?? []).forEach((t, i) => add(t, 'always', i));
    graph.children.forEach(walk);
  };
  walk(toDirectedGraph(turnMachine));
  return { stateNodes: nodes.map((n) => n.id), transitions, idOf };
}

/** What one event did to the machine: the snapshot reached, the transitions taken, the state nodes entered or active. */
export interface ObservedStep {
  next: TurnSnapshot;
  transitions: AnyTransitionDefinition[];
  nodes: Set<string>;
}

/** Steps the machine by one event and observes its microsteps. */
export function observeStep(snapshot: TurnSnapshot, event: MachineEvent): ObservedStep {
  if (!accepts(snapshot, event)) return { next: snapshot, transitions: [], nodes: new Set() };
  const transitions: AnyTransitionDefinition[] = [];
  const nodes = new Set<string>();
  const scope = modelActorScope((e) => {
    if (e.type !== '@xstate.microstep') return;
    transitions.push(...((e._transitions ?? []) as AnyTransitionDefinition[]));
    for (const n of (e.snapshot as { _nodes: AnyStateNode[] })._nodes) nodes.add(n.id);
  });
  const next = turnMachine.transition(freshSend(snapshot), event, scope);
  for (const n of next._nodes) nodes.add(n.id);
  return { next, transitions, nodes };
}

/** Coverage of one element: the path that covers it, or null. */
export interface CoveredElement {
  id: string;
  /** Index into `CoverageResult.paths`, or null when nothing covers it. */
  path: number | null;
}

/** The coverage of one configuration. */
export interface CoverageResult {
  config: ModelConfig;
  /** Model states (serializeState keys) reached. */
  modelStates: number;
  /**
   * The shortest path to every model state but the first (in breadth-first order: `tree`
   * of them), then shortest paths extended by one event where those miss something.
   */
  paths: ModelPath[];
  /** How many of `paths` are shortest paths to model states. */
  tree: number;
  stateNodes: CoveredElement[];
  transitions: CoveredElement[];
  elements: MachineElements;
  ms: number;
}

/** The summary printed by `mtg-turn-engine coverage --json`: reachable elements covered, and those the configuration cannot reach. */
export interface CoverageSummary {
  config: string;
  states: { covered: number; total: number; unreachable: number };
  transitions: { covered: number; total: number; unreachable: number };
  /** The skips the paths took, as 'combat.nextStep: hasNoAttackers (508.8)' (see {@link skipsTaken}). */
  skips: string[];
  modelStates: number;
  ms: number;
}

/**
 * Generates the model's shortest paths (one per model state) and finds, for each state
 * node and transition, the first path (in breadth-first order) that covers it. Paths are
 * replayed on the real machine from a new game, so they are exact: the state a path
 * reaches is the one the traversal recorded. Elements the shortest paths miss are looked
 * for on the other edges of the model (a shortest path plus one event).
 */
export function computeCoverage(config: ModelConfig): CoverageResult {
  const started = performance.now();
  const elements = machineElements();
  const model = createTurnModel(config);
  const testPaths = model.getShortestPaths({ allowDuplicatePaths: true });
  const start = initialSnapshot(config);
  const concrete = new Map<string, TurnSnapshot>([[serializeState(start), start]]);
  const pathTo = new Map<string, ModelPath>([[serializeState(start), { events: [], keys: [] }]]);
  const paths: ModelPath[] = [];
  const nodeCover = new Map<string, number>();
  const transitionCover = new Map<string, number>();
  const startNodes = start._nodes.map((n) => n.id);

  const record = (observed: ObservedStep, pathIndex: number): void => {
    for (const n of observed.nodes) if (!nodeCover.has(n)) nodeCover.set(n, pathIndex);
    for (const t of observed.transitions) {
      const id = elements.idOf.get(t);
      if (id !== undefined && !transitionCover.has(id)) transitionCover.set(id, pathIndex);
    }
  };

  for (const testPath of testPaths) {
    const events = eventsOfTestPath(testPath);
    const key = serializeState(testPath.state);
    if (events.length === 0) continue;
    const parentKey = serializeState(testPath.steps[testPath.steps.length - 2]?.state as TurnSnapshot);
    const parent = concrete.get(parentKey);
    const parentPath = pathTo.get(parentKey);
    if (parent === undefined || parentPath === undefined) throw new Error(`model path to ${key} has no known parent ${parentKey}`);
    const observed = observeStep(parent, events[events.length - 1] as MachineEvent);
    const reached = serializeState(observed.next);
    if (reached !== key) throw new Error(`model path to ${key} reaches ${reached} when replayed`);
    concrete.set(key, observed.next);
    const path: ModelPath = { events, keys: [...parentPath.keys, key] };
    pathTo.set(key, path);
    paths.push(path);
    record(observed, paths.length - 1);
  }
  // The microsteps of createGame itself (the pregame or turn 1 begins): credited to the first path.
  const initial: ObservedStep = { next: start, transitions: [], nodes: new Set(startNodes) };
  initialSnapshotObserved(config, (e) => {
    if (e.type !== '@xstate.microstep') return;
    const taken = (e._transitions ?? []) as AnyTransitionDefinition[];
    initial.transitions.push(...taken);
    // A transition's source was active, even if no microstep's snapshot shows it (turn.start).
    for (const t of taken) initial.nodes.add(t.source.id);
    for (const n of (e.snapshot as { _nodes: AnyStateNode[] })._nodes) initial.nodes.add(n.id);
  });
  record(initial, 0);
  const tree = paths.length;

  // Elements no shortest path covers: try every other followed edge of the model.
  const missing = (): boolean =>
    elements.stateNodes.some((n) => !nodeCover.has(n) && unreachableWhy(config, `#${n}`) === undefined) ||
    elements.transitions.some((t) => !transitionCover.has(t.id) && unreachableWhy(config, t.id) === undefined);
  if (missing()) {
    for (const [key, snapshot] of concrete) {
      const base = pathTo.get(key) as ModelPath;
      for (const event of modelEvents(snapshot)) {
        const observed = observeStep(snapshot, event);
        const fresh =
          [...observed.nodes].some((n) => !nodeCover.has(n)) ||
          observed.transitions.some((t) => {
            const id = elements.idOf.get(t);
            return id !== undefined && !transitionCover.has(id);
          });
        if (!fresh) continue;
        paths.push({ events: [...base.events, event], keys: [...base.keys, serializeState(observed.next)] });
        record(observed, paths.length - 1);
      }
      if (!missing()) break;
    }
  }
  return {
    config,
    modelStates: concrete.size,
    paths,
    tree,
    stateNodes: elements.stateNodes.map((id) => ({ id, path: nodeCover.get(id) ?? null })),
    transitions: elements.transitions.map((t) => ({ id: t.id, path: transitionCover.get(t.id) ?? null })),
    elements,
    ms: Math.round(performance.now() - started),
  };
}

/**
 * The shortest paths that are not a prefix of another (the leaves of the breadth-first
 * tree): together they take every edge of the tree, so they reach every model state.
 */
export function leafPaths(result: CoverageResult): ModelPath[] {
  const tree = result.paths.slice(0, result.tree);
  const parents = new Set(tree.map((p) => p.keys[p.keys.length - 2]));
  return tree.filter((p) => !parents.has(p.keys[p.keys.length - 1]));
}

/** The counts of a coverage result. */
export function summarize(result: CoverageResult): CoverageSummary {
  const count = (list: CoveredElement[], key: (id: string) => string) => {
    const reachable = list.filter((e) => unreachableWhy(result.config, key(e.id)) === undefined);
    return { covered: reachable.filter((e) => e.path !== null).length, total: reachable.length, unreachable: list.length - reachable.length };
  };
  return {
    config: result.config.name,
    states: count(result.stateNodes, (id) => `#${id}`),
    transitions: count(result.transitions, (id) => id),
    skips: skipsTaken(result)
      .filter((k) => k.path !== null)
      .map((k) => `${k.state}: ${k.guard}${k.rule ? ` (${k.rule})` : ''}`),
    modelStates: result.modelStates,
    ms: result.ms,
  };
}

/** A transition of the chart that passes a step or a phase over (`passOverStep`, `passOverPhase`), and the path that first took it. */
export interface SkipTransition {
  id: string;
  /** The choice state it leaves, as the view names it ('combat.nextStep', 'nextPhase'). */
  state: string;
  /** The guard that names the skip ('hasNoAttackers'). */
  guard: string;
  /** The rule its action passes the step over by ('508.8'), or '' when the action names none. */
  rule: string;
  /** Index into `CoverageResult.paths`, or null when no path took it. */
  path: number | null;
}

/** The skips of the chart (103.8a, 500.10, 508.8, 510.4, 614.10) and which of them the model's paths took. */
export function skipsTaken(result: CoverageResult): SkipTransition[] {
  const byId = new Map(result.transitions.map((t) => [t.id, t.path]));
  const out: SkipTransition[] = [];
  for (const t of result.elements.transitions) {
    const pass = t.actions.find((a) => a.startsWith('passOverStep') || a.startsWith('passOverPhase'));
    if (pass === undefined) continue;
    const rule = /\((.*)\)$/.exec(pass)?.[1] ?? '';
    out.push({ id: t.id, state: t.source.replace(/^turn\./, ''), guard: t.guard ?? '', rule, path: byId.get(t.id) ?? null });
  }
  return out;
}

/** Elements declared unreachable in a configuration that a path covers after all (the declaration is wrong). */
export function wronglyUnreachable(result: CoverageResult): string[] {
  const covered = new Set([...result.stateNodes.filter((n) => n.path !== null).map((n) => `#${n.id}`), ...result.transitions.filter((t) => t.path !== null).map((t) => t.id)]);
  return [...covered].filter((id) => unreachableWhy(result.config, id) !== undefined);
}

/** The elements nothing covers, described for a failure message. */
export function uncovered(result: CoverageResult): string[] {
  const byId = new Map(result.elements.transitions.map((t) => [t.id, t]));
  const reachable = (id: string) => unreachableWhy(result.config, id) === undefined;
  return [
    ...result.stateNodes.filter((n) => n.path === null && reachable(`#${n.id}`)).map((n) => `state node #${n.id}`),
    ...result.transitions
      .filter((t) => t.path === null && reachable(t.id))
      .map((t) => {
        const d = byId.get(t.id);
        return `transition ${t.id}${d?.guard ? ` [${d.guard}]` : ''} -> ${d?.targets.map((x) => `#${x}`).join(', ') || '(no target)'}`;
      }),
  ].map((line) => `${configName(result.config)}: ${line}`);
}
