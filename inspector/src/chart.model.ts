/**
 * The chart's model, read from the machine's own definition (`turnMachine.root`): the
 * state nodes in document order, and the transitions worth drawing: guarded skips (those
 * whose action passes a step or phase over, each with its guard and rule: `hasNoAttackers`,
 * 508.8) and loops back into a state (the cleanup step that begins again, CR 514.3a).
 * Nothing here is drawn by hand; renaming a state or adding a skip in turn.machine.ts
 * changes the chart. No DOM: unit-testable.
 */
import { and, not, or, type AnyStateNode } from 'xstate';
import { copyCounts, stepSkipRule } from '../../src/rules/schedule.js';
import type { TurnContext } from '../../src/state.js';

/** xstate's higher-order guards, recognised by their `check` function (names do not survive minifying). */
const COMBINATORS: [string, unknown][] = [
  ['and', (and([]) as unknown as { check: unknown }).check],
  ['or', (or([]) as unknown as { check: unknown }).check],
  ['not', (not('x') as unknown as { check: unknown }).check],
];

/** A labelled transition drawn on the chart. */
export interface ChartTransition {
  kind: 'skip' | 'loop';
  /** The dotted path of the state the transition leaves (the step, for a skip). */
  from: string;
  /** The dotted path of the target. */
  to: string;
  /** The event that takes it, or '' for an eventless (`always`) transition. */
  event: string;
  /** The guard, written out (`isStepOver ∧ hasAttackers`). */
  guard: string;
  /** Steps the transition records as skipped (skips only). */
  skips: string[];
  /** The rule it cites, when known. */
  rule: string | null;
}

/** A state node of the chart. */
export interface ChartNode {
  /** Dotted path from the root, e.g. 'combat.declareAttackers'. */
  path: string;
  key: string;
  depth: number;
  final: boolean;
  children: ChartNode[];
  /** Transitions drawn on this node (skips on the step they leave, loops on the state they re-enter). */
  transitions: ChartTransition[];
}

/** Rules of loops, which record nothing themselves: a cleanup step begins again (CR 514.3a); an added combat or main phase (CR 500.8). */
const LOOP_RULES: Record<string, string> = { 'ending.cleanup': '514.3a', combat: '500.8', postcombatMain: '500.8' };

/**
 * A choice state (UML's choice pseudostate): a top-level state with no children whose only
 * transitions are eventless, like `nextPhase`, which decides what follows a phase. Its
 * transitions back into combat and the postcombat main phase are the added phases (CR 500.8).
 */
function isChoice(node: AnyStateNode): boolean {
  return node.path.length === 1 && node.type !== 'final' && Object.keys(node.states).length === 0 && (node.always?.length ?? 0) > 0;
}

/** What each rule that skips a step means, for the dimmed steps' captions. */
export const SKIP_REASONS: Record<string, string> = {
  '500.10': 'another step of an added phase',
  '103.8a': 'starting player skips the first draw',
  '508.8': 'no attackers',
  '510.4': 'no first or double strike',
  '614.10': 'a skip effect or a pending skip',
  '800.4j': 'no active player',
};

interface GuardLike {
  type?: string;
  params?: unknown;
  name?: string;
  guards?: unknown[];
}

/** The conjuncts of a guard: `and([a, and([b, c])])` -> [a, b, c]; others are one term. */
function conjuncts(guard: unknown): string[] {
  if (guard === undefined || guard === null) return [];
  if (typeof guard === 'string') return [guard];
  const g = guard as GuardLike;
  if (typeof guard === 'function' && Array.isArray(g.guards)) {
    const check = (guard as { check?: unknown }).check;
    const name = COMBINATORS.find(([, c]) => c === check)?.[0] ?? 'guard';
    if (name === 'and') return g.guards.flatMap(conjuncts);
    return [`${name}(${g.guards.flatMap(conjuncts).join(', ')})`];
  }
  if (typeof g.type === 'string') {
    const params = g.params && typeof g.params === 'object' ? Object.values(g.params as Record<string, unknown>).map(String).join(', ') : '';
    return [params ? `${g.type}(${params})` : g.type];
  }
  return [typeof guard === 'function' ? (g.name ?? 'guard') : 'guard'];
}

/** Terms common to every guard, in order: the condition that all variants share. */
function commonTerms(lists: string[][]): string[] {
  const [first = [], ...rest] = lists;
  return first.filter((term) => rest.every((l) => l.includes(term)));
}

/** The guard of a group of variants: their common terms, else each variant's, joined with 'or'. */
function guardOfGroup(lists: string[][]): string {
  const common = commonTerms(lists);
  if (common.length > 0 || lists.length === 0) return common.join(' ∧ ');
  return [...new Set(lists.map((l) => l.join(' ∧ ')))].join(' or ');
}

function pathOf(node: AnyStateNode): string {
  return node.path.join('.');
}

interface TransitionLike {
  target?: readonly AnyStateNode[] | undefined;
  guard?: unknown;
  actions: readonly unknown[];
  eventType: string;
  reenter?: boolean;
}

function transitionsOf(node: AnyStateNode): TransitionLike[] {
  const out: TransitionLike[] = [...((node.always ?? []) as TransitionLike[])];
  for (const list of node.transitions.values()) out.push(...(list as TransitionLike[]));
  return out;
}

/**
 * A transition that passes a step or a phase over as it would begin (its action is
 * `passOverStep` or `passOverPhase`), with the rule its action names (`passOverStep`'s
 * `params.rule`: 500.10, 103.8a, 508.8, 510.4, 614.10); the chip names the guard and the
 * rule, and the page dims the steps the schedule shows skipped.
 */
function recordedSkips(t: TransitionLike): { steps: string[]; rule: string } | null {
  for (const a of t.actions) {
    const action = typeof a === 'string' ? { type: a } : (a as { type?: string; params?: { rule?: unknown } } | null);
    if (action?.type !== 'passOverStep' && action?.type !== 'passOverPhase') continue;
    const rule = action.params?.rule;
    return { steps: [], rule: typeof rule === 'string' ? rule : '' };
  }
  return null;
}

/** The step (depth-2 ancestor or self) of a node, or the node itself above that depth. */
function stepPathOf(node: AnyStateNode): string {
  return node.path.slice(0, 2).join('.');
}

/** Builds the chart model of a machine's root node. */
export function chartOf(root: AnyStateNode): ChartNode[] {
  const skipGroups = new Map<string, { host: string; items: { t: TransitionLike; source: AnyStateNode }[]; steps: string[]; rule: string }>();
  const loops: ChartTransition[] = [];
  const visit = (node: AnyStateNode): ChartNode => {
    for (const t of transitionsOf(node)) {
      const skip = recordedSkips(t);
      const target = t.target?.[0];
      if (skip !== null) {
        const host = stepPathOf(node);
        const key = `${host}|${skip.rule}|${skip.steps.join(',')}|${t.eventType}`;
        const group = skipGroups.get(key) ?? { host, items: [], steps: skip.steps, rule: skip.rule };
        group.items.push({ t, source: node });
        skipGroups.set(key, group);
      } else if (target !== undefined && isChoice(node) && LOOP_RULES[pathOf(target)] === '500.8') {
        const to = pathOf(target);
        loops.push({ kind: 'loop', from: pathOf(node), to, event: t.eventType, guard: conjuncts(t.guard).join(' ∧ '), skips: [], rule: '500.8' });
      } else if (target !== undefined && t.reenter === true && (target === node || node.path.join('.').startsWith(`${pathOf(target)}.`))) {
        const to = pathOf(target);
        loops.push({ kind: 'loop', from: pathOf(node), to, event: t.eventType, guard: conjuncts(t.guard).join(' ∧ '), skips: [], rule: LOOP_RULES[to] ?? null });
      }
    }
    return {
      path: pathOf(node),
      key: node.key,
      depth: node.path.length,
      final: node.type === 'final',
      children: Object.values(node.states).map(visit),
      transitions: [],
    };
  };
  const nodes = Object.values(root.states).map(visit);
  const byPath = new Map<string, ChartNode>();
  const index = (n: ChartNode) => {
    byPath.set(n.path, n);
    n.children.forEach(index);
  };
  nodes.forEach(index);
  for (const group of skipGroups.values()) {
    const targets = [...new Set(group.items.map(({ t }) => (t.target?.[0] ? pathOf(t.target[0]) : '')))];
    const event = group.items[0]?.t.eventType ?? '';
    byPath.get(group.host)?.transitions.push({
      kind: 'skip',
      from: group.host,
      to: targets.length === 1 ? (targets[0] as string) : 'the next phase or turn',
      event,
      guard: guardOfGroup(group.items.map(({ t }) => conjuncts(t.guard))),
      skips: group.steps,
      rule: group.rule === '' ? null : group.rule,
    });
  }
  for (const loop of loops) byPath.get(loop.to)?.transitions.push(loop);
  return nodes;
}

/**
 * The rule that passes over each step still to come in this phase (src/rules/schedule.ts's
 * stepSkipRule, as the schedule looks ahead: pending skips used up in order), by step.
 */
export function stepSkipRules(context: TurnContext): Map<string, string> {
  const out = new Map<string, string>();
  if (context.phase === 'pregame') return out;
  const counts = copyCounts(context.skips);
  for (const entry of context.steps) {
    const rule = stepSkipRule(context, context.phase, entry, counts);
    if (rule !== null && !out.has(entry.step)) out.set(entry.step, rule);
  }
  return out;
}

/** Every path of a state value and its ancestors: {combat: {declareAttackers: 'declaring'}} -> 3 paths. */
export function activePaths(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, prefix: string) => {
    if (typeof v === 'string') out.add(prefix ? `${prefix}.${v}` : v);
    else if (typeof v === 'object' && v !== null) {
      for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
        const path = prefix ? `${prefix}.${key}` : key;
        out.add(path);
        walk(child, path);
      }
    }
  };
  walk(value, '');
  return out;
}
