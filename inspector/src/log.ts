/**
 * The event log: every sent event (accepted or refused, with the error and rule) and every
 * emitted turn-based action, grouped by turn and step. Each entry keeps the persisted game
 * after it (`game.persist()`), so clicking it shows that state (time travel).
 */
import type { PersistedGame } from '../../src/persistence.js';
import type { EmittedEvent } from '../../machines/turn.types.js';
import { h } from './dom.js';

/** One line of the log. */
export interface LogEntry {
  id: number;
  /** The turn and step the entry belongs to (its group). */
  turn: number;
  step: string;
  kind: 'start' | 'sent' | 'refused' | 'emitted';
  label: string;
  detail?: string;
  /** The game right after this entry. */
  persisted: PersistedGame;
}

/** A one-line description of a sent event: "A: PASS_PRIORITY", "host: TRIGGER t1 (A)". */
export function describeSent(event: Record<string, unknown>): string {
  const { type, player, ...rest } = event;
  const who = typeof player === 'string' ? `${player}: ` : 'host: ';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(rest)) parts.push(`${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
  return `${who}${String(type)}${parts.length ? ` ${parts.join(' ')}` : ''}`;
}

/** A one-line description of an emitted event. */
export function describeEmitted(e: EmittedEvent): string {
  switch (e.type) {
    case 'turnBegan':
      return `turn ${e.turn} begins: ${e.activePlayer}`;
    case 'stepBegan':
      return `${e.phase} / ${e.step} begins`;
    case 'resolve':
      return `resolves ${e.object.kind} ${e.object.id} (${e.object.controller})`;
    case 'combatDamage':
      return `${e.first ? 'first-strike ' : ''}combat damage: ${e.creatures.length ? e.creatures.join(', ') : 'no creatures'}`;
    case 'cleanup':
      return 'cleanup: damage wears off, "until end of turn" effects end';
    case 'gameOver':
      return `game over: ${e.winners.join(', ')} won`;
    default: {
      const { type, ...rest } = e as { type: string } & Record<string, unknown>;
      return `${type} ${Object.entries(rest).map(([k, v]) => `${k}=${String(v)}`).join(' ')}`;
    }
  }
}

/** Renders the log, grouped by turn and step; the entry being viewed is marked. */
export function renderLog(entries: LogEntry[], viewing: number | null, onPick: (entry: LogEntry) => void): HTMLElement {
  const groups: { key: string; title: string; items: LogEntry[] }[] = [];
  for (const entry of entries) {
    const key = `${entry.turn}|${entry.step}`;
    const last = groups[groups.length - 1];
    if (last?.key === key) last.items.push(entry);
    else groups.push({ key, title: `Turn ${entry.turn} · ${entry.step}`, items: [entry] });
  }
  return h(
    'div',
    { class: 'log', 'data-testid': 'log' },
    groups.map((g) =>
      h(
        'section',
        { class: 'log-group', 'data-group': g.key },
        h('h4', {}, g.title),
        h(
          'ol',
          {},
          g.items.map((entry) =>
            h(
              'li',
              {
                class: `entry ${entry.kind}`,
                'data-entry': entry.id,
                'data-kind': entry.kind,
                'data-viewing': String(viewing === entry.id),
                tabindex: 0,
                title: 'show the state after this entry',
                onclick: () => onPick(entry),
                onkeydown: (e: Event) => {
                  if ((e as KeyboardEvent).key === 'Enter') onPick(entry);
                },
              },
              h('span', { class: 'label' }, entry.label),
              entry.detail ? h('span', { class: 'detail' }, entry.detail) : null,
            ),
          ),
        ),
      ),
    ),
  );
}
