/**
 * Errors of the engine. `createGame` and `restoreGame` throw a {@link TurnEngineError};
 * `game.send` never throws and returns the same codes in `{ ok: false, error }`.
 */

/** Every error code the engine uses, with what it means. */
export const ErrorCode = {
  /** `createGame` options are malformed: the message names the field. */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
  /** `restoreGame` was given something that is not a persisted game. */
  INVALID_SNAPSHOT: 'INVALID_SNAPSHOT',
  /** The event is not an event of the contract (schema failure): the message names the field. */
  INVALID_EVENT: 'INVALID_EVENT',
  /** The event is well-formed but the rules do not allow it now: `rule` names the CR rule. */
  ILLEGAL_ACTION: 'ILLEGAL_ACTION',
  /** The game is over: no event is accepted. */
  GAME_OVER: 'GAME_OVER',
  /**
   * The checkpoint hook threw, returned something that is not a CheckpointResult, returned an
   * event that would be refused, or kept reporting past a named cap (the message names it).
   */
  HOOK_FAILED: 'HOOK_FAILED',
  /** `game.send` was called from inside the checkpoint hook. */
  REENTRANT: 'REENTRANT',
  /**
   * CONTRACT v3, "Recordings": `replayGame` or `recordingToScenario` was given something that is
   * not a recording, or one that does not replay (a recorded send refused, a hook answer missing
   * or left over): the message names the field (`inputs[12].event`, `snapshots[0].persisted`).
   */
  INVALID_RECORDING: 'INVALID_RECORDING',
  /**
   * CONTRACT v3, "Serving games": the table server refused a join (`connectTable` rejects with
   * it): no such game, a token that is not that seat's, join options that are not
   * `{ gameId, seat, token }` or `{ gameId, spectator: true }`. The message says which.
   */
  JOIN_REFUSED: 'JOIN_REFUSED',
  /**
   * CONTRACT v3, "Serving games": a table's `send` while its connection to the server is lost (or
   * was lost before the answer came): the send may or may not have been accepted; the table
   * rejoins by itself and receives every event it missed.
   */
  DISCONNECTED: 'DISCONNECTED',
  /**
   * CONTRACT v3, "Serving games": the server could not write an accepted send to its store, so it
   * refused it (nothing changed: the game was reloaded from the store).
   */
  STORE_FAILED: 'STORE_FAILED',
  /**
   * CONTRACT v3, "Serving games": a table sent more messages than the server takes from one
   * connection (a flood); this one was dropped and changed nothing.
   */
  RATE_LIMITED: 'RATE_LIMITED',
} as const;

/** An error code. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The error object of a refused event. */
export interface EngineErrorInfo {
  code: ErrorCode;
  message: string;
  /** The Comprehensive Rules number behind an ILLEGAL_ACTION, e.g. '117.3a'. */
  rule?: string;
}

/** The error the engine throws (from `createGame` and `restoreGame`) and reports (from `send`). */
export class TurnEngineError extends Error {
  readonly code: ErrorCode;
  readonly rule: string | undefined;

  constructor(code: ErrorCode, message: string, rule?: string) {
    super(message);
    this.name = 'TurnEngineError';
    this.code = code;
    this.rule = rule;
  }

  /** The plain `{ code, message, rule? }` object that `send` returns. */
  toInfo(): EngineErrorInfo {
    return this.rule === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, rule: this.rule };
  }
}

/** A rule violation found by a pure rules function: the rule number and what to do instead. */
export interface Violation {
  rule: string;
  message: string;
}

/** Builds a {@link Violation}. */
export function violation(rule: string, message: string): Violation {
  return { rule, message };
}

/**
 * What a host's code threw (a hook, a getter of a hostile value), described without trusting
 * it: its message or toString may throw too. An Error gives its message, any other primitive
 * itself, anything else its kind; at most 200 characters.
 */
export function describeThrown(err: unknown): string {
  try {
    const text = err instanceof Error ? err.message : typeof err === 'object' || typeof err === 'function' ? `a thrown ${err === null ? 'null' : typeof err}` : String(err);
    return text.length > 200 ? `${text.slice(0, 200)}...` : text;
  } catch {
    return 'a value that cannot be described';
  }
}
