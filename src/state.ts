/**
 * The engine's own state: the turn machine's context and input, and the records they keep
 * (what comes next this turn, combat as the engine keeps it, effects in force). Private: hosts
 * see the TurnView (src/contract.ts), never these.
 */
import type { PlayerId, RulesEra, PhaseName, StepName, TurnStepName, SkipTarget, StackObject, Trigger, EffectEntry, Stop, Yield, GameResult, Variant, Team, AttackOption, EmittedEvent, TurnEvent } from './contract.js';

/**
 * The engine's own events, which no host may send (refused: INVALID_EVENT): the Grand Melee
 * coordinator begins a turn marker's next turn (CR 807.4c-d). Not part of the public TurnEvent.
 */
export type InternalEvent = { type: 'BEGIN_MARKER_TURN'; turnMarker?: number };

/** Every event the turn machine takes: a host's {@link TurnEvent} or one of the engine's own. */
export type MachineEvent = TurnEvent | InternalEvent;

/** A phase as the scheduler sees it: both main phases are one kind (CR 505.1a). */
export type PhaseKind = 'beginning' | 'main' | 'combat' | 'ending';

/** An attacking creature in combat, as the engine keeps it. */
export interface CombatAttacker {
  id: string;
  defender: PlayerId;
  firstStrike: boolean;
  doubleStrike: boolean;
  /** Its blockers, in damage assignment order when the era has one (CR 509.2, 2009-2024). */
  blockedBy: string[];
  /** Whether it became blocked: it stays blocked when its blockers leave combat (CR 509.1h). */
  blocked: boolean;
  /** Whether it had first strike or double strike as the first combat damage step began (CR 510.4): it then deals no damage in the second step unless it has double strike. */
  dealtFirst: boolean;
  /** 'm10': whether its blockers were put in damage assignment order. */
  ordered: boolean;
}

/** A blocking creature in combat, as the engine keeps it. */
export interface CombatBlocker {
  id: string;
  /** The defending player who controls it. */
  player: PlayerId;
  /** The attackers it blocks, in damage assignment order when the era has one. */
  blocking: string[];
  firstStrike: boolean;
  doubleStrike: boolean;
  dealtFirst: boolean;
  ordered: boolean;
}

/** The creatures of the current combat phase. */
export interface CombatState {
  attackers: CombatAttacker[];
  blockers: CombatBlocker[];
  /** Whether attackers were declared or put onto the battlefield attacking (CR 508.8). */
  declared: boolean;
  /** Whether the declaration of attackers has been made (empty or not). */
  attacksDeclared: boolean;
  /** Defending players who have declared blockers, in the order they did. */
  declaredBy: PlayerId[];
  /** Whether this combat had a first-strike combat damage step (CR 510.4). */
  firstStrikeStep: boolean;
  /** The players the active player may attack this combat; null: every opponent (CR 506.2, 802, 803). */
  defenders: PlayerId[] | null;
}

/** An effect in force, as the engine keeps it: with the turn it began, for its duration. */
export interface ActiveEffect extends EffectEntry {
  /** The turn during which it was created. */
  since: number;
}

/** A step still to come, as the schedule keeps it. */
export interface StepEntry {
  step: TurnStepName;
  /** The rule that passes it over whatever happens (CR 500.10: the other steps of an added phase). */
  passedOver?: string;
}

/** A phase still to come this turn. */
export interface PhaseEntry {
  kind: PhaseKind;
  steps: StepEntry[];
  /** Whether an effect added it (CR 500.8, 500.10). */
  extra?: boolean;
}

/** An extra turn still to come (CR 500.7). */
export interface ExtraTurn {
  player: PlayerId;
  id?: string;
  /**
   * Grand Melee (CR 807.4i): the player passed their turn marker rather than keep it (another
   * marker was within three seats on their right as their turn ended): taken immediately before
   * their next turn, as 807.4j's extra turns are. Absent (or false) otherwise.
   */
  beforeNextTurn?: boolean;
}

/** The result of the state-based action and trigger check of a cleanup step (CR 514.3a). */
export type CleanupCheck = 'quiet' | 'active';

/**
 * The machine's context. It is plain JSON, so a persisted snapshot is too. Where in the
 * turn the game is lives in the state value; the context keeps what comes next (one queue
 * of phases and steps) and the game's data.
 */
export interface TurnContext {
  rules: RulesEra;
  /** Every player who started the game, in turn order: seats do not move when players leave. */
  seats: PlayerId[];
  /** Players still in the game, in turn order. */
  players: PlayerId[];
  startingPlayer: PlayerId;
  /** The maximum hand size before effects. */
  maxHandSize: number;
  attack: AttackOption;
  turn: number;
  /** Whose turn it is; null once that player has left the game (CR 800.4j). */
  activePlayer: PlayerId | null;
  /** Whose turn it is, even after they left: the seat from which turn order continues. */
  turnOwner: PlayerId;
  /** The player whose last regular (not extra) turn was taken; regular turns rotate from here. */
  rotation: PlayerId;
  phase: PhaseName;
  step: StepName;
  /** The steps still to come in this phase, in order. */
  steps: StepEntry[];
  /** The phases still to come this turn, in order. */
  phases: PhaseEntry[];
  /** Whether a main phase has begun or been skipped this turn: later ones are postcombat (CR 505.1a). */
  mainSeen: boolean;
  priority: PlayerId | null;
  /** Players who have passed in succession since the last action (CR 117.4). */
  passed: PlayerId[];
  /** Bottom first, top last. */
  stack: StackObject[];
  /** Triggered abilities waiting to be put on the stack (CR 117.2a). */
  pendingTriggers: Trigger[];
  /** The lands each player played this turn (CR 305.2); with shared team turns each player of the active team plays their own (805.4c). Players who played none are absent. */
  landsPlayedBy: Record<PlayerId, number>;
  spellsCast: Record<PlayerId, number>;
  /** The most spells any one player of the previous turn's active player (team) cast during that turn, for day and night (CR 731.2a-b); null before turn 2. */
  previousTurnSpells: number | null;
  manaPool: Record<PlayerId, number>;
  handSizes: Record<PlayerId, number>;
  combat: CombatState | null;
  /** Extra turns still to come; the last one is taken first (CR 500.7). */
  extraTurns: ExtraTurn[];
  /** Pending "skip your next ..." effects per player (CR 614.10a: each skips one occurrence). */
  skips: Record<PlayerId, Partial<Record<SkipTarget, number>>>;
  /** Continuous effects in force, oldest first (CR 613.7). */
  effects: ActiveEffect[];
  dayNight: 'day' | 'night' | null;
  /** Pending "control that player during their next turn" effects, oldest first (CR 723.1). */
  controlNext: { controller: PlayerId; player: PlayerId }[];
  /** Who controls a player during this turn (CR 723.2). */
  controlledBy: Record<PlayerId, PlayerId>;
  stops: Record<PlayerId, Stop[] | null>;
  yields: Record<PlayerId, Yield>;
  /** Automatic passes made during the current send, and the turns they began (the loop guard). */
  autoPasses: number;
  autoPassTurns: number;
  /** Whether the player holding priority has just received it in this send: stops and yields are decided then (CONTRACT). */
  priorityFresh: boolean;
  /**
   * Whether an END_TURN or END_COMBAT of the current send has exiled the stack and checked
   * state-based actions (724.1a-c, 724.2a-c): the steps and phases left after that end as usual,
   * those left by the event itself end only after it (724.1d, 724.2d).
   */
  endedInSend: boolean;
  /** Turns begun since a step was last taken: turn after turn with everything skipped is a draw (CR 104.4b). */
  emptyTurns: number;
  /** Cleanup steps begun this turn (capped: see MAX_CLEANUP_STEPS_PER_TURN). */
  cleanupSteps: number;
  /** What this cleanup step's check found (CR 514.3a); null before it runs. */
  cleanupCheck: CleanupCheck | null;
  /** Why players left the game. */
  reasons: Record<PlayerId, string>;
  /** Set when the game is over. */
  result: GameResult | null;
  /** Counter for ids the engine itself creates (classic combat damage objects). */
  nextObjectId: number;
  /** The events emitted since the checkpoint hook was last called (CONTRACT: checkpoint's `pending`). */
  pending: EmittedEvent[];
  /** Who orders triggers that go on the stack together: the host, or each player (CR 603.3b). */
  orderTriggers: 'host' | 'players';
  /** A batch of triggers waiting for their controllers to order them, and the orders given so far. */
  triggerOrder: { batch: Trigger[]; orders: Record<PlayerId, string[]>; about: PlayerId | null } | null;
  variant: Variant;
  /** The teams, in the order given; null in a game without teams. */
  teams: Team[] | null;
  /** Each player's range of influence (CR 801); null: unlimited. */
  ranges: Record<PlayerId, number> | null;
  /** The players within each player's range of influence, determined as this turn began (CR 801.2c); null: unlimited. */
  influence: Record<PlayerId, PlayerId[]> | null;
  /** Planar die rolls this turn (CR 901.9: each costs one more mana than the last). */
  planarRolls: number;
  /** The state of the seeded random number generator (CONTRACT: `seed`). */
  rng: number;
  /** The start of the game (CR 103), while it lasts; null once turn 1 has begun. */
  pregame: {
    /** The player chosen at random to choose the starting player (CR 103.1). */
    chooser: PlayerId;
    starting: PlayerId | null;
    handSize: number;
    /** Mulligans each player has taken. */
    mulligans: Record<PlayerId, number>;
    /** Players who kept their hand. */
    kept: PlayerId[];
    /** Players who decided in this round of mulligans. */
    decided: PlayerId[];
    /** Cards each player who kept must still put on the bottom of their library. */
    bottom: Record<PlayerId, number>;
    /** Players who finished their opening hand actions (CR 103.6). */
    handsDone: PlayerId[];
  } | null;
  /** The turn in progress is an extra turn (CR 500.7), with the id ADD_EXTRA_TURN gave it; null for a regular turn (and in the pregame). */
  extraTurn: { id?: string } | null;
  /**
   * CR 702.26n: the players who have left the game (after turn 1 began) whose permanents that phased
   * out under their control have yet to phase in, in the order they left; `due` once their next turn
   * would have begun (800.4m): they phase in during the next untap step taken (`phasing { player }`).
   */
  waitingToPhaseIn: { player: PlayerId; due: boolean }[];
}

/** Input of the turn machine: validated game options. */
export interface TurnInput {
  players: PlayerId[];
  startingPlayer: PlayerId;
  rules: RulesEra;
  maxHandSize: number;
  handSize: number;
  attack: AttackOption;
  orderTriggers: 'host' | 'players';
  /** Start before turn 1 (CR 103). */
  pregame: boolean;
  variant: Variant;
  teams: Team[] | null;
  rangeOfInfluence?: number;
  seed: number;
}

/**
 * A shallow copy of the context, in the order of `initialContext` (all fields, one hidden class):
 * every copy has the same shape, made in one allocation (machines/context.ts says why).
 */
export function cloneContext(c: TurnContext): TurnContext {
  return {
    rules: c.rules,
    seats: c.seats,
    players: c.players,
    startingPlayer: c.startingPlayer,
    maxHandSize: c.maxHandSize,
    attack: c.attack,
    turn: c.turn,
    activePlayer: c.activePlayer,
    turnOwner: c.turnOwner,
    rotation: c.rotation,
    phase: c.phase,
    step: c.step,
    steps: c.steps,
    phases: c.phases,
    mainSeen: c.mainSeen,
    priority: c.priority,
    passed: c.passed,
    stack: c.stack,
    pendingTriggers: c.pendingTriggers,
    landsPlayedBy: c.landsPlayedBy,
    spellsCast: c.spellsCast,
    previousTurnSpells: c.previousTurnSpells,
    manaPool: c.manaPool,
    handSizes: c.handSizes,
    combat: c.combat,
    extraTurns: c.extraTurns,
    skips: c.skips,
    effects: c.effects,
    dayNight: c.dayNight,
    controlNext: c.controlNext,
    controlledBy: c.controlledBy,
    stops: c.stops,
    yields: c.yields,
    autoPasses: c.autoPasses,
    autoPassTurns: c.autoPassTurns,
    priorityFresh: c.priorityFresh,
    endedInSend: c.endedInSend,
    emptyTurns: c.emptyTurns,
    cleanupSteps: c.cleanupSteps,
    cleanupCheck: c.cleanupCheck,
    reasons: c.reasons,
    result: c.result,
    nextObjectId: c.nextObjectId,
    pending: c.pending,
    orderTriggers: c.orderTriggers,
    triggerOrder: c.triggerOrder,
    rng: c.rng,
    variant: c.variant,
    teams: c.teams,
    ranges: c.ranges,
    influence: c.influence,
    planarRolls: c.planarRolls,
    pregame: c.pregame,
    extraTurn: c.extraTurn ?? null,
    waitingToPhaseIn: c.waitingToPhaseIn,
  };
}

/**
 * The same copy as {@link cloneContext}, for contexts made elsewhere (XState's `assign`, JSON):
 * a separate function, so that cloneContext's reads only ever see contexts of its own hidden
 * class and stay monomorphic (V8 keeps type feedback per function).
 */
export function adoptContext(c: TurnContext): TurnContext {
  return {
    rules: c.rules,
    seats: c.seats,
    players: c.players,
    startingPlayer: c.startingPlayer,
    maxHandSize: c.maxHandSize,
    attack: c.attack,
    turn: c.turn,
    activePlayer: c.activePlayer,
    turnOwner: c.turnOwner,
    rotation: c.rotation,
    phase: c.phase,
    step: c.step,
    steps: c.steps,
    phases: c.phases,
    mainSeen: c.mainSeen,
    priority: c.priority,
    passed: c.passed,
    stack: c.stack,
    pendingTriggers: c.pendingTriggers,
    landsPlayedBy: c.landsPlayedBy,
    spellsCast: c.spellsCast,
    previousTurnSpells: c.previousTurnSpells,
    manaPool: c.manaPool,
    handSizes: c.handSizes,
    combat: c.combat,
    extraTurns: c.extraTurns,
    skips: c.skips,
    effects: c.effects,
    dayNight: c.dayNight,
    controlNext: c.controlNext,
    controlledBy: c.controlledBy,
    stops: c.stops,
    yields: c.yields,
    autoPasses: c.autoPasses,
    autoPassTurns: c.autoPassTurns,
    priorityFresh: c.priorityFresh,
    endedInSend: c.endedInSend,
    emptyTurns: c.emptyTurns,
    cleanupSteps: c.cleanupSteps,
    cleanupCheck: c.cleanupCheck,
    reasons: c.reasons,
    result: c.result,
    nextObjectId: c.nextObjectId,
    pending: c.pending,
    orderTriggers: c.orderTriggers,
    triggerOrder: c.triggerOrder,
    rng: c.rng,
    variant: c.variant,
    teams: c.teams,
    ranges: c.ranges,
    influence: c.influence,
    planarRolls: c.planarRolls,
    pregame: c.pregame,
    extraTurn: c.extraTurn ?? null,
    waitingToPhaseIn: c.waitingToPhaseIn,
  };
}
