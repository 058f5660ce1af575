/**
 * The chart laid out by a graph layout library (elkjs, layered, hierarchical): every state
 * node of `turnMachine.root` as a box nested in its parent, every transition with a target as
 * an arrow labelled with its event or, for an eventless one, its guard. Computed in Node when
 * the page is built (vite.config.ts serves it as `virtual:chart-layout`), so the page ships
 * coordinates, not the layout engine. No DOM.
 */
import elk from 'elkjs/lib/elk.bundled.js';
import type { ELK as ElkInstance, ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api.js';

// elkjs is CommonJS: its class is the module itself, or its `default` under some loaders.
const ELK = ((elk as unknown as { default?: unknown }).default ?? elk) as unknown as new () => ElkInstance;
import type { AnyStateNode } from 'xstate';

/** A laid-out state node (absolute coordinates). */
export interface LaidNode {
  /** Dotted path from the root ('' for the root itself). */
  path: string;
  key: string;
  depth: number;
  leaf: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A laid-out transition (absolute coordinates). */
export interface LaidEdge {
  id: string;
  from: string;
  to: string;
  label: string;
  points: { x: number; y: number }[];
  labelAt: { x: number; y: number } | null;
}

/** The whole chart. */
export interface ChartLayout {
  width: number;
  height: number;
  nodes: LaidNode[];
  edges: LaidEdge[];
}

interface TransitionLike {
  target?: readonly AnyStateNode[];
  guard?: unknown;
  eventType: string;
}

const pathOf = (node: AnyStateNode) => node.path.join('.');
const idOf = (path: string) => (path === '' ? 'root' : path);

/** A short label: the event, or for an eventless transition its guard ('always' when none). */
function labelOf(t: TransitionLike): string {
  if (t.eventType !== '') return t.eventType;
  const g = t.guard as { type?: string; params?: Record<string, unknown> } | string | undefined;
  if (g === undefined) return 'always';
  if (typeof g === 'string') return g;
  const params = g.params === undefined ? '' : `(${Object.values(g.params).join(', ')})`;
  return `${g.type ?? 'guard'}${params}`;
}

/** Lays the chart out. */
export async function chartLayout(root: AnyStateNode): Promise<ChartLayout> {
  const edges: ElkExtendedEdge[] = [];
  const meta = new Map<string, { from: string; to: string; label: string }>();
  /** The node an arrow ends on: a state containing the arrow's source is entered at its initial child. */
  const targetOf = (target: AnyStateNode, source: AnyStateNode): AnyStateNode => {
    let t = target;
    while (Object.keys(t.states).length > 0 && (source === t || pathOf(source).startsWith(`${pathOf(t)}.`) || pathOf(t) === '')) {
      const initial = (t.initial as { target?: readonly AnyStateNode[] } | undefined)?.target?.[0];
      if (initial === undefined) break;
      t = initial;
    }
    return t;
  };
  const build = (node: AnyStateNode): ElkNode => {
    const path = pathOf(node);
    const children = Object.values(node.states);
    const transitions: TransitionLike[] = [...((node.always ?? []) as TransitionLike[]).map((t) => ({ ...t, eventType: '' }))];
    for (const list of node.transitions.values()) transitions.push(...(list as TransitionLike[]));
    // A compound state's own transitions leave from a small "any state" box inside it: ELK
    // cannot draw an arrow from a box to what it contains.
    const source = children.length === 0 ? idOf(path) : `${idOf(path)}:any`;
    let own = 0;
    for (const t of transitions) {
      for (const target of t.target ?? []) {
        const id = `e${edges.length}`;
        const label = labelOf(t);
        const to = pathOf(targetOf(target, node));
        meta.set(id, { from: path, to, label });
        edges.push({ id, sources: [source], targets: [idOf(to)], labels: [{ text: label, width: label.length * 5.5, height: 10 }] });
        own++;
      }
    }
    const label = { text: node.key, width: node.key.length * 7 + 8, height: 14 };
    if (children.length === 0) return { id: idOf(path), width: label.width + 12, height: 24, labels: [label] };
    const kids = children.map(build);
    if (own > 0) kids.unshift({ id: source, width: 56, height: 18, labels: [{ text: 'any state', width: 48, height: 12 }] });
    return {
      id: idOf(path),
      labels: [label],
      layoutOptions: { 'elk.padding': '[top=22,left=8,bottom=8,right=8]', 'elk.nodeLabels.placement': 'INSIDE V_TOP H_LEFT' },
      children: kids,
    };
  };
  const graph = build(root);
  graph.edges = edges;
  graph.layoutOptions = {
    'elk.algorithm': 'layered',
    'elk.direction': 'DOWN',
    'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
    'elk.layered.spacing.nodeNodeBetweenLayers': '28',
    'elk.spacing.nodeNode': '18',
    'elk.edgeLabels.inline': 'true',
    'elk.padding': '[top=22,left=8,bottom=8,right=8]',
  };
  const laid = await new ELK().layout(graph);
  const nodes: LaidNode[] = [];
  const offsets = new Map<string, { x: number; y: number }>();
  const walk = (n: ElkNode, dx: number, dy: number, depth: number) => {
    const x = dx + (n.x ?? 0);
    const y = dy + (n.y ?? 0);
    offsets.set(n.id, { x, y });
    const path = n.id === 'root' ? '' : n.id;
    if (!path.endsWith(':any')) nodes.push({ path, key: n.labels?.[0]?.text ?? n.id, depth, leaf: (n.children ?? []).length === 0, x, y, width: n.width ?? 0, height: n.height ?? 0 });
    for (const c of n.children ?? []) walk(c, x, y, depth + 1);
  };
  walk(laid, 0, 0, 0);
  const out: LaidEdge[] = [];
  const collect = (n: ElkNode) => {
    for (const e of (n.edges ?? []) as (ElkExtendedEdge & { container?: string })[]) {
      const m = meta.get(e.id);
      const section = e.sections?.[0];
      if (m === undefined || section === undefined) continue;
      const base = offsets.get(e.container ?? n.id) ?? { x: 0, y: 0 };
      const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => ({ x: base.x + p.x, y: base.y + p.y }));
      const l = e.labels?.[0];
      out.push({ id: e.id, ...m, points, labelAt: l?.x === undefined ? null : { x: base.x + l.x, y: base.y + (l.y ?? 0) } });
    }
    for (const c of n.children ?? []) collect(c);
  };
  collect(laid);
  return { width: laid.width ?? 0, height: laid.height ?? 0, nodes, edges: out };
}
