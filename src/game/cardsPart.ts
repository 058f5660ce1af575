/**
 * What the shell knows of a card game (CONTRACT v4, "Card games"): the cards part a game made by
 * `mtg-turn-engine/cards` carries (src/cards/part.ts). The shell stays card-agnostic: it hands the
 * part each send with the steps it may take (one event gated and stepped at a time, from the
 * committed state or from the step before), and tells it whether the send was committed. The
 * types only: nothing of the cards' code is imported by the main entry.
 */
import type { EmittedEvent, GameHooks } from '../contract.js';
import type { Refusal } from '../gate.js';

/** One step of a send, opaque to the part but for what it emitted. */
export interface PartStep {
  readonly emitted: EmittedEvent[];
}

/** What the shell lets the part do during one send. */
export interface ShellSteps {
  /** The engine's gate alone, on the committed state: the refusal, or anything else when the event would be taken (or is about time). */
  gate(raw: unknown): unknown;
  /** One event gated and stepped from `from` (the committed state when absent). */
  step(raw: unknown, from?: PartStep): PartStep | Refusal;
  /** The committed state, as a step that emitted nothing. */
  here(): PartStep;
  /** The next `seq`, for an event the part emits before the engine's of this send. */
  nextSeq(): number;
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
  /** An independent part in the same state; `seed` gives the fork's cards a new random stream. */
  fork(seed?: number): CardsPart;
  /** The game made with this part: the part adds what a card game has (`cards()`, its persisted cards, its check, recording and seats' events). */
  attach(game: object): void;
}

/**
 * The key of a card game's method giving the cards' random stream's position (stateHash reads it:
 * two card games whose cards will draw differently are not in the same state). Not a name hosts see.
 */
export const CARDS_RANDOM: unique symbol = Symbol.for('mtg-turn-engine: the position of the cards\' random stream');

/**
 * The key of a card game's method giving the decisions owed to the next checkpoint (what its
 * `pending` will begin with), each as its `decided` event's `event` (stateHash reads them: a game
 * whose cards are still to be told of a decision is not in the state of one whose cards were).
 */
export const CARDS_OWED: unique symbol = Symbol.for('mtg-turn-engine: the decisions owed to the next checkpoint');

/** The key under which `mtg-turn-engine/cards` hands the factories a game's part: not a name hosts see. */
export const CARDS_PART: unique symbol = Symbol.for('mtg-turn-engine: the cards part of a card game');

/** The part an options object carries under {@link CARDS_PART}, if any. */
export function partOf(options: object): CardsPart | undefined {
  return (options as { [CARDS_PART]?: CardsPart })[CARDS_PART];
}

/**
 * The key under which a host event a card game takes for a player's CARD_ACTION names that player
 * (CONTRACT v4, "Undo in a card game": a player's CARD_ACTION is theirs, so no other player undoes
 * past it). A symbol: no schema reads it, and the table reads it from the event as sent.
 */
export const ACTED_FOR: unique symbol = Symbol.for('mtg-turn-engine: the player a card action was taken for');

/** The player a raw event was taken for by a card action (see {@link ACTED_FOR}), or undefined (a value that cannot be read names nobody). */
export function actedFor(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  try {
    const who = (raw as { [ACTED_FOR]?: unknown })[ACTED_FOR];
    return typeof who === 'string' ? who : undefined;
  } catch {
    return undefined;
  }
}
