/**
 * Host callbacks are not part of the machine's (serialisable) context. The compiled runtime
 * hands each effect the game's runtime record directly; on XState's own transition (the
 * reference logic, src/logic/xstate.ts) the chart's actions find it through `self`, the inert
 * actor the logic registers for the game. The API layer builds the record (src/hookAdapter.ts),
 * so the chart does not import it.
 */
import type { EmittedEvent, PlayerId, StackObject, Trigger, TurnEvent } from '../src/contract.js';
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
  /** Asks the host's `hooks.autoPass` whether `player` passes now (absent without one). Pure. */
  autoPass?: (ctx: TurnContext, player: PlayerId) => boolean;
  /**
   * CONTRACT v3, shortcuts (CR 732.2c): set by the table (src/table/) for the one send that takes
   * an agreed shortcut, asked as a player receives priority: 'pass', they pass for it; 'ask', the
   * agreed point is reached and they are asked, whatever their stops or yields say; null, the
   * shortcut has stopped (something went on the stack) and their own settings apply. Absent otherwise.
   */
  shortcut?: (ctx: TurnContext) => 'pass' | 'ask' | null;
  /** True while the checkpoint hook runs: a send from it is refused (REENTRANT). */
  inHook: boolean;
  /** The `seq` of the last event numbered in this send (the game's before it begins; CONTRACT v3). */
  seq: number;
  /**
   * The numbers given at a checkpoint to events of this send the hook saw in `pending` (the events
   * themselves are not changed: a refused send leaves no trace); the send's result takes them.
   */
  numbers: Map<EmittedEvent, number> | null;
  /** How many times this send called the checkpoint hook (for `hooks.settled`). */
  calls: number;
  /** The stacks the game may pop in place (src/game/ownedStacks.ts); absent: every resolution copies the rest of the stack. */
  stacks?: OwnedStackPop;
}

/**
 * CONTRACT v3 `seq`: numbers, in order, the events of this send not numbered yet (a checkpoint
 * hands them out in `pending`, `seq` included; the send's result takes the same numbers).
 */
export function numberEvents(runtime: GameHooksRuntime, events: readonly EmittedEvent[]): void {
  for (const e of events) if (e.seq === undefined && runtime.numbers?.has(e) !== true) (runtime.numbers ??= new Map()).set(e, ++runtime.seq);
}

/** How a game resolves the top of a stack (src/game/ownedStacks.ts). */
export interface OwnedStackPop {
  /** The stack less its top object: a new array, or the same one popped in place when no state but the game's own can see it. */
  pop(stack: readonly StackObject[]): StackObject[];
}

/** The runtime record of each inert actor standing for a game on XState's transition. */
const registry = new WeakMap<object, GameHooksRuntime>();

/** Registers the runtime of an actor. */
export function register(actor: object, runtime: GameHooksRuntime): void {
  registry.set(actor, runtime);
}

/** The runtime registered for `actor`, if any. */
export function runtimeOf(actor: object): GameHooksRuntime | undefined {
  return registry.get(actor);
}
