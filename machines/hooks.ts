/**
 * Host callbacks are not part of the machine's (serialisable) context: each game registers
 * a runtime record against its actor, and the actions look it up through `self`. The API
 * layer builds the record (src/game.ts, src/hookAdapter.ts), so the chart does not import it.
 *
 * XState computes an actor's initial state inside `createActor`, before the actor can be
 * registered, so {@link creatingWith} makes the record of the actor being created visible
 * for the length of that synchronous call.
 */
import type { PlayerId, Trigger, TurnEvent } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';

/** What a checkpoint reported, parsed and checked by the API layer. */
export interface HookReport {
  triggers: Trigger[];
  stateBasedActions: boolean;
  events: TurnEvent[];
}

/** What a running game gives its actor's actions. */
export interface GameHooksRuntime {
  /** Calls the host's checkpoint hook (absent without one); `about` is the player about to receive priority. */
  check?: (ctx: TurnContext, about: PlayerId | null) => HookReport;
  /** True while the checkpoint hook runs: a send from it is refused (REENTRANT). */
  inHook: boolean;
}

const registry = new WeakMap<object, GameHooksRuntime>();
let creating: GameHooksRuntime | undefined;

/** Runs `create` (which creates an actor) with `runtime` visible to its initial actions, then registers it. */
export function creatingWith<T extends object>(runtime: GameHooksRuntime | undefined, create: () => T): T {
  const outer = creating;
  creating = runtime;
  try {
    const actor = create();
    if (runtime !== undefined) registry.set(actor, runtime);
    return actor;
  } finally {
    creating = outer;
  }
}

/** Registers the runtime of an actor. */
export function register(actor: object, runtime: GameHooksRuntime): void {
  registry.set(actor, runtime);
}

/** The runtime registered for `actor`, if any (or that of the actor being created). */
export function runtimeOf(actor: object): GameHooksRuntime | undefined {
  return registry.get(actor) ?? creating;
}
