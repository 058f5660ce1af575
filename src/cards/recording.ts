/**
 * A card game's recording (CONTRACT v4, "Card games"; v3 "Recordings"): the createCardGame
 * options (or the persisted card game it was recorded from), the definition's name, and every
 * accepted send's event as sent (`data` included). A card game's hooks are its definition, so a
 * replay runs the definition again: the same seed draws the same cards.
 */
import type { TurnEvent } from '../contract.js';
import type { Persisted } from '../persistence/format.js';
import type { ModuleName } from '../moduleNames.js';
import { RECORDING_ENGINE, RECORDING_FORMAT, SNAPSHOT_EVERY } from '../recording/format.js';

/** A recorded card game: the engine's recording's shape, with the cards named and the events as sent. */
export interface CardRecording {
  format: typeof RECORDING_FORMAT;
  engine: string;
  from: 'options' | 'persisted';
  /** The createCardGame options (with the seed the game drew), or the persisted card game. */
  options: Record<string, unknown>;
  /** The definition the game was played with. */
  cards: { name: string };
  /** The modules the game had (CONTRACT v4: a replay is given them in `use`), when it had any. */
  use?: ModuleName[];
  /** The game's start, then every accepted send's event. */
  inputs: { event?: TurnEvent }[];
  /** CONTRACT v3, "Recordings": `persist()` of the card game (its cards included) every 256 versions. */
  snapshots: { version: number; persisted: Persisted }[];
}

/** The recorder of one card game made with `record: true`. */
export class CardRecorder {
  readonly #base: Pick<CardRecording, 'from' | 'options' | 'cards' | 'use'>;
  readonly #inputs: { event?: TurnEvent }[] = [{}];
  readonly #snapshots: CardRecording['snapshots'] = [];

  constructor(base: Pick<CardRecording, 'from' | 'options' | 'cards' | 'use'>) {
    this.#base = base;
  }

  /** An accepted send's event (a JSON copy, as sent). */
  sent(event: unknown): void {
    this.#inputs.push({ event: event as TurnEvent });
  }

  /** Whether the game's `version` is one the recording keeps a snapshot of (every 256 versions). */
  snapshotDue(version: number): boolean {
    return version % SNAPSHOT_EVERY === 0 && version > 0;
  }

  /** `persist()` of the game at `version`. */
  snapshot(version: number, persisted: Persisted): void {
    this.#snapshots.push({ version, persisted });
  }

  /** The recording so far: a fresh JSON object. */
  recording(): CardRecording {
    return JSON.parse(JSON.stringify({ format: RECORDING_FORMAT, engine: RECORDING_ENGINE, ...this.#base, inputs: this.#inputs, snapshots: this.#snapshots })) as CardRecording;
  }
}
