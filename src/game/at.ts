/**
 * CONTRACT v4: a send carrying `at` in a game without the table module. `at` is accepted on any
 * event but the table's own (TICK, PAUSE_CLOCKS, RESUME_CLOCKS, SET_SEAT_STATUS: refused, naming
 * the table's import); it only checks that the host's clock does not go back, and the game keeps
 * the last `at` (persisted as `time: { at }`). The table module's path is src/table/time.ts.
 */
import type { EmittedEvent, TurnEvent } from '../contract.js';
import { ErrorCode } from '../errors.js';
import { TABLE_EVENTS } from '../events/index.js';
import { refusal, type Refusal } from '../gate.js';
import { needs } from '../moduleNames.js';
import { eventOrMessage } from '../schemas.js';
import type { TimedTurn, TimeState } from '../table/time.js';

/** A raw event's type, read once (unreadable: none, the gate says why). */
function typeOf(raw: unknown): unknown {
  try {
    return typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a send in a game without the table takes this path: the event carries `at`, or is one of the table's. */
export function carriesAt(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  try {
    return (raw as { at?: unknown }).at !== undefined || TABLE_EVENTS.has(typeOf(raw) as string);
  } catch {
    return false;
  }
}

/** The send: the table's events refused, `at` checked against the last one, then `step` (the turn's gate and transition, `gatedStep` of src/game/logic.ts without the table). */
export function sendAt<S>(step: TimedTurn<S>['step'], state: S, time: TimeState | null, raw: unknown): { state: S; time: TimeState | null; emitted: EmittedEvent[] } | Refusal {
  const type = typeOf(raw);
  if (typeof type === 'string' && TABLE_EVENTS.has(type)) return refusal(ErrorCode.INVALID_EVENT, `event.type: ${type} ${needs('table')}`);
  const parsed = eventOrMessage(raw);
  if (typeof parsed === 'string') return refusal(ErrorCode.INVALID_EVENT, parsed);
  const { at, ...rest } = parsed;
  const last = time?.at ?? null;
  if (at !== undefined && last !== null && at < last) return refusal(ErrorCode.ILLEGAL_ACTION, `event.at: ${at} is earlier than the last at the game saw (${last})`);
  const out = step(state, rest as TurnEvent);
  if ('error' in out) return out;
  return { state: out.state, time: at === undefined ? time : { at }, emitted: out.emitted };
}
