/**
 * Host callbacks are not part of the machine's (serialisable) context: each game registers
 * its hooks against its actor, and the actions look them up through `self`.
 *
 * XState computes an actor's initial state inside `createActor`, before the actor can be
 * registered, so {@link creatingWith} makes the hooks of the actor being created visible
 * for the length of that synchronous call.
 */
import type { GameHooks } from './turn.types.js';

const registry = new WeakMap<object, GameHooks>();
let creating: GameHooks | undefined;

/** Runs `create` (which creates an actor) with `hooks` visible to its initial actions, then registers them. */
export function creatingWith<T extends object>(hooks: GameHooks | undefined, create: () => T): T {
  creating = hooks;
  try {
    const actor = create();
    if (hooks !== undefined) registry.set(actor, hooks);
    return actor;
  } finally {
    creating = undefined;
  }
}

/** The hooks registered for `actor`, if any (or those of the actor being created). */
export function hooksOf(actor: object): GameHooks | undefined {
  return registry.get(actor) ?? creating;
}
