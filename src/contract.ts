/**
 * The public vocabulary of mtg-turn-engine: every type a host can see or send, declared once
 * with its documentation (CONTRACT.md). The main entry re-exports these types; the zod schemas
 * of `src/schemas.ts` are checked against them, so the two cannot drift apart. This module is
 * the ground floor: it imports nothing.
 */

/** A player's id, as given in `createGame({ players })`. */
export type PlayerId = string;

/** The rules era a game is played under (see `src/rules/eras.ts`). */
export type RulesEra = 'current' | 'm10' | 'classic';

/** @deprecated the old name of {@link RulesEra}. */
export type RulesProfile = RulesEra;

/** The phases of a turn (CR 500.1), plus 'pregame' before turn 1 (CR 103). */
export type PhaseName = 'beginning' | 'precombatMain' | 'combat' | 'postcombatMain' | 'ending' | 'pregame';

/** The phases a turn is made of. */
export type TurnPhaseName = Exclude<PhaseName, 'pregame'>;

/**
 * The steps of a turn. Main phases have the single step `main`; `firstStrikeDamage` is the
 * first of two combat damage steps (CR 510.4); 'pregame' is the start of the game (CR 103).
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
  | 'cleanup'
  | 'pregame';

/** The steps a turn is made of. */
export type TurnStepName = Exclude<StepName, 'pregame'>;

/** What a `SKIP_NEXT` event can skip: a step, a phase, the combat phase, or a whole turn (CR 614.10). */
export type SkipTarget = TurnStepName | TurnPhaseName | 'combat' | 'turn';

/** The kind of an object on the stack. `combatDamage` exists only in the 'classic' era. */
export type StackObjectKind = 'spell' | 'ability' | 'trigger' | 'combatDamage' | 'copy';

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
  /** Grand Melee: the turn marker whose stack it goes on, when its controller has priority for several (CR 807.5b). */
  turnMarker?: number;
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

/** A continuous effect that changes the turn (CONTRACT.md, "Turn-changing effects"). */
export type Effect =
  | { kind: 'skip'; what: TurnStepName | TurnPhaseName | 'combat' | 'turn' | 'extraTurn'; players?: PlayerId[] }
  | { kind: 'maxHandSize'; set?: number | null; change?: number; players?: PlayerId[] }
  | { kind: 'landPlays'; change?: number; set?: number; players?: PlayerId[] }
  | { kind: 'spellLimit'; perTurn: number; players?: PlayerId[] }
  | { kind: 'keepMana'; players?: PlayerId[] };

/** How long an effect lasts. */
export type Duration = 'untilRemoved' | 'endOfTurn' | 'endOfCombat' | 'untilYourNextTurn' | { untilStep: TurnStepName; ofPlayer?: PlayerId };

/** An effect in force, as the view shows it. */
export interface EffectEntry {
  id: string;
  effect: Effect;
  duration: Duration;
  controller?: PlayerId;
}

/** Where a player wants to be asked (CONTRACT.md, "Stops and auto-pass"). */
export interface Stop {
  step: TurnStepName;
  turn: 'own' | 'others' | 'any';
}

/** A yield in force: the player passes automatically until it ends. */
export interface Yield {
  until: 'stackResolved' | 'endOfTurn' | 'nextTurn';
  evenIfStackChanges: boolean;
}

/** The result of a finished game. */
export interface GameResult {
  winners: PlayerId[];
  draw: boolean;
  reasons: Record<PlayerId, string>;
}

/** The variant of the game (CR 807-810, 901, 904). */
export type Variant = 'freeForAll' | 'twoHeadedGiant' | 'archenemy' | 'emperor' | 'planechase' | 'grandMelee';

/** A team of players (CR 808, 809, 810). */
export interface Team {
  id: string;
  players: PlayerId[];
}

/** How attacks are directed in a multiplayer game (CR 802, 803). */
export type AttackOption = 'all' | 'chooseOne' | 'left' | 'right';

/** Decisions may name who makes them: `by` must be the player who decides for `player` (CR 723.5). */
export interface Decision {
  player: PlayerId;
  by?: PlayerId;
  /** Grand Melee: the turn marker whose turn (and stack) this is for, when the player could act in several (CR 807.5b). */
  turnMarker?: number;
}

/**
 * Host events and player decisions (CONTRACT.md, "Events"), discriminated by `type`: every
 * event a host may send, and only those (the engine's own events are not part of it). In Grand
 * Melee any event may name the `turnMarker` whose turn it is for (CR 807.5b; ignored elsewhere).
 */
export type TurnEvent = WithTurnMarker<
  | ({ type: 'PASS_PRIORITY' } & Decision)
  | ({ type: 'CAST_SPELL'; id: string; speed: 'sorcery' | 'instant' } & Decision)
  | ({ type: 'ACTIVATE_ABILITY'; id: string; speed: 'sorcery' | 'instant' } & Decision)
  | ({ type: 'PLAY_LAND' } & Decision)
  | ({ type: 'DECLARE_ATTACKERS'; attackers: Attacker[] } & Decision)
  | ({ type: 'DECLARE_BLOCKERS'; blockers: Blocker[] } & Decision)
  | ({ type: 'DISCARD'; count: number } & Decision)
  | ({ type: 'CHOOSE_DEFENDER'; defender: PlayerId } & Decision)
  | ({ type: 'ORDER_BLOCKERS'; attacker: string; order: string[] } & Decision)
  | ({ type: 'ORDER_ATTACKERS'; blocker: string; order: string[] } & Decision)
  | ({ type: 'ORDER_TRIGGERS'; order: string[] } & Decision)
  | ({ type: 'CHOOSE_STARTING_PLAYER'; starting: PlayerId } & Decision)
  | ({ type: 'MULLIGAN' } & Decision)
  | ({ type: 'KEEP' } & Decision)
  | ({ type: 'BOTTOM'; count: number } & Decision)
  | ({ type: 'OPENING_HAND_DONE' } & Decision)
  | ({ type: 'ROLL_PLANAR_DIE' } & Decision)
  | { type: 'CONCEDE'; player: PlayerId; by?: PlayerId }
  | { type: 'TRIGGER'; triggers: Trigger[] }
  | { type: 'HAND_SIZE'; player: PlayerId; size: number }
  | { type: 'ADD_MANA'; player: PlayerId; amount: number }
  | { type: 'SPEND_MANA'; player: PlayerId; amount: number }
  | { type: 'ADD_EXTRA_TURN'; player: PlayerId; id?: string }
  | { type: 'ADD_EXTRA_COMBAT'; followedByMain?: boolean; after?: TurnPhaseName }
  | { type: 'ADD_EXTRA_STEP'; step: TurnStepName; after?: TurnStepName; before?: TurnStepName; afterPhase?: TurnPhaseName; player?: PlayerId }
  | { type: 'ADD_EXTRA_PHASE'; phase: TurnPhaseName; after?: TurnPhaseName; player?: PlayerId }
  | { type: 'SKIP_NEXT'; player: PlayerId; what: SkipTarget }
  | { type: 'ADD_EFFECT'; id: string; effect: Effect; duration?: Duration; controller?: PlayerId }
  | { type: 'REMOVE_EFFECT'; id: string }
  | { type: 'REMOVE_FROM_STACK'; id: string; reason?: 'countered' | 'exiled' | 'removed' }
  | { type: 'PUT_ON_STACK'; object: { id: string; controller: PlayerId; kind: 'spell' | 'ability' | 'trigger' | 'copy' }; cast?: boolean }
  | { type: 'END_TURN' }
  | { type: 'END_COMBAT' }
  | { type: 'REMOVE_FROM_COMBAT'; id: string }
  | { type: 'SET_COMBAT_ABILITIES'; id: string; firstStrike?: boolean; doubleStrike?: boolean }
  | { type: 'ADD_ATTACKER'; id: string; defender: PlayerId; firstStrike?: boolean; doubleStrike?: boolean }
  | { type: 'ADD_BLOCKER'; id: string; attacker: string; firstStrike?: boolean; doubleStrike?: boolean }
  | { type: 'CONTROL_PLAYER'; controller: PlayerId; player: PlayerId }
  | { type: 'LOSE'; player: PlayerId; reason?: string }
  | { type: 'WIN'; player: PlayerId }
  /**
   * The game is a draw (CR 104.4a). `player`, the controller of the spell or ability that says so:
   * with a limited range of influence the game is a draw only for them and the players within
   * their range (801.15; in Emperor a team whose emperor draws, 809.5c), who leave it; the others
   * play on. Without it, or without the option, the whole game is a draw.
   */
  | { type: 'DRAW_GAME'; player?: PlayerId }
  | { type: 'SET_DAY_NIGHT'; value: 'day' | 'night' }
  | { type: 'SET_STOPS'; player: PlayerId; stops: Stop[] | null }
  | { type: 'YIELD'; player: PlayerId; until: Yield['until'] | null; evenIfStackChanges?: boolean }
  // CONTRACT v3, "Playing between people": undo with a policy, and tournament shortcuts (CR 732); `by` as for a decision (CR 723.5).
  | { type: 'UNDO'; player: PlayerId; to: number; by?: PlayerId }
  | { type: 'ACCEPT_UNDO'; player: PlayerId; by?: PlayerId }
  | { type: 'DECLINE_UNDO'; player: PlayerId; by?: PlayerId }
  | { type: 'MARK_IRREVERSIBLE' }
  | { type: 'PROPOSE_SHORTCUT'; player: PlayerId; until: ShortcutPoint; by?: PlayerId }
  | { type: 'ACCEPT_SHORTCUT'; player: PlayerId; by?: PlayerId }
  | { type: 'SHORTEN_SHORTCUT'; player: PlayerId; until: ShortcutPoint; by?: PlayerId }
  | { type: 'TICK'; at: number }
  | { type: 'PAUSE_CLOCKS'; at: number }
  | { type: 'RESUME_CLOCKS'; at: number }
  | { type: 'SET_SEAT_STATUS'; player: PlayerId; status: SeatStatus; at: number }
>;

/**
 * CONTRACT v3, shortcuts (CR 732.2a): the point a shortcut ends at, the first place the game
 * reaches after the proposal where it matches: a priority in `step` (of `phase`, when given;
 * 'main' matches both main phases), in turn `turn` when given (the view's `turn`), held by
 * `player` when given (else the first priority of that step). It must be a step in which players
 * receive priority (not 'untap' or 'cleanup').
 */
export interface ShortcutPoint {
  turn?: number;
  phase?: TurnPhaseName;
  step: TurnStepName;
  player?: PlayerId;
}

/**
 * An event that may name its Grand Melee turn marker, and the host's clock (CONTRACT v3,
 * "Playing between people"): `at`, a finite number of milliseconds on whatever clock the host
 * keeps (never read by the engine from anywhere else), not earlier than the last `at` the game
 * saw. Clocks and the away policy read it; an event without it charges no time.
 */
export type WithTurnMarker<T> = T extends unknown ? T & { turnMarker?: number; at?: number } : never;

/** The type names of the events a host may send. */
export type TurnEventType = TurnEvent['type'];

/** Events the engine emits (`game.on`), discriminated by `type`. */
export type EmittedEvent = WithEmittedMarker<
  | { type: 'turnBegan'; turn: number; activePlayer: PlayerId; extra: boolean; id?: string }
  | { type: 'stepBegan'; turn: number; phase: PhaseName; step: StepName }
  | { type: 'phasing'; player: PlayerId }
  | { type: 'dayNight'; value: 'day' | 'night' }
  | { type: 'untap'; player: PlayerId }
  | { type: 'draw'; player: PlayerId }
  | { type: 'setInMotion'; player: PlayerId }
  | { type: 'loreCounters'; player: PlayerId }
  | { type: 'visitAttractions'; player: PlayerId }
  | { type: 'resolve'; object: StackObject }
  | { type: 'removedFromStack'; object: StackObject; reason: 'countered' | 'exiled' | 'removed' }
  | { type: 'combatDamage'; first: boolean; creatures: string[] }
  | { type: 'cleanup'; player: PlayerId | null }
  | { type: 'discard'; player: PlayerId; count: number }
  | { type: 'manaEmptied'; player: PlayerId; amount: number }
  | { type: 'manaBurn'; player: PlayerId; amount: number }
  | { type: 'effectEnded'; id: string }
  | { type: 'autoPass'; player: PlayerId; turn: number; step: StepName; reason: AutoPassReason }
  | { type: 'playerLeft'; player: PlayerId; reason: string }
  | { type: 'gameOver'; winners: PlayerId[]; draw: boolean }
  | { type: 'planarDie'; player: PlayerId; roll: 'blank' | 'chaos' | 'planeswalk' }
  | { type: 'mulligan'; player: PlayerId; number: number }
  | { type: 'drawHand'; player: PlayerId; size: number }
  // CONTRACT v3: an accepted undo: the game is back at version `toVersion`; the host returns its own state to what it was after applying event `toSeq`.
  | { type: 'undone'; toVersion: number; toSeq: number }
  // CONTRACT v4, "Card games": a decision that carried `data`, or a CARD_ACTION, was accepted (emitted before the decision's own events).
  | { type: 'decided'; event: DecidedEvent }
>;

/**
 * CONTRACT v4, "Card games": the event a `decided` event carries: the player decision (or the
 * CARD_ACTION) as accepted, with its `data`. Other seats and spectators see `data` replaced by
 * the definition's `publicData`, or no `data` when it has none.
 */
export type DecidedEvent = (TurnEvent | CardActionEvent) & { data?: unknown };

/**
 * CONTRACT v4, "Card actions": a player's action only the cards know (tapping a land for mana, a
 * choice a card asks for); the definition's `actions[action](ctx)` decides. A player decision for
 * who may send what, but the engine never awaits it and checks no priority. Only a card game
 * (`mtg-turn-engine/cards`) takes it.
 */
export interface CardActionEvent {
  type: 'CARD_ACTION';
  player: PlayerId;
  /** The name of one of the definition's `actions`. */
  action: string;
  /** Any JSON, at most 4,096 UTF-8 bytes. */
  data?: unknown;
  /** Who sends it for `player` (CR 723.5), as for any decision. */
  by?: PlayerId;
  at?: number;
}

/** CONTRACT v4, "Card games": a refusal by the cards: the send answers ILLEGAL_ACTION with `rule ?? 'cards'` and `refuse` as message. */
export interface CardRefusal {
  refuse: string;
  rule?: string;
}

/** CONTRACT v4, "Randomness": the cards' random numbers, drawn from the game's seed; their position is persisted. */
export interface CardRandom {
  /** A whole number from 0 to n - 1. */
  int(n: number): number;
  /** A new list with the items of `list` in a random order. */
  shuffle<T>(list: readonly T[]): T[];
}

/**
 * CONTRACT v4, "The cards' state": what every function of a definition is given. `state` is the
 * send's working copy of S, changed in place: the changes stand only if the send is accepted.
 */
export interface CardContext<S> {
  state: S;
  /** The game's full view as the function is called. */
  view: TurnView;
  random: CardRandom;
  /** The player of the decision or card action (`decide`, `actions`). */
  player?: PlayerId;
  /** The decision's or card action's `data`. */
  data?: unknown;
}

/** The contract's name for {@link CardRefusal} (`decide?(event, ctx): Refusal | HostEvent[] | void`). */
export type Refusal = CardRefusal;

/**
 * The contract's name for the events `decide` and a card action return: any {@link TurnEvent},
 * applied as a host event (one the engine refuses makes the send ILLEGAL_ACTION with its rule).
 */
export type HostEvent = TurnEvent;

/** What `decide` and an action return: a refusal, host events applied first, or nothing. */
export type CardAnswer = Refusal | HostEvent[] | void | undefined;

/**
 * CONTRACT v4, "Card games": a card game's logic, given once to `defineCards` and run the same
 * way in-process, on the table server, in tests and in replays.
 */
export interface CardsDefinition<S> {
  /** Stored with every game and recording of it (`'my-cards@1'`); a snapshot of another name is refused. */
  name: string;
  /** The cards' state of a new game: any JSON, at most 1 MiB. */
  setup(input: { players: PlayerId[]; options: Record<string, unknown>; random: CardRandom }): S;
  /** As `hooks.checkpoint`, with the working state in `ctx`. */
  checkpoint?(view: TurnView, pending: EmittedEvent[], ctx: CardContext<S>): CheckpointResult | void | undefined;
  /** Before the engine takes a decision it would accept: a refusal, host events applied first, or nothing. */
  decide?(event: DecidedEvent, ctx: CardContext<S>): CardAnswer;
  /** CARD_ACTION by name. */
  actions?: { [name: string]: (ctx: CardContext<S>) => CardAnswer };
  /** As `hooks.autoPass` (reads `ctx.state`, changes nothing). */
  autoPass?(view: TurnView, player: PlayerId, ctx: CardContext<S>): boolean;
  /** What seat `seat` (null: a spectator) may see of S; without it nobody sees anything (null). */
  seatView?(state: S, seat: PlayerId | null, view: TurnView): unknown;
  /** A legal decision for `player` (with its data, or a CARD_ACTION) from what that player may know (`seen`: their seatView). */
  bot?(view: TurnView, seen: unknown, player: PlayerId, random: CardRandom): TurnEvent | CardActionEvent | undefined;
  /** What other seats see of a decision's data. */
  publicData?(event: DecidedEvent, state: S): unknown;
  /**
   * Named bots besides `bot` (an addition to CONTRACT v4, docs/cards.md "Bots that plan"): a bot
   * seat of the table server plays `bots[name]` when it is made with `{ seat, bot: name }`. Each
   * decides from what the player may know, as `bot` does, and may try decisions in worlds it makes
   * up (`worlds.world(S, seed)`: the game's turn with a cards' state S of its own making, e.g. the
   * hidden cards re-dealt from `seen`).
   */
  bots?: { [name: string]: PlanningBot<S> };
}

/**
 * A bot that plans (CardsDefinition's `bots`): a legal decision for `player` from `view`, `seen`
 * (its seatView) and `random`, as `bot`; `worlds` builds games to try decisions in.
 */
export type PlanningBot<S> = (view: TurnView, seen: unknown, player: PlayerId, random: CardRandom, worlds: BotWorlds<S>) => TurnEvent | CardActionEvent | undefined;

/** Where a planning bot tries its decisions: never the real game, only worlds of a cards' state it gives. */
export interface BotWorlds<S> {
  /**
   * A new game in the turn's public state (the engine's: the game's view) with the cards' state
   * `state` (JSON, checked as a snapshot's) and a new random stream from `seed` (the engine's and
   * the cards'): a `CardGame<S>` of mtg-turn-engine/cards, without undo history.
   */
  world(state: S, seed: number): unknown;
}


/**
 * Why a player passed automatically (CONTRACT "Stops and auto-pass"): their stops ('noStop'), a
 * yield, the host's `hooks.autoPass`, or (v3) a shortcut the players agreed to (CR 732.2c).
 */
export type AutoPassReason = 'noStop' | 'yield' | 'host' | 'time' | 'away' | 'shortcut';

/**
 * What every emitted event also carries: `seq` (CONTRACT v3, "Every event exactly once"): 1, 2,
 * 3, ... for the life of the game, persisted, continued by `restoreGame` and by forks; set on
 * every event a game hands out (`send`'s events, listeners, the checkpoint's `pending`). In Grand
 * Melee, while more than one turn marker is in the game, each emitted event names the marker
 * whose turn emitted it (CR 807.4).
 */
export type WithEmittedMarker<T> = T extends unknown ? T & { turnMarker?: number; seq?: number } : never;

/** The type names of emitted events. */
export type EmittedEventType = EmittedEvent['type'];

/**
 * CONTRACT v3, "Playing between people": who looks at a game, for `view`, `getSnapshot` and `on`.
 * `{ seat }` names a player the game began with (a player who left keeps their seat) and sees
 * everything but another player's private fields: their stops (null in `view.stops`), their yields
 * and the `reason` of automatic passes made for them. `{ spectator: true }` sees no player's
 * private fields. Without it, the host's full view.
 */
export type SeatOptions = { seat: PlayerId } | { spectator: true };

/**
 * An emitted event as a seat or a spectator receives it (`on(type, listener, { seat })`, CONTRACT
 * v3, "Private seats"): the same events in the same order with the same `seq`, but an `autoPass`
 * made for another player arrives as a plain pass, without `reason`.
 */
export type SeatEvent = SeatEventOf<EmittedEvent>;

/** One emitted event's type as seats receive it: its private fields optional. */
export type SeatEventOf<E> = E extends { type: 'autoPass'; reason: infer R } ? Omit<E, 'reason'> & { reason?: R } : E;

/** What the game waits for, and from whom (CONTRACT.md, TurnView.awaiting). */
export type Awaiting =
  | { kind: 'priority'; player: PlayerId }
  | { kind: 'declareAttackers'; player: PlayerId; defenders: PlayerId[] }
  | { kind: 'chooseDefender'; player: PlayerId; defenders: PlayerId[] }
  | { kind: 'declareBlockers'; player: PlayerId }
  | { kind: 'orderBlockers'; player: PlayerId; attacker: string; blockers: string[] }
  | { kind: 'orderAttackers'; player: PlayerId; blocker: string; attackers: string[] }
  | { kind: 'discard'; player: PlayerId; count: number }
  | { kind: 'orderTriggers'; player: PlayerId; triggers: string[] }
  | { kind: 'chooseStartingPlayer'; player: PlayerId; /** Who may be chosen, when the variant says (Archenemy: the archenemy, 904.6; Emperor: an emperor, 809.4); absent: any player. */ candidates?: PlayerId[] }
  | { kind: 'mulligan'; player: PlayerId; mulligans: number }
  | { kind: 'bottom'; player: PlayerId; count: number }
  | { kind: 'openingHandActions'; player: PlayerId }
  /** CONTRACT v3: `requester` asks to return the game to version `to`; `player` accepts or declines (ACCEPT_UNDO, DECLINE_UNDO). */
  | { kind: 'undoConsent'; player: PlayerId; requester: PlayerId; to: number }
  /** CONTRACT v3, CR 732.2b: `proposer` proposes to pass up to `until`; `player` accepts or shortens it (ACCEPT_SHORTCUT, SHORTEN_SHORTCUT). */
  | { kind: 'shortcut'; player: PlayerId; proposer: PlayerId; until: ShortcutPoint };

/** A turn still to come, as `schedule` shows it. */
export interface ScheduledTurn {
  player: PlayerId;
  extra: boolean;
  id?: string;
  skipped: boolean;
}

/** What comes next if nothing changes (CONTRACT.md, TurnView.schedule). */
export interface Schedule {
  turns: ScheduledTurn[];
  phases: { phase: TurnPhaseName; skipped: boolean }[];
  steps: { step: TurnStepName; skipped: boolean }[];
}

/** The host's view of the turn (CONTRACT.md, "TurnView"). */
export interface TurnView {
  /** 0 when created; +1 for every accepted send. */
  version: number;
  /** The `seq` of the last event emitted (0 before any; CONTRACT v3). */
  seq: number;
  /**
   * CONTRACT v3: the turn in progress: whose it is (also after they left) and whether it is an
   * extra turn (CR 500.7), with the `id` given to ADD_EXTRA_TURN (Final Fortune); null in the pregame.
   */
  currentTurn: { player: PlayerId; extra: boolean; id?: string } | null;
  turn: number;
  activePlayer: PlayerId | null;
  activeTeam: string | null;
  phase: PhaseName;
  step: StepName;
  priority: PlayerId | null;
  awaiting: Awaiting | null;
  /** For every player in the game, the player who makes their decisions (CR 723). */
  decidedBy: Record<PlayerId, PlayerId>;
  stack: StackObject[];
  /** Lands the active player played this turn; with shared team turns, the active team's players together (805.4c). */
  landsPlayed: number;
  /** Lands each player in the game played this turn (CR 305.2, 805.4c). */
  landsPlayedBy: Record<PlayerId, number>;
  /** How many lands the active player may play this turn (1, changed by effects, 305.2). */
  landPlaysAllowed: number;
  /**
   * How many lands each player in the game may play this turn, beside `landsPlayedBy`: each
   * active player's allowance (with shared team turns each member of the active team has their
   * own, 805.4c), 0 for the others (305.2: lands are played on one's own turn).
   */
  landPlaysAllowedBy: Record<PlayerId, number>;
  spellsCast: Record<PlayerId, number>;
  manaPool: Record<PlayerId, number>;
  handSizes: Record<PlayerId, number>;
  maxHandSize: Record<PlayerId, number | null>;
  players: PlayerId[];
  teams: { id: string; players: PlayerId[] }[] | null;
  dayNight: 'day' | 'night' | null;
  combat: null | {
    /** `blocked` (v3): the attacker was blocked, and stays blocked when its blockers leave combat (CR 509.1h). */
    attackers: { id: string; defender: PlayerId; firstStrike: boolean; doubleStrike: boolean; blocked: boolean; blockedBy: string[] }[];
    blockers: { id: string; blocking: string[]; firstStrike: boolean; doubleStrike: boolean }[];
  };
  effects: EffectEntry[];
  schedule: Schedule;
  stops: Record<PlayerId, Stop[] | null>;
  gameOver: GameResult | null;
  rules: RulesEra;
  /**
   * CONTRACT v4, undo: with the `undo` option, for every player in the game how far back they may
   * undo now ({@link UndoHorizon}); null without the option. The versions between `to` and now
   * are not shown (a seat must not learn of another player's own settings from them): the host's
   * `legalActions` lists each UNDO a player may send.
   */
  undo: Record<PlayerId, UndoHorizon> | null;
  /**
   * CONTRACT v3, "Playing between people": with the `clock` option, every seat's clock (a player
   * who left keeps theirs, stopped); in shared team turns the team's one clock under each member.
   * Null without the option.
   */
  clocks: Record<PlayerId, ClockView> | null;
  /**
   * CONTRACT v3: with the `away` option or after any SET_SEAT_STATUS, every seat's status;
   * null otherwise.
   */
  seats: Record<PlayerId, SeatView> | null;
  /** Grand Melee only: every turn marker's turn, in marker order (CR 807.4); the fields above are the first running turn's. */
  turns?: TurnMarkerView[];
}

/** CONTRACT v4: how far back one player may undo (`TurnView.undo`). */
export interface UndoHorizon {
  /** The earliest version the player may return to with UNDO; null when nothing can be undone now. */
  to: number | null;
  /** The UNDO requests the player may still make this turn (`maxPerTurn` less those made, 'own' undos included); null without a limit. */
  requestsLeft: number | null;
}

/** CONTRACT v3: the `undo` option of createGame: who may undo, and how often. */
export interface UndoOptions {
  /** 'none' (the default): no undo; 'own': a player undoes their own actions at once; 'consent': every other player must accept. */
  mode: 'none' | 'own' | 'consent';
  /** CONTRACT v4: the most UNDO requests (and 'own' undos) one player may make in a turn; default 3, null for no limit. */
  maxPerTurn?: number | null;
  /**
   * CONTRACT v4: how long a consent request waits for the asked player's answer, in ms of the
   * host's clock from the request's `at` (default 30,000); then it is declined for them (by a TICK
   * or any later send carrying `at`), as their DECLINE_UNDO would. A request in a game that has
   * seen no `at` never expires. The asked player's clock runs meanwhile.
   */
  answerMs?: number;
}

/**
 * CONTRACT v3, the `clock` option: a chess clock for every player (with shared team turns, one
 * per team, CR 805). Clocks start at the first event that carries `at`; from then on the time
 * between two events that carry `at` is charged to whoever the game was waiting for.
 */
export interface ClockOptions {
  /** Each clock's time at the start, in ms (an integer from 1). */
  initialMs: number;
  /** Added to a player's clock each time they complete a decision (Fischer increment; default 0). */
  incrementMs?: number;
  /** Each decision first uses up this much time, not charged (a delay, as US delay; default 0). */
  delayMs?: number;
  /** When a clock reaches 0: 'lose', the player loses (reason 'time'); 'pass', their decisions are answered with the plainest answers from then on (autoPass reason 'time'). */
  onTimeout: 'lose' | 'pass';
}

/** CONTRACT v3, the `away` option: what the engine does for a player whose seat is away. */
export interface AwayOptions {
  /** How long a seat may be away (ms, an integer from 0) before `then` applies, at their next decision. */
  graceMs: number;
  /** 'wait': the game waits for them; 'pass': their decisions are answered with the plainest answers (autoPass reason 'away'); 'concede': they leave the game (reason 'away'). */
  then: 'wait' | 'pass' | 'concede';
}

/** A seat's status (SET_SEAT_STATUS): the player's client is connected, or away (dropped). */
export type SeatStatus = 'connected' | 'away';

/**
 * One clock as the view shows it (CONTRACT v3, `view().clocks`). The engine owns no timer: the
 * numbers are as of `at`, the host's clock at the last event that carried one; a UI counts a
 * running clock down from there (first its `delayMsLeft`, then `msLeft`).
 */
export interface ClockView {
  /** Time left (ms) as of `at`; never negative. */
  msLeft: number;
  /** Whether the clock runs: the game waits for this clock's player (or team), the clocks are not paused and have started. */
  running: boolean;
  /** Whether the clock ran out (with `onTimeout: 'pass'` their decisions are answered for them from then on). */
  flagged: boolean;
  /** What is left of the current decision's `delayMs` as of `at` (0 when the clock does not run). */
  delayMsLeft: number;
  /** The host's clock (ms) that `msLeft` and `delayMsLeft` are as of: the last `at` the game saw; null before any (the clocks have not started). */
  at: number | null;
}

/** A seat as the view shows it (CONTRACT v3, `view().seats`). */
export interface SeatView {
  status: SeatStatus;
  /** The host's clock (ms) when the seat took this status: its SET_SEAT_STATUS's `at`; for a seat that never changed, the first `at` the game saw (0 before any). */
  since: number;
}

/**
 * CONTRACT v3, `game.nextDeadline()`: when, on the host's clock, the next time-out falls, and
 * whose: a running clock's, an away grace's (for a decision awaited; with `then: 'concede'` for
 * any player away), or (v4) an undo request's answer time, `player` being the one asked. A send
 * carrying `at` at or past it commits the time-outs first (v4, "Time-outs are facts of time").
 */
export interface Deadline {
  player: PlayerId;
  at: number;
}

/** One turn marker's turn in a Grand Melee game (CR 807.4, 807.5): a TurnView-like record. */
export interface TurnMarkerView {
  /** The marker's number (807.4b). */
  turnMarker: number;
  /** Who holds it: the active player, or the player who takes its next turn. */
  player: PlayerId;
  /** Whether its next turn waits for a marker within three seats to the holder's left (807.4d). */
  waiting: boolean;
  /** How many times it is designated for removal (807.4e-g). */
  removals: number;
  /** This marker's turns: 1 for its first. */
  turn: number;
  activePlayer: PlayerId | null;
  phase: PhaseName;
  step: StepName;
  priority: PlayerId | null;
  awaiting: Awaiting | null;
  /** This marker's own stack (807.5), bottom first. */
  stack: StackObject[];
  combat: TurnView['combat'];
  landsPlayed: number;
  landsPlayedBy: Record<PlayerId, number>;
  landPlaysAllowed: number;
  spellsCast: Record<PlayerId, number>;
  schedule: Schedule;
}

/** What a checkpoint hook may report (CONTRACT.md, hooks.checkpoint). */
export interface CheckpointResult {
  triggers?: Trigger[];
  stateBasedActions?: boolean;
  /** Host events applied in order, as if sent at that moment. */
  events?: TurnEvent[];
}

/**
 * Called each time the game checks state-based actions and triggered abilities
 * (CR 117.5, 704.3, 514.3a, 724.1c), with every event emitted since the previous call.
 */
export type CheckpointHook = (view: TurnView, pending: EmittedEvent[]) => CheckpointResult | void | undefined;

/** Host callbacks. */
export interface GameHooks {
  checkpoint?: CheckpointHook;
  /**
   * CONTRACT v3: called once at the end of every send (and of createGame) that called the
   * checkpoint at least once, after the engine committed (`ok: true`) or refused it (`ok: false`,
   * with the unchanged `version` and `seq`): the host commits what it staged in the checkpoint, or
   * discards it. A throw from it is ignored (reported to `console.error`).
   */
  settled?: (outcome: SettledOutcome) => void;
  /**
   * CONTRACT v3: Arena-style passing. Consulted wherever stops are (and with objects on the
   * stack): `true` passes for that player, emitted as `autoPass` with reason `'host'`. `nextStop`
   * uses it, so it must be pure; it must not call `send`.
   */
  autoPass?: (view: TurnView, player: PlayerId) => boolean;
}

/** What `hooks.settled` is told at the end of a send that called the checkpoint. */
export interface SettledOutcome {
  ok: boolean;
  version: number;
  seq: number;
}
