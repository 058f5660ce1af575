/**
 * The statechart as a graph: the layout elkjs computed when the page was built
 * (`virtual:chart-layout`, inspector/layout.ts) drawn as SVG: every state a box nested in its
 * parent, every transition an arrow labelled with its event or guard; the active states are
 * highlighted as the game moves (`data-active`).
 */
import type { ChartLayout } from '../layout.js';

const SVG = 'http://www.w3.org/2000/svg';

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The drawn graph and how to highlight the active states. */
export interface Graph {
  element: SVGSVGElement;
  /** The laid-out width in pixels (the graph's width at actual size). */
  width: number;
  update(active: ReadonlySet<string>): void;
}

/**
 * The graph section: the graph scaled to the page's width (it is about 2,400 px wide laid out,
 * wider than most windows), with a button that shows it at actual size, scrolled sideways
 * within its box, and back.
 */
export function graphSection(graph: Graph, title: string): HTMLElement {
  const box = document.createElement('section');
  box.className = 'graph-box';
  box.dataset.zoom = 'fit';
  const heading = document.createElement('h2');
  heading.textContent = `${title} `;
  const zoom = document.createElement('button');
  zoom.type = 'button';
  zoom.dataset.testid = 'graph-zoom';
  const show = () => {
    const fit = box.dataset.zoom === 'fit';
    zoom.textContent = fit ? 'actual size' : 'fit to width';
    zoom.setAttribute('aria-pressed', String(!fit));
    graph.element.style.width = fit ? '' : `${graph.width}px`;
  };
  zoom.addEventListener('click', () => {
    box.dataset.zoom = box.dataset.zoom === 'fit' ? 'actual' : 'fit';
    show();
  });
  show();
  heading.append(zoom);
  const scroller = document.createElement('div');
  scroller.className = 'graph-scroll';
  scroller.append(graph.element);
  box.append(heading, scroller);
  return box;
}

export function renderGraph(layout: ChartLayout): Graph {
  const svg = el('svg', { viewBox: `0 0 ${Math.ceil(layout.width)} ${Math.ceil(layout.height)}`, class: 'graph', 'data-testid': 'graph', role: 'img', 'aria-label': 'the turn statechart, laid out by elkjs' });
  const defs = el('defs', {});
  const marker = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' });
  marker.append(el('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'arrow-head' }));
  defs.append(marker);
  svg.append(defs);
  const boxes = new Map<string, SVGGElement>();
  for (const n of [...layout.nodes].sort((a, b) => a.depth - b.depth)) {
    const g = el('g', { 'data-graph-state': n.path, 'data-active': 'false', class: n.leaf ? 'graph-state leaf' : 'graph-state' });
    g.append(el('rect', { x: n.x, y: n.y, width: n.width, height: n.height, rx: 6 }));
    g.append(el('text', { x: n.x + 6, y: n.y + (n.leaf ? n.height / 2 + 4 : 14) }, n.path === '' ? 'turn' : n.key));
    svg.append(g);
    boxes.set(n.path, g);
  }
  for (const e of layout.edges) {
    const g = el('g', { class: 'graph-edge', 'data-edge-from': e.from, 'data-edge-to': e.to, 'data-label': e.label });
    g.append(el('path', { d: e.points.map((p, i) => `${i === 0 ? 'M' : 'L'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' '), 'marker-end': 'url(#arrow)' }));
    if (e.labelAt !== null) g.append(el('text', { x: e.labelAt.x, y: e.labelAt.y + 8, class: 'edge-label' }, e.label));
    svg.append(g);
  }
  return {
    element: svg,
    width: Math.ceil(layout.width),
    update(active) {
      for (const [path, g] of boxes) g.dataset.active = String(path === '' || active.has(path));
    },
  };
}
