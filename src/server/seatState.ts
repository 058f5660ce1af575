/**
 * What one client of a table is told of the game (CONTRACT v3, "Serving games", and "Playing
 * between people" for private seats): its seat's view, the decisions it may send now, where it is
 * next asked, and the events as its seat receives them. Pure reads of the game.
 */
import type { EmittedEvent, SeatEvent, TurnView } from '../contract.js';
import type { LegalAction } from '../legal.js';
import { hidesFrom, seatEvent, type Viewer } from '../seats.js';
import type { Game } from '../game/types.js';
import { cardEventFor, cardViewOf } from './cardGames.js';

/** Who looks: a seat, or a spectator (null). */
export function viewerOf(seat: string | null): Viewer {
  return seat === null ? { spectator: true } : { seat };
}

/** The events as the viewer receives them (an event hiding something from the viewer is a copy without it, e.g. another player's autoPass without its reason; the others are the events themselves; another seat's card data as the definition's publicData, given the game). */
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

/**
 * The decisions `seat` may send now, of all the game offers: those it decides itself (`by`, when a
 * template has one, is who decides: the seat's controller under 723).
 */
export function legalFor(seat: string | null, all: readonly LegalAction[]): LegalAction[] {
  if (seat === null) return [];
  return all.filter((a) => ((a as { by?: string }).by ?? a.player) === seat);
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
