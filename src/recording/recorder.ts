/**
 * The recorder of a game made with `record: true` (CONTRACT v3, "Recordings"): the shell tells it
 * of the game's start and of every accepted send with the answers its hooks gave (read from the
 * tape, src/recording/tape.ts), and it keeps `persist()` every 256 versions. `recording()` hands
 * out a fresh JSON copy.
 */
import type { ModuleName } from '../game/module.js';
import type { CheckpointHook, GameHooks, TurnEvent } from '../contract.js';
import type { RecordedOptions, Recording } from '../game/types.js';
import type { Persisted } from '../persistence/format.js';
import { eventOrMessage } from '../schemas.js';
import type { HookReport } from '../../machines/hooks.js';
import { RECORDING_ENGINE, RECORDING_FORMAT, SNAPSHOT_EVERY, type HookAnswer, type RecordedInput, type RecordedSnapshot } from './format.js';
import { compactReport } from './tape.js';

/** The hooks' answers of one input as a recording keeps them (null: none). */
function kept(answers: readonly (HookReport | boolean)[] | null): HookAnswer[] | null {
  // A copy of each: nothing the recording keeps is shared with the game's state.
  return answers === null || answers.length === 0 ? null : answers.map((a) => (typeof a === 'boolean' ? a : (JSON.parse(JSON.stringify(compactReport(a))) as HookAnswer)));
}

/** A TRIGGER with the turn marker each of its triggers names in the event sent (read beside the schema, CR 807.5b): the stack each goes on. */
function withTriggerMarkers(event: TurnEvent, raw: unknown): TurnEvent {
  const entries = (raw as { triggers?: unknown }).triggers;
  if (event.type !== 'TRIGGER' || !Array.isArray(entries)) return event;
  const triggers = event.triggers.map((t, i) => {
    const marker = (entries[i] as { turnMarker?: unknown } | null)?.turnMarker;
    return typeof marker === 'number' ? { ...t, turnMarker: marker } : t;
  });
  return { ...event, triggers };
}

/** Where a recording starts: createGame's options, or the persisted game of a restore or a fork. */
export type RecordingBase = ({ from: 'options'; options: RecordedOptions } | { from: 'persisted'; options: Persisted }) & { use?: ModuleName[] };

/**
 * The key of a recorded game's last input (the shell's `[LAST_INPUT]()`): the event the engine
 * read and the answers its hooks gave in the send just accepted, without copying the whole
 * recording as `recording()` does. The table server (src/server) writes it to its store with
 * every send; not a name hosts see.
 */
export const LAST_INPUT: unique symbol = Symbol.for('mtg-turn-engine: the last input of a recorded game');

/** The recording of one game as it is played. */
export class Recorder {
  readonly #base: RecordingBase;
  readonly #hooks: Recording['hooks'];
  readonly #inputs: RecordedInput[] = [];
  readonly #snapshots: RecordedSnapshot[] = [];

  constructor(base: RecordingBase, hooks: GameHooks | CheckpointHook | undefined) {
    this.#base = base;
    const { checkpoint, autoPass } = typeof hooks === 'function' ? { checkpoint: hooks, autoPass: undefined } : (hooks ?? {});
    this.#hooks = { checkpoint: typeof checkpoint === 'function', autoPass: typeof autoPass === 'function' };
  }

  /** The game started (createGame, a restore or a fork) with these answers of its hooks. */
  started(answers: readonly (HookReport | boolean)[] | null): void {
    const results = kept(answers);
    this.#inputs.push(results === null ? {} : { results });
  }

  /** An accepted send made `version`; `persist` is asked for every 256 versions. */
  sent(raw: unknown, answers: readonly (HookReport | boolean)[] | null, version: number, persist: () => Persisted): void {
    // The event as the engine read it (plain data, whatever the host's object was made of), with
    // the turn marker it names in Grand Melee (read beside the schema, CR 807.5b).
    const parsed = eventOrMessage(raw);
    const marker = (raw as { turnMarker?: unknown }).turnMarker;
    const read = typeof parsed === 'string' ? (JSON.parse(JSON.stringify(raw)) as TurnEvent) : marker === undefined ? parsed : ({ ...parsed, turnMarker: marker } as TurnEvent);
    const event = typeof parsed === 'string' ? read : withTriggerMarkers(read, raw);
    const results = kept(answers);
    this.#inputs.push(results === null ? { event } : { event, results });
    if (version % SNAPSHOT_EVERY === 0) this.#snapshots.push({ version, persisted: persist() });
  }

  /** The last input recorded (the game's start, or the send just accepted): the recorder's own object, not to be changed. */
  last(): Readonly<RecordedInput> {
    return this.#inputs[this.#inputs.length - 1] as RecordedInput;
  }

  /** The recording so far: a fresh JSON object (nothing shared with the game or the recorder). */
  recording(): Recording {
    const recording: Recording = {
      format: RECORDING_FORMAT,
      engine: RECORDING_ENGINE,
      from: this.#base.from,
      options: this.#base.options,
      hooks: this.#hooks,
      ...(this.#base.use === undefined ? {} : { use: this.#base.use }),
      inputs: this.#inputs,
      snapshots: this.#snapshots,
    };
    return JSON.parse(JSON.stringify(recording)) as Recording;
  }
}
