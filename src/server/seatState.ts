/**
 * What one client of a table is told of the game (CONTRACT v3, "Serving games", and "Playing
 * between people" for private seats): its seat's view, the decisions it may send now, where it is
 * next asked, and the events as its seat receives them. Pure reads of the game.
 */
import type { EmittedEvent, SeatEvent, TurnView } from '../contract.js';
import type { LegalAction } from '../legal.js';
import { PRIVATE_FIELDS, seatEvent, type Viewer } from '../seats.js';
import type { Game } from '../game/types.js';
import { cardEventFor, cardViewOf } from './cardGames.js';

/** Who looks: a seat, or a spectator (null). */
export function viewerOf(seat: string | null): Viewer {
  return seat === null ? { spectator: true } : { seat };
}

/** The events as the viewer receives them (copies: another player's autoPass without its reason; another seat's card data as the definition's publicData, given the game). */
export function seatEvents(events: readonly EmittedEvent[], viewer: Viewer, game?: Game): SeatEvent[] {
  if (events.length === 0) return [];
  const out: SeatEvent[] = new Array<SeatEvent>(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as EmittedEvent;
    const shown = game === undefined ? e : cardEventFor(game, e, viewer);
    // An event with nothing private to this viewer is sent as it is (the server only encodes it); otherwise a copy loses its private fields.
    out[i] = hidesFrom(shown, viewer) ? seatEvent({ ...shown }, viewer) : shown;
  }
  return out;
}

/** Whether `event` has fields private to a player the viewer is not (src/seats.ts's PRIVATE_FIELDS: another player's autoPass reason). */
function hidesFrom(event: EmittedEvent, viewer: Viewer): boolean {
  const fields = (PRIVATE_FIELDS.events as { readonly [type: string]: readonly string[] | undefined })[event.type];
  return fields !== undefined && !('seat' in viewer && viewer.seat === (event as { player?: unknown }).player);
}

/**
 * The decisions `seat` may send now, of all the game offers: those it decides itself (`by`, when a
 * template has one, is who decides: the seat's controller under 723).
 */
export function legalFor(seat: string | null, all: readonly LegalAction[]): LegalAction[] {
  if (seat === null) return [];
  return all.filter((a) => ((a as { by?: string }).by ?? a.player) === seat);
}

/** The players whose decisions `seat` makes now (itself, and any player it controls). */
export function decidedBy(seat: string | null, view: Pick<TurnView, 'decidedBy'>): string[] {
  if (seat === null) return [];
  return Object.keys(view.decidedBy).filter((p) => view.decidedBy[p] === seat);
}

/** What spectators are shown of the game at one moment: its spectator view and card view (`{ cards }` in a card game). */
export interface SpectatorShown {
  view: TurnView;
  cards?: unknown;
}

/** What spectators may see of `game` now (shown at once, or after the spectator delay); built, never frozen (the server only encodes it). */
export function spectatorShown(game: Game): SpectatorShown {
  return { view: game.view({ spectator: true }), ...cardViewOf(game, null) };
}
