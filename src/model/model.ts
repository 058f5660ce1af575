/**
 * The test model of the turn: `xstate/graph`'s `createTestModel` over the real turn machine,
 * with the projection of abstraction.ts and the events of events.ts, for one configuration
 * (players, rules era, variant). Each event passes the game's own gate first (src/gate.ts), so
 * the model walks exactly what `game.send` accepts.
 */
import { createEmptyActor, type AnyActorScope, type EventObject } from 'xstate';
import { createTestModel, type TestModel } from 'xstate/graph';
import { turnMachine } from '../../machines/turn.machine.js';
import { chartSnapshotOf } from '../game/actor.js';
import { createGame, toInput } from '../game/create.js';
import { type GameOptions } from '../game/types.js';
import type { Scenario } from '../scenarios/schema.js';
import { freshSend } from '../gate.js';
import { serializeState } from './abstraction.js';
import { followsEvent, modelEvents } from './events.js';
import { accepts, type TurnSnapshot } from './snapshot.js';
import type { MachineEvent } from '../state.js';

export { accepts, type TurnSnapshot } from './snapshot.js';

/** One configuration of the model: a name, the createGame options, and what it cannot reach. */
export interface ModelConfig {
  name: string;
  options: GameOptions & { seed: number };
  /**
   * Elements of the chart this configuration cannot reach, each with the rule that says why
   * ('#turn.pregame' for a state node, 'turn.combat.declareBlockers.ordering:ORDER_BLOCKERS[0]'
   * for a transition). Coverage counts them apart, and a test checks they are truly unreached.
   */
  unreachable: Readonly<Record<string, string>>;
}

/** What a configuration cannot reach, by the rule that says why ('*' ends a prefix). */
function unreachableIn(options: GameOptions): Record<string, string> {
  const out: Record<string, string> = {};
  const why = (reason: string, ...ids: string[]) => ids.forEach((id) => (out[id] = reason));
  if (options.pregame === true) why('the game begins with the pregame (CR 103); createGame({ pregame: false }) starts at turn 1', 'turn.start:always[1]');
  else why('createGame({ pregame: false }) starts at turn 1, past the pregame (CR 103)', '#turn.pregame*', 'turn.pregame*', 'turn.start:always[0]');
  const opponents = options.teams === undefined || options.variant !== 'twoHeadedGiant' ? options.players.length - 1 : 1;
  // CR 807.2b: Grand Melee attacks left by default; with 'left' or 'right' the one opponent on that side is the choice (803).
  if (opponents < 2 || (options.attack ?? (options.variant === 'grandMelee' ? 'left' : 'all')) === 'all') {
    why('no defending player to choose: one opponent, or the attack option lets the active player attack any (CR 506.2, 802, 803)', 'turn.combat.beginningOfCombat.choosing:CHOOSE_DEFENDER[0]');
  }
  if (options.rules !== 'm10') {
    why("the damage assignment order exists only in the 'm10' era (CR 509.2 and 509.3 of 2009-2024)", 'turn.combat.declareBlockers.ordering:ORDER_*');
  }
  if (options.rules !== 'classic') {
    why("only the 'classic' era skips the rest of the declare attackers step when no creature attacks (classic 308.5)", 'turn.combat.declareAttackers.declared:always[0]');
  }
  if (options.variant !== 'planechase') why('the planar die is rolled only in Planechase (CR 901.9)', 'turn:ROLL_PLANAR_DIE[0]');
  // The beginning phase's nextStep choice: [0] a step of an added phase (500.10), [1] the first draw (103.8a), [2] a skip effect (614.10), then the steps.
  if (options.players.length > 2 && options.variant !== 'twoHeadedGiant') {
    why('in a multiplayer game other than Two-Headed Giant no player skips the draw step of their first turn (CR 103.8a, 103.8c)', 'turn.beginning.nextStep:always[1]');
  }
  // The nextPhase choice: [0] passed over, [1-5] the phases, [6] game over, [7] Grand Melee's marker passes, [8] an extra turn, [9] the next turn.
  if (options.variant === 'grandMelee') {
    why('in Grand Melee every turn ends by passing its turn marker; the coordinator begins the next turn (CR 807.4c)', 'turn.nextPhase:always[8]', 'turn.nextPhase:always[9]');
    why(
      'with ten players a game ends between two phases only by a draw after turn after turn with every phase skipped (CR 104.4b), MAX_EMPTY_TURNS_PER_PLAYER turns per seat: past the two turns the model follows; every other result ends it at the root (CR 104)',
      'turn.nextPhase:always[6]',
    );
  } else {
    why('turn markers exist only in Grand Melee (CR 807.4)', '#turn.turnMarkerPassed', 'turn.turnMarkerPassed:*', 'turn.nextPhase:always[7]');
  }
  if (opponents < 2) {
    why('with two players or two teams, a player who leaves ends the game (CR 104.2a, 810.8a): a combat never goes on without its active player (800.4j)', 'turn.combat.declareAttackers.declaring:always[0]');
  }
  return out;
}

/** Why an element (a '#state' id or a transition id) is unreachable in a configuration, or undefined. */
export function unreachableWhy(config: ModelConfig, id: string): string | undefined {
  for (const [pattern, reason] of Object.entries(config.unreachable)) {
    if (pattern.endsWith('*') ? id.startsWith(pattern.slice(0, -1)) : id === pattern) return reason;
  }
  return undefined;
}

function config(name: string, options: ModelConfig['options']): ModelConfig {
  return { name, options, unreachable: unreachableIn(options) };
}

/** The configurations the model is generated for: every era, multiplayer with a defender to choose and Planechase, a team variant. */
export const MODEL_CONFIGS: readonly ModelConfig[] = [
  config('2p-current', { players: ['A', 'B'], rules: 'current', pregame: true, orderTriggers: 'players', seed: 1 }),
  config('2p-m10', { players: ['A', 'B'], rules: 'm10', pregame: true, orderTriggers: 'players', seed: 1 }),
  config('2p-classic', { players: ['A', 'B'], rules: 'classic', pregame: true, orderTriggers: 'players', seed: 1 }),
  config('3p-planechase', { players: ['A', 'B', 'C'], rules: 'current', attack: 'chooseOne', variant: 'planechase', orderTriggers: 'players', seed: 1 }),
  config('4p-twoHeadedGiant', {
    players: ['A', 'B', 'C', 'D'],
    variant: 'twoHeadedGiant',
    teams: [
      { id: 'AB', players: ['A', 'B'] },
      { id: 'CD', players: ['C', 'D'] },
    ],
    pregame: true,
    orderTriggers: 'players',
    seed: 1,
  }),
  // CR 807: one turn marker's run of the turn chart in a ten-player Grand Melee game (range of influence 1, attack left);
  // where the turn is over, the coordinator's BEGIN_MARKER_TURN begins the next. The markers themselves: src/model/markers.ts.
  config('10p-grandMelee', { players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], variant: 'grandMelee', orderTriggers: 'players', seed: 1 }),
];

/** Whether a configuration models one turn marker's turns (Grand Melee): its paths need the coordinator's BEGIN_MARKER_TURN, so they are not host scenarios. */
export function isMarkerConfig(config: ModelConfig): boolean {
  return config.options.variant === 'grandMelee';
}

/** A short name of a configuration. */
export function configName(config: ModelConfig): string {
  return config.name;
}

/** The createGame options of a configuration, as a scenario's `setup` holds them. */
export function modelSetup(config: ModelConfig): Scenario['setup'] {
  return JSON.parse(JSON.stringify(config.options)) as Scenario['setup'];
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

/** The snapshot of a new game of this configuration, made by `createGame` itself. */
export function initialSnapshot(config: ModelConfig): TurnSnapshot {
  // Grand Melee: turn marker 1's run of the turn chart, begun as the game begins it (CR 807.4b).
  if (isMarkerConfig(config)) return turnMachine.getInitialSnapshot(modelActorScope(), toInput(config.options));
  return chartSnapshotOf(createGame(config.options));
}

/** The snapshot of a new game, made by the machine with an inspection observer (to see the microsteps before turn 1). */
export function initialSnapshotObserved(config: ModelConfig, onInspect: Parameters<typeof modelActorScope>[0]): TurnSnapshot {
  return turnMachine.getInitialSnapshot(modelActorScope(onInspect), toInput(config.options));
}

/** Steps the real machine by one event as `game.send` does (a refused event returns the same snapshot). */
export function nextSnapshot(snapshot: TurnSnapshot, event: MachineEvent, scope: AnyActorScope = modelActorScope()): TurnSnapshot {
  if (!accepts(snapshot, event)) return snapshot;
  return turnMachine.transition(freshSend(snapshot), event, scope);
}

/** The machine as the game runs it from `start`: every event starts a fresh send (the per-send loop guard's counters at zero). */
function sendingMachine(start: TurnSnapshot): typeof turnMachine {
  const machine = turnMachine.provide({});
  machine.transition = (snapshot, event, scope) => turnMachine.transition(freshSend(snapshot), event, scope);
  machine.getInitialSnapshot = () => start;
  return machine;
}

/** The test model of a configuration (its initial state is the new game of `initialSnapshot`). */
export function createTurnModel(config: ModelConfig): TestModel<TurnSnapshot, MachineEvent, unknown> {
  const logic = sendingMachine(initialSnapshot(config));
  const model = createTestModel(logic, {
    serializeState: (snapshot: TurnSnapshot) => serializeState(snapshot),
    events: (snapshot: TurnSnapshot) => modelEvents(snapshot),
    filterEvents: (snapshot: TurnSnapshot, event: EventObject) => followsEvent(snapshot, event as MachineEvent),
  });
  return model as unknown as TestModel<TurnSnapshot, MachineEvent, unknown>;
}

/** A path of the model: the events from a new game, and the model state each one reaches. */
export interface ModelPath {
  events: MachineEvent[];
  /** serializeState of the state after each event. */
  keys: string[];
}

/** The events of a path from `getShortestPaths` (its first step is `xstate.init`). */
export function eventsOfTestPath(path: { steps: readonly { event: EventObject }[] }): MachineEvent[] {
  return path.steps.slice(1).map((s) => s.event as MachineEvent);
}
