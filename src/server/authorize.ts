/**
 * Who may send what (CONTRACT v3, "Serving games"): a client bound to a seat sends only that
 * seat's decisions and settings (with `player` its seat), or the decisions of a seat it decides
 * for under CR 723 (with `by` its seat); while its seat is controlled by another player it makes
 * none of its decisions; host events come only from the server's cards; a spectator sends
 * nothing. Pure: the room asks it before anything reaches the game.
 */
import type { TurnEvent, TurnView } from '../contract.js';
import { ErrorCode, type EngineErrorInfo } from '../errors.js';
import { ALL_EVENT_TYPES, DECISIONS, PLAYER_EVENTS, type EventType } from '../events/index.js';
import { eventOrMessage } from '../schemas.js';

/** The rule a refused host event names: host events come only from the server's cards. */
export const HOST_RULE = 'host';
/** CR 723.5: the decisions of a controlled player are made by their controller. */
export const CONTROL_RULE = '723.5';
/** The rule a spectator's refused send names: a spectator holds no seat and sends nothing (not a rule of the game, so not 723.5). */
export const SPECTATOR_RULE = 'spectator';

const KNOWN: ReadonlySet<string> = new Set(ALL_EVENT_TYPES);

function illegal(rule: string, message: string): { ok: false; error: EngineErrorInfo } {
  return { ok: false, error: { code: ErrorCode.ILLEGAL_ACTION, message, rule } };
}

/**
 * Whether the client of `seat` (null: a spectator) may send `raw` now, given the game's view
 * (its `decidedBy`): the event as the engine reads it, or the refusal (INVALID_EVENT for a
 * malformed event, ILLEGAL_ACTION rule 'host' for a host event, rule 'spectator' for anything a
 * spectator sends, rule '723.5' for a decision or setting that is not the seat's to make). The game itself still checks the rules.
 */
export function authorize(seat: string | null, raw: unknown, view: Pick<TurnView, 'decidedBy'>): { ok: true; event: TurnEvent } | { ok: false; error: EngineErrorInfo } {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  if (type === CARD_ACTION) return authorizeCardAction(seat, raw as Record<string, unknown>, view);
  // A host event is refused as one even when it is malformed: a client never sends one.
  if (typeof type === 'string' && KNOWN.has(type) && !PLAYER_EVENTS.has(type as EventType)) {
    return illegal(HOST_RULE, `${type} is a host event: only the server's cards send it, never a client`);
  }
  const parsed = eventOrMessage(raw);
  if (typeof parsed === 'string') return { ok: false, error: { code: ErrorCode.INVALID_EVENT, message: parsed } };
  // CONTRACT v4, "Card games": a decision's card data goes to the game as sent (the game checks its size).
  const data = (raw as { data?: unknown }).data;
  const event = data !== undefined && DECISIONS.has(parsed.type) ? ({ ...parsed, data } as unknown as TurnEvent) : parsed;
  if (!PLAYER_EVENTS.has(event.type)) return illegal(HOST_RULE, `${event.type} is a host event: only the server's cards send it, never a client`);
  if (seat === null) return illegal(SPECTATOR_RULE, `a spectator sends nothing: ${event.type} was not sent`);
  const { player, by } = event as { player?: unknown; by?: unknown };
  if (by !== undefined && by !== seat) return illegal(CONTROL_RULE, `by: this client decides as ${seat}, not as ${String(by)}`);
  if (player === seat) {
    // CR 723.5 (723.6 for a concession, which is always the player's own): while another player
    // controls this seat, they make its decisions, not this seat's client.
    const decider = view.decidedBy[seat];
    if (DECISIONS.has(event.type) && decider !== undefined && decider !== seat) {
      return illegal(CONTROL_RULE, `${seat} is controlled by ${decider}, who makes ${seat}'s decisions (723.5)`);
    }
    return { ok: true, event };
  }
  // Another seat's event: only a decision of a player this seat controls, with `by` this seat.
  if (!DECISIONS.has(event.type)) return illegal(CONTROL_RULE, `${event.type} for ${String(player)}: a client sends only its own seat's ${event.type} (it is ${seat})`);
  if (by !== seat) return illegal(CONTROL_RULE, `${event.type} for ${String(player)}: this client is ${seat}; it decides for another seat only under 723, with by: '${seat}'`);
  if (view.decidedBy[player as string] !== seat) return illegal(CONTROL_RULE, `${seat} does not control ${String(player)}: ${String(player)}'s decisions are made by ${view.decidedBy[player as string] ?? 'nobody'} (723.5)`);
  return { ok: true, event };
}

/** The card action's type (CONTRACT v4, "Card games"): a player's action that only the cards know. */
export const CARD_ACTION = 'CARD_ACTION';

/**
 * A CARD_ACTION from the client of `seat`: `{ type, player, action, data?, by? }`, a decision for
 * "who may send what" (its own seat's, or with `by` a seat it controls under 723). The game's
 * cards decide whether it is taken.
 */
function authorizeCardAction(seat: string | null, raw: Record<string, unknown>, view: Pick<TurnView, 'decidedBy'>): { ok: true; event: TurnEvent } | { ok: false; error: EngineErrorInfo } {
  const { player, action, data, by } = raw;
  const invalid = (message: string) => ({ ok: false as const, error: { code: ErrorCode.INVALID_EVENT, message } });
  if (typeof player !== 'string' || player.length === 0 || player.length > 64) return invalid('event.player: CARD_ACTION needs the player it is for (a seat name)');
  if (typeof action !== 'string' || action.length === 0 || action.length > 200) return invalid('event.action: CARD_ACTION needs the name of one of the cards\' actions (1 to 200 characters)');
  if (by !== undefined && typeof by !== 'string') return invalid('event.by: must be a seat name');
  if (seat === null) return illegal(SPECTATOR_RULE, 'a spectator sends nothing: CARD_ACTION was not sent');
  if (by !== undefined && by !== seat) return illegal(CONTROL_RULE, `by: this client decides as ${seat}, not as ${by}`);
  const decider = view.decidedBy[player] ?? (player === seat ? seat : undefined);
  if (player === seat ? decider !== seat : by !== seat || decider !== seat) {
    return illegal(CONTROL_RULE, player === seat ? `${seat} is controlled by ${String(decider)}, who makes ${seat}'s decisions (723.5)` : `CARD_ACTION for ${player}: this client is ${seat}; it acts for another seat only under 723, with by: '${seat}'`);
  }
  const event: Record<string, unknown> = { type: CARD_ACTION, player, action };
  if (data !== undefined) event.data = data;
  if (by !== undefined) event.by = by;
  return { ok: true, event: event as unknown as TurnEvent };
}
