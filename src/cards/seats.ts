/**
 * What a seat or a spectator sees of a card game's cards (CONTRACT v4, "Card games"): S through the
 * definition's `seatView`, and a `decided` event whole for the seat that made the decision, its
 * data hidden from the others (the definition's `publicData` of it shown instead).
 */
import type { CardsDefinition, DecidedEvent, EmittedEvent, PlayerId, SeatOptions, TurnView } from '../contract.js';
import { deepFreeze } from '../view.js';
import { jsonCopy } from './partData.js';

/** S as `options` sees it: the committed S itself without options, else the definition's `seatView` of it (null without one). */
export function seenCards<S>(def: CardsDefinition<S>, state: S, options: SeatOptions | undefined, view: (options?: SeatOptions) => TurnView): unknown {
  if (options === undefined) return state;
  const seatView = def.seatView;
  if (seatView === undefined) return null;
  const seat = 'seat' in options ? options.seat : null;
  const seen = seatView.call(def, state, seat, view(seat === null ? { spectator: true } : { seat }));
  return seen === undefined ? null : deepFreeze(jsonCopy(seen));
}

/**
 * An event as `viewer` receives it: a `decided` event whole for its decider (its `by`, else the
 * controller `controlled` names by its seq, else its player), else without its data.
 */
export function seatEventOf<S>(event: EmittedEvent, viewer: SeatOptions, controlled: ReadonlyMap<number, PlayerId>, def: CardsDefinition<S>, state: S): EmittedEvent {
  if (event.type !== 'decided') return event;
  const decision = event.event;
  const who = decision as { player?: PlayerId; by?: PlayerId };
  const decider = who.by ?? (event.seq === undefined ? undefined : controlled.get(event.seq)) ?? who.player;
  if ('seat' in viewer && viewer.seat === decider) return event;
  if (decision.data === undefined) return event;
  const shown: DecidedEvent = { ...decision };
  delete shown.data;
  const publicData = def.publicData;
  if (publicData !== undefined) {
    const data = publicData.call(def, decision, state);
    if (data !== undefined) shown.data = jsonCopy(data);
  }
  return { ...event, event: shown };
}
