/**
 * `replayGame(recording, options?)` (CONTRACT v3, "Recordings"): the recorded game again, with
 * the recorded answers of its hooks standing in for the hooks (src/recording/tape.ts), so the
 * views, the emitted events, `seq` and `persist()` are the original's at every version. Without
 * hooks and listeners a replay to `until` starts from the nearest snapshot at or before it;
 * hooks given are asked too, and the first answer that differs is reported as drift.
 *
 * A recording is read as untrusted input: anything that is not one, or that does not replay,
 * throws `INVALID_RECORDING` naming the field. The inputs are checked as they are replayed (a
 * seek reads only those after its snapshot).
 */
import type { EmittedEvent, TurnEvent } from '../contract.js';
import { ErrorCode, TurnEngineError, type EngineErrorInfo } from '../errors.js';
import { cardsNameOf, createGame, LOGIC, restoreGame } from '../game/create.js';
import { readRestoreOptions } from '../game/options.js';
import { readUse } from '../game/module.js';
import { needs, type ModuleName } from '../moduleNames.js';
import type { Game, GameOptions, RecordedOptions, Recording, ReplayDrift, ReplayedGame, ReplayOptions, RestoreOptions } from '../game/types.js';
import { checkedResult } from '../hookAdapter.js';
import type { HookReport } from '../../machines/hooks.js';
import type { TurnContext } from '../state.js';
import { RECORDING_ENGINE, RECORDING_FORMAT, type HookAnswer } from './format.js';
import { compactReport, newTape, TAPE, type AnswerSource } from './tape.js';

/** What a replay tells its caller after each input (the command line, the inspector and recordingToScenario follow a replay so). */
export interface ReplayStep {
  /** The input's index in `recording.inputs` (0: the game's start). */
  index: number;
  /** The event sent (null for the start). */
  event: TurnEvent | null;
  /** What the send emitted (empty for the start). */
  events: EmittedEvent[];
  /** The game after it. */
  game: Game;
}

function invalid(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_RECORDING, message);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `'${value.length > 40 ? `${value.slice(0, 40)}...` : value}'`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

/** A recording whose frame is checked (its inputs are checked as they are replayed), with the version its first input made. */
export interface CheckedRecording {
  recording: Recording;
  /** The version of the game's start (0 for createGame). */
  start: number;
  /** The last version recorded. */
  end: number;
}

/** Checks a recording's frame: format, engine, options, hooks, inputs (a list) and snapshots (each a version and an object). */
export function checkRecording(value: unknown): CheckedRecording {
  if (!isRecord(value)) throw invalid(`recording: expected an object (game.recording()), got ${describe(value)}`);
  if (value.format !== RECORDING_FORMAT) throw invalid(`recording.format: expected '${RECORDING_FORMAT}', got ${describe(value.format)}`);
  if (typeof value.engine !== 'string') throw invalid(`recording.engine: expected a string, got ${describe(value.engine)}`);
  if (value.from !== 'options' && value.from !== 'persisted') throw invalid(`recording.from: expected 'options' or 'persisted', got ${describe(value.from)}`);
  if (!isRecord(value.options)) throw invalid(`recording.options: expected an object (the createGame options, or the persisted game), got ${describe(value.options)}`);
  const hooks = value.hooks;
  if (!isRecord(hooks)) throw invalid(`recording.hooks: expected { checkpoint, autoPass }, got ${describe(hooks)}`);
  for (const name of ['checkpoint', 'autoPass'] as const) {
    if (typeof hooks[name] !== 'boolean') throw invalid(`recording.hooks.${name}: expected a boolean, got ${describe(hooks[name])}`);
  }
  const inputs = value.inputs;
  if (!Array.isArray(inputs) || inputs.length === 0) throw invalid(`recording.inputs: expected a list beginning with the game's start, got ${Array.isArray(inputs) ? 'an empty list' : describe(inputs)}`);
  let start = 0;
  if (value.from === 'persisted') {
    const version = value.options.version;
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 0) throw invalid(`recording.options.version: expected the persisted game's version (a whole number), got ${describe(version)}`);
    start = version;
  }
  const end = start + inputs.length - 1;
  const snapshots = value.snapshots;
  if (!Array.isArray(snapshots)) throw invalid(`recording.snapshots: expected a list, got ${describe(snapshots)}`);
  let last = start;
  for (const [i, s] of snapshots.entries()) {
    if (!isRecord(s)) throw invalid(`recording.snapshots[${i}]: expected { version, persisted }, got ${describe(s)}`);
    const v = s.version;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= last || v > end) {
      throw invalid(`recording.snapshots[${i}].version: expected a whole number after ${last} (the snapshot before it, or the start) and at most ${end} (the last version recorded), got ${describe(v)}`);
    }
    if (!isRecord(s.persisted)) throw invalid(`recording.snapshots[${i}].persisted: expected a persisted game, got ${describe(s.persisted)}`);
    last = v;
  }
  return { recording: value as unknown as Recording, start, end };
}

/** The recorded answers of one input at a time, read by the hook adapter in place of the hooks; hooks given to the replay are compared with them. */
export class RecordedAnswers implements AnswerSource {
  readonly had: Recording['hooks'];
  drifted: ReplayDrift | null = null;
  #index = 0;
  #results: readonly unknown[] = [];
  #next = 0;

  constructor(hooks: Recording['hooks']) {
    this.had = hooks;
  }

  /** Input `index` begins: its answers are read in order. */
  begin(index: number, input: Record<string, unknown>): void {
    const results = input.results;
    if (results !== undefined && !Array.isArray(results)) throw invalid(`recording.inputs[${index}].results: expected a list of answers, got ${describe(results)}`);
    this.#index = index;
    this.#results = results ?? [];
    this.#next = 0;
  }

  /** Input `index` is done: every answer recorded was asked for. */
  end(): void {
    const left = this.#results.length - this.#next;
    if (left > 0) throw invalid(`recording.inputs[${this.#index}].results: ${left} answer(s) from results[${this.#next}] on were never asked for (the engine asked ${this.#next}); the recording is not this engine's game`);
  }

  #take(hook: string): { at: number; answer: unknown } {
    const at = this.#next++;
    if (at >= this.#results.length) {
      throw invalid(`recording.inputs[${this.#index}].results: the engine asked the ${hook} hook a ${at + 1}${at === 0 ? 'st' : at === 1 ? 'nd' : at === 2 ? 'rd' : 'th'} time; the recording has ${this.#results.length} answer(s) there`);
    }
    return { at, answer: this.#results[at] };
  }

  checkpoint(ctx: TurnContext, live: (() => HookReport) | undefined, version: number): HookReport {
    let report: HookReport = NOTHING;
    if (this.had.checkpoint) {
      const { at, answer } = this.#take('checkpoint');
      const where = `recording.inputs[${this.#index}].results[${at}]`;
      if (!isRecord(answer)) throw invalid(`${where}: the engine asked the checkpoint hook here; the recording has ${describe(answer)}, not a checkpoint result`);
      const checked = checkedResult(answer, ctx);
      if (typeof checked === 'string') throw invalid(`${where}: ${checked}`);
      report = checked;
    }
    if (live !== undefined) {
      const recorded = compactReport(report);
      const got = answerOf(() => compactReport(live()));
      if (typeof got !== 'object' || JSON.stringify(got) !== JSON.stringify(recorded)) this.#drift('checkpoint', version, recorded, got);
    }
    return report;
  }

  autoPass(live: (() => boolean) | undefined, version: number): boolean {
    let answer = false;
    if (this.had.autoPass) {
      const taken = this.#take('autoPass');
      if (typeof taken.answer !== 'boolean') throw invalid(`recording.inputs[${this.#index}].results[${taken.at}]: the engine asked the autoPass hook here; the recording has ${describe(taken.answer)}, not a boolean`);
      answer = taken.answer;
    }
    if (live !== undefined) {
      const got = answerOf(live);
      if (got !== answer) this.#drift('autoPass', version, answer, got);
    }
    return answer;
  }

  #drift(hook: 'checkpoint' | 'autoPass', version: number, recorded: HookAnswer, got: HookAnswer | { error: string }): void {
    this.drifted ??= { version, hook, recorded, got };
  }
}

/** What a checkpoint that reported nothing reports. */
const NOTHING: HookReport = { triggers: [], stateBasedActions: false, events: [] };

/** A hook's answer, or the error it failed with (a replay compares it and goes on). */
function answerOf(ask: () => HookAnswer): HookAnswer | { error: string } {
  try {
    return ask();
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** The recorded createGame options as options (a recording holds no hooks, listeners or `record`: any such field is dropped). */
export function setupOf(options: RecordedOptions): RecordedOptions {
  const { hooks: _hooks, listeners: _listeners, record: _record, ...setup } = options as RecordedOptions & Pick<GameOptions, 'hooks' | 'listeners' | 'record'>;
  return setup as RecordedOptions;
}

/** Checks replayGame's options; the version to stop at. */
function checkOptions(options: unknown, checked: CheckedRecording): number {
  if (!isRecord(options)) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options: must be an object, got ${describe(options)}`);
  const until = options.until;
  if (until === undefined) return checked.end;
  if (typeof until !== 'number' || !Number.isSafeInteger(until) || until < checked.start || until > checked.end) {
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.until: must be a version the recording holds, a whole number from ${checked.start} to ${checked.end}; got ${describe(until)}`);
  }
  return until;
}

/** A failed start or send of a replay, as INVALID_RECORDING naming where. */
function replayFailure(where: string, error: EngineErrorInfo | unknown): TurnEngineError {
  if (error instanceof TurnEngineError) return error.code === ErrorCode.INVALID_RECORDING ? error : invalid(`${where}: ${error.code}: ${error.message}`);
  if (isRecord(error) && typeof error.code === 'string') return error.code === ErrorCode.INVALID_RECORDING ? invalid(String(error.message)) : invalid(`${where}: ${error.code}: ${String(error.message)}`);
  return invalid(`${where}: ${String(error)}`);
}

/**
 * Replays a recording to `until`, telling `each` of every input replayed (the start included);
 * `replayGame` without the callback. With `each`, the replay starts from the recording's start.
 */
export function runReplay(recording: unknown, options: ReplayOptions = {}, each?: (step: ReplayStep) => void): ReplayedGame {
  const checked = checkRecording(recording);
  const until = checkOptions(options, checked);
  // The hooks and listeners, each read once and checked as restoreGame checks them.
  const read = readRestoreOptions(options, LOGIC, 'replayGame', ['until']);
  const rec = checked.recording;
  const live: RestoreOptions = {};
  if (read.hooks !== undefined) live.hooks = read.hooks;
  if (read.listeners !== undefined) live.listeners = read.listeners;
  // CONTRACT v4: the modules the recording names must be given (as restoreGame takes them).
  const modules = readUse(read.use);
  if (read.use !== undefined) live.use = read.use;
  const named: unknown = (rec as { use?: unknown }).use;
  if (named !== undefined) {
    if (!Array.isArray(named) || named.some((n) => n !== 'table' && n !== 'grandMelee')) throw invalid(`recording.use: expected a list of module names ('table', 'grandMelee'), got ${describe(named)}`);
    for (const name of named as ModuleName[]) if (modules[name] === undefined) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.use: the recording's game had the ${name} module, so the replay ${needs(name)}`);
  }
  const source = new RecordedAnswers(rec.hooks);
  const tape = newTape(source);
  const withTape = { ...live, [TAPE]: tape };
  // Hooks and listeners see the whole game; a replay that nobody watches starts from the nearest snapshot.
  const watched = each !== undefined || live.hooks !== undefined || live.listeners !== undefined;
  let snapshot: Recording['snapshots'][number] | undefined;
  if (!watched && rec.engine === RECORDING_ENGINE) for (const s of rec.snapshots) if (s.version <= until) snapshot = s;
  let game: Game;
  let next: number;
  if (snapshot !== undefined) {
    const at = rec.snapshots.indexOf(snapshot);
    try {
      game = restoreGame(snapshot.persisted, withTape);
    } catch (err) {
      throw replayFailure(`recording.snapshots[${at}].persisted`, err);
    }
    next = snapshot.version - checked.start + 1;
  } else {
    const first = rec.inputs[0];
    if (!isRecord(first) || first.event !== undefined) throw invalid(`recording.inputs[0]: expected the game's start, { results? } without an event, got ${describe(first)}`);
    source.begin(0, first);
    try {
      game = rec.from === 'options' ? createGame({ ...setupOf(rec.options as RecordedOptions), ...withTape } as GameOptions) : restoreGame(rec.options, withTape);
    } catch (err) {
      if (err instanceof TurnEngineError && (err.code === ErrorCode.INVALID_OPTIONS || err.code === ErrorCode.INVALID_SNAPSHOT)) throw invalid(`recording.options: ${err.message}`);
      throw replayFailure('recording.inputs[0]', err);
    }
    source.end();
    each?.({ index: 0, event: null, events: [], game });
    next = 1;
  }
  const last = until - checked.start;
  for (let i = next; i <= last; i++) {
    const input = rec.inputs[i];
    if (!isRecord(input) || input.event === undefined) throw invalid(`recording.inputs[${i}]: expected { event, results? }, got ${describe(input)}`);
    source.begin(i, input);
    const result = game.send(input.event as unknown);
    if (!result.ok) throw replayFailure(`recording.inputs[${i}].event: the recorded send was refused`, result.error);
    source.end();
    each?.({ index: i, event: input.event as TurnEvent, events: result.events, game });
  }
  // The replay is over: the game plays on live, with the hooks given (if any).
  tape.source = null;
  const replayed = game as ReplayedGame;
  Object.defineProperty(replayed, 'replay', { value: Object.freeze({ drift: source.drifted }), enumerable: false });
  return replayed;
}

/**
 * Replays a recorded game (CONTRACT v3, "Recordings"): a Game in the state the recorded game had
 * at version `until` (default: the last one recorded), with no hook called: the recorded answers
 * stand in for them, so views, emitted events, `seq` and `persist()` are the original's at every
 * version. Without hooks and listeners it starts from the nearest snapshot (a seek); with
 * `hooks`, they are asked too and the first answer that differs is reported as
 * `game.replay.drift` (the recorded answer is used). The game then plays on live with the hooks
 * given. Throws `INVALID_RECORDING` naming the field of a recording that is not one or does not
 * replay, `INVALID_OPTIONS` for bad options.
 */
export function replayGame(recording: unknown, options: ReplayOptions = {}): ReplayedGame {
  // CONTRACT v4, "Card games": a card game's recording is replayed with its cards, by their import.
  const cards = cardsNameOf(recording) as { name?: unknown } | undefined;
  if (cards !== undefined) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, `recording.cards: the recording of a card game ('${String(cards?.name)}'); replay it with replayGame(recording, { cards }) from 'mtg-turn-engine/cards'`);
  return runReplay(recording, options);
}
