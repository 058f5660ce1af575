/**
 * The test model of the turn: `xstate/graph`'s `createTestModel` over the real turn
 * machine, with the projection of abstraction.ts and the events of events.ts, for one
 * configuration (number of players, rules profile).
 */
import { createEmptyActor, type AnyActorScope, type EventObject, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestModel } from 'xstate/graph';
import { turnMachine } from '../../machines/turn.machine.js';
import type { RulesProfile, TurnEvent, TurnInput } from '../../machines/turn.types.js';
import { serializeState, type ModelSnapshot } from './abstraction.js';
import { followsEvent, modelEvents } from './events.js';

/** One configuration of the model. */
export interface ModelConfig {
  players: 2 | 3;
  rules: RulesProfile;
}

/** The four configurations the model is generated for. */
export const MODEL_CONFIGS: readonly ModelConfig[] = [
  { players: 2, rules: 'current' },
  { players: 3, rules: 'current' },
  { players: 2, rules: 'classic' },
  { players: 3, rules: 'classic' },
];

/** The turn machine's snapshot type. */
export type TurnSnapshot = SnapshotFrom<typeof turnMachine>;

/** The players of a configuration: 'A', 'B', 'C'; 'A' starts. */
export function modelPlayers(config: ModelConfig): string[] {
  return ['A', 'B', 'C'].slice(0, config.players);
}

/** The createGame options (and machine input) of a configuration: default hand sizes. */
export function modelSetup(config: ModelConfig): { players: string[]; rules: RulesProfile } {
  return { players: modelPlayers(config), rules: config.rules };
}

/** The machine input of a configuration, as createGame builds it. */
export function modelInput(config: ModelConfig): TurnInput {
  const players = modelPlayers(config);
  return { players, startingPlayer: players[0] as string, rules: config.rules, maxHandSize: 7, handSize: 7 };
}

/** A short name of a configuration: '2p-current'. */
export function configName(config: ModelConfig): string {
  return `${config.players}p-${config.rules}`;
}

/**
 * An actor scope for stepping the machine outside an actor (as `xstate/graph` does),
 * optionally with an inspection observer that sees every microstep.
 */
export function modelActorScope(onInspect?: (event: { type: string; snapshot?: unknown; _transitions?: unknown }) => void): AnyActorScope {
  const empty = createEmptyActor();
  const system = onInspect === undefined ? empty.system : { ...empty.system, _sendInspectionEvent: onInspect };
  return {
    self: empty,
    logger: () => {},
    id: '',
    sessionId: 'model',
    defer: () => {},
    system,
    stopChild: () => {},
    emit: () => {},
    actionExecutor: () => {},
  } as unknown as AnyActorScope;
}

/** The snapshot of a new game of this configuration (turn 1, upkeep, starting player has priority). */
export function initialSnapshot(config: ModelConfig): TurnSnapshot {
  return turnMachine.getInitialSnapshot(modelActorScope(), modelInput(config));
}

/** Steps the real machine by one event (a refused event returns the same snapshot). */
export function nextSnapshot(snapshot: TurnSnapshot, event: TurnEvent, scope: AnyActorScope = modelActorScope()): TurnSnapshot {
  return turnMachine.transition(snapshot, event, scope);
}

/** The test model of a configuration. */
export function createTurnModel(config: ModelConfig): TestModel<TurnSnapshot, TurnEvent, unknown> {
  const model = createTestModel(turnMachine, {
    input: modelInput(config),
    serializeState: (snapshot: TurnSnapshot) => serializeState(snapshot as ModelSnapshot),
    events: (snapshot: TurnSnapshot) => modelEvents(snapshot as ModelSnapshot),
    filterEvents: (snapshot: TurnSnapshot, event: EventObject) => followsEvent(snapshot as ModelSnapshot, event as TurnEvent),
  });
  return model as unknown as TestModel<TurnSnapshot, TurnEvent, unknown>;
}

/** A path of the model: the events from a new game, and the model state each one reaches. */
export interface ModelPath {
  events: TurnEvent[];
  /** serializeState of the state after each event. */
  keys: string[];
}

/** The events of a path from `getShortestPaths`/`getSimplePaths` (their first step is `xstate.init`). */
export function eventsOfTestPath(path: { steps: readonly { event: EventObject }[] }): TurnEvent[] {
  return path.steps.slice(1).map((s) => s.event as TurnEvent);
}
