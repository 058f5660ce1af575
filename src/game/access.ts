/**
 * What the XState bridge (src/game/actor.ts) is told of a game made by the shell
 * (src/game/shell.ts), and what it may read and do of it: the types only.
 */
import type { EmittedEvent } from '../contract.js';
import type { Refusal } from '../gate.js';
import type { ChartState, PendingVote } from './logic.js';

/** What the XState bridge (src/game/actor.ts) is told of the game: accepted events as they commit. */
export interface ActorBridge {
  /** An event was accepted and committed: the actor takes it with what it emitted. */
  committed(event: unknown, emitted: readonly EmittedEvent[]): void;
}

/** What the bridge may read and do (src/game/actor.ts). */
export interface ShellAccess {
  /** The chart's state now, as the actor shows it. */
  chartState(): ChartState;
  /** Gates and performs an event sent to the actor; commits it without telling the bridge, and delivers it when `deliver` is called. */
  process(raw: unknown): { ok: true; emitted: EmittedEvent[]; deliver(): void } | Refusal;
  /** The bridge, made once (set by src/game/actor.ts after it has read chartState, which leaves the game owning no stack). */
  bridge: ActorBridge | null;
  /** The actor object the bridge made (the same for the life of the game). */
  actor: unknown;
  /** True while the bridge tells the actor of an event (its subscribers and inspectors may not send): the game refuses sends as REENTRANT. */
  busy: boolean;
  /** Whether a send from here would be from inside the checkpoint hook. */
  inHook(): boolean;
  /** CONTRACT v3: the vote the game awaits (undo, shortcut), or null: the clocks stop while an undo vote is pending. */
  pendingVote(): PendingVote | null;
}
