/**
 * Draws the chart model as nested boxes: phases holding their steps, steps holding their
 * inner states; every box carries `data-state="<dotted path>"` and `data-active`. Skips and
 * loops are labelled chips (`data-transition="skip" | "loop"`). Built once, then updated
 * by toggling attributes.
 */
import type { AnyStateNode } from 'xstate';
import type { TurnView } from '../../src/contract.js';
import type { TurnContext } from '../../src/state.js';
import { activePaths, chartOf, SKIP_REASONS, stepSkipRules, type ChartNode, type ChartTransition } from './chart.model.js';
import { h } from './dom.js';
import { STEPS_OF_PHASE } from '../../src/rules/schedule.js';

/** Why a skip passes the next step or phase over: '⤳ skip: no attackers · 508.8' (its guard is written below it). */
function skipText(t: ChartTransition): string {
  const what = t.skips.length > 0 ? `skips ${t.skips.join(', ')}` : t.rule ? `skip: ${SKIP_REASONS[t.rule] ?? 'by rule'}` : `skips the next ${t.from.endsWith('.nextStep') ? 'step' : 'phase'}`;
  return `⤳ ${what}${t.rule ? ` · ${t.rule}` : ''}${t.to ? ` → ${t.to.split('.').pop() ?? t.to}` : ''}`;
}

function transitionChip(t: ChartTransition): HTMLLIElement {
  const when = t.guard ? ` when ${t.guard}` : '';
  const on = t.event ? ` on ${t.event}` : '';
  const rule = t.rule ? ` · ${t.rule}` : '';
  const text = t.kind === 'skip' ? skipText(t) : `↻ ${t.to.split('.').pop() ?? t.to} begins again${rule}`;
  return h(
    'li',
    {
      class: `transition ${t.kind}`,
      'data-transition': t.kind,
      'data-from': t.from,
      'data-to': t.to,
      'data-rule': t.rule ?? '',
      'data-guard': t.guard,
      title: `${t.from} → ${t.to || t.from}${on}${when}`,
    },
    h('span', { class: 'label' }, text),
    h('span', { class: 'guard' }, `${on}${when}`.trim()),
  );
}

function nodeBox(node: ChartNode): HTMLElement {
  const transitions = node.transitions.length ? h('ul', { class: 'transitions' }, node.transitions.map(transitionChip)) : null;
  if (node.depth === 1) {
    const steps: HTMLElement[] = [];
    node.children.forEach((child, i) => {
      if (i > 0) steps.push(h('span', { class: 'arrow', 'aria-hidden': 'true' }, '→'));
      steps.push(nodeBox(child));
    });
    return h(
      'section',
      { class: `phase${node.final ? ' final' : ''}`, 'data-state': node.path, 'data-active': 'false' },
      h('h3', {}, node.key, h('span', { class: 'reason' })),
      steps.length ? h('div', { class: 'steps' }, steps) : null,
      transitions,
    );
  }
  if (node.depth === 2) {
    return h(
      'div',
      { class: 'step', 'data-state': node.path, 'data-active': 'false' },
      h('div', { class: 'name' }, node.key, h('span', { class: 'count' })),
      node.children.length ? h('div', { class: 'substates' }, node.children.map(nodeBox)) : null,
      h('div', { class: 'reason' }),
      transitions,
    );
  }
  return h('span', { class: 'substate', 'data-state': node.path, 'data-active': 'false' }, node.key, transitions);
}

/** A rendered chart. */
export interface Chart {
  element: HTMLElement;
  /** Highlights the active states of a state value and dims what was skipped this turn. */
  update(value: unknown, view: TurnView, context: TurnContext): void;
}

/**
 * The steps and phases effects added to this turn, by chart path, from the queue of what is
 * left (CR 500.8-500.10): a step queued again after its own place in the phase, a phase
 * marked as added.
 */
export function addedSteps(context: TurnContext): Map<string, number> {
  const out = new Map<string, number>();
  const bump = (path: string) => out.set(path, (out.get(path) ?? 0) + 1);
  const order: readonly string[] = (STEPS_OF_PHASE as Record<string, readonly string[]>)[context.phase] ?? [];
  let last = order.indexOf(context.step);
  for (const entry of context.steps) {
    const i = order.indexOf(entry.step);
    if (i <= last) bump(`${context.phase}.${entry.step}`);
    else last = i;
  }
  let mainSeen = context.mainSeen || context.phase === 'precombatMain';
  for (const phase of context.phases) {
    const name = phase.kind === 'main' ? (mainSeen ? 'postcombatMain' : 'precombatMain') : phase.kind;
    if (phase.kind === 'main') mainSeen = true;
    if (phase.extra === true) bump(name);
  }
  return out;
}

/** Renders the chart of a machine's root state node. */
export function renderChart(root: AnyStateNode): Chart {
  const model = chartOf(root);
  const element = h('div', { class: 'chart', 'data-testid': 'chart' }, model.map(nodeBox));
  const boxes = [...element.querySelectorAll<HTMLElement>('[data-state]')];
  const chips = [...element.querySelectorAll<HTMLElement>('[data-transition]')];
  return {
    element,
    update(value, view, context) {
      const active = activePaths(value);
      const skipped = new Map<string, string>();
      // What the schedule says will be passed over in this phase and the phases still to come, and by which rule.
      const rules = stepSkipRules(context);
      for (const s of view.schedule.steps) {
        const rule = rules.get(s.step);
        if (s.skipped) skipped.set(`${view.phase}.${s.step}`, rule === undefined ? 'skipped' : `skipped: ${SKIP_REASONS[rule] ?? 'by'} (CR ${rule})`);
      }
      for (const p of view.schedule.phases) if (p.skipped) skipped.set(p.phase, 'skipped (CR 614.10)');
      const added = addedSteps(context);
      for (const box of boxes) {
        const path = box.dataset.state as string;
        box.dataset.active = String(active.has(path));
        const reason = skipped.get(path);
        const extra = added.get(path) ?? 0;
        const caption = box.querySelector(':scope > .reason, :scope > h3 > .reason');
        if (extra > 0) box.dataset.added = String(extra);
        else delete box.dataset.added;
        if (reason !== undefined && !active.has(path)) {
          box.dataset.skipped = 'true';
          if (caption) caption.textContent = reason;
        } else {
          delete box.dataset.skipped;
          if (caption) caption.textContent = extra > 0 ? `+${extra} added (500.8-500.10)` : '';
        }
      }
      const cleanupCount = element.querySelector('[data-state="ending.cleanup"] .count');
      if (cleanupCount) cleanupCount.textContent = active.has('ending.cleanup') && context.cleanupSteps > 1 ? ` ×${context.cleanupSteps}` : '';
      // A skip of this phase's next steps is lit while a step still to come will be passed over by its rule.
      const pending = new Set([...rules.values()].map((rule) => `${context.phase}.nextStep|${rule}`));
      for (const chip of chips) {
        const from = chip.dataset.from as string;
        const loopActive = chip.dataset.transition === 'loop' && active.has(chip.dataset.to as string) && context.cleanupSteps > 1 && from.startsWith('ending.');
        const skipPending = chip.dataset.transition === 'skip' && pending.has(`${from}|${chip.dataset.rule ?? ''}`);
        chip.dataset.active = String(active.has(from) || loopActive || skipPending);
      }
    },
  };
}
