/**
 * The game panel: the TurnView as a host sees it. Every field has a `data-testid`.
 */
import type { Awaiting, TurnView } from '../../src/contract.js';
import { fill, h } from './dom.js';

/** "priority: A", "declareAttackers: A", "discard 2: A", or "nothing (game over)". */
export function describeAwaiting(awaiting: Awaiting | null): string {
  if (awaiting === null) return 'nothing (the game is over)';
  return awaiting.kind === 'discard' ? `${awaiting.player} to discard ${awaiting.count}` : `${awaiting.player}: ${awaiting.kind}`;
}

function field(label: string, testid: string, value: string | Node): HTMLElement {
  return h('div', { class: 'field' }, h('dt', {}, label), h('dd', { 'data-testid': testid }, value));
}

function scheduleItems(view: TurnView): string[] {
  const items: string[] = [];
  for (const s of view.schedule.steps) items.push(`${s.step}${s.skipped ? ' (skipped)' : ''}`);
  for (const p of view.schedule.phases) items.push(`${p.phase} phase${p.skipped ? ' (skipped)' : ''}`);
  // Extra turns come first, the most recently added first (CR 500.7).
  for (const t of view.schedule.turns) items.push(`${t.extra ? 'extra turn' : 'turn'} of ${t.player}${t.skipped ? ' (skipped, 614.10)' : ''}`);
  return items;
}

/** Renders the panel into `root`. */
export function renderPanel(root: HTMLElement, view: TurnView, statePath: string): void {
  const players = h(
    'ul',
    { class: 'players', 'data-testid': 'players' },
    view.players.map((p) =>
      h(
        'li',
        {
          'data-player': p,
          'data-priority': String(view.priority === p),
          'data-active-player': String(view.activePlayer === p),
          'data-awaited': String(view.awaiting?.player === p),
        },
        h('span', { class: 'who' }, p),
        view.activePlayer === p ? h('span', { class: 'badge turn-badge' }, 'turn') : null,
        view.priority === p ? h('span', { class: 'badge priority-badge' }, 'priority') : null,
        h('span', { class: 'mana', 'data-testid': `mana-${p}` }, `mana ${view.manaPool[p] ?? 0}`),
        h('span', { class: 'hand' }, `hand ${view.handSizes[p] ?? 0}`),
      ),
    ),
  );
  const stack = [...view.stack].reverse();
  const schedule = scheduleItems(view);
  fill(
    root,
    h('h2', {}, 'Game'),
    view.gameOver ? h('p', { class: 'game-over', 'data-testid': 'game-over' }, `Game over: ${view.gameOver.winners.join(', ') || 'nobody'} won`) : null,
    h(
      'dl',
      { class: 'fields' },
      field('Turn', 'turn', String(view.turn)),
      field('Active player', 'active-player', view.activePlayer ?? '— (left the game)'),
      field('Step', 'step', `${view.phase} / ${view.step}`),
      field('Priority', 'priority', view.priority ?? '—'),
      field('Awaiting', 'awaiting', describeAwaiting(view.awaiting)),
      field('Lands played', 'lands-played', String(view.landsPlayed)),
      field('Rules', 'rules', view.rules),
      field('State', 'state-path', statePath),
    ),
    h('h3', {}, 'Players'),
    players,
    h('h3', {}, 'Stack ', h('small', {}, '(top first)')),
    h('ol', { class: 'stack', 'data-testid': 'stack' }, stack.map((o) => h('li', { 'data-kind': o.kind, 'data-id': o.id }, `${o.id}`, h('small', {}, ` ${o.kind}, ${o.controller}`)))),
    stack.length === 0 ? h('p', { class: 'empty' }, 'empty') : null,
    view.combat && view.combat.attackers.length > 0
      ? h(
          'div',
          { 'data-testid': 'combat' },
          h('h3', {}, 'Combat'),
          h(
            'ul',
            {},
            view.combat.attackers.map((a) => h('li', {}, `${a.id} attacks ${a.defender}${a.firstStrike ? ', first strike' : ''}${a.doubleStrike ? ', double strike' : ''}`)),
            view.combat.blockers.map((b) => h('li', {}, `${b.id} blocks ${b.blocking.join(', ')}`)),
          ),
        )
      : null,
    h('h3', {}, 'Schedule'),
    h('ul', { class: 'schedule', 'data-testid': 'schedule' }, schedule.map((s) => h('li', {}, s))),
    schedule.length === 0 ? h('p', { class: 'empty' }, 'nothing scheduled') : null,
  );
}
