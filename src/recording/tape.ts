/**
 * The tape between a game's hooks and its recording (CONTRACT v3, "Recordings"): while a
 * recorded game sends, the hook adapter (src/hookAdapter.ts) writes every answer the hooks gave
 * to the tape's `log`; while a game is replayed, the recorded answers are read from its
 * `source` in place of the hooks. The shell (src/game/shell.ts) owns the tape.
 */
import type { HookReport } from '../../machines/hooks.js';
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import type { HookAnswer } from './format.js';

/** Where a replay reads the recorded answers of the send under way. */
export interface AnswerSource {
  /** The recorded game's hooks: a hook it did not have was never asked (its answer is "nothing"). */
  readonly had: { readonly checkpoint: boolean; readonly autoPass: boolean };
  /**
   * The next recorded checkpoint result, checked as a hook's result is (throws INVALID_RECORDING
   * naming it when there is none or it is not one); `live` asks the hook given to the replay, if
   * any, whose answer is compared (the game's `version` is the drift's).
   */
  checkpoint(ctx: TurnContext, live: (() => HookReport) | undefined, version: number): HookReport;
  /** The next recorded autoPass answer, likewise. */
  autoPass(live: (() => boolean) | undefined, version: number): boolean;
}

/** A game's tape. */
export interface HookTape {
  /** Recording: the answers of the send under way, in order (null outside a send, and when the game does not record). */
  log: (HookReport | boolean)[] | null;
  /** Replaying: the recorded answers stand in for the hooks (null once the replay is over: the game plays on live). */
  source: AnswerSource | null;
  /** `hooks.autoPass` alone, neither recorded nor replayed, for nextStop's look ahead (set by the hook adapter). */
  lookAhead: ((ctx: TurnContext, player: PlayerId) => boolean) | undefined;
}

/** A new tape. */
export function newTape(source: AnswerSource | null = null): HookTape {
  return { log: null, source, lookAhead: undefined };
}

/**
 * The key under which `replayGame` hands createGame / restoreGame the tape of the game it
 * replays (`{ ...options, [TAPE]: tape }`), as the project's tests hand them a logic: not a name
 * hosts see.
 */
export const TAPE: unique symbol = Symbol.for('mtg-turn-engine: the tape of a replayed game');

/** The tape an options object carries under {@link TAPE}, if any. */
export function tapeOf(options: object): HookTape | undefined {
  return (options as { [TAPE]?: HookTape })[TAPE];
}

/** A checkpoint report as a recording keeps it: empty lists and `stateBasedActions: false` left out. */
export function compactReport(report: HookReport): HookAnswer {
  const out: { triggers?: HookReport['triggers']; stateBasedActions?: true; events?: HookReport['events'] } = {};
  if (report.triggers.length > 0) out.triggers = report.triggers;
  if (report.stateBasedActions) out.stateBasedActions = true;
  if (report.events.length > 0) out.events = report.events;
  return out;
}
