/**
 * The format of a recorded game (CONTRACT.md v3, "Recordings"): its tags and the parts that
 * need nothing of the Game. `Recording` itself, with the createGame options it holds, is
 * declared with the Game's types (src/game/types.ts).
 */
import type { CheckpointResult, TurnEvent } from '../contract.js';
import type { Persisted } from '../persistence/format.js';

/** The `format` tag of a recording. */
export const RECORDING_FORMAT = 'mtg-turn-engine/recording@1';
/** The `engine` tag of this engine's recordings: their snapshots are this engine's `persist()`. */
export const RECORDING_ENGINE = 'mtg-turn-engine';
/** A recording keeps `persist()` every this many versions (CONTRACT v3: a seek starts from the nearest one). */
export const SNAPSHOT_EVERY = 256;

/**
 * One answer a hook gave during a send: a checkpoint result (an object: `{}` when it reported
 * nothing; empty lists and `stateBasedActions: false` are left out) or the answer of
 * `hooks.autoPass` (a boolean).
 */
export type HookAnswer = CheckpointResult | boolean;

/**
 * One input of a recording. The first is the game's start (createGame, or the restore or fork
 * it was recorded from: no `event`); each later one is an accepted send, which made the game's
 * version one more than the input before it.
 */
export interface RecordedInput {
  /** The event sent, as the engine read it (absent in the first input). */
  event?: TurnEvent;
  /** What the hooks answered, in the order the engine asked (absent when it asked nothing). */
  results?: HookAnswer[];
}

/** `persist()` of the recorded game at one version (CONTRACT v3: every 256 versions). */
export interface RecordedSnapshot {
  version: number;
  persisted: Persisted;
}
