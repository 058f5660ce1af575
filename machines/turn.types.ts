/**
 * The schema of the turn machine: its context, input, events and emitted events.
 *
 * Everything a host can see or send is declared here, once, with its documentation.
 * The public API (`src/index.ts`) re-exports these types.
 */

/** A player's id, as given in `createGame({ players })`. */
export type PlayerId = string;

/** The rules profile a game is played under. */
export type RulesProfile = 'current' | 'classic';

/** The five phases of a turn (CR 500.1). */
export type PhaseName = 'beginning' | 'precombatMain' | 'combat' | 'postcombatMain' | 'ending';

/**
 * The twelve steps of a turn. Main phases have the single step `main`;
 * `firstStrikeDamage` is the first of two combat damage steps (CR 510.4).
 */
export type StepName =
  | 'untap'
  | 'upkeep'
  | 'draw'
  | 'main'
  | 'beginningOfCombat'
  | 'declareAttackers'
  | 'declareBlockers'
  | 'firstStrikeDamage'
  | 'combatDamage'
  | 'endOfCombat'
  | 'end'
  | 'cleanup';

/** What a `SKIP_NEXT` event can skip: a step, the combat phase, or a whole turn (CR 614.10). */
export type SkipTarget = StepName | 'combat' | 'turn';

/** The kind of an object on the stack. `combatDamage` exists only under the 'classic' profile. */
export type StackObjectKind = 'spell' | 'ability' | 'trigger' | 'combatDamage';

/** An opaque object on the stack: the host owns what it means. */
export interface StackObject {
  id: string;
  controller: PlayerId;
  kind: StackObjectKind;
  /** For a 'classic' combat damage object: the creatures whose damage it deals. */
  creatures?: string[];
}

/** A triggered ability reported by the host (CR 603.3). */
export interface Trigger {
  id: string;
  controller: PlayerId;
}

/** An attacking creature, as declared by the active player (CR 508.1). */
export interface Attacker {
  id: string;
  /** The attacked player. */
  defender: PlayerId;
  firstStrike?: boolean;
  doubleStrike?: boolean;
}

/** A blocking creature, as declared by a defending player (CR 509.1). */
export interface Blocker {
  id: string;
  /** The id of the attacking creature it blocks. */
  attacker: string;
  firstStrike?: boolean;
  doubleStrike?: boolean;
}

/** A blocker together with the defending player who declared it. */
export interface DeclaredBlocker extends Blocker {
  player: PlayerId;
}

/** The creatures in the current combat phase. */
export interface CombatState {
  attackers: Attacker[];
  blockers: DeclaredBlocker[];
  /** Defending players who have declared blockers, in the order they did. */
  declaredBy: PlayerId[];
  /** Whether this combat had a first-strike combat damage step (CR 510.4). */
  firstStrikeStep: boolean;
}

/** A phase of the turn as the scheduler sees it: main phases are one kind (CR 505.1a). */
export type PhaseKind = 'beginning' | 'main' | 'combat' | 'ending';

/** Why a step or phase did not happen. */
export interface SkipRecord {
  phase: PhaseName;
  /** The step passed over; absent when a whole phase was. */
  step?: StepName;
  /** The rule that skipped it, e.g. '508.8', '510.4', '103.8a', '614.10'. */
  rule: string;
}

/** The result of the state-based action and trigger check of a cleanup step (CR 514.3a). */
export type CleanupCheck = 'quiet' | 'active';

/**
 * The machine's context. It is plain JSON, so a persisted snapshot is too.
 * Everything here is game data; the state value says where in the turn we are.
 */
export interface TurnContext {
  rules: RulesProfile;
  /** Every player who started the game, in turn order: seats do not move when players leave. */
  seats: PlayerId[];
  /** Players still in the game, in turn order. */
  players: PlayerId[];
  startingPlayer: PlayerId;
  maxHandSize: number;
  turn: number;
  /** Whose turn it is; null once that player has left the game (CR 800.4j). */
  activePlayer: PlayerId | null;
  /** Whose turn it is, even after they left: the seat from which turn order continues. */
  turnOwner: PlayerId;
  /** The player whose last regular (not extra) turn was taken; regular turns rotate from here. */
  rotation: PlayerId;
  phase: PhaseName;
  step: StepName;
  priority: PlayerId | null;
  /** Players who have passed in succession since the last action (CR 117.4). */
  passed: PlayerId[];
  /** Bottom first, top last. */
  stack: StackObject[];
  /** Triggered abilities waiting to be put on the stack (CR 117.2a). */
  pendingTriggers: Trigger[];
  landsPlayed: number;
  manaPool: Record<PlayerId, number>;
  handSizes: Record<PlayerId, number>;
  combat: CombatState | null;
  /** Extra turns still to come; the last one is taken first (CR 500.7). */
  extraTurns: PlayerId[];
  /** Phases added after the current phase; the first is next (CR 500.8). */
  extraPhases: PhaseKind[];
  /** How many of the turn's regular phases (beginning, main, combat, main, ending) have begun. */
  regularPhases: number;
  /** Main phases begun this turn: only the first is precombat (CR 505.1a). */
  mainPhases: number;
  /** Pending "skip your next ..." effects per player (CR 614.10a: each skips one occurrence). */
  skips: Record<PlayerId, Partial<Record<SkipTarget, number>>>;
  /** Why the current step is being passed over, or null when it happens (CR 614.10). */
  skipping: SkipRecord | null;
  /** Steps and phases skipped this turn, with the rule, for inspection. */
  skippedThisTurn: SkipRecord[];
  /** Cleanup steps begun this turn (capped: see MAX_CLEANUP_STEPS_PER_TURN). */
  cleanupSteps: number;
  /** What this cleanup step's check found (CR 514.3a); null before it runs. */
  cleanupCheck: CleanupCheck | null;
  /** Set when the game is over. */
  winners: PlayerId[] | null;
  /** Counter for ids the engine itself creates (classic combat damage objects). */
  nextObjectId: number;
}

/** Input of the turn machine: validated game options. */
export interface TurnInput {
  players: PlayerId[];
  startingPlayer: PlayerId;
  rules: RulesProfile;
  maxHandSize: number;
  handSize: number;
}

/** Host events and player decisions (see CONTRACT.md). */
export type TurnEvent =
  | { type: 'PASS_PRIORITY'; player: PlayerId }
  | { type: 'CAST_SPELL'; player: PlayerId; id: string; speed: 'sorcery' | 'instant' }
  | { type: 'ACTIVATE_ABILITY'; player: PlayerId; id: string; speed: 'sorcery' | 'instant' }
  | { type: 'PLAY_LAND'; player: PlayerId }
  | { type: 'DECLARE_ATTACKERS'; player: PlayerId; attackers: Attacker[] }
  | { type: 'DECLARE_BLOCKERS'; player: PlayerId; blockers: Blocker[] }
  | { type: 'TRIGGER'; triggers: Trigger[] }
  | { type: 'DISCARD'; player: PlayerId; count: number }
  | { type: 'HAND_SIZE'; player: PlayerId; size: number }
  | { type: 'ADD_MANA'; player: PlayerId; amount: number }
  | { type: 'SPEND_MANA'; player: PlayerId; amount: number }
  | { type: 'ADD_EXTRA_TURN'; player: PlayerId }
  | { type: 'ADD_EXTRA_COMBAT'; followedByMain?: boolean }
  | { type: 'SKIP_NEXT'; player: PlayerId; what: SkipTarget }
  | { type: 'CONCEDE'; player: PlayerId };

/** The type names of all events. */
export type TurnEventType = TurnEvent['type'];

/** Events the engine emits (`game.on`). */
export type EmittedEvent =
  | { type: 'turnBegan'; turn: number; activePlayer: PlayerId }
  | { type: 'stepBegan'; turn: number; phase: PhaseName; step: StepName }
  | { type: 'untap'; player: PlayerId }
  | { type: 'draw'; player: PlayerId }
  | { type: 'resolve'; object: StackObject }
  | { type: 'combatDamage'; first: boolean; creatures: string[] }
  | { type: 'cleanup'; player: PlayerId | null }
  | { type: 'discard'; player: PlayerId; count: number }
  | { type: 'manaEmptied'; player: PlayerId; amount: number }
  | { type: 'manaBurn'; player: PlayerId; amount: number }
  | { type: 'playerLeft'; player: PlayerId }
  | { type: 'gameOver'; winners: PlayerId[] };

/** The type names of emitted events. */
export type EmittedEventType = EmittedEvent['type'];

/** What the game waits for, and from whom. */
export type Awaiting =
  | { kind: 'priority'; player: PlayerId }
  | { kind: 'declareAttackers'; player: PlayerId }
  | { kind: 'declareBlockers'; player: PlayerId }
  | { kind: 'discard'; player: PlayerId; count: number };

/** The host's view of the turn (CONTRACT.md, "TurnView"). */
export interface TurnView {
  turn: number;
  activePlayer: PlayerId | null;
  phase: PhaseName;
  step: StepName;
  priority: PlayerId | null;
  awaiting: Awaiting | null;
  stack: StackObject[];
  landsPlayed: number;
  manaPool: Record<PlayerId, number>;
  players: PlayerId[];
  gameOver: null | { winners: PlayerId[] };
  /** Extra: every player's hand size as the engine tracks it. */
  handSizes: Record<PlayerId, number>;
  /** Extra: the rules profile. */
  rules: RulesProfile;
  /** Extra: attackers and blockers of the current combat, or null outside combat. */
  combat: { attackers: Attacker[]; blockers: DeclaredBlocker[] } | null;
  /** Extra: what is scheduled (pending extra turns, extra phases and skips). */
  schedule: {
    extraTurns: PlayerId[];
    extraPhases: PhaseKind[];
    skips: Record<PlayerId, Partial<Record<SkipTarget, number>>>;
  };
  /** Extra: steps and phases skipped this turn, with the rule. */
  skippedThisTurn: SkipRecord[];
}

/** What a checkpoint hook may report (CONTRACT.md, hooks.checkpoint). */
export interface CheckpointResult {
  triggers?: Trigger[];
  stateBasedActions?: boolean;
}

/**
 * Called each time the game checks state-based actions and triggered abilities
 * (CR 117.5, 704.3, 514.3a).
 */
export type CheckpointHook = (view: TurnView) => CheckpointResult | void | undefined;

/** Host callbacks. */
export interface GameHooks {
  checkpoint?: CheckpointHook;
}
