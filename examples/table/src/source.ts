/**
 * What a seat reads: a local `Game` or a networked table (`connectTable` of
 * `mtg-turn-engine/client`); both have this read side, and `mtg-turn-engine/react`'s hooks take
 * either.
 */
import type { EmittedEvent, LegalAction, NextStop, SeatEvent, TurnEvent, TurnView } from 'mtg-turn-engine';

export interface GameSource {
  getSnapshot(): TurnView;
  subscribe(listener: () => void): () => void;
  legalActions(player?: string): LegalAction[];
  nextStop(player?: string): NextStop | null;
  /** The game's time now, when it is not the wall clock (a networked table: `table.now()`, behind the wall clock after a server restart). */
  now?(): number;
}

/** One line of the event log. */
export interface LogLine {
  kind: 'sent' | 'refused' | 'emitted';
  text: string;
}

/** An event as a log line's text: its type, then its fields. */
export function describe(event: TurnEvent | EmittedEvent | SeatEvent): string {
  const { type, ...rest } = event;
  const details = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return details ? `${type} ${details}` : type;
}

/** The status line: the game's end, or where it stands. */
export function statusOf(view: TurnView): string {
  return view.gameOver !== null
    ? `game over: ${view.gameOver.draw ? 'a draw' : `${view.gameOver.winners.join(', ')} won`}`
    : `turn ${view.turn} · ${view.activePlayer ?? '—'} · ${view.phase} / ${view.step}`;
}
