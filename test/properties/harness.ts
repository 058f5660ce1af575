/**
 * Random games for the properties: random setups (every era, free-for-all, Two-Headed Giant,
 * Archenemy, Emperor, Planechase, pregames, players ordering triggers) and a random mix of
 * every event of the contract: the players' legal decisions with random payloads, the host's
 * events that change the turn (effects of every kind and duration, extra turns, steps and
 * phases, ending the turn or the combat, control, stops and yields, the stack), players
 * leaving, and refused input (wrong players, bad payloads). Each event is checked as it is
 * sent; `checkGame` runs the properties any game keeps.
 */
import fc from 'fast-check';
import { createInterpreterGame, restoreInterpreterGame } from '../support/logics.js';
import { createGame, fillAction, restoreGame, type EmittedEvent, type Game, type GameOptions, type LegalAction, type TurnEvent, type TurnView } from '../../src/index.js';
import { sharesTurns as sharesTurnsOf } from '../../src/rules/units.js';
import { seededRandom } from '../../src/simulation.js';
import { prototypeProblem } from './hostile.js';
import { allModules } from '../../src/allModules.js';

type Random = () => number;

/** A failed check of a random game (the harness runs under vitest and in the soak, bench/soak.ts). */
export class GameCheckError extends Error {}

function check(ok: boolean, message: string): void {
  if (!ok) throw new GameCheckError(message);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A random setup: createGame options with a seed. */
export const setupArb: fc.Arbitrary<GameOptions & { seed: number }> = fc
  .record({
    shape: fc.constantFrom('ffa2', 'ffa3', 'ffa4', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee'),
    rules: fc.constantFrom('current', 'm10', 'classic' as const),
    pregame: fc.boolean(),
    orderTriggers: fc.constantFrom('host', 'players' as const),
    attack: fc.constantFrom('all', 'chooseOne', 'left', 'right' as const),
    seed: fc.nat(),
  })
  .map(({ shape, rules, pregame, orderTriggers, attack, seed }): GameOptions & { seed: number } => {
    const base = { rules, pregame, orderTriggers, seed };
    switch (shape) {
      case 'ffa2':
        return { ...base, players: ['A', 'B'] };
      case 'ffa3':
        return { ...base, players: ['A', 'B', 'C'], attack };
      case 'ffa4':
        return { ...base, players: ['A', 'B', 'C', 'D'], attack };
      case 'twoHeadedGiant':
        return { ...base, players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] };
      case 'archenemy':
        return { ...base, players: ['E', 'A', 'B', 'C'], variant: 'archenemy', teams: [{ id: 'boss', players: ['E'] }, { id: 'heroes', players: ['A', 'B', 'C'] }] };
      case 'emperor':
        return { ...base, players: ['A', 'B', 'C', 'D', 'E', 'F'], variant: 'emperor', teams: [{ id: 'T1', players: ['A', 'B', 'C'] }, { id: 'T2', players: ['D', 'E', 'F'] }] };
      case 'grandMelee':
        // CR 807: ten players, two turn markers; no pregame with turn markers.
        return { ...base, pregame: false, players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], variant: 'grandMelee' };
      default:
        return { ...base, players: ['A', 'B', 'C'], variant: 'planechase' };
    }
  });

function pick<T>(r: Random, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

const STEPS = ['untap', 'upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'combatDamage', 'endOfCombat', 'end', 'cleanup'] as const;
const PHASES = ['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending'] as const;
const DURATIONS = ['untilRemoved', 'endOfTurn', 'endOfCombat', 'untilYourNextTurn'] as const;

/** Whether a game of these options uses shared team turns (CR 805: Two-Headed Giant, Archenemy). */
export function sharesTurns(options: Pick<GameOptions, 'teams' | 'variant'>): boolean {
  return sharesTurnsOf({ teams: options.teams ?? null, variant: options.variant ?? 'freeForAll' });
}

/** A legal decision with a random payload (random creatures, orders, defenders). */
export function fill(action: LegalAction, whole: TurnView, r: Random, serial: number, sharedTurns = false): TurnEvent {
  // Grand Melee: the payload comes from the view of the turn the decision is for (CR 807.5).
  const turn = whole.turns?.find((t) => t.turnMarker === action.turnMarker);
  const view = turn === undefined ? whole : { ...whole, awaiting: turn.awaiting, combat: turn.combat, stack: turn.stack };
  const a = view.awaiting;
  switch (action.type) {
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY':
      return fillAction(action, { id: `o${serial}` });
    case 'DECLARE_ATTACKERS': {
      const defenders = a?.kind === 'declareAttackers' ? a.defenders : [];
      const n = defenders.length === 0 ? 0 : Math.floor(r() * 4);
      return fillAction(action, { attackers: Array.from({ length: n }, (_, i) => ({ id: `${action.player}-${i}`, defender: pick(r, defenders), firstStrike: r() < 0.2, doubleStrike: r() < 0.1 })) });
    }
    case 'DECLARE_BLOCKERS': {
      // Attackers attacking this player (CR 509.1a, 802.4a), or their team with shared team turns (805.10d; not Emperor's teams).
      const team = new Set((sharedTurns ? view.teams?.find((t) => t.players.includes(action.player))?.players : undefined) ?? [action.player]);
      const attackers = (view.combat?.attackers ?? []).filter((x) => team.has(x.defender)).map((x) => x.id);
      const n = attackers.length === 0 ? 0 : Math.floor(r() * 4);
      // Two creatures at most, each blocking distinct attackers (509.1b: one may block several).
      const pairs = new Map<string, { id: string; attacker: string; firstStrike: boolean }>();
      for (let i = 0; i < n; i++) {
        const blocker = { id: `${action.player}-b${i % 2}`, attacker: pick(r, attackers), firstStrike: r() < 0.2 };
        pairs.set(`${blocker.id}>${blocker.attacker}`, blocker);
      }
      return fillAction(action, { blockers: [...pairs.values()] });
    }
    case 'CHOOSE_DEFENDER':
      return fillAction(action, { defender: a?.kind === 'chooseDefender' ? pick(r, a.defenders) : '' });
    case 'ORDER_BLOCKERS':
      return fillAction(action, { order: a?.kind === 'orderBlockers' ? [...a.blockers].reverse() : [] });
    case 'ORDER_ATTACKERS':
      return fillAction(action, { order: a?.kind === 'orderAttackers' ? [...a.attackers].reverse() : [] });
    case 'ORDER_TRIGGERS':
      return fillAction(action, { order: a?.kind === 'orderTriggers' ? [...a.triggers].reverse() : [] });
    case 'CHOOSE_STARTING_PLAYER':
      return fillAction(action, { starting: pick(r, a?.kind === 'chooseStartingPlayer' && a.candidates !== undefined ? a.candidates : view.players) });
    case 'SHORTEN_SHORTCUT':
      // CR 732.2b: the point proposed (shortening it to the same point accepts it as it is).
      return fillAction(action, { until: a?.kind === 'shortcut' ? a.until : { step: 'end' } });
    default:
      // The others leave nothing to choose (BOTTOM's and DISCARD's count is the template's).
      return fillAction(action);
  }
}

/** A random event of the host that changes the turn, naming players and objects of the game. */
export function hostEvent(view: TurnView, r: Random, serial: number): TurnEvent {
  const p = pick(r, view.players);
  const other = pick(r, view.players);
  const top = view.stack[view.stack.length - 1];
  const attacker = view.combat?.attackers[0];
  const effect = view.effects[0];
  const duration = r() < 0.8 ? pick(r, DURATIONS) : { untilStep: pick(r, STEPS), ofPlayer: p };
  const choices: (() => TurnEvent)[] = [
    () => ({ type: 'TRIGGER', triggers: Array.from({ length: 1 + Math.floor(r() * 3) }, (_, i) => ({ id: `t${serial}-${i}`, controller: pick(r, view.players) })) }),
    () => ({ type: 'HAND_SIZE', player: p, size: Math.floor(r() * 12) }),
    () => ({ type: 'ADD_MANA', player: p, amount: 1 + Math.floor(r() * 3) }),
    () => ({ type: 'SPEND_MANA', player: p, amount: 1 }),
    () => ({ type: 'ADD_EXTRA_TURN', player: p, id: `x${serial}` }),
    () => ({ type: 'ADD_EXTRA_COMBAT', followedByMain: r() < 0.5 }),
    () => ({ type: 'ADD_EXTRA_STEP', step: pick(r, ['upkeep', 'draw', 'end'] as const), after: pick(r, ['upkeep', 'draw', 'end'] as const) }),
    // 500.9 before a step, 500.10 after a phase, 500.10a "you get" (nothing on another player's turn).
    () => ({ type: 'ADD_EXTRA_STEP', step: pick(r, ['upkeep', 'draw', 'end'] as const), before: pick(r, ['draw', 'end', 'cleanup'] as const), ...(r() < 0.5 ? { player: p } : {}) }),
    () => ({ type: 'ADD_EXTRA_STEP', step: pick(r, ['upkeep', 'draw', 'end'] as const), afterPhase: pick(r, PHASES), ...(r() < 0.5 ? { player: p } : {}) }),
    () => ({ type: 'ADD_EXTRA_PHASE', phase: pick(r, ['combat', 'precombatMain', 'beginning'] as const), after: pick(r, PHASES) }),
    () => ({ type: 'ADD_EXTRA_PHASE', phase: pick(r, ['combat', 'postcombatMain'] as const), player: p }),
    () => ({ type: 'SKIP_NEXT', player: p, what: pick(r, ['untap', 'upkeep', 'draw', 'combat', 'turn', 'declareAttackers'] as const) }),
    () => ({ type: 'ADD_EFFECT', id: `e${serial}`, effect: { kind: 'skip', what: pick(r, [...STEPS, ...PHASES, 'combat', 'turn', 'extraTurn'] as const), ...(r() < 0.5 ? { players: [p] } : {}) }, duration }),
    () => ({ type: 'ADD_EFFECT', id: `e${serial}`, effect: { kind: 'maxHandSize', ...(r() < 0.5 ? { set: r() < 0.3 ? null : Math.floor(r() * 8) } : { change: Math.floor(r() * 5) - 2 }) }, duration }),
    () => ({ type: 'ADD_EFFECT', id: `e${serial}`, effect: { kind: 'landPlays', change: 1 }, duration, controller: p }),
    () => ({ type: 'ADD_EFFECT', id: `e${serial}`, effect: { kind: 'spellLimit', perTurn: 1 + Math.floor(r() * 2) }, duration }),
    () => ({ type: 'ADD_EFFECT', id: `e${serial}`, effect: { kind: 'keepMana', players: [p] }, duration }),
    () => ({ type: 'REMOVE_EFFECT', id: effect?.id ?? `e${serial}` }),
    () => ({ type: 'REMOVE_FROM_STACK', id: top?.id ?? `o${serial}`, reason: pick(r, ['countered', 'exiled', 'removed'] as const) }),
    () => ({ type: 'PUT_ON_STACK', object: { id: `c${serial}`, controller: p, kind: pick(r, ['spell', 'ability', 'trigger', 'copy'] as const) } }),
    () => ({ type: 'END_TURN' }),
    () => ({ type: 'END_COMBAT' }),
    () => ({ type: 'REMOVE_FROM_COMBAT', id: attacker?.id ?? `${p}-0` }),
    () => ({ type: 'SET_COMBAT_ABILITIES', id: attacker?.id ?? `${p}-0`, firstStrike: r() < 0.5, doubleStrike: r() < 0.3 }),
    () => ({ type: 'ADD_ATTACKER', id: `${p}-new${serial}`, defender: attacker?.defender ?? other }),
    () => ({ type: 'ADD_BLOCKER', id: `${other}-new${serial}`, attacker: attacker?.id ?? `${p}-0` }),
    () => ({ type: 'CONTROL_PLAYER', controller: other, player: p }),
    () => ({ type: 'SET_DAY_NIGHT', value: pick(r, ['day', 'night'] as const) }),
    () => ({ type: 'SET_STOPS', player: p, stops: r() < 0.3 ? null : [{ step: pick(r, STEPS), turn: pick(r, ['own', 'others', 'any'] as const) }] }),
    () => ({ type: 'YIELD', player: p, until: pick(r, ['stackResolved', 'endOfTurn', 'nextTurn', null] as const), evenIfStackChanges: r() < 0.3 }),
    () => ({ type: 'ROLL_PLANAR_DIE', player: p }),
  ];
  return pick(r, choices)();
}

/** A player leaving or the game ending: mostly a concession, else the host's LOSE, WIN or DRAW_GAME (CR 104.2-104.4, 800.4). */
function leaveEvent(view: TurnView, r: Random): TurnEvent {
  const p = pick(r, view.players);
  const roll = r();
  if (roll < 0.6) return { type: 'CONCEDE', player: p };
  if (roll < 0.9) return { type: 'LOSE', player: p, ...(r() < 0.5 ? { reason: 'life total 0' } : {}) };
  return roll < 0.95 ? { type: 'WIN', player: p } : { type: 'DRAW_GAME' };
}

/** Events the rules or the schema refuse: a wrong player, unknown types, bad payloads. */
export function refusedEvent(view: TurnView, r: Random): unknown {
  const holder = view.priority;
  const notHolder = view.players.find((p) => p !== holder) ?? 'A';
  return pick(r, [
    { type: 'PASS_PRIORITY', player: notHolder },
    { type: 'PASS_PRIORITY', player: 'stranger' },
    { type: 'DISCARD', player: notHolder, count: -1 },
    { type: 'ADD_MANA', player: notHolder, amount: 1.5 },
    { type: 'NOT_AN_EVENT' },
    { type: 'ADD_EFFECT', id: 'x', effect: { kind: 'skip', what: 'lunch' } },
    { type: 'DECLARE_ATTACKERS', player: notHolder, attackers: [{ id: 'a', defender: notHolder }] },
    { type: 'CAST_SPELL', player: notHolder, id: 'z', speed: 'sorcery' },
    null,
    'PASS_PRIORITY',
  ]);
}

/** What one game did, for the properties that look at a whole game. */
export interface GameRun {
  game: Game;
  events: EmittedEvent[];
  accepted: number;
  refused: number;
}

/** The mix of a random game: how often each kind of event is sent (out of their sum). */
export interface Mix {
  legal: number;
  host: number;
  refused: number;
  /** A player leaving or the game ending: CONCEDE, LOSE, WIN or DRAW_GAME. */
  concede: number;
  restore: number;
}

export const DEFAULT_MIX: Mix = { legal: 70, host: 18, refused: 8, concede: 1, restore: 3 };

/**
 * Plays a random game of `length` events, checking each: `send` never throws, a refusal
 * changes nothing and emits nothing, nothing pollutes Object.prototype, and the properties
 * of {@link checkView} hold after every accepted event. Every `restore` event replaces the
 * game with `restoreGame(JSON(persist()))`, which must show the same view and legal actions and
 * persist to the same JSON (the compact format, src/persistence/compact.ts, read back exactly).
 * `watch` is given every game played (the first and each restored one) before its first event,
 * for properties that look from outside (listeners, subscribers).
 */
export function playRandom(options: GameOptions & { seed: number }, length: number, mix: Mix = DEFAULT_MIX, lockstep = false, watch?: (game: Game) => void): GameRun {
  const r = seededRandom(options.seed);
  let game = createGame({ use: allModules, ...options });
  // Issue 15: with `lockstep`, a twin game on XState's interpreter (src/interpreter.ts)
  // gets every event too; acceptance, emitted events and views must agree after each. The
  // interpreter reference has no turn markers: a Grand Melee game (807) is played without a
  // twin (each marker's turn runs the same compiled chart, held to XState by the other games).
  let twin = lockstep && options.variant !== 'grandMelee' ? createInterpreterGame(options) : null;
  if (twin !== null) check(same(twin.view(), game.view()), 'the XState twin begins in another view');
  const events: EmittedEvent[] = [];
  const listen = (g: Game) => {
    g.on('*', (e) => events.push(e));
    watch?.(g);
  };
  listen(game);
  let accepted = 0;
  let refused = 0;
  const total = mix.legal + mix.host + mix.refused + mix.concede + mix.restore;
  // The last events sent, for the message of a failure (the setup and seed replay the rest).
  const recent: string[] = [];
  for (let i = 0; i < length && game.view().gameOver === null; i++) {
    try {
      playOne(i);
    } catch (err) {
      if (process.env.HARNESS_HISTORY === undefined) throw err;
      throw new Error(`${String(err)}\n  after event ${i}; the last events sent:\n    ${recent.join('\n    ')}`);
    }
  }
  return { game, events, accepted, refused };

  function playOne(i: number): void {
    const view = game.view();
    const roll = r() * total;
    if (roll < mix.restore) {
      const saved = JSON.stringify(game.persist());
      const copy = restoreGame(JSON.parse(saved), { use: allModules });
      check(same(copy.view(), view), 'restoreGame(persist()) shows the same view');
      check(same(copy.legalActions(), game.legalActions()), 'restoreGame(persist()) offers the same actions');
      check(JSON.stringify(copy.persist()) === saved, `restoreGame(persist()) persists differently: ${saved} became ${JSON.stringify(copy.persist())}`);
      game = copy;
      listen(game);
      if (twin !== null) twin = restoreInterpreterGame(JSON.parse(JSON.stringify(twin.persist())));
      recent.push('(restored)');
      return;
    }
    let event: unknown;
    if (roll < mix.restore + mix.legal) {
      const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
      check(actions.length > 0, `nothing stuck: a live game offers a decision (turn ${view.turn}, ${view.phase}/${view.step})`);
      // Mostly pass, so that games move on.
      const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
      event = fill(pass !== undefined && r() < 0.7 ? pass : pick(r, actions), view, r, i, sharesTurns(options));
    } else if (roll < mix.restore + mix.legal + mix.host) {
      event = hostEvent(view, r, i);
      // Grand Melee: most host events name a turn marker (CR 807.5b), some leave it to the engine.
      if (view.turns !== undefined && r() < 0.7) event = { ...(event as object), turnMarker: pick(r, view.turns).turnMarker };
    }
    else if (roll < mix.restore + mix.legal + mix.host + mix.refused) event = refusedEvent(view, r);
    else event = leaveEvent(view, r);
    const before = JSON.stringify(game.persist());
    const seen = events.length;
    recent.push(JSON.stringify(event));
    if (recent.length > 12) recent.shift();
    let result: ReturnType<Game['send']>;
    try {
      result = game.send(event);
    } catch (err) {
      throw new Error(`send threw on ${JSON.stringify(event)}: ${String(err)}`);
    }
    if (twin !== null) {
      const other = twin.send(event);
      check(same(other, result), `the compiled runtime and XState disagree on ${JSON.stringify(event)}: ${JSON.stringify(result).slice(0, 300)} vs ${JSON.stringify(other).slice(0, 300)}`);
      check(same(twin.view(), game.view()), `the compiled runtime and XState show different views after ${JSON.stringify(event)}`);
    }
    if (result.ok) {
      accepted++;
      checkView(game.view(), view);
    } else {
      refused++;
      check(['INVALID_EVENT', 'ILLEGAL_ACTION', 'GAME_OVER'].includes(result.error.code), `${JSON.stringify(event)}: unexpected ${result.error.code}: ${result.error.message}`);
      check(JSON.stringify(game.persist()) === before, `refused ${JSON.stringify(event)} changed the game`);
      check(events.length === seen, `refused ${JSON.stringify(event)} emitted events`);
    }
    const polluted = prototypeProblem();
    check(polluted === null, polluted ?? '');
  }
}

/** What every view keeps: players and priority in the game, the awaited player among them, the stack's controllers. */
export function checkView(view: TurnView, before: TurnView): void {
  const seats = new Set([...before.players, ...view.players]);
  check(view.version === before.version + 1, 'the version counts accepted events');
  if (view.gameOver !== null) {
    check(view.awaiting === null && view.priority === null, 'a finished game awaits nobody');
    return;
  }
  check(view.players.length >= 2, 'a game goes on with two or more players (CR 104.2a)');
  check(view.priority === null || view.players.includes(view.priority), `priority ${view.priority} is not a player in the game`);
  check(view.awaiting === null || view.players.includes(view.awaiting.player), `the awaited ${view.awaiting?.player} is not a player in the game`);
  for (const o of view.stack) check(seats.has(o.controller), `stack object ${o.id}'s controller ${o.controller} is not a player of the game`);
  if (view.turns === undefined) check(view.turn >= before.turn, 'turns only go forward');
  // Grand Melee: each turn marker's turns only go forward (CR 807.4).
  for (const t of view.turns ?? []) check(t.turn >= (before.turns?.find((b) => b.turnMarker === t.turnMarker)?.turn ?? 0), `turn marker ${t.turnMarker}'s turns only go forward`);
}
