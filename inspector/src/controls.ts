/**
 * Controls: one button per legal action of the awaited player (from `legalActions`), with
 * small forms for the events that carry data, and the host's bookkeeping events. Every
 * button that sends an event has `data-action="<EVENT TYPE>"`. What is typed into a form
 * lives in {@link Drafts}, so re-rendering after each event keeps it.
 */
import type { LegalAction } from '../../src/legal.js';
import type { SkipTarget, TurnView } from '../../src/contract.js';
import { fill, h } from './dom.js';

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

const SKIP_TARGETS: SkipTarget[] = ['turn', 'combat', 'untap', 'upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'combatDamage', 'endOfCombat', 'end', 'cleanup'];

function text(input: ControlsInput, name: string, fallback: string, attrs: Record<string, string> = {}): HTMLInputElement {
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

function select(input: ControlsInput, name: string, options: string[], fallback = options[0] ?? ''): HTMLSelectElement {
  const { fields } = input.drafts;
  const current = fields[name] !== undefined && options.includes(fields[name]) ? fields[name] : fallback;
  return h(
    'select',
    { 'data-field': name, onchange: (e: Event) => (fields[name] = (e.target as HTMLSelectElement).value) },
    options.map((o) => h('option', { value: o, selected: o === current }, o)),
  );
}

function checkbox(input: ControlsInput, name: string, label: string): HTMLLabelElement {
  const { fields } = input.drafts;
  return h('label', {}, h('input', { type: 'checkbox', 'data-field': name, checked: fields[name] === 'true', onchange: (e: Event) => (fields[name] = String((e.target as HTMLInputElement).checked)) }), label);
}

function value(input: ControlsInput, name: string, fallback: string): string {
  return input.drafts.fields[name] ?? fallback;
}

function actionButton(type: string, label: string, onclick: () => void, extra: Record<string, string> = {}): HTMLButtonElement {
  return h('button', { type: 'button', 'data-action': type, ...extra, onclick }, label);
}

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

function playerDecisions(input: ControlsInput): HTMLElement[] {
  const { view, legal, drafts } = input;
  const out: HTMLElement[] = [];
  const speeds = (type: string) => legal.filter((a) => a.type === type).map((a) => ('speed' in a ? a.speed : ''));
  for (const action of legal) {
    const p = action.player;
    switch (action.type) {
      case 'PASS_PRIORITY':
        out.push(actionButton('PASS_PRIORITY', `Pass priority (${p})`, () => input.send({ type: 'PASS_PRIORITY', player: p }), { class: 'primary' }));
        break;
      case 'PLAY_LAND':
        out.push(actionButton('PLAY_LAND', `Play a land (${p})`, () => input.send({ type: 'PLAY_LAND', player: p })));
        break;
      case 'CAST_SPELL':
      case 'ACTIVATE_ABILITY': {
        if (out.some((el) => el.dataset.form === action.type)) break;
        const noun = action.type === 'CAST_SPELL' ? 'spell' : 'ability';
        const idField = `${noun}-id`;
        const fallbackId = `${noun}-${drafts.serial}`;
        out.push(
          h(
            'div',
            { class: 'form', 'data-form': action.type },
            text(input, idField, fallbackId),
            select(input, `${noun}-speed`, speeds(action.type), 'instant'),
            actionButton(action.type, action.type === 'CAST_SPELL' ? `Cast (${p})` : `Activate (${p})`, () => {
              const id = value(input, idField, fallbackId).trim() || fallbackId;
              delete drafts.fields[idField];
              drafts.serial++;
              input.send({ type: action.type, player: p, id, speed: value(input, `${noun}-speed`, 'instant') });
            }),
          ),
        );
        break;
      }
      case 'DECLARE_ATTACKERS': {
        const defenders = view.players.filter((x) => x !== p);
        out.push(
          h(
            'div',
            { class: 'form combat-form', 'data-form': 'DECLARE_ATTACKERS' },
            h('div', { class: 'form-title' }, `${p} declares attackers`),
            combatantRows(input, drafts.attackers, 'attacker', defenders),
            h('button', { type: 'button', 'data-testid': 'add-attacker', onclick: () => (drafts.attackers.push({ id: `${p}-creature-${drafts.attackers.length + 1}`, target: defenders[0] ?? '', firstStrike: false, doubleStrike: false }), input.rerender()) }, '+ attacker'),
            actionButton('DECLARE_ATTACKERS', drafts.attackers.length ? `Declare ${drafts.attackers.length} attacker(s)` : 'Declare no attackers', () => {
              const attackers = drafts.attackers.map((a) => ({ id: a.id, defender: a.target, ...(a.firstStrike ? { firstStrike: true } : {}), ...(a.doubleStrike ? { doubleStrike: true } : {}) }));
              drafts.attackers = [];
              input.send({ type: 'DECLARE_ATTACKERS', player: p, attackers });
            }),
          ),
        );
        break;
      }
      case 'DECLARE_BLOCKERS': {
        const attacking = (view.combat?.attackers ?? []).filter((a) => a.defender === p).map((a) => a.id);
        out.push(
          h(
            'div',
            { class: 'form combat-form', 'data-form': 'DECLARE_BLOCKERS' },
            h('div', { class: 'form-title' }, `${p} declares blockers`),
            combatantRows(input, drafts.blockers, 'blocker', attacking),
            attacking.length ? h('button', { type: 'button', 'data-testid': 'add-blocker', onclick: () => (drafts.blockers.push({ id: `${p}-creature-${drafts.blockers.length + 1}`, target: attacking[0] ?? '', firstStrike: false, doubleStrike: false }), input.rerender()) }, '+ blocker') : null,
            actionButton('DECLARE_BLOCKERS', drafts.blockers.length ? `Declare ${drafts.blockers.length} blocker(s)` : 'Declare no blockers', () => {
              const blockers = drafts.blockers.map((b) => ({ id: b.id, attacker: b.target, ...(b.firstStrike ? { firstStrike: true } : {}), ...(b.doubleStrike ? { doubleStrike: true } : {}) }));
              drafts.blockers = [];
              input.send({ type: 'DECLARE_BLOCKERS', player: p, blockers });
            }),
          ),
        );
        break;
      }
      case 'DISCARD':
        out.push(actionButton('DISCARD', `Discard ${action.count ?? 0} (${p})`, () => input.send({ type: 'DISCARD', player: p, count: action.count ?? 0 })));
        break;
      case 'CONCEDE':
        out.push(actionButton('CONCEDE', `Concede (${p})`, () => input.send({ type: 'CONCEDE', player: p }), { class: 'danger' }));
        break;
      default:
        break;
    }
  }
  return out;
}

function hostEvents(input: ControlsInput): HTMLElement[] {
  const { view } = input;
  const players = view.players;
  const num = (name: string, fallback: string) => Math.max(0, Math.floor(Number(value(input, name, fallback)) || 0));
  const triggerId = () => value(input, 'trigger-id', `trigger-${input.drafts.serial}`).trim() || `trigger-${input.drafts.serial}`;
  const nextTrigger = () => {
    delete input.drafts.fields['trigger-id'];
    input.drafts.serial++;
  };
  return [
    h(
      'div',
      { class: 'form', 'data-form': 'TRIGGER' },
      text(input, 'trigger-id', `trigger-${input.drafts.serial}`),
      select(input, 'trigger-controller', players),
      actionButton('TRIGGER', 'Trigger', () => {
        const trigger = { id: triggerId(), controller: value(input, 'trigger-controller', players[0] ?? '') };
        nextTrigger();
        input.send({ type: 'TRIGGER', triggers: [trigger] });
      }),
      h(
        'button',
        {
          type: 'button',
          'data-action': 'CLEANUP_TRIGGER',
          title: 'the checkpoint hook reports this trigger in the next cleanup step (CR 514.3a)',
          onclick: () => {
            const trigger = { id: triggerId(), controller: value(input, 'trigger-controller', players[0] ?? '') };
            nextTrigger();
            input.triggerAtCleanup(trigger);
          },
        },
        'Trigger in next cleanup',
      ),
      input.queuedCleanupTriggers.length ? h('small', { 'data-testid': 'cleanup-queue' }, ` queued: ${input.queuedCleanupTriggers.map((t) => t.id).join(', ')}`) : null,
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'MANA' },
      select(input, 'mana-player', players),
      text(input, 'mana-amount', '1', { size: '3', type: 'number', min: '0' }),
      actionButton('ADD_MANA', 'Add mana', () => input.send({ type: 'ADD_MANA', player: value(input, 'mana-player', players[0] ?? ''), amount: num('mana-amount', '1') })),
      actionButton('SPEND_MANA', 'Spend mana', () => input.send({ type: 'SPEND_MANA', player: value(input, 'mana-player', players[0] ?? ''), amount: num('mana-amount', '1') })),
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'HAND_SIZE' },
      select(input, 'hand-player', players),
      text(input, 'hand-size', '7', { size: '3', type: 'number', min: '0' }),
      actionButton('HAND_SIZE', 'Set hand size', () => input.send({ type: 'HAND_SIZE', player: value(input, 'hand-player', players[0] ?? ''), size: num('hand-size', '7') })),
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'SCHEDULE' },
      select(input, 'extra-player', players),
      actionButton('ADD_EXTRA_TURN', 'Extra turn', () => input.send({ type: 'ADD_EXTRA_TURN', player: value(input, 'extra-player', players[0] ?? '') })),
      select(input, 'skip-what', SKIP_TARGETS),
      actionButton('SKIP_NEXT', 'Skip next', () => input.send({ type: 'SKIP_NEXT', player: value(input, 'extra-player', players[0] ?? ''), what: value(input, 'skip-what', 'turn') })),
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'ADD_EXTRA_COMBAT' },
      checkbox(input, 'combat-no-main', 'no main phase after'),
      actionButton('ADD_EXTRA_COMBAT', 'Extra combat', () => input.send({ type: 'ADD_EXTRA_COMBAT', followedByMain: value(input, 'combat-no-main', 'false') !== 'true' })),
    ),
  ];
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
