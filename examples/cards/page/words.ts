/**
 * The card table's words: events, decisions and the end of the game told with card names, from
 * what this seat has seen (`Names`: every card and stack id its card views named). A name this
 * seat has not seen stays an id: the other seat's hand is never named (its cards are seen only
 * once they are played, cast or put into a graveyard).
 */
import type { SeatEvent, TurnView } from 'mtg-turn-engine';
import type { ExampleSeatView } from '../definition.ts';

/** Card and stack ids to names, as this seat has seen them. */
export type Names = Map<string, string>;

/** Learns the names a card view shows: the seat's hand, the battlefield, the graveyards and the stack. */
export function learn(names: Names, seen: ExampleSeatView | null): void {
  if (seen === null) return;
  for (const c of seen.hand ?? []) names.set(c.id, c.name);
  for (const p of seen.battlefield) names.set(p.id, p.name);
  for (const side of Object.values(seen.players)) for (const c of side.graveyard) names.set(c.id, c.name);
  for (const s of seen.stack) names.set(s.id, s.name);
}

const nameOf = (names: Names, id: string): string => names.get(id) ?? id;

/** A card's target in words. */
export function targetText(names: Names, target: unknown): string {
  if (typeof target !== 'object' || target === null) return '';
  const t = target as { player?: string; creature?: string; spell?: string };
  if (t.player !== undefined) return t.player;
  if (t.creature !== undefined) return nameOf(names, t.creature);
  if (t.spell !== undefined) return nameOf(names, t.spell);
  return '';
}

/** A decision (sent by this seat, or `decided` from the server) in words. */
export function decisionText(names: Names, event: { type: string; player?: string; data?: unknown; [key: string]: unknown }): string {
  const who = event.player ?? '?';
  const data = (event.data ?? {}) as { card?: string; target?: unknown; cards?: string[]; count?: number };
  const card = data.card === undefined ? 'a card' : nameOf(names, data.card);
  switch (event.type) {
    case 'PLAY_LAND':
      return `${who} plays ${card}`;
    case 'CAST_SPELL': {
      // The spell's name: its card's, or (a card this seat never saw in a hand) its stack object's.
      const spell = typeof event.id === 'string' ? names.get(event.id) : undefined;
      if (spell !== undefined && data.card !== undefined && !names.has(data.card)) names.set(data.card, spell);
      const target = targetText(names, data.target);
      return `${who} casts ${data.card === undefined ? (spell ?? 'a spell') : nameOf(names, data.card)}${target === '' ? '' : ` targeting ${target}`}`;
    }
    case 'CARD_ACTION':
      return event.action === 'tap' ? `${who} taps ${card} for mana` : `${who}: ${String(event.action)}`;
    case 'DECLARE_ATTACKERS': {
      const attackers = (event.attackers as { id: string; defender: string }[] | undefined) ?? [];
      return attackers.length === 0 ? `${who} attacks with nothing` : `${who} attacks ${attackers[0]?.defender ?? ''} with ${attackers.map((a) => nameOf(names, a.id)).join(', ')}`;
    }
    case 'DECLARE_BLOCKERS': {
      const blockers = (event.blockers as { id: string; attacker: string }[] | undefined) ?? [];
      return blockers.length === 0 ? `${who} blocks nothing` : `${who} blocks: ${blockers.map((b) => `${nameOf(names, b.id)} blocks ${nameOf(names, b.attacker)}`).join(', ')}`;
    }
    case 'DISCARD':
      return data.cards !== undefined ? `${who} discards ${data.cards.map((c) => nameOf(names, c)).join(', ')}` : `${who} discards ${String(event.count ?? data.count ?? '')} card(s)`;
    case 'PASS_PRIORITY':
      return `${who} passes`;
    case 'CONCEDE':
      return `${who} concedes`;
    default:
      return `${who}: ${event.type}`;
  }
}

/** Why a player left the game, in words ("Bob ran out of time", "Alice's life reached 0"). */
export function leftText(player: string, reason: string): string {
  switch (reason) {
    case 'life':
      return `${player}'s life reached 0`;
    case 'empty library':
      return `${player} drew from an empty library`;
    case 'time':
      return `${player} ran out of time`;
    case 'conceded':
      return `${player} conceded`;
    case 'away':
      return `${player} was away too long`;
    case 'draw':
      return 'the game is a draw';
    default:
      return `${player} lost (${reason})`;
  }
}

/** Why the game ended, in words: each player who left and why, then who is left. */
export function endText(view: TurnView): string | null {
  const over = view.gameOver;
  if (over === null) return null;
  if (over.draw) return 'The game is a draw.';
  const why = Object.entries(over.reasons).map(([player, reason]) => leftText(player, reason));
  return `${why.join('; ')}${why.length > 0 ? '. ' : ''}${over.winners.join(' and ')} ${over.winners.length === 1 ? 'wins' : 'win'}.`;
}

/** An event this seat received, in words; null for the events not worth a line. */
export function eventText(names: Names, event: SeatEvent): string | null {
  switch (event.type) {
    case 'decided':
      return decisionText(names, event.event as never);
    case 'turnBegan':
      return `— turn ${event.turn}: ${event.activePlayer}${event.extra ? ' (extra turn)' : ''} —`;
    case 'draw':
      return `${event.player} draws a card`;
    case 'resolve':
      return `${nameOf(names, event.object.id)} resolves`;
    case 'removedFromStack':
      return `${nameOf(names, event.object.id)} is ${event.reason}`;
    case 'combatDamage':
      return `combat damage: ${event.creatures.map((c) => nameOf(names, c)).join(', ')}`;
    case 'discard':
      return `${event.player} discards ${event.count}`;
    case 'playerLeft':
      return leftText(event.player, event.reason);
    case 'gameOver':
      return event.draw ? 'game over: a draw' : `game over: ${event.winners.join(', ')} ${event.winners.length === 1 ? 'wins' : 'win'}`;
    case 'undone':
      return `undone to version ${event.toVersion}`;
    default:
      return null;
  }
}
