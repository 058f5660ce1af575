/**
 * Caps on what the engine holds, so that no host (or network client) can make a game grow
 * without bound. Reaching one refuses the event with LOOP_LIMIT; persisted games are
 * validated against the same numbers.
 */

/** Most objects on the stack, and most triggered abilities waiting to be put on it. */
export const MAX_STACK = 10_000;
/** Most skip records kept for inspection in one turn (the oldest are dropped). */
export const MAX_SKIP_RECORDS = 256;
