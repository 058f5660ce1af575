/**
 * What a turn is, behind one interface: the shell (shell.ts) runs a game over any
 * {@link TurnLogic}, as XState's `createActor` runs any `ActorLogic`. Three logics exist:
 * src/logic/single.ts (the plan compiled from the chart: every game but Grand Melee),
 * src/logic/grandMelee.ts (one run of the plan per turn marker, CR 807) and src/logic/xstate.ts
 * (the reference on XState's own `transition`, for tests and the bench; no entry imports it).
 *
 * A logic is pure: states are immutable and shared freely (forks share them); nothing it is
 * given is mutated, but for one thing nobody can see: during a step of its own, a game pops in
 * place the stacks it alone holds (src/game/ownedStacks.ts, `popsOwnedStacks`). The hooks
 * runtime is the only way back to the host (the checkpoint hook).
 */
import type { GameHooksRuntime } from '../../machines/hooks.js';
import type { EmittedEvent, TurnView } from '../contract.js';
import type { TurnContext, TurnInput } from '../state.js';
import type { Refusal } from '../gate.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';
import type { PersistedFull } from '../persistence/format.js';

/** The order of a restored context's fields when it is not the engine's own, else null. */
export type ContextOrder = readonly string[] | null;

/** A state with what reaching it emitted. */
export interface Stepped<S> {
  readonly state: S;
  readonly emitted: EmittedEvent[];
}

/** Where the chart is, as the XState actor shows it (the first running turn of a game of turn markers). */
export interface ChartState {
  readonly value: string;
  readonly context: TurnContext;
  readonly status: 'active' | 'done';
}

/**
 * A turn logic over states `S`, whose gate hands the transition a `Work` (the event, or the
 * events routed to the turns that take them).
 */
export interface TurnLogic<S, Work = unknown> {
  /**
   * Whether the shell may let the transitions pop the stacks it owns in place
   * (src/game/ownedStacks.ts): true for the logics whose states only the shell holds; XState's
   * own transition (the reference) is left as it is.
   */
  readonly popsOwnedStacks?: boolean;
  /** Turn 1 begun (or the pregame): XState's `getInitialSnapshot`. Throws a TurnEngineError (HOOK_FAILED) when the hook fails. */
  getInitialSnapshot(input: TurnInput, runtime: GameHooksRuntime | undefined): Stepped<S>;
  /**
   * The state of a validated persisted game (XState's `restoreSnapshot`), with the order of its
   * context's fields when it is not the engine's own (a context restored from the full form keeps
   * the order it came in for the actor's snapshot); throws INVALID_SNAPSHOT when its state is not
   * the chart's. `persisted` is the validation's own copy: the state may keep its objects.
   */
  restoreSnapshot(persisted: PersistedFull): { state: S; order: ContextOrder };
  /**
   * The persisted game in the full form (XState's `getPersistedSnapshot`): plain JSON that
   * shares the state's objects; the shell writes it in the compact form and copies that
   * (src/persistence/compact.ts), so nothing it hands out is shared with the state.
   */
  getPersistedSnapshot(state: S, version: number): PersistedFull;
  /** Every check an event passes before it changes anything (schema, players, game over, the legality table, the turn it is for): the work, or the refusal. */
  gate(state: S, raw: unknown): Work | Refusal;
  /**
   * The gate's lane, when the logic has one: the work for the events most games are sent most,
   * exactly as {@link TurnLogic.gate} would accept them, else undefined (then the gate decides).
   * It never refuses, so the shell looks for no refusal in what it returns; it declines any event
   * with an `at` (an event about time takes the table's path, src/table/time.ts).
   */
  lane?(state: S, raw: unknown): Work | undefined;
  /** The state after gated work (XState's `transition`), with what it emitted. Throws a TurnEngineError when the hook fails. */
  transition(state: S, work: Work, runtime: GameHooksRuntime | undefined): Stepped<S>;
  view(state: S, version: number, seq: number): TurnView;
  legalActions(state: S, player?: string): LegalAction[];
  /**
   * `runtime`: the look ahead's hooks (only `hooks.autoPass`, which nextStop uses; never the
   * checkpoint). `fromNow`: what is awaited now may be the stop (a table's look ahead past the vote
   * that was awaited now); otherwise it is answered first, as the contract says.
   */
  nextStop(state: S, player: string | undefined, runtime?: GameHooksRuntime, fromNow?: boolean): NextStop | null;
  /** `nextStop` of each of `players` from one look ahead (the same answers as one call each); absent: one call each. */
  nextStops?(state: S, players: readonly string[], runtime?: GameHooksRuntime, fromNow?: boolean): Record<string, NextStop | null>;
  /** The chart's state the XState actor shows. */
  chartState(state: S, order: ContextOrder): ChartState;
  /** The emitted events the state keeps for the next checkpoint (handed out as copies). */
  pending(state: S): readonly EmittedEvent[];
  /**
   * CONTRACT v3, "Playing between people": the vote the game awaits (an undo request, a shortcut
   * proposal: src/table/tableLogic.ts), or null; absent for a logic that holds none. The clocks
   * stop while an undo vote is pending.
   */
  pendingVote?(state: S): PendingVote | null;
  /**
   * The state once the shell has committed a send as `version`, its last event numbered `seq`
   * (absent for a logic that keeps no versions of its own). A send may have stepped the logic
   * several times (the clocks' answers for a player out of time or away) or not at all (TICK):
   * the undo record (src/table/undo.ts) learns here the version and seq the host saw.
   */
  committed?(state: S, version: number, seq: number): S;
  /**
   * Issue 34, `fork({ seed })`: the state with every random draw's generator at `rng` (the
   * engine's seeded generator, src/rules/random.ts, whose position is the context's `rng`; a card
   * game's `ctx.random` draws from it too), everything else shared. Absent for a logic that cannot
   * be reseeded (the XState reference): the fork is then refused.
   */
  reseed?(state: S, rng: number): S;
}

/** A vote the game awaits (CONTRACT v3): its kind (the Awaiting kind) and the player awaited. */
export interface PendingVote {
  kind: 'undoConsent' | 'shortcut';
  player: string;
  /** CONTRACT v4: when an undo request is declined for `player` if they do not answer (the host's clock); null or absent: never. */
  deadline?: number | null;
}

/** Whether the gate refused. Works are events or lists of them: neither has an `error` field. */
export function isRefusal(out: unknown): out is Refusal {
  return typeof out === 'object' && out !== null && 'error' in out;
}

/** One gated step of `logic` with a send's hooks runtime (none for `check`): the gate, then the transition of what it let through. */
export function gatedStep<S, W>(logic: TurnLogic<S, W>, runtime: GameHooksRuntime | undefined): (state: S, event: unknown) => Stepped<S> | Refusal {
  return (state, event) => {
    const work = logic.gate(state, event);
    return isRefusal(work) ? work : logic.transition(state, work, runtime);
  };
}
