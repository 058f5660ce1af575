/**
 * Random but legal games: every player picks among `legalActions`, with random payloads.
 * Deterministic for a seed. Used by `mtg-turn-engine simulate`, soak tests and benchmarks.
 */
import { plainestFill } from './legal.js';
import type { EmittedEvent, TurnView } from './contract.js';
import { createGame } from './game/create.js';
import { type Game, type GameOptions } from './game/types.js';
import { type LegalAction } from './legal.js';
import { allModules } from './allModules.js';

/** A small, fast seeded PRNG (mulberry32): the same seed gives the same game. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How often a player who may concede does so, per decision awaited from them. */
export const CONCEDE_CHANCE = 0.002;

/** Options of {@link simulate}. */
export interface SimulationOptions {
  players?: number;
  turns?: number;
  rules?: 'current' | 'm10' | 'classic';
  /** The variant: its players and teams are set up as the variant needs (Two-Headed Giant 4, Archenemy 4, Emperor 6). */
  variant?: 'freeForAll' | 'twoHeadedGiant' | 'archenemy' | 'emperor' | 'planechase' | 'grandMelee';
  /** Begin with the pregame (CR 103). */
  pregame?: boolean;
  seed?: number;
  /** Whether players may concede, now and then (about one decision in {@link CONCEDE_CHANCE}^-1), so games reach their end (off by default: games then run their full length). */
  allowConcede?: boolean;
  /** Extra createGame options (hooks, inspect). */
  game?: Partial<GameOptions>;
  /** Called with every event sent and its result. */
  onSend?: (event: Record<string, unknown>, ok: boolean, view: TurnView) => void;
  /** Called with every event the game emits (registered before the first action). */
  onEmit?: (event: EmittedEvent) => void;
  /** Called once with the new game, before the first action. */
  onStart?: (game: Game) => void;
  /** Called before each action; return false to stop. */
  shouldContinue?: (game: Game) => boolean;
}

/** What a simulation did. */
export interface SimulationSummary {
  game: Game;
  turns: number;
  events: number;
  /**
   * Milliseconds spent in `game.send` alone: the engine's time, without the random choices,
   * `legalActions`, the callbacks and what they print (the command line's events/s, issue 22).
   */
  sendMs: number;
  refused: number;
  resolved: number;
  winners: string[] | null;
}

/** The creatures a player has in simulations: three per player. */
function creaturesOf(player: string): string[] {
  return [1, 2, 3].map((n) => `${player}-creature-${n}`);
}

/** Builds a concrete event from a template of `legalActions`: the fields it chooses at random (an id, attackers, blockers), or the plainest way. */
export function concreteEvent(action: LegalAction, view: TurnView, random: () => number, serial: number): Record<string, unknown> {
  // Grand Melee (CR 807.4): an action a player may take in several turns names the turn marker of the one it is for.
  const marker = (action as { turnMarker?: unknown }).turnMarker;
  const event = chosenEvent(action, marker === undefined ? view : markerView(view, marker), random, serial);
  return marker === undefined || 'turnMarker' in event ? event : { ...event, turnMarker: marker };
}

/**
 * The view as the turn of turn marker `marker` sees it (CR 807.5: each turn has its own decision,
 * stack and combat): what a choice for that turn is filled from. The view itself when no running
 * turn has that marker.
 */
function markerView(view: TurnView, marker: unknown): TurnView {
  const turn = view.turns?.find((t) => t.turnMarker === marker);
  return turn === undefined ? view : { ...view, awaiting: turn.awaiting, stack: turn.stack, combat: turn.combat };
}

/** The event of `concreteEvent` before its turn marker. */
function chosenEvent(action: LegalAction, view: TurnView, random: () => number, serial: number): Record<string, unknown> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chosen: readonly string[] = action.choose;
  if (chosen.includes('id') && 'speed' in action) {
    // A spell or an ability: a fresh id.
    return { type: action.type, player: action.player, id: `${action.type === 'CAST_SPELL' ? 'spell' : 'ability'}-${serial}`, speed: action.speed };
  }
  if (chosen.includes('attackers')) {
    const opponents = view.awaiting?.kind === 'declareAttackers' ? view.awaiting.defenders : [];
    if (opponents.length === 0) return { type: action.type, player: action.player, attackers: [] };
    const attackers = creaturesOf(action.player)
      .filter(() => random() < 0.4)
      .map((id) => ({ id, defender: pick(opponents), ...(random() < 0.25 ? { firstStrike: true } : {}), ...(random() < 0.1 ? { doubleStrike: true } : {}) }));
    return { type: action.type, player: action.player, attackers };
  }
  if (chosen.includes('blockers')) {
    // Attackers attacking the player or their team (CR 509.1a, 805.10).
    const team = new Set(view.teams?.find((t) => t.players.includes(action.player))?.players ?? [action.player]);
    const attacking = (view.combat?.attackers ?? []).filter((a) => team.has(a.defender));
    const blockers = attacking.length === 0 ? [] : creaturesOf(action.player).filter(() => random() < 0.4).map((id) => ({ id, attacker: pick(attacking).id }));
    return { type: action.type, player: action.player, blockers };
  }
  // Orders, defenders, mulligans, the starting player, discards: the plainest choice.
  return plainestFill(action, view.awaiting, { stack: view.stack, pendingTriggers: [] }) as unknown as Record<string, unknown>;
}

/** The players and teams of a variant (its own player count) or of a free-for-all of `count` players. */
export function seatsOf(variant: SimulationOptions['variant'], count: number): Pick<GameOptions, 'players' | 'teams' | 'variant'> {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
  switch (variant) {
    case 'twoHeadedGiant':
      return { variant, players: ids(4), teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] };
    case 'archenemy':
      return { variant, players: ids(4), teams: [{ id: 'archenemy', players: ['A'] }, { id: 'heroes', players: ['B', 'C', 'D'] }] };
    case 'emperor':
      return { variant, players: ids(6), teams: [{ id: 'ABC', players: ['A', 'B', 'C'] }, { id: 'DEF', players: ['D', 'E', 'F'] }] };
    case 'grandMelee':
      // CR 807.1: ten or more players; two turn markers with ten (807.4a).
      return { variant, players: ids(Math.max(10, count)) };
    default:
      return { variant: variant ?? 'freeForAll', players: ids(count) };
  }
}

/**
 * Plays a game of random legal actions until `turns` turns have been played (or the game
 * ends). Players pass most of the time, so that turns move on; sometimes the host reports
 * triggers or mana, as cards would.
 */
export function simulate(options: SimulationOptions = {}): SimulationSummary {
  const count = options.players ?? 2;
  const turns = options.turns ?? 3;
  const random = seededRandom(options.seed ?? 1);
  const seats = seatsOf(options.variant, count);
  const players = seats.players;
  // CONTRACT v4: the modules the game needs (Grand Melee, the table's options), so a recording names only those.
  const needs = options.variant === 'grandMelee' || ['clock', 'undo', 'away'].some((k) => (options.game as Record<string, unknown> | undefined)?.[k] !== undefined);
  const game = createGame({ ...seats, rules: options.rules ?? 'current', pregame: options.pregame === true, seed: options.seed ?? 1, ...(needs ? { use: allModules } : {}), ...options.game });
  let events = 0;
  let sendMs = 0;
  let refused = 0;
  let resolved = 0;
  game.on('resolve', () => resolved++);
  if (options.onEmit) game.on('*', options.onEmit);
  options.onStart?.(game);
  const send = (event: Record<string, unknown>) => {
    const started = performance.now();
    const result = game.send(event as unknown);
    sendMs += performance.now() - started;
    events++;
    if (!result.ok) refused++;
    options.onSend?.(event, result.ok, game.view());
  };
  for (let serial = 1; ; serial++) {
    const view = game.view();
    // Grand Melee: every turn marker plays to the limit (its own turn count, CR 807.4).
    const played = view.turns === undefined ? view.turn : Math.min(...view.turns.map((t) => t.turn));
    if (view.gameOver !== null || played > turns) break;
    if (options.shouldContinue?.(game) === false) break;
    const roll = random();
    if (roll < 0.02) {
      // Grand Melee: the host names the stack (turn marker) the trigger goes on (CR 807.5b).
      const running = view.turns?.filter((t) => !t.waiting) ?? [];
      const onStack = running.length === 0 ? {} : { turnMarker: (running[Math.floor(random() * running.length)] as { turnMarker: number }).turnMarker };
      send({ type: 'TRIGGER', triggers: [{ id: `trigger-${serial}`, controller: players[Math.floor(random() * players.length)], ...onStack }] });
      continue;
    }
    if (roll < 0.04 && view.players.length > 0) {
      send({ type: 'ADD_MANA', player: view.players[Math.floor(random() * view.players.length)], amount: 1 + Math.floor(random() * 3) });
      continue;
    }
    const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
    // Grand Melee: one of the turns that await a decision, at random (CR 807.4), seen as that turn's view.
    const waiting = view.turns?.filter((t) => t.awaiting !== null) ?? [];
    const turn = waiting.length === 0 ? undefined : waiting[Math.floor(random() * waiting.length)];
    const seen: TurnView = turn === undefined ? view : { ...view, awaiting: turn.awaiting, combat: turn.combat, stack: turn.stack };
    const awaited = actions.filter((a) => a.player === seen.awaiting?.player && (turn === undefined || a.turnMarker === undefined || a.turnMarker === turn.turnMarker));
    if (awaited.length === 0) break;
    // CR 104.3a: a player can concede at any time; rarely, so that games are long but end.
    if (options.allowConcede === true && view.awaiting !== null && random() < CONCEDE_CHANCE) {
      send({ type: 'CONCEDE', player: view.awaiting.player });
      continue;
    }
    const pass = awaited.find((a) => a.type === 'PASS_PRIORITY');
    // Pass more often as the stack grows, so that it resolves and games reach their end.
    const passing = Math.min(0.98, 0.8 + 0.05 * seen.stack.length);
    const choice = pass !== undefined && random() < passing ? pass : (awaited[Math.floor(random() * awaited.length)] as LegalAction);
    const event = concreteEvent(choice, seen, random, serial);
    send(choice.turnMarker === undefined ? event : { ...event, turnMarker: choice.turnMarker });
  }
  const final = game.view();
  return { game, turns: final.turns === undefined ? final.turn : Math.min(...final.turns.map((t) => t.turn)), events, sendMs, refused, resolved, winners: final.gameOver?.winners ?? null };
}
