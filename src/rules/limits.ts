/**
 * Caps on what the engine holds, so that no host (or network client) can make a game grow
 * without bound, and the fixed numbers of the rules. Reaching a cap refuses the event
 * (HOOK_FAILED inside a checkpoint, ILLEGAL_ACTION otherwise, the message naming the cap);
 * persisted games are validated against the same numbers.
 */

/** Lands a player may play each turn before effects (CR 305.2). */
export const LANDS_PER_TURN = 1;
/** Most objects on the stack, and most triggered abilities waiting to be put on it. */
export const MAX_STACK = 10_000;
/** Most "skip your next ..." effects of one kind pending for one player. */
export const MAX_PENDING_SKIPS = 64;
/** Most extra turns pending at once. */
export const MAX_PENDING_EXTRA_TURNS = 256;
/** Most phases still to come in one turn (the regular five plus added ones). */
export const MAX_PHASES = 64;
/** Most steps in one phase still to come (regular and added). */
export const MAX_STEPS = 64;
/** Most continuous effects in force at once. */
export const MAX_EFFECTS = 1000;
/** Most pending "control that player" effects. */
export const MAX_CONTROL_EFFECTS = 64;
/** Most cleanup steps in one turn: a host that reports something in every cleanup would never end the turn (CR 514.3a). */
export const MAX_CLEANUP_STEPS_PER_TURN = 100;
/** Most rounds of one state-based action and trigger check (CR 704.3). */
export const MAX_CHECKPOINT_ROUNDS = 100;
/** Most automatic passes in one send (CONTRACT: the loop guard). */
export const MAX_AUTO_PASSES = 10_000;
/** Most events emitted between two checkpoints that the engine keeps for the hook. */
export const MAX_PENDING_EVENTS = 10_000;
/** Turns in a row, per player, with every phase and step skipped before the game is a draw (CR 104.4b). */
export const MAX_EMPTY_TURNS_PER_PLAYER = 2;
