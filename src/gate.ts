/**
 * The gate every event passes before it reaches the chart (from `game.send` or sent to the
 * actor directly): the schema, the players it names, the game being over, re-entrance from the
 * checkpoint hook, and the legality table. A refusal names the field or the rule.
 */
import type { Actor } from 'xstate';
import type { turnMachine } from '../machines/turn.machine.js';
import type { TurnEvent } from './contract.js';
import type { TurnContext } from './state.js';
import { FRESH_SEND, isFreshSend } from '../machines/context.js';
import { ErrorCode, type EngineErrorInfo } from './errors.js';
import { EVENTS, GATE_ROWS, PLAYER_FIELDS, AT_TABLE_EVENTS, type PlayerField } from './events/index.js';
import { eventOrMessage, plainPassOf } from './schemas.js';
import { needs } from './moduleNames.js';
import { awaitingOf, type SnapshotLike } from './view.js';

type Snapshot = ReturnType<Actor<typeof turnMachine>['getSnapshot']>;

/** The snapshot with the per-send counters of the auto-pass loop guard at zero (CONTRACT: "within one send"). */
export function freshSend(snapshot: Snapshot): Snapshot {
  const ctx = freshSendContext(snapshot.context);
  return ctx === snapshot.context ? snapshot : ({ ...snapshot, context: ctx } as Snapshot);
}

/** The context with the per-send counters at zero (the same object when they already are). */
export function freshSendContext(ctx: TurnContext): TurnContext {
  return isFreshSend(ctx) ? ctx : { ...ctx, ...FRESH_SEND };
}

/** Why a send made while the game processes another event is refused (REENTRANT). */
export const REENTRANT_IN_HOOK = "send was called from inside the checkpoint hook; return host events in its result ({ events })";
export const REENTRANT_BUSY =
  'send was called while the game was processing another event; send from game.subscribe or game.on listeners';

/**
 * Makes the game's actor refuse events sent to it while the game is processing one (from the
 * checkpoint hook, an actor subscriber or an inspection observer): XState would queue them and
 * run them inside the send being processed, where they could change the game behind the gate's
 * back. Such an event is dropped (REENTRANT), as `game.send` refuses it. So is anything that is
 * not an event of the contract (INVALID_EVENT): XState itself would throw on `null` and stop
 * processing for good, and a hostile object could change between its reads; what reaches XState
 * is the parsed copy. Returns the actor's own send, which marks the game busy for its length;
 * `isBusy` says whether it is.
 */
export function guardActorSend(actor: { send(event: TurnEvent): void }, inHook: () => boolean): { send(event: TurnEvent): void; isBusy(): boolean } {
  const own = actor.send.bind(actor);
  let busy = false;
  const send = (event: TurnEvent) => {
    busy = true;
    try {
      own(event);
    } finally {
      busy = false;
    }
  };
  Object.defineProperty(actor, 'send', {
    configurable: true,
    writable: false,
    value: (raw: unknown) => {
      if (busy || inHook()) return;
      const event = eventOrMessage(raw);
      if (typeof event !== 'string') send(event);
    },
  });
  return { send, isBusy: () => busy || inHook() };
}

/** A refusal with its code, message and rule. */
export function refusal(code: EngineErrorInfo['code'], message: string, rule?: string): Refusal {
  return { ok: false, error: rule === undefined ? { code, message } : { code, message, rule } };
}

/**
 * The first player id an event names that is not a seat of the game (an INVALID_EVENT message
 * naming the field under `root`), or null. The same check for an event sent and for one a
 * checkpoint hook returns (src/hookAdapter.ts, with the root `result.events[i]`).
 */
export function unknownPlayer(event: TurnEvent, seats: readonly string[], root = 'event'): string | null {
  return unknownIn(event, PLAYER_FIELDS[event.type], seats, root);
}

/** {@link unknownPlayer} over the fields given (the event's record's). */
function unknownIn(event: TurnEvent, fields: readonly PlayerField[], seats: readonly string[], root: string): string | null {
  // This runs for every event sent that leaves the lane: a walk over the fields its record names.
  const e = event as unknown as Record<string, unknown>;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as PlayerField;
    // A field that is itself a player (`player`, `by`: most events name only such fields), read here, not in a call.
    if (f.sub === undefined) {
      const v = e[f.key];
      if (typeof v === 'string' && !seats.includes(v)) return `${root}.${notASeat(f.key, v)}`;
      continue;
    }
    const bad = unknownAt(e, f as PlayerField & { sub: string }, seats);
    if (bad !== null) return `${root}.${bad}`;
  }
  return null;
}

/** The message (less its root) for the first id in one field of an object (or list) of the event that is not a seat, or null. */
function unknownAt(e: Record<string, unknown>, f: PlayerField & { sub: string }, seats: readonly string[]): string | null {
  const v = e[f.key];
  if (f.list === 'items') {
    if (!Array.isArray(v)) return null;
    for (let i = 0; i < v.length; i++) {
      const id = (v[i] as Record<string, unknown>)[f.sub];
      if (typeof id === 'string' && !seats.includes(id)) return notASeat(`${f.key}[${i}].${f.sub}`, id);
    }
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const w = (v as Record<string, unknown>)[f.sub];
  if (f.list === undefined) return typeof w === 'string' && !seats.includes(w) ? notASeat(`${f.key}.${f.sub}`, w) : null;
  if (!Array.isArray(w)) return null;
  for (let i = 0; i < w.length; i++) {
    const id = w[i] as unknown;
    if (typeof id === 'string' && !seats.includes(id)) return notASeat(`${f.key}.${f.sub}[${i}]`, id);
  }
  return null;
}

function notASeat(field: string, id: string): string {
  return `${field}: '${id}' is not a player of this game`;
}

/** A refused event: its code, message and rule. */
export type Refusal = { ok: false; error: EngineErrorInfo };

/**
 * Checks an event against the game as it is: the parsed event, or the refusal (INVALID_EVENT
 * naming the field, GAME_OVER, REENTRANT, ILLEGAL_ACTION naming the rule).
 */
export function checkEvent(snapshot: SnapshotLike, raw: unknown, inHook: boolean): { ok: true; event: TurnEvent } | Refusal {
  if (inHook) return refusal(ErrorCode.REENTRANT, REENTRANT_IN_HOOK);
  const out = gateEvent(snapshot, raw);
  return 'error' in out ? out : { ok: true, event: out };
}

/** {@link checkEvent} without a result object for an accepted event (no event has an `error` field): every event sent takes this path. */
export function gateEvent(snapshot: SnapshotLike, raw: unknown): TurnEvent | Refusal {
  return laneEvent(snapshot, raw) ?? fullGate(snapshot, raw);
}

/**
 * The gate's lane for the one event most games send most (a PASS_PRIORITY without `by`: 85%
 * of the benchmark's events): the event when {@link fullGate} would accept it, parsed and
 * checked in one pass (its player is a seat, the game goes on, the PASS_PRIORITY record's
 * legality) without the dispatch on the event's type; undefined for anything else,
 * which the full gate then takes (every refusal, with its message, is the full gate's). Needs
 * only the game's context and status (no tags: the row does not read what is awaited).
 */
export function laneEvent(game: Pick<SnapshotLike, 'context' | 'status'>, raw: unknown): TurnEvent | undefined {
  const pass = plainPass(raw);
  if (pass === undefined) return undefined;
  const ctx = game.context;
  return ctx.seats.includes(pass.player) && game.status === 'active' && ctx.result === null && EVENTS.PASS_PRIORITY.legality(ctx, null, pass) === null ? pass : undefined;
}

/** The gate without its lane for PASS_PRIORITY: the schema, then {@link checkParsed} (what every refusal comes from). */
export function fullGate(snapshot: SnapshotLike, raw: unknown): TurnEvent | Refusal {
  const event = eventOrMessage(raw);
  return typeof event === 'string' ? refusal(ErrorCode.INVALID_EVENT, event) : checkParsed(snapshot, event);
}

/** {@link plainPassOf}, for a value whose fields cannot be read: undefined (the full parse then says why). */
function plainPass(raw: unknown): Extract<TurnEvent, { type: 'PASS_PRIORITY' }> | undefined {
  try {
    return plainPassOf(raw);
  } catch {
    return undefined;
  }
}

/**
 * CONTRACT v3: the table around the turn (src/table/) takes undo and shortcuts before the turn's
 * gate; one reaches the turn only when its type changed between two reads of a hostile value.
 */
export function atTableEventRefusal(event: TurnEvent): Refusal | null {
  return AT_TABLE_EVENTS.has(event.type) ? refusal(ErrorCode.INVALID_EVENT, `event.type: ${event.type} ${needs('table')}`) : null;
}

/** A parsed event against the game as it is: the players it names, the game being over, the legality table. */
function checkParsed(snapshot: SnapshotLike, event: TurnEvent): TurnEvent | Refusal {
  const ctx = snapshot.context;
  // atTableEventRefusal, seatOrGameOverRefusal, then the legality row, from the event type's one row.
  const row = GATE_ROWS[event.type];
  // CONTRACT v3: MARK_IRREVERSIBLE is a host event; without the table there is no undo to mark, and it changes nothing.
  if (row.atTable && event.type !== 'MARK_IRREVERSIBLE') return atTableEventRefusal(event) as Refusal;
  const unknown = unknownIn(event, row.players, ctx.seats, 'event');
  if (unknown !== null) return refusal(ErrorCode.INVALID_EVENT, unknown);
  if (snapshot.status !== 'active' || ctx.result !== null) return gameOver(ctx);
  const v = row.legality(ctx, row.readsAwaiting ? awaitingOf(snapshot) : null, event as never);
  if (v !== null) return refusal(ErrorCode.ILLEGAL_ACTION, v.message, v.rule);
  return event;
}

/**
 * What every game refuses before it asks the legality table (a game of turn markers too): a
 * player the event names who is not a seat (INVALID_EVENT), or any event once the game is over.
 */
export function seatOrGameOverRefusal(ctx: TurnContext, status: string, event: TurnEvent): Refusal | null {
  const unknown = unknownPlayer(event, ctx.seats);
  if (unknown !== null) return refusal(ErrorCode.INVALID_EVENT, unknown);
  if (status !== 'active' || ctx.result !== null) return gameOver(ctx);
  return null;
}

/** GAME_OVER: no event is accepted once the game is over. */
function gameOver(ctx: TurnContext): Refusal {
  return refusal(ErrorCode.GAME_OVER, `the game is over (${ctx.result?.draw ? 'a draw' : `winners: ${ctx.result?.winners.join(', ') || 'none'}`}); no event is accepted`);
}
