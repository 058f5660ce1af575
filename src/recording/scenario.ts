/**
 * `recordingToScenario(recording, options?)` (CONTRACT v3, "Recordings"): a recorded game as a
 * scenario any engine's runner replays (CONTRACT "Scenarios"): the createGame options as its
 * setup, every checkpoint result the hook gave as an `inject` entry (at the checkpoint call it was
 * given at, `call`, with the view's version and seq as `when`), every `true` of `hooks.autoPass`
 * as a `setup.autoPass` entry, the sends in order, and after each an `expect` of the view and an
 * `expectEmitted` of what it emitted.
 */
import type { CheckpointResult, PlayerId, TurnView } from '../contract.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { RecordedOptions } from '../game/types.js';
import type { Scenario, ScenarioStep } from '../scenarios/schema.js';
import type { HookAnswer, RecordedInput } from './format.js';
import { checkRecording, runReplay, setupOf } from './replay.js';
import { allModules } from '../allModules.js';
import { portableExpectations } from './portable.js';

/** Options of {@link recordingToScenario}. */
export interface ScenarioOptions {
  /** The scenario's name (default: "recorded game" and its setup). */
  name?: string;
  /** Stop at this version (default: the last one recorded). */
  until?: number;
  /**
   * The `expect` steps: after every send the fields of the view that changed, with `version` and
   * `seq`, and the whole view at the start and at the end ('changes', the default); the whole
   * view after every send ('full'); none ('none'); or 'portable': the changes, with only the view
   * fields of the features the game plays and what the contract fixes of them (the first
   * `players + 1` turns of `schedule`, TurnView's fields of a Grand Melee `turns` entry), so that
   * any engine built to the contract with those features can pass it (as the shipped recorded
   * corpus is written).
   */
  expect?: 'changes' | 'full' | 'none' | 'portable';
  /** An `expectEmitted` step after every send that emitted events, with those events (default true). */
  emitted?: boolean;
}

/** An inject entry of the scenario format, at a numbered checkpoint call. */
type Injection = NonNullable<Scenario['setup']['inject']>[number];

/** What a checkpoint's or autoPass's view is told by in a scenario: its version and seq, and where the turn is (for the reader). */
function whenOf(view: TurnView): Record<string, unknown> {
  return { version: view.version, seq: view.seq, turn: view.turn, step: view.step, priority: view.priority };
}

function invalid(message: string): TurnEngineError {
  return new TurnEngineError(ErrorCode.INVALID_RECORDING, message);
}

/** The fields of `view` whose value differs from `before`'s (compared as JSON). */
function changed(view: Record<string, unknown>, before: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { version: view.version, seq: view.seq };
  for (const [k, v] of Object.entries(view)) if (JSON.stringify(v) !== JSON.stringify(before[k])) out[k] = v;
  return out;
}

/**
 * The scenario of a recorded game (CONTRACT v3, "Recordings"), which passes on this engine's
 * runner (`runScenario`). Only a recording of a game made by createGame has one (a restored or
 * forked game starts from a persisted game, which is this engine's own): others throw
 * `INVALID_RECORDING`, as do recordings that do not replay.
 */
export function recordingToScenario(recording: unknown, options: ScenarioOptions = {}): Scenario {
  if (typeof options !== 'object' || options === null) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'options: must be an object');
  if (options.expect !== undefined && !['changes', 'full', 'none', 'portable'].includes(options.expect)) throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, `options.expect: must be 'changes', 'full', 'none' or 'portable'; got ${JSON.stringify(options.expect)}`);
  const { recording: rec } = checkRecording(recording);
  if (rec.from !== 'options') throw invalid("recording.from: a scenario starts from createGame's options; this recording starts from a persisted game (a restore or a fork), which only this engine reads");
  // The recorded answers, in the order the replay asks for them.
  const checkpoints: CheckpointResult[] = [];
  const autoPasses: boolean[] = [];
  for (const input of rec.inputs) {
    const results: unknown = (input as RecordedInput | null)?.results;
    if (!Array.isArray(results)) continue;
    for (const answer of results as HookAnswer[]) {
      if (typeof answer === 'boolean') autoPasses.push(answer);
      else checkpoints.push(answer);
    }
  }
  const inject: Injection[] = [];
  const autoPass: { when: Record<string, unknown>; player: PlayerId }[] = [];
  let calls = 0;
  let passes = 0;
  // The replay has the hooks the recorded game had, and no other (a game with a checkpoint hook is
  // not always the same as one without: see the scenario's `inject`, present when it had one).
  const hooks = {
    ...(rec.hooks.checkpoint
      ? {
          checkpoint: (view: TurnView) => {
            calls++;
            const result = checkpoints[calls - 1];
            if (result !== undefined && Object.keys(result).length > 0) inject.push({ when: whenOf(view), call: calls, ...(JSON.parse(JSON.stringify(result)) as Omit<Injection, 'when' | 'call'>) });
            return result;
          },
        }
      : {}),
    ...(rec.hooks.autoPass
      ? {
          autoPass: (view: TurnView, player: PlayerId) => {
            const answer = autoPasses[passes++] === true;
            if (answer) autoPass.push({ when: whenOf(view), player });
            return answer;
          },
        }
      : {}),
  };
  const portable = options.expect === 'portable';
  const expect = portable ? 'changes' : (options.expect ?? 'changes');
  const steps: ScenarioStep[] = [];
  let before: Record<string, unknown> | null = null;
  const game = runReplay(recording, options.until === undefined ? { hooks, use: allModules } : { hooks, until: options.until, use: allModules }, ({ event, events, game }) => {
    const view = game.view() as unknown as Record<string, unknown>;
    if (event !== null) {
      steps.push({ send: event });
      if (options.emitted !== false && events.length > 0) steps.push({ expectEmitted: JSON.parse(JSON.stringify(events)) as { type: string }[] });
    }
    if (expect === 'full' || (expect === 'changes' && before === null)) steps.push({ expect: view });
    else if (expect === 'changes' && before !== null) steps.push({ expect: changed(view, before) });
    before = view;
  });
  if (game.replay.drift !== null) throw invalid(`recording: the replay asked its hooks otherwise than recorded at version ${game.replay.drift.version}`);
  if (expect === 'changes' && steps.length > 1) steps.push({ expect: game.view() as unknown as Record<string, unknown> });
  const setup = setupOf(rec.options as RecordedOptions);
  const describeSetup = `${setup.players.length} players${setup.variant === undefined ? '' : `, ${setup.variant}`}, '${setup.rules ?? 'current'}' rules, seed ${setup.seed}`;
  const scenario: Scenario = {
    name: options.name ?? `recorded game (${describeSetup})`,
    description: `Made by recordingToScenario from a recording of ${rec.inputs.length - 1} sends${options.until === undefined ? '' : `, to version ${options.until}`}.`,
    // `inject` (even empty) gives the game a checkpoint hook, as the recorded game had; `autoPass` likewise.
    setup: { ...(setup as Scenario['setup']), ...(rec.hooks.checkpoint ? { inject } : {}), ...(rec.hooks.autoPass ? { autoPass } : {}) },
    steps,
  };
  return portable ? portableExpectations(scenario) : scenario;
}
