/**
 * Controls: one button per decision of the awaited player (from `legalActions`), with a small
 * form built from the template's `choose` (a field per chosen field, a select per field its
 * variants differ in), and the host's bookkeeping events (host.ts). Every button that sends an
 * event has `data-action="<EVENT TYPE>"`. What is typed into a form lives in {@link Drafts}, so
 * re-rendering after each event keeps it.
 */
import type { LegalAction } from '../../src/legal.js';
import type { TurnView } from '../../src/contract.js';
import { fill, h } from './dom.js';
import { actionButton, select, text, value, type CombatantDraft, type ControlsInput } from './form.js';
import { hostEvents } from './host.js';

export { newDrafts, type CombatantDraft, type ControlsInput, type Drafts } from './form.js';

function combatantRows(input: ControlsInput, rows: CombatantDraft[], kind: 'attacker' | 'blocker', targets: string[]): HTMLElement {
  const row = (r: CombatantDraft, i: number) =>
    h(
      'div',
      { class: 'row', 'data-row': `${kind}-${i}` },
      h('input', { type: 'text', size: 10, 'data-field': `${kind}-id`, value: r.id, oninput: (e: Event) => (r.id = (e.target as HTMLInputElement).value) }),
      h(
        'select',
        { 'data-field': `${kind}-target`, onchange: (e: Event) => (r.target = (e.target as HTMLSelectElement).value) },
        targets.map((t) => h('option', { value: t, selected: t === r.target }, t)),
      ),
      h('label', {}, h('input', { type: 'checkbox', 'data-field': `${kind}-first-strike`, checked: r.firstStrike, onchange: (e: Event) => (r.firstStrike = (e.target as HTMLInputElement).checked) }), 'first strike'),
      h('label', {}, h('input', { type: 'checkbox', 'data-field': `${kind}-double-strike`, checked: r.doubleStrike, onchange: (e: Event) => (r.doubleStrike = (e.target as HTMLInputElement).checked) }), 'double strike'),
      h('button', { type: 'button', class: 'remove', title: `remove this ${kind}`, onclick: () => (rows.splice(i, 1), input.rerender()) }, '×'),
    );
  return h('div', { class: 'rows' }, rows.map(row));
}

/** 'DECLARE_ATTACKERS' -> 'Declare attackers'. */
function labelOf(type: string): string {
  const words = type.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The fields of a template the form does not ask for: its type, player, `by`, turn marker and `choose`. */
const GIVEN = new Set(['type', 'player', 'by', 'turnMarker', 'choose']);

/** The templates of one decision of one player, offered in several variants (a spell at each speed). */
interface Offer {
  type: string;
  player: string;
  choose: readonly string[];
  variants: Record<string, unknown>[];
}

/** The legal actions grouped into offers: one per decision, player and turn marker. */
function offersOf(legal: LegalAction[]): Offer[] {
  const offers = new Map<string, Offer>();
  for (const action of legal) {
    const template = action as unknown as Record<string, unknown>;
    const key = `${action.type}|${action.player}|${String(template.turnMarker)}`;
    const offer = offers.get(key) ?? { type: action.type, player: action.player, choose: action.choose as readonly string[], variants: [] };
    offer.variants.push(template);
    offers.set(key, offer);
  }
  return [...offers.values()];
}

/** The fields whose value differs between the variants of an offer (the speed of a spell): each gets a select. */
function varyingFields(offer: Offer): string[] {
  const first = offer.variants[0] ?? {};
  return Object.keys(first).filter((k) => !GIVEN.has(k) && offer.variants.some((v) => JSON.stringify(v[k]) !== JSON.stringify(first[k])));
}

/** The form of one chosen field (LegalAction.choose), by the field's name, and how to read it when the form is sent (`rows`: a list of creatures). */
function chosenField(input: ControlsInput, offer: Offer, field: string): { el: HTMLElement; read: () => unknown; rows?: true } {
  const { view, drafts } = input;
  const p = offer.player;
  // In Grand Melee the player may be awaited on another turn marker's turn (CR 807.5).
  const awaiting = view.awaiting?.player === p ? view.awaiting : (view.turns?.find((t) => t.awaiting?.player === p)?.awaiting ?? null);
  const name = `${offer.type}-${field}`;
  switch (field) {
    case 'attackers': {
      const defenders = awaiting?.kind === 'declareAttackers' ? awaiting.defenders : view.players.filter((x) => x !== p);
      const add = () => (drafts.attackers.push({ id: `${p}-creature-${drafts.attackers.length + 1}`, target: defenders[0] ?? '', firstStrike: false, doubleStrike: false }), input.rerender());
      return {
        rows: true,
        el: h('div', {}, combatantRows(input, drafts.attackers, 'attacker', defenders), h('button', { type: 'button', 'data-testid': 'add-attacker', onclick: add }, '+ attacker')),
        read: () => {
          const attackers = drafts.attackers.map((a) => ({ id: a.id, defender: a.target, ...(a.firstStrike ? { firstStrike: true } : {}), ...(a.doubleStrike ? { doubleStrike: true } : {}) }));
          drafts.attackers = [];
          return attackers;
        },
      };
    }
    case 'blockers': {
      const attacking = (view.combat?.attackers ?? []).filter((a) => a.defender === p).map((a) => a.id);
      const add = () => (drafts.blockers.push({ id: `${p}-creature-${drafts.blockers.length + 1}`, target: attacking[0] ?? '', firstStrike: false, doubleStrike: false }), input.rerender());
      return {
        rows: true,
        el: h('div', {}, combatantRows(input, drafts.blockers, 'blocker', attacking), attacking.length ? h('button', { type: 'button', 'data-testid': 'add-blocker', onclick: add }, '+ blocker') : null),
        read: () => {
          const blockers = drafts.blockers.map((b) => ({ id: b.id, attacker: b.target, ...(b.firstStrike ? { firstStrike: true } : {}), ...(b.doubleStrike ? { doubleStrike: true } : {}) }));
          drafts.blockers = [];
          return blockers;
        },
      };
    }
    case 'defender': {
      const options = awaiting?.kind === 'chooseDefender' ? awaiting.defenders : view.players.filter((x) => x !== p);
      return { el: select(input, name, options), read: () => value(input, name, options[0] ?? '') };
    }
    case 'starting': {
      const options = awaiting?.kind === 'chooseStartingPlayer' && awaiting.candidates !== undefined ? awaiting.candidates : view.players;
      return { el: select(input, name, options, p), read: () => value(input, name, p) };
    }
    case 'order': {
      const listed = awaiting?.kind === 'orderBlockers' ? awaiting.blockers : awaiting?.kind === 'orderAttackers' ? awaiting.attackers : awaiting?.kind === 'orderTriggers' ? awaiting.triggers : [];
      return {
        el: text(input, name, listed.join(', '), { size: '24', title: 'ids in order, separated by commas' }),
        read: () =>
          value(input, name, listed.join(', '))
            .split(',')
            .map((x) => x.trim())
            .filter((x) => x !== ''),
      };
    }
    default: {
      // An id (a spell, an ability) or any other text.
      const fallback = `${offer.type.toLowerCase().replace(/_/g, '-')}-${drafts.serial}`;
      return {
        el: text(input, name, fallback),
        read: () => {
          const typed = value(input, name, fallback).trim() || fallback;
          delete drafts.fields[name];
          drafts.serial++;
          return typed;
        },
      };
    }
  }
}

/** One control per decision offered: a button, with a form for what the template leaves to choose (`choose`) and for its variants. */
function decisionControl(input: ControlsInput, offer: Offer, plainest: boolean): HTMLElement {
  const varying = varyingFields(offer);
  const first = offer.variants[0] ?? {};
  const fixed = Object.keys(first).filter((k) => !GIVEN.has(k) && !varying.includes(k) && !offer.choose.includes(k));
  const selects = varying.map((k) => {
    const options = offer.variants.map((v) => String(v[k]));
    return { field: k, el: select(input, `${offer.type}-${k}`, options) };
  });
  const fields = offer.choose.map((f) => ({ field: f, ...chosenField(input, offer, f) }));
  const label = `${labelOf(offer.type)} (${offer.player})${fixed.map((k) => `, ${k} ${typeof first[k] === 'string' ? first[k] : JSON.stringify(first[k])}`).join('')}`;
  const button = actionButton(
    offer.type,
    label,
    () => {
      // The variant whose varying fields are the selected ones, less `choose`, with what was chosen.
      const picked = offer.variants.find((v) => varying.every((k) => String(v[k]) === value(input, `${offer.type}-${k}`, String(first[k])))) ?? first;
      const event: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(picked)) if (k !== 'choose') event[k] = v;
      for (const f of fields) event[f.field] = f.read();
      input.send(event);
    },
    offer.type === 'CONCEDE' ? { class: 'danger' } : plainest ? { class: 'primary' } : {},
  );
  if (selects.length === 0 && fields.length === 0) return button;
  const rows = fields.some((f) => f.rows === true);
  const title = rows ? h('div', { class: 'form-title' }, `${offer.player}: ${labelOf(offer.type).toLowerCase()}`) : null;
  return h('div', { class: rows ? 'form combat-form' : 'form', 'data-form': offer.type }, title, ...fields.map((f) => f.el), ...selects.map((x) => x.el), button);
}

function playerDecisions(input: ControlsInput): HTMLElement[] {
  const offers = offersOf(input.legal);
  // The first decision offered to the awaited player is the plainest answer (legalActions lists it first).
  const awaited = input.view.awaiting?.player;
  const plainest = offers.find((o) => o.player === awaited);
  return offers.map((o) => decisionControl(input, o, o === plainest));
}

/** Renders the controls into `root`. */
export function renderControls(root: HTMLElement, input: ControlsInput): void {
  if (input.readOnly) {
    fill(root, h('h2', {}, 'Controls'), h('p', { class: 'empty' }, 'Read only: go back to the live game to send events.'));
    return;
  }
  const who = input.view.awaiting?.player;
  fill(
    root,
    h('h2', {}, 'Controls'),
    h('h3', {}, who ? `${who}'s decisions` : 'No decision awaited'),
    h('div', { class: 'decisions', 'data-testid': 'decisions' }, playerDecisions(input)),
    h('h3', {}, 'Host events ', h('small', {}, '(what the cards did)')),
    h('div', { class: 'host', 'data-testid': 'host-events' }, hostEvents(input)),
  );
}

/** The players a decision is awaited from: the awaited player, and in Grand Melee each turn marker's (CR 807.5). */
export function awaitedPlayers(view: TurnView): string[] {
  const players = [view.awaiting?.player, ...(view.turns ?? []).map((t) => t.awaiting?.player)];
  return [...new Set(players.filter((p): p is string => p !== undefined))];
}
