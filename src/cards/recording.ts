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
  /**
   * The game's start, then every accepted send's event, each with `cards`: a check of the cards
   * after it (a hash of S's JSON and the random position), which a replay compares to report drift.
   */
  inputs: { event?: TurnEvent; cards?: string }[];
  /** CONTRACT v3, "Recordings": `persist()` of the card game (its cards included) every 256 versions. */
  snapshots: { version: number; persisted: Persisted }[];
}

/** The recorder of one card game made with `record: true`. */
export class CardRecorder {
  readonly #base: Pick<CardRecording, 'from' | 'options' | 'cards' | 'use'>;
  readonly #inputs: CardRecording['inputs'] = [{}];
  readonly #snapshots: CardRecording['snapshots'] = [];

  constructor(base: Pick<CardRecording, 'from' | 'options' | 'cards' | 'use'>) {
    this.#base = base;
  }

  /** Whether no send is recorded yet. */
  fresh(): boolean {
    return this.#inputs.length === 1;
  }

  /** The check of the cards as the game began (setup, and the checkpoints of its start). */
  began(cards: string): void {
    (this.#inputs[0] as { cards?: string }).cards = cards;
  }

  /** An accepted send's event (a JSON copy, as sent) and the check of the cards after it. */
  sent(event: unknown, cards: string): void {
    this.#inputs.push({ event: event as TurnEvent, cards });
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

/**
 * A check of the cards after a send (CONTRACT v4: a card game's replay reports drift): two 32-bit
 * FNV-1a hashes of S's JSON (with different offsets) and the random stream's position, as 24 hex
 * characters. Equal states give equal checks; a definition that changed what a send does to S, or
 * what it draws, almost surely gives another.
 */
export function cardsCheck(json: string, random: number): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return hex(a) + hex(b) + hex(random);
}
