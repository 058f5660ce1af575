/**
 * mtg-turn-engine: the turn structure of Magic: The Gathering as one XState statechart.
 * The public surface, named re-exports only. Browser-safe: nothing here imports from `node:`
 * (Node-only helpers are on the `mtg-turn-engine/node` subpath).
 */
export { createGame, restoreGame } from './game/create.js';
export type { ForkOptions, Game, GameOptions, RestoreOptions, SendResult, Listener } from './game/types.js';
export { fillAction } from './legal.js';
export type { ActionChoices, ChoicesArgument, ChosenFieldOf, FilledAction, LegalAction, LegalActionOf, LegalActionTemplate, NoChoices } from './legal.js';
export type { NextStop } from './nextStop.js';
export { TurnEngineError, ErrorCode } from './errors.js';
export type { EngineErrorInfo } from './errors.js';
export type { Persisted, PersistedContext, PersistedGame, PersistedMarker, PersistedShortcut, PersistedTurn, PersistedUndo } from './persistence/format.js';
export type { TimeState } from './table/time.js';
export type { ClockState, RunningClock } from './table/clocks.js';
export type { SeatRecord, Seats } from './table/away.js';
export { runScenario } from './scenarios/runner.js';
export type { Scenario, ScenarioResult, ScenarioFailure } from './scenarios/schema.js';
export { ScenarioSchema } from './scenarios/schema.js';
export { ERAS, eraTable } from './rules/eras.js';
export type { Era } from './rules/eras.js';
export type { PlayerId, RulesEra, RulesProfile, PhaseName, StepName, TurnPhaseName, TurnStepName, SkipTarget, StackObject, StackObjectKind, Trigger, Attacker, Blocker, Effect, Duration, EffectEntry, Stop, Yield, AttackOption, GameResult, Schedule, ScheduledTurn, TurnEvent, TurnEventType, EmittedEvent, EmittedEventType, Awaiting, TurnView, TurnMarkerView, CheckpointHook, CheckpointResult, GameHooks, SettledOutcome, Decision, Team, Variant, WithTurnMarker, WithEmittedMarker, SeatOptions, SeatEvent, SeatEventOf, ClockOptions, AwayOptions, ClockView, SeatView, SeatStatus, Deadline, AutoPassReason, ShortcutPoint, UndoHorizon, UndoOptions, DecidedEvent, CardActionEvent } from './contract.js';
export { replayGame } from './recording/replay.js';
export { recordingToScenario } from './recording/scenario.js';
export type { Recording, RecordedOptions, ReplayOptions, ReplayDrift, ReplayReport, ReplayedGame } from './game/types.js';
export type { RecordedInput, RecordedSnapshot, HookAnswer } from './recording/format.js';
export type { ScenarioOptions } from './recording/scenario.js';
