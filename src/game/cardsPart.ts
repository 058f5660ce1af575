/**
 * What the shell knows of a card game (CONTRACT v4, "Card games"): the cards part a game made by
 * `mtg-turn-engine/cards` carries (src/cards/part.ts). The shell stays card-agnostic: it hands the
 * part each send with the steps it may take (one event gated and stepped at a time, from the
 * committed state or from the step before), and tells it whether the send was committed. The
 * types only: nothing of the cards' code is imported by the main entry.
 */
import type { EmittedEvent, GameHooks, SeatOptions, TurnView } from '../contract.js';
import type { Refusal } from '../gate.js';
import type { Viewer } from '../seats.js';

/** One step of a send, opaque to the part but for what it emitted. */
export interface PartStep {
  readonly emitted: EmittedEvent[];
}

/** What the shell lets the part do during one send. */
export interface ShellSteps {
  /** The gate alone, from `from` (the committed state when absent): null when the event would be taken, else the refusal. */
  gate(raw: unknown, from?: PartStep): Refusal | null;
  /** One event gated and stepped from `from` (the committed state when absent). */
  step(raw: unknown, from?: PartStep): PartStep | Refusal;
  /** The step's emitted events replaced by `emitted` (the same state). */
  withEmitted(step: PartStep | undefined, emitted: EmittedEvent[]): PartStep;
  /** The next `seq`, for an event the part emits before the engine's of this send. */
  nextSeq(): number;
  /** The full view of the game before this send. */
  view(options?: SeatOptions): TurnView;
}

/** A card game's part of a game (src/cards/part.ts). */
export interface CardsPart {
  /** The definition's functions as the engine's hooks, bound to this part. */
  readonly hooks: GameHooks;
  /** One send, as one transaction over the turn and the cards' state. */
  process(raw: unknown, steps: ShellSteps): PartStep | Refusal;
  /** The send was committed as `version`. */
  committed(version: number, emitted: readonly EmittedEvent[]): void;
  /** The send was refused: the working copy is dropped. */
  refused(): void;
  /** The persisted part (`persist().cards`). */
  persisted(): unknown;
  /** An independent part in the same state; `seed` gives the fork's cards a new random stream. */
  fork(seed?: number): CardsPart;
  /** `game.cards(options)`: the host's frozen state, or what one seat (or a spectator) sees. */
  read(options: SeatOptions | undefined, view: (options?: SeatOptions) => TurnView): unknown;
  /** An event as `viewer` receives it (a decision's `data` as the other seats see it). */
  seatEvent(event: EmittedEvent, viewer: Viewer): EmittedEvent;
  /** The card game's recording (with `record: true`). */
  recording(): unknown;
}

/** The key under which `mtg-turn-engine/cards` hands the factories a game's part: not a name hosts see. */
export const CARDS_PART: unique symbol = Symbol('mtg-turn-engine: the cards part of a card game');

/** The part an options object carries under {@link CARDS_PART}, if any. */
export function partOf(options: object): CardsPart | undefined {
  return (options as { [CARDS_PART]?: CardsPart })[CARDS_PART];
}
