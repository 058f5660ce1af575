/**
 * The turn log of `mtg-turn-engine simulate`: one line per event sent (who, what, the stack and
 * who receives priority), and the lines of what it caused. In Grand Melee (CR 807) every line
 * names its turn marker, and the stack and priority shown are that marker's own (807.5: each
 * turn has its own stack and priority), read from `view.turns` (issue 22).
 */
import type { EmittedEvent, TurnView } from '../contract.js';

/** A log line's prefix naming a turn marker, or nothing outside Grand Melee. */
function tagOf(marker: number | undefined): string {
  return marker === undefined ? '' : `[marker ${marker}] `;
}

/** The turn marker an event sent is for (CR 807.5b): its own `turnMarker`, or its triggers'. */
export function markerOfSent(event: Record<string, unknown>): number | undefined {
  if (typeof event.turnMarker === 'number') return event.turnMarker;
  const triggers = event.triggers;
  const first: unknown = Array.isArray(triggers) ? triggers[0] : undefined;
  const marker = typeof first === 'object' && first !== null ? (first as { turnMarker?: unknown }).turnMarker : undefined;
  return typeof marker === 'number' ? marker : undefined;
}

function stackOf(stack: TurnView['stack']): string {
  return stack.length ? `  stack: [${stack.map((o) => o.id).join(', ')}]` : '';
}

function priorityOf(priority: string | null): string {
  return priority ? `  -> priority ${priority}` : '';
}

/** The line of an event sent and its result, with the stack and priority after it (of the event's turn marker in Grand Melee). */
export function describeSent(event: Record<string, unknown>, ok: boolean, view: TurnView): string {
  const { type, player, turnMarker: _marker, ...rest } = event;
  const details = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
  const who = typeof player === 'string' ? `${player}: ` : 'host: ';
  const head = `${who}${String(type)}${details}${ok ? '' : '  (refused)'}`;
  if (view.turns === undefined) return `      ${head}${stackOf(view.stack)}${priorityOf(view.priority)}`;
  const marker = markerOfSent(event);
  const turn = view.turns.find((t) => t.turnMarker === marker);
  if (turn !== undefined) return `      ${tagOf(turn.turnMarker)}${head}${stackOf(turn.stack)}${priorityOf(turn.priority)}`;
  // An event for no one marker (mana, conceding): every marker's stack and priority.
  return `      ${head}${view.turns.map((t) => `  [marker ${t.turnMarker}${stackOf(t.stack)}${priorityOf(t.priority)}]`).join('')}`;
}

/** The line of an event the game emitted, or null for those the log leaves out. */
export function describeEmitted(e: EmittedEvent): string | null {
  const tag = tagOf(e.turnMarker);
  switch (e.type) {
    case 'turnBegan':
      return `\nTurn ${e.turn}${e.turnMarker === undefined ? '' : `, turn marker ${e.turnMarker}`}: ${e.activePlayer}'s turn`;
    case 'stepBegan':
      return `  ${tag}${e.phase} / ${e.step}`;
    case 'untap':
      return `    ${tag}${e.player} untaps`;
    case 'draw':
      return `    ${tag}${e.player} draws a card`;
    case 'resolve':
      return `    ${tag}resolves ${e.object.kind} ${e.object.id} (${e.object.controller})`;
    case 'combatDamage':
      return `    ${tag}${e.first ? 'first-strike ' : ''}combat damage from ${e.creatures.length ? e.creatures.join(', ') : 'no creatures'}`;
    case 'cleanup':
      return `    ${tag}damage wears off, "until end of turn" effects end`;
    case 'discard':
      return `    ${tag}${e.player} discards ${e.count}`;
    case 'manaEmptied':
      return `    ${tag}${e.player}'s pool empties (${e.amount})`;
    case 'manaBurn':
      return `    ${tag}${e.player} burns for ${e.amount}`;
    case 'playerLeft':
      return `    ${e.player} leaves the game`;
    case 'gameOver':
      return `\nGame over: ${e.winners.join(', ')} wins`;
    default:
      return null;
  }
}

/** The first lines of the log: the turn (every marker's, in Grand Melee) and the step the game starts in. */
export function describeStart(view: TurnView): string {
  if (view.turns === undefined) return `\nTurn ${view.turn}: ${view.activePlayer}'s turn (untap step taken)\n  ${view.phase} / ${view.step}`;
  return view.turns
    .map((t) => `\nTurn ${t.turn}, turn marker ${t.turnMarker}: ${t.waiting ? `${t.player} takes it next (waiting)` : `${t.activePlayer}'s turn (untap step taken)\n  ${tagOf(t.turnMarker)}${t.phase} / ${t.step}`}`)
    .join('');
}
