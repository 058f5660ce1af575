/**
 * The pure parts of a send of a game (src/game/shell.ts), apart from the game that holds it: the
 * work an event gives (the table's path for an event about time, else the turn's gate), the
 * answer `check` gives, a send that threw, the numbering of the events a send emitted, and a
 * fork's new random stream.
 */
import type { EmittedEvent } from '../contract.js';
import { seedState } from '../rules/random.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { Refusal } from '../gate.js';
import type { TimedTurn, TimeState } from '../table/time.js';
import { gatedStep, isRefusal, type TurnLogic } from './logic.js';
import type { TableModule } from './module.js';
import { carriesAt, sendAt } from './at.js';

/**
 * Numbers the events a send emitted, in order, after `seq` (CONTRACT v3): those the checkpoint
 * already numbered (it hands them out in `pending`) keep their numbers. Returns the last.
 */
export function numbered(emitted: readonly EmittedEvent[], seq: number, numbers: ReadonlyMap<EmittedEvent, number> | null | undefined): number {
  let last = seq;
  for (let i = 0; i < emitted.length; i++) {
    const e = emitted[i] as EmittedEvent;
    // One read of `seq` per event (events of every shape: each read is a slow one).
    let n = e.seq;
    if (n === undefined) e.seq = n = numbers?.get(e) ?? last + 1;
    if (n > last) last = n;
  }
  return last;
}

/** A send that threw: its TurnEngineError (HOOK_FAILED from the checkpoint), or HOOK_FAILED saying what. */
export function failed(err: unknown): Refusal {
  return { ok: false, error: err instanceof TurnEngineError ? err.toInfo() : { code: ErrorCode.HOOK_FAILED, message: `the event could not be processed: ${String(err)}` } };
}

/**
 * The work an event gives in `state`: null when it takes the table's path (CONTRACT v3, "Playing
 * between people": an event about time, src/table/time.ts; without the table module, an event
 * carrying `at`), else what the turn's gate makes of it (the work, or the refusal).
 */
export function workOf<S, W>(logic: TurnLogic<S, W>, table: TableModule | null, state: S, time: TimeState | null, raw: unknown): W | Refusal | null {
  return (table === null ? carriesAt(raw) : table.isTimed(time, raw)) ? null : logic.gate(state, raw);
}

/** CONTRACT v3, `check(event)`: the answer `send` would give in `state`, changing nothing and calling no hook (`timed`: the table's view of the turn, without hooks). */
export function checkEvent<S, W>(logic: TurnLogic<S, W>, table: TableModule | null, state: S, time: TimeState | null, timed: () => TimedTurn<S>, raw: unknown): { ok: true } | Refusal {
  const work = workOf(logic, table, state, time, raw);
  if (isRefusal(work)) return work;
  try {
    const out = work === null ? (table === null ? sendAt(gatedStep(logic, undefined), state, time, raw) : table.sendTimed(timed(), state, time, raw)) : logic.transition(state, work, undefined);
    return isRefusal(out) ? out : { ok: true };
  } catch (err) {
    return failed(err);
  }
}


/** The state with its generator started at `seed` (issue 34: a fork's new random stream, started as createGame starts the seed's); throws INVALID_OPTIONS for a seed that is not a finite number or a logic that cannot be reseeded. */
export function reseeded<S, W>(logic: TurnLogic<S, W>, state: S, seed: unknown): S {
  if (typeof seed !== 'number' || !Number.isFinite(seed)) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.seed: must be a finite number, got ${typeof seed === 'number' ? String(seed) : typeof seed}`);
  if (logic.reseed === undefined) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, "options.seed: this game's logic (the XState reference) cannot be reseeded");
  return logic.reseed(state, seedState(seed));
}
