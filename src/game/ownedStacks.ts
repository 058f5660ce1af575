/**
 * Resolving the top of the stack without copying the rest (issue 21, point 8: 1,000 triggers in
 * one checkpoint cost O(N)). States are immutable and shared, so the stack less its top is a
 * new array: resolving N objects one by one copied N^2/2 of them. A game pops in place instead
 * the stacks it owns: the arrays it made itself (the first resolution of a stack copies it, as
 * before, and the game owns the copy) that no state but its current one holds, during a step
 * of its own. Nobody can see the difference:
 *
 * - what the game hands out is a copy (the view, `persist()`, emitted events) or forgets what it
 *   owns (`fork()`, `game.state`, the XState actor: the next resolution copies again);
 * - a step that fails puts every object it popped back (the game keeps its state, unchanged);
 * - the checkpoint hook runs inside a step and may read the game: what it reads sees the
 *   objects put back for the while (`read`), and a fork it makes gets its own state.
 */
import type { StackObject } from '../contract.js';
import type { OwnedStackPop } from '../../machines/hooks.js';

/**
 * How many of the arrays it made a game remembers as its own: one stack per turn marker of a
 * Grand Melee game (CR 807.4a: one marker per full four of at most 64 players). An array
 * forgotten is copied at its next resolution, as every array it does not own.
 */
const REMEMBERED = 16;

export class OwnedStacks implements OwnedStackPop {
  /**
   * The latest arrays this game made that only its current state (and the step in progress)
   * may hold, at most {@link REMEMBERED}, looked through by identity: a list, not a WeakSet
   * (adding to a WeakSet at every copy, and the collector's work on it, cost the API path about
   * 2% of its time).
   */
  readonly #owned: (readonly StackObject[])[] = [];
  /** Where the next array made takes its place once the list is full (the oldest). */
  #next = 0;
  /** What the step in progress popped in place, in order: to put back if it fails, or while the game is read. */
  readonly #popped: [StackObject[], StackObject][] = [];
  /** Whether a step of this game is in progress (pops in place only then). */
  #open = false;

  /** The stack less its top: the same array, popped, when the game owns it and a step is in progress; else a copy (which the game then owns). */
  pop(stack: readonly StackObject[]): StackObject[] {
    if (this.#open && this.#owned.includes(stack)) {
      const own = stack as StackObject[];
      this.#popped.push([own, own.pop() as StackObject]);
      return own;
    }
    const copy = stack.slice(0, -1);
    if (this.#open) this.#own(copy);
    return copy;
  }

  /** Remembers an array this game made, in place of the oldest once it remembers {@link REMEMBERED}. */
  #own(stack: StackObject[]): void {
    const owned = this.#owned;
    if (owned.length < REMEMBERED) {
      owned.push(stack);
      return;
    }
    owned[this.#next] = stack;
    this.#next = (this.#next + 1) % REMEMBERED;
  }

  /** A step begins. */
  open(): void {
    this.#open = true;
  }

  /** The step is over: `failed`, every object it popped goes back (newest first). */
  close(failed: boolean): void {
    if (this.#popped.length > 0) {
      if (failed) this.#putBack();
      this.#popped.length = 0;
    }
    this.#open = false;
  }

  /** Whether a step is in progress. */
  get stepping(): boolean {
    return this.#open;
  }

  /** Runs `read` with what the step in progress popped put back (the game's state as it was), then pops them again. */
  read<T>(read: () => T): T {
    if (this.#popped.length === 0) return read();
    this.#putBack();
    try {
      return read();
    } finally {
      // A read changes no stack (the game's reads copy or look; a send from the hook is refused).
      for (const [stack] of this.#popped) stack.pop();
    }
  }

  /** Owns nothing any more: the current state is shared from now on (a fork, `game.state`, the XState actor). */
  forget(): void {
    // Setting an array's length takes V8's runtime path even when it changes nothing: every
    // `game.state` and fork comes here (a simulator's stateHash after each send, issue 34).
    if (this.#owned.length !== 0) this.#owned.length = 0;
    this.#next = 0;
  }

  #putBack(): void {
    for (let i = this.#popped.length - 1; i >= 0; i--) {
      const [stack, top] = this.#popped[i] as [StackObject[], StackObject];
      stack.push(top);
    }
  }
}
