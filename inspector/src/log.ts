/**
 * The event log: every sent event (accepted or refused, with the error and rule) and every
 * emitted turn-based action, grouped by turn and step. Each entry keeps the persisted game
 * after it (`game.persist()`), so clicking it shows that state (time travel).
 */
import type { Persisted, PersistedFull } from '../../src/persistence/format.js';
import type { EmittedEvent } from '../../src/contract.js';
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
  persisted: Persisted | PersistedFull;
  /** The game's version after this entry (entries of an opened recording). */
  version?: number;
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

/**
 * The log as it grows: entries already shown are never rendered again. `show` appends what is
 * new; only when the log was cut (a new game, "continue from here", the size limit) is it
 * rebuilt. The entry being viewed is marked in place.
 */
export class LogView {
  readonly element: HTMLElement = h('div', { class: 'log', 'data-testid': 'log' });
  #shown: LogEntry[] = [];
  #items = new Map<number, HTMLElement>();
  #group: { key: string; list: HTMLElement } | null = null;
  #viewing: number | null = null;

  constructor(private readonly onPick: (entry: LogEntry) => void) {}

  show(entries: readonly LogEntry[], viewing: number | null): void {
    const kept = this.#shown.length <= entries.length && this.#shown.every((e, i) => entries[i] === e);
    if (!kept) this.#reset();
    for (const entry of entries.slice(this.#shown.length)) this.#append(entry);
    this.#shown = [...entries];
    if (viewing !== this.#viewing) {
      if (this.#viewing !== null) this.#items.get(this.#viewing)?.setAttribute('data-viewing', 'false');
      if (viewing !== null) this.#items.get(viewing)?.setAttribute('data-viewing', 'true');
      this.#viewing = viewing;
    }
  }

  #reset(): void {
    this.element.replaceChildren();
    this.#shown = [];
    this.#items.clear();
    this.#group = null;
    this.#viewing = null;
  }

  #append(entry: LogEntry): void {
    const key = `${entry.turn}|${entry.step}`;
    if (this.#group?.key !== key) {
      const list = h('ol', {});
      this.element.append(h('section', { class: 'log-group', 'data-group': key }, h('h4', {}, `Turn ${entry.turn} · ${entry.step}`), list));
      this.#group = { key, list };
    }
    const pick = () => this.onPick(entry);
    const item = h(
      'li',
      { class: `entry ${entry.kind}`, 'data-entry': entry.id, 'data-kind': entry.kind, 'data-viewing': 'false', tabindex: 0, title: 'show the state after this entry', onclick: pick, onkeydown: (e: Event) => (e as KeyboardEvent).key === 'Enter' && pick() },
      h('span', { class: 'label' }, entry.label),
      entry.detail ? h('span', { class: 'detail' }, entry.detail) : null,
    );
    this.#group.list.append(item);
    this.#items.set(entry.id, item);
  }
}
