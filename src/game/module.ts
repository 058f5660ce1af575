/**
 * CONTRACT v4, "Package" ("A browser pays for what it uses"): the modules a host passes in `use`.
 * The table's features (undo, shortcuts, clocks, seats that drop: `mtg-turn-engine/table`) and
 * Grand Melee (`mtg-turn-engine/variants`) are reached by createGame, restoreGame, replayGame and
 * the shell only through a module given here, so a bundler drops what a host never imports.
 * A module is a small interface the shell calls: its options, its gate lane (the events it
 * takes), time, its persisted part and its view part.
 */
import type { AwayOptions, ClockOptions, Deadline, EmittedEvent, TurnEvent, UndoOptions, TurnView } from '../contract.js';
import type { TurnContext } from '../state.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { PersistedFull } from '../persistence/format.js';
import type { SnapshotInvariant } from '../persistence/invariants.js';
import type { Refusal } from '../gate.js';
import type { TurnLogic } from './logic.js';
import type { GameHooksRuntime } from '../../machines/hooks.js';
import type { TimedTurn, TimeState } from '../table/time.js';
import { TABLE_IMPORT, VARIANTS_IMPORT, needs, type ModuleName } from '../moduleNames.js';

export { TABLE_IMPORT, VARIANTS_IMPORT, importOf, needs, type ModuleName } from '../moduleNames.js';

/**
 * A module a host passes to createGame, restoreGame, replayGame and fork in `use`:
 * `table` from `mtg-turn-engine/table`, `grandMelee` from `mtg-turn-engine/variants`.
 * Its members are the engine's own (the shell calls them); hosts only pass the module.
 */
export interface GameModule {
  /** Which module this is. */
  readonly module: ModuleName;
}

/** The table's part of a send (src/table/time.ts): the shell calls these only with the table module. */
export interface TableModule extends GameModule {
  readonly module: 'table';
  /**
   * @internal The table (undo, shortcuts) around a turn logic. `restoring`: for restoreGame, whether
   * the snapshot keeps states for undo, and the validation of each (with the game's modules).
   */
  wrap(turn: TurnLogic<unknown, unknown>, undo: UndoOptions | undefined, restoring?: { keepsStates: boolean; parse: (value: unknown) => { ok: true; value: PersistedFull } | { ok: false; message: string } }): TurnLogic<unknown, unknown>;
  /** @internal The time state of a new game with these options, or null. */
  newTime(clock: ClockOptions | undefined, away: AwayOptions | undefined, ctx: { teams: TurnContext['teams']; variant: TurnContext['variant']; players: readonly string[]; seats: readonly string[] }): TimeState | null;
  /** @internal The first problem of a snapshot's `time` (untrusted) alone and against the game's context, or null. */
  timeProblem(time: unknown, ctx: TurnContext, version?: number): string | null;
  /** @internal A validated `time` against the restored game; throws INVALID_SNAPSHOT. */
  restoredTime<S>(turn: TimedTurn<S>, state: S, time: TimeState): TimeState;
  /** @internal Whether a send takes the table's path. */
  isTimed(time: TimeState | null, raw: unknown): boolean;
  /** @internal A send on the table's path. */
  sendTimed<S>(turn: TimedTurn<S>, state: S, time: TimeState | null, raw: unknown): { state: S; time: TimeState | null; emitted: EmittedEvent[] } | Refusal;
  /** @internal The clocks the game waits for, once the turn has changed. */
  settledTime<S>(turn: TimedTurn<S>, state: S, time: TimeState | null): TimeState | null;
  /** @internal `nextDeadline()`. */
  deadlineOf<S>(turn: TimedTurn<S>, state: S, time: TimeState | null): Deadline | null;
  /** @internal The view's `clocks` and `seats`. */
  withTimeView(view: TurnView, time: TimeState, ctx: TurnContext): TurnView;
  /** @internal CONTRACT v4, "Time-outs are facts of time": the TICK a send carrying `at` at or past a deadline commits first, or null. */
  dueTick<S>(turn: TimedTurn<S>, state: S, time: TimeState | null, raw: unknown): TurnEvent | null;
  /** @internal CONTRACT v4: another player in the game who is away (an undo request is refused while one is), or null. */
  awayOther(time: TimeState | null, ctx: Pick<TurnContext, 'players'>, player: string): string | null;
  /** @internal The table's view of the game's turn over `logic` (src/table/turn.ts), for the calls above. */
  timed<S, W>(logic: TurnLogic<S, W>, runtime: GameHooksRuntime | undefined, view: (state: S) => TurnView): TimedTurn<S>;
}

/** Grand Melee (CR 807): one run of the turn per turn marker. */
export interface VariantModule extends GameModule {
  readonly module: 'grandMelee';
  /** @internal The turn logic of a game of turn markers. */
  readonly logic: TurnLogic<unknown, unknown>;
  /**
   * @internal The first problem of a persisted game with turn markers (their invariants, then each
   * marker against the others and the game, `turnProblem` checking each marker's turn, with the
   * module's own invariants of a turn after the engine's), or null.
   */
  snapshotProblem(p: PersistedFull, turnProblem: (one: PersistedFull, extra?: readonly SnapshotInvariant[]) => string | null): string | null;
}

/** The modules of a game, by name. */
export interface Modules {
  readonly table?: TableModule;
  readonly grandMelee?: VariantModule;
  /** The modules as given (each once), for fork and the recording. */
  readonly list: readonly GameModule[];
}

export const NO_MODULES: Modules = { list: [] };

/** The members of the table module the shell calls. */
const TABLE_MEMBERS = ['wrap', 'newTime', 'timeProblem', 'restoredTime', 'isTimed', 'sendTimed', 'settledTime', 'deadlineOf', 'withTimeView', 'dueTick', 'awayOther', 'timed'];

/** The `use` option (createGame, restoreGame, replayGame, fork), read once: the modules by name. Throws INVALID_OPTIONS naming the entry. */
export function readUse(value: unknown, path = 'options.use'): Modules {
  if (value === undefined) return NO_MODULES;
  if (!Array.isArray(value) || value.length > 8) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `${path}: must be a list of modules (table from '${TABLE_IMPORT}', grandMelee from '${VARIANTS_IMPORT}')`);
  const out: { table?: TableModule; grandMelee?: VariantModule; list: GameModule[] } = { list: [] };
  for (let i = 0; i < value.length; i++) {
    const m: unknown = value[i];
    const name = typeof m === 'object' && m !== null ? (m as { module?: unknown }).module : undefined;
    if (name !== 'table' && name !== 'grandMelee') throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `${path}[${i}]: not a module of the engine (table from '${TABLE_IMPORT}', grandMelee from '${VARIANTS_IMPORT}')`);
    // A module is the engine's own object: its members are what the shell calls.
    const members = name === 'table' ? TABLE_MEMBERS : ['logic', 'snapshotProblem'];
    if (members.some((k) => typeof (m as Record<string, unknown>)[k] !== (k === 'logic' ? 'object' : 'function'))) {
      throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `${path}[${i}]: not the engine's ${name} module (import { ${name} } from '${name === 'table' ? TABLE_IMPORT : VARIANTS_IMPORT}')`);
    }
    if (out[name] !== undefined) continue;
    (out as Record<string, unknown>)[name] = m;
    out.list.push(m as GameModule);
  }
  return out;
}

/** The modules' names, as a recording keeps them (none: undefined). */
export function namesOf(modules: Modules): ModuleName[] | undefined {
  return modules.list.length === 0 ? undefined : modules.list.map((m) => m.module);
}

/** Throws `code` with `what` and the module it needs, when the module is missing. */
export function requireModule(modules: Modules, name: ModuleName, code: ErrorCode, what: string): void {
  if (modules[name] === undefined) throw new TurnEngineError(code, `${what} ${needs(name)}`);
}
