/**
 * What the controls share: the form contents kept across renders ({@link Drafts}), what the
 * controls need from the app ({@link ControlsInput}), and small field builders that read and
 * write the drafts. Every button that sends an event has `data-action="<EVENT TYPE>"`.
 */
import type { LegalAction } from '../../src/legal.js';
import type { TurnView } from '../../src/contract.js';
import { h } from './dom.js';

/** A row of the attackers or blockers form. */
export interface CombatantDraft {
  id: string;
  /** The defender (attackers) or the attacker blocked (blockers). */
  target: string;
  firstStrike: boolean;
  doubleStrike: boolean;
}

/** Form contents, kept across renders. */
export interface Drafts {
  serial: number;
  fields: Record<string, string>;
  attackers: CombatantDraft[];
  blockers: CombatantDraft[];
}

/** A fresh set of drafts. */
export function newDrafts(): Drafts {
  return { serial: 1, fields: {}, attackers: [], blockers: [] };
}

/** What the controls need from the app. */
export interface ControlsInput {
  view: TurnView;
  legal: LegalAction[];
  /** True while time travelling or following a remote game: nothing can be sent. */
  readOnly: boolean;
  drafts: Drafts;
  send(event: Record<string, unknown>): void;
  /** Queues a trigger that the checkpoint hook reports in the next cleanup step (CR 514.3a). */
  triggerAtCleanup(trigger: { id: string; controller: string }): void;
  /** Triggers queued for the next cleanup step. */
  queuedCleanupTriggers: { id: string; controller: string }[];
  rerender(): void;
}

/** A text field kept in the drafts under `name`. */
export function text(input: ControlsInput, name: string, fallback: string, attrs: Record<string, string> = {}): HTMLInputElement {
  const { fields } = input.drafts;
  return h('input', {
    type: 'text',
    size: 10,
    'data-field': name,
    value: fields[name] ?? fallback,
    ...attrs,
    oninput: (e: Event) => (fields[name] = (e.target as HTMLInputElement).value),
  });
}

/** A select kept in the drafts under `name`; `rerender` when the form around it depends on it. */
export function select(input: ControlsInput, name: string, options: string[], fallback = options[0] ?? '', rerender = false): HTMLSelectElement {
  const { fields } = input.drafts;
  const current = fields[name] !== undefined && options.includes(fields[name]) ? fields[name] : fallback;
  const changed = (e: Event) => {
    fields[name] = (e.target as HTMLSelectElement).value;
    if (rerender) input.rerender();
  };
  return h(
    'select',
    { 'data-field': name, onchange: changed },
    options.map((o) => h('option', { value: o, selected: o === current }, o)),
  );
}

/** A checkbox kept in the drafts under `name` ('true' or 'false'). */
export function checkbox(input: ControlsInput, name: string, label: string): HTMLLabelElement {
  const { fields } = input.drafts;
  return h('label', {}, h('input', { type: 'checkbox', 'data-field': name, checked: fields[name] === 'true', onchange: (e: Event) => (fields[name] = String((e.target as HTMLInputElement).checked)) }), label);
}

/** What the drafts hold under `name`, or `fallback` (what the field shows before it is touched). */
export function value(input: ControlsInput, name: string, fallback: string): string {
  return input.drafts.fields[name] ?? fallback;
}

/** A button that sends an event of `type` (`data-action`). */
export function actionButton(type: string, label: string, onclick: () => void, extra: Record<string, string> = {}): HTMLButtonElement {
  return h('button', { type: 'button', 'data-action': type, ...extra, onclick }, label);
}
