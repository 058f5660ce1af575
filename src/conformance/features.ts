/**
 * The features a scenario needs (CONTRACT.md, "Conformance kit"), derived from its setup and
 * steps alone: a pure function, so that any engine's runner can tag any scenario file the same
 * way. An engine declares the features it supports in `initialize`; it plays the scenarios
 * whose features it all supports and is skipped on the others.
 *
 * What needs no feature (the core every engine implements): two players, the current rules,
 * the turn structure, priority, the stack of opaque objects, combat with first and double
 * strike, cleanup and discards, land drops, the mana pool, hand sizes, TRIGGER, and the
 * view's fields and emitted events that go with them.
 */

/** Every feature tag, with what an engine that declares it supports. */
export const FEATURES = {
  multiplayer: 'more than two players (CR 800-802: turn order, APNAP, leaving a multiplayer game)',
  teams: 'teams (`teams` option, or a variant played in teams): shared team turns, view.teams and view.activeTeam (CR 805, 808)',
  variants: 'the `variant` option, with the variants named by their own tags',
  twoHeadedGiant: "variant 'twoHeadedGiant' (CR 810)",
  archenemy: "variant 'archenemy' (CR 904): setInMotion",
  emperor: "variant 'emperor' (CR 809)",
  planechase: "variant 'planechase' (CR 901): ROLL_PLANAR_DIE, planarDie",
  grandMelee: "variant 'grandMelee' (CR 807): turn markers, view.turns, `turnMarker` on events",
  rangeOfInfluence: 'the `rangeOfInfluence` option (CR 801)',
  attack: "the `attack` option other than 'all': CHOOSE_DEFENDER, attack left or right (CR 802, 803)",
  pregame: 'the `pregame` option (CR 103): CHOOSE_STARTING_PLAYER, MULLIGAN, KEEP, BOTTOM, OPENING_HAND_DONE, drawHand, mulligan; the starting chooser drawn with the `seed` as docs/conformance.md says',
  'eras:m10': "`rules: 'm10'`: damage assignment order, ORDER_BLOCKERS, ORDER_ATTACKERS",
  'eras:classic': "`rules: 'classic'`: mana burn, combat damage on the stack",
  orderTriggers: "`orderTriggers: 'players'`: ORDER_TRIGGERS",
  checkpoint: 'the checkpoint hook (`setup.inject`): the engine sends `checkpoint` requests to the runner',
  autoPassHook: 'the autoPass hook (`setup.autoPass`): the engine sends `autoPass` requests to the runner',
  leaving: 'CONCEDE, LOSE, WIN, DRAW_GAME: players leaving, view.gameOver, playerLeft and gameOver (CR 104, 800.4)',
  stackEvents: 'PUT_ON_STACK and REMOVE_FROM_STACK (removedFromStack)',
  combatChanges: 'REMOVE_FROM_COMBAT, SET_COMBAT_ABILITIES, ADD_ATTACKER, ADD_BLOCKER (CR 506.4, 508.4, 509.4, 510.4)',
  endTurn: 'END_TURN and END_COMBAT (CR 724)',
  extraTurns: 'ADD_EXTRA_TURN (CR 500.7)',
  extraPhases: 'ADD_EXTRA_COMBAT, ADD_EXTRA_PHASE, ADD_EXTRA_STEP (CR 500.8-500.10)',
  skips: 'SKIP_NEXT (CR 614.10)',
  effects: 'ADD_EFFECT and REMOVE_EFFECT, view.effects, effectEnded (the turn-changing effects)',
  control: 'CONTROL_PLAYER and `by` on decisions: view.decidedBy (CR 723)',
  dayNight: 'SET_DAY_NIGHT, view.dayNight, dayNight (CR 731)',
  schedule: 'view.schedule: the turns, phases and steps to come',
  stops: 'SET_STOPS and YIELD, view.stops, autoPass',
  nextStop: 'the `nextStop` method (steps `expectNextStop`)',
  persist: 'the `persist` and `restore` methods (steps `restore`; a refused send is also checked to leave `persist()` unchanged)',
  clock: 'the `clock` option, `at` on events, TICK, PAUSE_CLOCKS, RESUME_CLOCKS',
  undo: 'the `undo` option, UNDO, ACCEPT_UNDO, DECLINE_UNDO, MARK_IRREVERSIBLE, undone',
  away: 'the `away` option and SET_SEAT_STATUS',
  shortcuts: 'PROPOSE_SHORTCUT, ACCEPT_SHORTCUT, SHORTEN_SHORTCUT (CR 732)',
} as const;

/** A feature tag. */
export type Feature = keyof typeof FEATURES;

/** Every feature tag, in the order of {@link FEATURES} (the order tags are listed in). */
export const FEATURE_NAMES = Object.keys(FEATURES) as Feature[];

/** The feature each event type sent needs (types not named need none). */
const EVENT_FEATURES: Readonly<Record<string, Feature>> = {
  CONCEDE: 'leaving',
  LOSE: 'leaving',
  WIN: 'leaving',
  DRAW_GAME: 'leaving',
  PUT_ON_STACK: 'stackEvents',
  REMOVE_FROM_STACK: 'stackEvents',
  REMOVE_FROM_COMBAT: 'combatChanges',
  SET_COMBAT_ABILITIES: 'combatChanges',
  ADD_ATTACKER: 'combatChanges',
  ADD_BLOCKER: 'combatChanges',
  END_TURN: 'endTurn',
  END_COMBAT: 'endTurn',
  ADD_EXTRA_TURN: 'extraTurns',
  ADD_EXTRA_COMBAT: 'extraPhases',
  ADD_EXTRA_PHASE: 'extraPhases',
  ADD_EXTRA_STEP: 'extraPhases',
  SKIP_NEXT: 'skips',
  ADD_EFFECT: 'effects',
  REMOVE_EFFECT: 'effects',
  CONTROL_PLAYER: 'control',
  SET_DAY_NIGHT: 'dayNight',
  SET_STOPS: 'stops',
  YIELD: 'stops',
  ORDER_TRIGGERS: 'orderTriggers',
  ORDER_BLOCKERS: 'eras:m10',
  ORDER_ATTACKERS: 'eras:m10',
  CHOOSE_DEFENDER: 'attack',
  CHOOSE_STARTING_PLAYER: 'pregame',
  MULLIGAN: 'pregame',
  KEEP: 'pregame',
  BOTTOM: 'pregame',
  OPENING_HAND_DONE: 'pregame',
  ROLL_PLANAR_DIE: 'planechase',
  TICK: 'clock',
  PAUSE_CLOCKS: 'clock',
  RESUME_CLOCKS: 'clock',
  UNDO: 'undo',
  ACCEPT_UNDO: 'undo',
  DECLINE_UNDO: 'undo',
  MARK_IRREVERSIBLE: 'undo',
  SET_SEAT_STATUS: 'away',
  PROPOSE_SHORTCUT: 'shortcuts',
  ACCEPT_SHORTCUT: 'shortcuts',
  SHORTEN_SHORTCUT: 'shortcuts',
};

/** The feature each field of an event needs, whatever the event. */
const EVENT_FIELD_FEATURES: Readonly<Record<string, Feature>> = { by: 'control', turnMarker: 'grandMelee', at: 'clock' };

/** The feature each view field matched (`expect`, `passUntil`, `inject[].when`) needs (fields not named need none). */
const VIEW_FEATURES: Readonly<Record<string, Feature>> = {
  teams: 'teams',
  activeTeam: 'teams',
  // Not fields of the contract's TurnView: this engine's per-player land counts (docs/api.md, 805.4c), for team games.
  landsPlayedBy: 'teams',
  landPlaysAllowedBy: 'teams',
  turns: 'grandMelee',
  effects: 'effects',
  schedule: 'schedule',
  dayNight: 'dayNight',
  stops: 'stops',
  clocks: 'clock',
  undo: 'undo',
  seats: 'away',
};

/** The feature each emitted event type expected (`expectEmitted`) needs (types not named need none). */
const EMITTED_FEATURES: Readonly<Record<string, Feature>> = {
  manaBurn: 'eras:classic',
  effectEnded: 'effects',
  autoPass: 'stops',
  drawHand: 'pregame',
  mulligan: 'pregame',
  setInMotion: 'archenemy',
  dayNight: 'dayNight',
  planarDie: 'planechase',
  undone: 'undo',
};

/** The variants played in teams (their games have teams without the `teams` option). */
const TEAM_VARIANTS: readonly string[] = ['twoHeadedGiant', 'archenemy', 'emperor'];

/** The feature a view field needs (undefined: the core's field, or not a view field). */
export function viewFieldFeature(field: string): Feature | undefined {
  return Object.hasOwn(VIEW_FEATURES, field) ? VIEW_FEATURES[field] : undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The features a scenario needs, in the order of {@link FEATURE_NAMES}: from its setup (players,
 * rules era, variant, teams, pregame, options), the events it sends or injects, the view fields
 * it matches, the emitted events it expects, and its steps (`restore`, `expectNextStop`). An
 * empty list: the core alone. Reads anything (a value that is not a scenario needs nothing it
 * can see) and never throws.
 */
export function scenarioFeatures(scenario: unknown): Feature[] {
  const needs = new Set<Feature>();
  if (!isRecord(scenario)) return [];
  const setup = isRecord(scenario.setup) ? scenario.setup : {};
  if (Array.isArray(setup.players) && setup.players.length > 2) needs.add('multiplayer');
  if (setup.rules === 'm10' || setup.rules === 'classic') needs.add(`eras:${setup.rules}`);
  if (setup.pregame === true) needs.add('pregame');
  if (setup.teams !== undefined && setup.teams !== null) needs.add('teams');
  if (typeof setup.variant === 'string' && setup.variant !== 'freeForAll') {
    needs.add('variants');
    if (setup.variant in FEATURES) needs.add(setup.variant as Feature);
    if (TEAM_VARIANTS.includes(setup.variant)) needs.add('teams');
  }
  if (setup.rangeOfInfluence !== undefined) needs.add('rangeOfInfluence');
  if (setup.attack !== undefined && setup.attack !== 'all') needs.add('attack');
  if (setup.orderTriggers === 'players') needs.add('orderTriggers');
  for (const option of ['clock', 'undo', 'away'] as const) if (setup[option] !== undefined && setup[option] !== null) needs.add(option);
  const event = (e: unknown) => {
    if (!isRecord(e)) return;
    if (typeof e.type === 'string' && EVENT_FEATURES[e.type] !== undefined) needs.add(EVENT_FEATURES[e.type] as Feature);
    for (const field of Object.keys(e)) if (EVENT_FIELD_FEATURES[field] !== undefined) needs.add(EVENT_FIELD_FEATURES[field] as Feature);
  };
  const viewPattern = (pattern: unknown) => {
    if (!isRecord(pattern)) return;
    for (const field of Object.keys(pattern)) if (VIEW_FEATURES[field] !== undefined) needs.add(VIEW_FEATURES[field] as Feature);
  };
  // `inject`, even empty, gives the game a checkpoint hook (recordingToScenario writes `[]` for a hook that reported nothing).
  if (Array.isArray(setup.inject)) {
    needs.add('checkpoint');
    for (const entry of setup.inject) {
      if (!isRecord(entry)) continue;
      viewPattern(entry.when);
      if (Array.isArray(entry.events)) entry.events.forEach(event);
    }
  }
  // `autoPass` gives the game an autoPass hook (recordingToScenario writes its answers), asked over the protocol.
  if (Array.isArray(setup.autoPass)) {
    needs.add('autoPassHook');
    for (const entry of setup.autoPass) if (isRecord(entry)) viewPattern(entry.when);
  }
  for (const step of Array.isArray(scenario.steps) ? scenario.steps : []) {
    if (!isRecord(step)) continue;
    if ('send' in step) event(step.send);
    viewPattern(step.expect);
    viewPattern(step.passUntil);
    if ('expectNextStop' in step) needs.add('nextStop');
    if ('restore' in step) needs.add('persist');
    if (Array.isArray(step.expectEmitted)) {
      for (const e of step.expectEmitted) if (isRecord(e) && typeof e.type === 'string' && EMITTED_FEATURES[e.type] !== undefined) needs.add(EMITTED_FEATURES[e.type] as Feature);
    }
  }
  return FEATURE_NAMES.filter((f) => needs.has(f));
}

/** The features of `needed` that `supported` lacks (empty: the engine can play the scenario). */
export function missingFeatures(needed: readonly string[], supported: readonly string[]): string[] {
  const have = new Set(supported);
  return needed.filter((f) => !have.has(f));
}
