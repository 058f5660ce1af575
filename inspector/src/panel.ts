/**
 * The game panel: the TurnView as a host sees it, with the game's variant and the control of
 * players still to come (from the context). Every field has a `data-testid`.
 */
import type { Awaiting, Effect, EffectEntry, TurnView } from '../../src/contract.js';
import type { TurnContext } from '../../src/state.js';
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

/** "skip draw", "maxHandSize set 5 change -1", with the players it applies to. */
function describeEffect(effect: Effect): string {
  const { kind, players, ...rest } = effect;
  const parts = Object.entries(rest).map(([k, v]) => (k === 'what' ? String(v) : `${k} ${v === null ? 'none' : String(v)}`));
  return [kind, ...parts, ...(players === undefined ? [] : [`(${players.join(', ')})`])].join(' ');
}

function describeEntry(e: EffectEntry): string {
  const duration = typeof e.duration === 'string' ? e.duration : `until ${e.duration.untilStep}${e.duration.ofPlayer ? ` of ${e.duration.ofPlayer}` : ''}`;
  return `${e.id}: ${describeEffect(e.effect)}, ${duration}${e.controller ? `, controller ${e.controller}` : ''}`;
}

/** The parts of the game that the view leaves out: its variant, and who will control whose next turn (CR 723.1). */
export type PanelContext = Pick<TurnContext, 'variant' | 'controlNext'>;

/** Renders the panel into `root`. */
export function renderPanel(root: HTMLElement, view: TurnView, statePath: string, context: PanelContext): void {
  // In Grand Melee every turn marker has its active player and its priority (CR 807.4, 807.5).
  const active = new Set([view.activePlayer, ...(view.turns ?? []).map((t) => t.activePlayer)]);
  const priority = new Set([view.priority, ...(view.turns ?? []).map((t) => t.priority)]);
  const activeTeam = view.teams?.find((t) => t.id === view.activeTeam)?.players ?? [];
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
        active.has(p) || activeTeam.includes(p) ? h('span', { class: 'badge turn-badge' }, 'turn') : null,
        priority.has(p) ? h('span', { class: 'badge priority-badge' }, 'priority') : null,
        h('span', { class: 'mana', 'data-testid': `mana-${p}` }, `mana ${view.manaPool[p] ?? 0}`),
        h('span', { class: 'hand' }, `hand ${view.handSizes[p] ?? 0}`),
        // CR 723: someone else makes this player's decisions.
        view.decidedBy[p] !== undefined && view.decidedBy[p] !== p ? h('span', { class: 'badge control-badge', 'data-testid': `decided-by-${p}` }, `controlled by ${view.decidedBy[p]}`) : null,
      ),
    ),
  );
  const markers = view.turns ?? [];
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
      field('Variant', 'variant', context.variant),
      view.teams === null ? null : field('Teams', 'teams', view.teams.map((t) => `${t.id}: ${t.players.join(', ')}`).join(' · ')),
      field('State', 'state-path', statePath),
    ),
    h('h3', {}, 'Players'),
    players,
    context.controlNext.length === 0
      ? null
      : h('ul', { class: 'control-next', 'data-testid': 'control-next' }, context.controlNext.map((c) => h('li', {}, `${c.controller} controls ${c.player}'s next turn (CR 723.1)`))),
    markers.length === 0
      ? null
      : h(
          'div',
          {},
          h('h3', {}, 'Turn markers ', h('small', {}, '(Grand Melee, CR 807.4)')),
          h(
            'ul',
            { class: 'turn-markers', 'data-testid': 'turn-markers' },
            markers.map((t) =>
              h(
                'li',
                { 'data-turn-marker': t.turnMarker, 'data-active-player': t.activePlayer ?? '' },
                `#${t.turnMarker}: ${t.activePlayer ?? t.player}'s turn ${t.turn}, ${t.phase} / ${t.step}`,
                h('small', {}, ` ${describeAwaiting(t.awaiting)}${t.waiting ? ', waiting (807.4d)' : ''}`),
              ),
            ),
          ),
        ),
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
    h('h3', {}, 'Effects in force'),
    h('ul', { class: 'effects', 'data-testid': 'effects' }, view.effects.map((e) => h('li', { 'data-effect-id': e.id }, describeEntry(e)))),
    view.effects.length === 0 ? h('p', { class: 'empty' }, 'none') : null,
    h('h3', {}, 'Schedule'),
    h('ul', { class: 'schedule', 'data-testid': 'schedule' }, schedule.map((s) => h('li', {}, s))),
    schedule.length === 0 ? h('p', { class: 'empty' }, 'nothing scheduled') : null,
  );
}
