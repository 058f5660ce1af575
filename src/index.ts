/**
 * mtg-turn-engine: the turn structure of Magic: The Gathering as one XState statechart.
 * The public surface, named re-exports only.
 */
export { createGame, restoreGame } from './game.js';
export type { Game, GameOptions, RestoreOptions, SendResult, LegalAction, Listener } from './game.js';
export { TurnEngineError, ErrorCode } from './errors.js';
export type { EngineErrorInfo } from './errors.js';
export type { PersistedGame } from './persistence.js';
export { runScenario, runScenarioFile } from './scenarios/runner.js';
export type { Scenario, ScenarioResult, ScenarioFailure } from './scenarios/schema.js';
export { ScenarioSchema, scenarioJsonSchema } from './scenarios/schema.js';
export { turnMachine } from '../machines/turn.machine.js';
export type {
  PlayerId,
  RulesProfile,
  PhaseName,
  StepName,
  SkipTarget,
  StackObject,
  StackObjectKind,
  Trigger,
  Attacker,
  Blocker,
  TurnEvent,
  EmittedEvent,
  EmittedEventType,
  Awaiting,
  TurnView,
  CheckpointHook,
  CheckpointResult,
  GameHooks,
} from '../machines/turn.types.js';
