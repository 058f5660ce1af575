/**
 * The host's events (what the host's cards did): triggers, mana, hand sizes, extra turns and
 * combats, skips, effects in force (ADD_EFFECT, REMOVE_EFFECT, CR 611, 613), ending the turn or
 * the combat (END_TURN, END_COMBAT, CR 724) and control of a player's next turn
 * (CONTROL_PLAYER, 723.1). In Grand Melee, with several turns running, the events whose record
 * routes them to a turn (`route: 'turn'`, src/events/) name the turn marker chosen (807.5b).
 */
import type { Duration, Effect, SkipTarget } from '../../src/contract.js';
import { EVENTS, type EventType } from '../../src/events/index.js';
import { h } from './dom.js';
import { actionButton, checkbox, select, text, value, type ControlsInput } from './form.js';

const SKIP_TARGETS: SkipTarget[] = ['turn', 'combat', 'untap', 'upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'combatDamage', 'endOfCombat', 'end', 'cleanup'];

/** The effects the form makes, by kind (CONTRACT.md, "Turn-changing effects"); the record makes the list complete. */
const EFFECT_KINDS: { readonly [K in Effect['kind']]: { amount?: 'change or set' | 'perTurn' } } = {
  skip: {},
  maxHandSize: { amount: 'change or set' },
  landPlays: { amount: 'change or set' },
  spellLimit: { amount: 'perTurn' },
  keepMana: {},
};
const DURATIONS: Extract<Duration, string>[] = ['untilRemoved', 'endOfTurn', 'endOfCombat', 'untilYourNextTurn'];

/** The event with the chosen turn marker, when several turns run and its record routes it to a turn (CR 807.5b). */
function marked(input: ControlsInput, event: Record<string, unknown> & { type: EventType }): Record<string, unknown> {
  const markers = (input.view.turns ?? []).map((t) => String(t.turnMarker));
  if (markers.length < 2 || EVENTS[event.type].route !== 'turn') return event;
  return { ...event, turnMarker: Number(value(input, 'host-turn-marker', markers[0] as string)) };
}

/** The effect the ADD_EFFECT form describes; what it cannot be (a negative `set`) the engine refuses, naming the field. */
function effectOf(input: ControlsInput): Effect {
  const kind = value(input, 'effect-kind', 'skip') as Effect['kind'];
  const who = value(input, 'effect-players', 'all');
  const players = who === 'all' ? {} : { players: [who] };
  const amount = Number(value(input, 'effect-amount', '1'));
  switch (kind) {
    case 'skip':
      return { kind, what: value(input, 'effect-what', 'draw') as SkipTarget | 'extraTurn', ...players };
    case 'maxHandSize':
    case 'landPlays':
      return { kind, ...(value(input, 'effect-mode', 'change') === 'set' ? { set: amount } : { change: amount }), ...players };
    case 'spellLimit':
      return { kind, perTurn: amount, ...players };
    case 'keepMana':
      return { kind, ...players };
  }
}

function effectForms(input: ControlsInput, send: (event: Record<string, unknown> & { type: EventType }) => void): HTMLElement[] {
  const { view, drafts } = input;
  const players = view.players;
  const kind = value(input, 'effect-kind', 'skip') as Effect['kind'];
  const amount = EFFECT_KINDS[kind].amount;
  const add = () => {
    const id = value(input, 'effect-id', `effect-${drafts.serial}`).trim() || `effect-${drafts.serial}`;
    const duration = value(input, 'effect-duration', 'untilRemoved');
    const controller = value(input, 'effect-controller', 'none');
    delete drafts.fields['effect-id'];
    drafts.serial++;
    send({ type: 'ADD_EFFECT', id, effect: effectOf(input), duration, ...(controller === 'none' ? {} : { controller }) });
  };
  const ids = view.effects.map((e) => e.id);
  return [
    h(
      'div',
      { class: 'form', 'data-form': 'ADD_EFFECT' },
      text(input, 'effect-id', `effect-${drafts.serial}`),
      select(input, 'effect-kind', Object.keys(EFFECT_KINDS), 'skip', true),
      kind === 'skip' ? select(input, 'effect-what', [...SKIP_TARGETS, 'extraTurn'], 'draw') : null,
      amount === 'change or set' ? select(input, 'effect-mode', ['change', 'set']) : null,
      amount === undefined ? null : text(input, 'effect-amount', '1', { size: '3', type: 'number', title: amount === 'perTurn' ? 'spells each turn' : 'how much' }),
      h('label', {}, 'for ', select(input, 'effect-players', ['all', ...players])),
      select(input, 'effect-duration', DURATIONS),
      h('label', {}, 'controller ', select(input, 'effect-controller', ['none', ...players])),
      actionButton('ADD_EFFECT', 'Add effect', add),
    ),
    ids.length === 0
      ? h('div', { class: 'form', 'data-form': 'REMOVE_EFFECT' }, h('small', {}, 'no effect in force to remove'))
      : h(
          'div',
          { class: 'form', 'data-form': 'REMOVE_EFFECT' },
          select(input, 'effect-remove', ids),
          actionButton('REMOVE_EFFECT', 'Remove effect', () => send({ type: 'REMOVE_EFFECT', id: value(input, 'effect-remove', ids[0] as string) })),
        ),
  ];
}

/** The host's events, one small form each. */
export function hostEvents(input: ControlsInput): HTMLElement[] {
  const { view } = input;
  const players = view.players;
  const send = (event: Record<string, unknown> & { type: EventType }) => input.send(marked(input, event));
  const num = (name: string, fallback: string) => Math.max(0, Math.floor(Number(value(input, name, fallback)) || 0));
  const triggerId = () => value(input, 'trigger-id', `trigger-${input.drafts.serial}`).trim() || `trigger-${input.drafts.serial}`;
  const nextTrigger = () => {
    delete input.drafts.fields['trigger-id'];
    input.drafts.serial++;
  };
  const markers = (view.turns ?? []).map((t) => String(t.turnMarker));
  return [
    markers.length < 2
      ? null
      : h('div', { class: 'form', 'data-form': 'TURN_MARKER', title: 'the turn the events below are for (CR 807.5b)' }, h('label', {}, 'for the turn of marker ', select(input, 'host-turn-marker', markers))),
    h(
      'div',
      { class: 'form', 'data-form': 'TRIGGER' },
      text(input, 'trigger-id', `trigger-${input.drafts.serial}`),
      select(input, 'trigger-controller', players),
      actionButton('TRIGGER', 'Trigger', () => {
        const trigger = { id: triggerId(), controller: value(input, 'trigger-controller', players[0] ?? '') };
        nextTrigger();
        send({ type: 'TRIGGER', triggers: [trigger] });
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
      actionButton('ADD_MANA', 'Add mana', () => send({ type: 'ADD_MANA', player: value(input, 'mana-player', players[0] ?? ''), amount: num('mana-amount', '1') })),
      actionButton('SPEND_MANA', 'Spend mana', () => send({ type: 'SPEND_MANA', player: value(input, 'mana-player', players[0] ?? ''), amount: num('mana-amount', '1') })),
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'HAND_SIZE' },
      select(input, 'hand-player', players),
      text(input, 'hand-size', '7', { size: '3', type: 'number', min: '0' }),
      actionButton('HAND_SIZE', 'Set hand size', () => send({ type: 'HAND_SIZE', player: value(input, 'hand-player', players[0] ?? ''), size: num('hand-size', '7') })),
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'SCHEDULE' },
      select(input, 'extra-player', players),
      actionButton('ADD_EXTRA_TURN', 'Extra turn', () => send({ type: 'ADD_EXTRA_TURN', player: value(input, 'extra-player', players[0] ?? '') })),
      select(input, 'skip-what', SKIP_TARGETS),
      actionButton('SKIP_NEXT', 'Skip next', () => send({ type: 'SKIP_NEXT', player: value(input, 'extra-player', players[0] ?? ''), what: value(input, 'skip-what', 'turn') })),
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'ADD_EXTRA_COMBAT' },
      checkbox(input, 'combat-no-main', 'no main phase after'),
      actionButton('ADD_EXTRA_COMBAT', 'Extra combat', () => send({ type: 'ADD_EXTRA_COMBAT', followedByMain: value(input, 'combat-no-main', 'false') !== 'true' })),
    ),
    ...effectForms(input, send),
    h(
      'div',
      { class: 'form', 'data-form': 'END' },
      actionButton('END_TURN', 'End the turn', () => send({ type: 'END_TURN' }), { title: 'CR 724.1: straight to the cleanup step' }),
      actionButton('END_COMBAT', 'End the combat', () => send({ type: 'END_COMBAT' }), { title: 'CR 724.2: straight to the next phase' }),
    ),
    h(
      'div',
      { class: 'form', 'data-form': 'CONTROL_PLAYER', title: "the controller makes the player's decisions during the player's next turn (CR 723.1)" },
      select(input, 'control-controller', players),
      h('label', {}, 'controls ', select(input, 'control-player', players, players[1] ?? players[0] ?? '')),
      actionButton('CONTROL_PLAYER', "Control next turn", () =>
        send({ type: 'CONTROL_PLAYER', controller: value(input, 'control-controller', players[0] ?? ''), player: value(input, 'control-player', players[1] ?? players[0] ?? '') }),
      ),
    ),
  ].filter((el): el is HTMLElement => el !== null);
}
