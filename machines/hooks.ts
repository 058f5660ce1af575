/**
 * Host callbacks are not part of the machine's (serialisable) context: each game registers
 * its hooks against its actor, and the actions look them up through `self`.
 */
import type { GameHooks } from './turn.types.js';

const registry = new WeakMap<object, GameHooks>();

/** Registers the hooks of the game driven by `actor`. */
export function registerHooks(actor: object, hooks: GameHooks | undefined): void {
  if (hooks === undefined) registry.delete(actor);
  else registry.set(actor, hooks);
}

/** The hooks registered for `actor`, if any. */
export function hooksOf(actor: object): GameHooks | undefined {
  return registry.get(actor);
}
