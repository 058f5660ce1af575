/**
 * fast-check arbitraries for random games, and the choices that drive them: legal actions
 * with random payloads, host bookkeeping, and junk (random JSON, malformed events, events
 * from players who left, events at the wrong time). A choice is plain data; it becomes a
 * concrete event only against the game it is played on, so fast-check can shrink a
 * failing game by dropping choices.
 */
import fc from 'fast-check';
import type { CheckpointHook, CheckpointResult, TurnView } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import type { LegalAction } from '../../src/game.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';

/** createGame options of a random game, less hooks, plus whether the host reports triggers. */
export interface GameSetup {
  players: string[];
  startingPlayer: string;
  rules: 'current' | 'classic';
  handSize: number;
  maxHandSize: number;
  hostTriggers: boolean;
}

/** Names every object has: the engine refuses them as player ids, so random games avoid them. */
const RESERVED = new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype']);

const playerIdArb = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H') },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) },
  )
  .filter((s) => !RESERVED.has(s));

/** 2 to 8 players, either rules profile, any starting player, random hand sizes. */
export const setupArb: fc.Arbitrary<GameSetup> = fc.uniqueArray(playerIdArb, { minLength: 2, maxLength: 8 }).chain((players) =>
  fc.record({
    players: fc.constant(players),
    startingPlayer: fc.constantFrom(...players),
    rules: fc.constantFrom('current' as const, 'classic' as const),
    handSize: fc.nat({ max: 12 }),
    maxHandSize: fc.nat({ max: 9 }),
    hostTriggers: fc.boolean(),
  }),
);

/** One step of a random game. */
export type Choice =
  | { kind: 'pass'; times: number }
  | { kind: 'legal'; seed: number }
  | { kind: 'host'; seed: number }
  | { kind: 'concede'; seed: number }
  | { kind: 'junk'; value: unknown }
  | { kind: 'malformed'; seed: number }
  | { kind: 'illegal'; seed: number }
  | { kind: 'departed'; seed: number }
  | { kind: 'timing'; seed: number; times: number }
  | { kind: 'passTo'; step: string }
  | { kind: 'restore'; span: number };

const seed = fc.integer({ min: 0, max: 0x7fffffff });

/** Every step name (what `passTo` and `SKIP_NEXT` choose from). */
const STEPS = ['untap', 'upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'firstStrikeDamage', 'combatDamage', 'endOfCombat', 'end', 'cleanup'];

/** How often each kind of choice is made. */
export type ChoiceWeights = Record<Choice['kind'], number>;

/** Weighted so that games move on: mostly passes and legal actions, some of everything else. */
export const DEFAULT_WEIGHTS: ChoiceWeights = { pass: 30, legal: 20, host: 8, concede: 1, junk: 4, malformed: 6, illegal: 8, departed: 3, timing: 8, passTo: 6, restore: 3 };
/** Weighted towards the host's effects and players leaving (CR 800.4): skips, extra turns and combats, concessions. */
export const CHAOS_WEIGHTS: ChoiceWeights = { pass: 20, legal: 15, host: 25, concede: 4, junk: 2, malformed: 2, illegal: 5, departed: 6, timing: 4, passTo: 3, restore: 4 };

/** One choice, drawn with the given weights. */
export function choiceArb(weights: ChoiceWeights = DEFAULT_WEIGHTS): fc.Arbitrary<Choice> {
  return fc.oneof(
    { weight: weights.pass, arbitrary: fc.record({ kind: fc.constant('pass' as const), times: fc.integer({ min: 1, max: 40 }) }) },
    { weight: weights.legal, arbitrary: fc.record({ kind: fc.constant('legal' as const), seed }) },
    { weight: weights.host, arbitrary: fc.record({ kind: fc.constant('host' as const), seed }) },
    { weight: weights.concede, arbitrary: fc.record({ kind: fc.constant('concede' as const), seed }) },
    { weight: weights.junk, arbitrary: fc.record({ kind: fc.constant('junk' as const), value: fc.oneof(fc.jsonValue(), fc.anything()) }) },
    { weight: weights.malformed, arbitrary: fc.record({ kind: fc.constant('malformed' as const), seed }) },
    { weight: weights.illegal, arbitrary: fc.record({ kind: fc.constant('illegal' as const), seed }) },
    { weight: weights.departed, arbitrary: fc.record({ kind: fc.constant('departed' as const), seed }) },
    { weight: weights.timing, arbitrary: fc.record({ kind: fc.constant('timing' as const), seed, times: fc.integer({ min: 1, max: 4 }) }) },
    { weight: weights.passTo, arbitrary: fc.record({ kind: fc.constant('passTo' as const), step: fc.constantFrom(...STEPS) }) },
    { weight: weights.restore, arbitrary: fc.record({ kind: fc.constant('restore' as const), span: fc.integer({ min: 1, max: 30 }) }) },
  );
}

/** A random game's choices. */
export const choicesArb = (maxLength: number, weights: ChoiceWeights = DEFAULT_WEIGHTS) => fc.array(choiceArb(weights), { maxLength, size: 'max' });

/** What the driver expects of a concrete event. */
export type Expectation = 'accept' | 'INVALID_EVENT' | 'ILLEGAL_ACTION' | 'refuse' | 'accept-or-cap' | 'any';

/** A concrete event and what must happen to it. */
export interface Planned {
  event: unknown;
  expect: Expectation;
  why: string;
}

type Random = () => number;
const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;

/** Each player's creatures: ids unique across players whatever the player ids are. */
export function creaturesOf(setup: GameSetup, player: string): string[] {
  const seat = setup.players.indexOf(player);
  return [1, 2, 3].map((n) => `c${seat}.${n}`);
}

/** Player decisions and the `awaiting.kind` that allows each. */
export const DECISIONS = {
  PASS_PRIORITY: 'priority',
  CAST_SPELL: 'priority',
  ACTIVATE_ABILITY: 'priority',
  PLAY_LAND: 'priority',
  DECLARE_ATTACKERS: 'declareAttackers',
  DECLARE_BLOCKERS: 'declareBlockers',
  DISCARD: 'discard',
} as const;
type Decision = keyof typeof DECISIONS;


/** A decision of the given type with a well-formed payload (legal or not). */
function decision(type: Decision, player: string, r: Random, serial: number): Record<string, unknown> {
  switch (type) {
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY':
      return { type, player, id: `o${serial}`, speed: r() < 0.5 ? 'instant' : 'sorcery' };
    case 'DECLARE_ATTACKERS':
      return { type, player, attackers: [] };
    case 'DECLARE_BLOCKERS':
      return { type, player, blockers: [] };
    case 'DISCARD':
      return { type, player, count: 1 + Math.floor(r() * 3) };
    default:
      return { type, player };
  }
}

/** A template of `legalActions` made concrete, with a random payload the rules allow. */
export function concretize(action: LegalAction, view: TurnView, setup: GameSetup, r: Random, serial: number): Record<string, unknown> {
  const flags = () => ({ ...(r() < 0.25 ? { firstStrike: true } : {}), ...(r() < 0.1 ? { doubleStrike: r() < 0.5 } : {}) });
  switch (action.type) {
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY':
      return { type: action.type, player: action.player, id: `o${serial}`, speed: action.speed };
    case 'DECLARE_ATTACKERS': {
      const opponents = view.players.filter((p) => p !== action.player);
      const attackers = creaturesOf(setup, action.player)
        .filter(() => r() < 0.5)
        .map((id) => ({ id, defender: pick(r, opponents), ...flags() }));
      return { type: action.type, player: action.player, attackers };
    }
    case 'DECLARE_BLOCKERS': {
      const attacking = (view.combat?.attackers ?? []).filter((a) => a.defender === action.player);
      const blockers =
        attacking.length === 0
          ? []
          : creaturesOf(setup, action.player)
              .filter(() => r() < 0.5)
              .map((id) => ({ id, attacker: pick(r, attacking).id, ...flags() }));
      return { type: action.type, player: action.player, blockers };
    }
    default: {
      const event: Record<string, unknown> = { ...action };
      // Unknown keys are dropped by the schema: a legal event with junk beside it is still legal.
      if (r() < 0.1) return Object.assign(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'), event);
      return event;
    }
  }
}

/** Host bookkeeping with a payload that is always well-formed (CONTRACT.md: accepted at any time). */
function hostEvent(view: TurnView, setup: GameSetup, r: Random, serial: number): Planned {
  const player = pick(r, view.players);
  const roll = Math.floor(r() * 7);
  switch (roll) {
    case 0: {
      const triggers = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, i) => ({ id: `t${serial}.${i}`, controller: pick(r, setup.players) }));
      return { event: { type: 'TRIGGER', triggers }, expect: 'accept', why: 'TRIGGER is accepted at any time' };
    }
    case 1:
      return { event: { type: 'HAND_SIZE', player, size: Math.floor(r() * 15) }, expect: 'accept', why: 'HAND_SIZE from a player in the game' };
    case 2: {
      const pool = view.manaPool[player] ?? 0;
      if (pool > 0) return { event: { type: 'SPEND_MANA', player, amount: 1 + Math.floor(r() * pool) }, expect: 'accept', why: 'spending what the pool holds' };
      return { event: { type: 'ADD_MANA', player, amount: 1 + Math.floor(r() * 5) }, expect: 'accept', why: 'ADD_MANA' };
    }
    case 3:
      return { event: { type: 'ADD_MANA', player, amount: 1 + Math.floor(r() * 5) }, expect: 'accept', why: 'ADD_MANA' };
    case 4:
      return { event: { type: 'ADD_EXTRA_TURN', player }, expect: 'accept-or-cap', why: 'ADD_EXTRA_TURN' };
    case 5: {
      const followedByMain = r() < 0.3 ? undefined : r() < 0.5;
      return { event: { type: 'ADD_EXTRA_COMBAT', ...(followedByMain === undefined ? {} : { followedByMain }) }, expect: 'accept-or-cap', why: 'ADD_EXTRA_COMBAT' };
    }
    default:
      return { event: { type: 'SKIP_NEXT', player, what: r() < 0.4 ? pick(r, ['combat', 'turn']) : pick(r, STEPS) }, expect: 'accept-or-cap', why: 'SKIP_NEXT' };
  }
}

/** A well-formed event made invalid by one change the schema must catch. */
function malformed(view: TurnView, setup: GameSetup, r: Random, serial: number): Planned {
  const player = pick(r, view.players);
  const base: Record<string, unknown>[] = [
    { type: 'PASS_PRIORITY', player },
    { type: 'CAST_SPELL', player, id: `o${serial}`, speed: 'instant' },
    { type: 'DECLARE_ATTACKERS', player, attackers: [{ id: 'x', defender: pick(r, setup.players) }] },
    { type: 'DECLARE_BLOCKERS', player, blockers: [{ id: 'y', attacker: 'x' }] },
    { type: 'TRIGGER', triggers: [{ id: 't', controller: player }] },
    { type: 'DISCARD', player, count: 1 },
    { type: 'ADD_MANA', player, amount: 2 },
    { type: 'SPEND_MANA', player, amount: 1 },
    { type: 'SKIP_NEXT', player, what: 'draw' },
    { type: 'ADD_EXTRA_COMBAT', followedByMain: true },
  ];
  const event = { ...pick(r, base) };
  const fields = Object.keys(event).filter((k) => k !== 'type');
  const field = pick(r, fields);
  const badValues: Record<string, unknown[]> = {
    player: [42, null, '', 'x'.repeat(300), '__proto__', 'constructor', 'toString', `nobody-${serial}`, ['A'], { id: 'A' }],
    id: [7, null, '', 'y'.repeat(300), {}],
    speed: ['fast', 1, null, 'Instant'],
    attackers: ['none', {}, [{ defender: player }], [{ id: 'x', defender: 9 }], [{ id: 'x', defender: `nobody-${serial}` }], Array.from({ length: 1001 }, (_, i) => ({ id: `a${i}`, defender: player }))],
    blockers: [null, [{ id: 'y' }], [{ id: 'y', attacker: 1 }], [{ id: 'y', attacker: 'x', firstStrike: 'yes' }]],
    triggers: [[], [{ id: 't' }], [{ id: 't', controller: `nobody-${serial}` }], 'trigger'],
    count: [0, -1, 1.5, '1', Number.NaN, Number.POSITIVE_INFINITY, 1e9],
    amount: [0, -3, 2.5, '2', null, 1e7, Number.NaN],
    what: ['lunch', 'Draw', 3, null],
    followedByMain: ['yes', 1, null],
  };
  const roll = r();
  if (roll < 0.15) {
    event.type = pick(r, ['pass_priority', 'PASS', ' CAST_SPELL', 'TURN', 7, null]);
  } else if (roll < 0.35 && field !== 'followedByMain') {
    delete event[field];
  } else {
    event[field] = pick(r, badValues[field] ?? [Symbol('bad')]);
  }
  return { event, expect: 'INVALID_EVENT', why: `malformed ${String(event.type)}.${field}` };
}

/** A well-formed decision the rules refuse now: from the wrong player, of the wrong kind, or with a payload the rules forbid. */
function illegal(game: { legalActions(p?: string): LegalAction[] }, view: TurnView, setup: GameSetup, r: Random, serial: number): Planned {
  const awaiting = view.awaiting;
  const legal = game.legalActions();
  const roll = r();
  if (awaiting !== null && roll < 0.4) {
    const p = awaiting.player;
    const rival = view.players.find((x) => x !== p) ?? p;
    const options: Planned[] = [];
    if (awaiting.kind === 'declareAttackers') {
      options.push({ event: { type: 'DECLARE_ATTACKERS', player: p, attackers: [{ id: 'c', defender: p }] }, expect: 'ILLEGAL_ACTION', why: '508.1b attacking oneself' });
      options.push({
        event: { type: 'DECLARE_ATTACKERS', player: p, attackers: [{ id: 'c', defender: rival }, { id: 'c', defender: rival }] },
        expect: 'ILLEGAL_ACTION',
        why: '508.1a the same attacker twice',
      });
      const gone = setup.players.find((x) => !view.players.includes(x));
      if (gone !== undefined) options.push({ event: { type: 'DECLARE_ATTACKERS', player: p, attackers: [{ id: 'c', defender: gone }] }, expect: 'ILLEGAL_ACTION', why: '508.1b defender left' });
    }
    if (awaiting.kind === 'declareBlockers') {
      options.push({ event: { type: 'DECLARE_BLOCKERS', player: p, blockers: [{ id: 'b', attacker: `not-attacking-${serial}` }] }, expect: 'ILLEGAL_ACTION', why: '509.1a blocking a non-attacker' });
    }
    if (awaiting.kind === 'discard') {
      options.push({ event: { type: 'DISCARD', player: p, count: awaiting.count + 1 + Math.floor(r() * 3) }, expect: 'ILLEGAL_ACTION', why: '514.1 wrong discard count' });
    }
    if (awaiting.kind === 'priority') {
      for (const type of ['CAST_SPELL', 'ACTIVATE_ABILITY'] as const) {
        if (!legal.some((a) => a.type === type && a.player === p && a.speed === 'sorcery')) {
          options.push({ event: { type, player: p, id: `o${serial}`, speed: 'sorcery' }, expect: 'ILLEGAL_ACTION', why: '307.1 sorcery timing' });
        }
      }
      if (!legal.some((a) => a.type === 'PLAY_LAND' && a.player === p)) options.push({ event: { type: 'PLAY_LAND', player: p }, expect: 'ILLEGAL_ACTION', why: '305.1 land timing' });
    }
    const pool = view.manaPool[p] ?? 0;
    options.push({ event: { type: 'SPEND_MANA', player: p, amount: pool + 1 }, expect: 'ILLEGAL_ACTION', why: '106.4 overspending' });
    return pick(r, options);
  }
  // A decision from a player who is not awaited, or of a kind that is not awaited.
  const type = pick(r, Object.keys(DECISIONS) as Decision[]);
  const candidates = view.players.filter((p) => awaiting === null || p !== awaiting.player || DECISIONS[type] !== awaiting.kind);
  if (candidates.length === 0) return { event: { type: 'SPEND_MANA', player: view.players[0], amount: 1e6 }, expect: 'ILLEGAL_ACTION', why: '106.4 overspending' };
  const player = pick(r, candidates);
  return { event: decision(type, player, r, serial), expect: 'ILLEGAL_ACTION', why: `${type} from ${player} at the wrong time` };
}

/** Any event with a `player` field, from a player who has left the game (CR 800.4a). */
function departed(view: TurnView, setup: GameSetup, r: Random, serial: number): Planned | null {
  const gone = setup.players.filter((p) => !view.players.includes(p));
  if (gone.length === 0) return null;
  const player = pick(r, gone);
  const type = pick(r, [...Object.keys(DECISIONS), 'HAND_SIZE', 'ADD_MANA', 'SPEND_MANA', 'ADD_EXTRA_TURN', 'SKIP_NEXT', 'CONCEDE']);
  const payload: Record<string, Record<string, unknown>> = { HAND_SIZE: { size: 3 }, ADD_MANA: { amount: 1 }, SPEND_MANA: { amount: 1 }, SKIP_NEXT: { what: 'upkeep' } };
  const event = type in DECISIONS ? decision(type as Decision, player, r, serial) : { type, player, ...payload[type] };
  return { event, expect: 'ILLEGAL_ACTION', why: `${type} from ${player}, who left the game` };
}

/**
 * A land, spell or ability from any player in the game, whose fate is decided here from the
 * rules rather than by asking the engine: instants need priority (CR 117.1a); sorcery speed
 * also needs the active player, a main phase and an empty stack (307.1); a land also needs
 * fewer lands played this turn than one (305.1, 305.2).
 */
function timing(view: TurnView, r: Random, serial: number): Planned {
  const player = r() < 0.7 && view.priority !== null ? view.priority : pick(r, view.players);
  const type = pick(r, ['PLAY_LAND', 'CAST_SPELL', 'ACTIVATE_ABILITY'] as const);
  const speed = r() < 0.5 ? 'instant' : 'sorcery';
  const holds = view.priority === player;
  const sorcery = holds && view.activePlayer === player && (view.phase === 'precombatMain' || view.phase === 'postcombatMain') && view.stack.length === 0;
  const allowed = type === 'PLAY_LAND' ? sorcery && view.landsPlayed < 1 : speed === 'instant' ? holds : sorcery;
  const event = type === 'PLAY_LAND' ? { type, player } : { type, player, id: `o${serial}`, speed };
  return { event, expect: allowed ? 'accept' : 'ILLEGAL_ACTION', why: `${type}${type === 'PLAY_LAND' ? '' : ` (${speed})`} by ${player}, judged by CR 117.1a, 305.2, 307.1` };
}

/** Turns a choice into a concrete event against the game as it is now (null: nothing to send). */
export function plan(choice: Exclude<Choice, { kind: 'restore' | 'pass' | 'passTo' }>, game: { legalActions(p?: string): LegalAction[] }, view: TurnView, setup: GameSetup, serial: number): Planned | null {
  if (choice.kind === 'junk') return { event: choice.value, expect: 'refuse', why: 'random value' };
  const r = seededRandom(choice.seed);
  if (view.players.length === 0) return null;
  switch (choice.kind) {
    case 'legal': {
      const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
      if (actions.length === 0) return null;
      return { event: concretize(pick(r, actions), view, setup, r, serial), expect: 'accept', why: 'from legalActions' };
    }
    case 'concede': {
      // In combat, often an attacked player: their blockers leave combat and attacks on them deal no damage (CR 800.4a, 800.4e).
      const attacked = view.players.filter((p) => view.combat?.attackers.some((a) => a.defender === p));
      const player = attacked.length > 0 && r() < 0.5 ? pick(r, attacked) : pick(r, view.players);
      return { event: { type: 'CONCEDE', player }, expect: 'accept', why: 'CONCEDE from a player in the game' };
    }
    case 'host':
      return hostEvent(view, setup, r, serial);
    case 'malformed':
      return malformed(view, setup, r, serial);
    case 'illegal':
      return illegal(game, view, setup, r, serial);
    case 'departed':
      return departed(view, setup, r, serial) ?? illegal(game, view, setup, r, serial);
    case 'timing':
      return timing(view, r, serial);
  }
}

/**
 * An answer to what is awaited: a pass, the discard asked for, and declarations that are
 * empty (what `passUntil` sends) or, when `random` is given, random but legal attackers and
 * blockers half of the time, so that games fight.
 */
export function planPass(view: TurnView, setup: GameSetup, random?: Random): Planned | null {
  const a = view.awaiting;
  if (random !== undefined && a !== null && (a.kind === 'declareAttackers' || a.kind === 'declareBlockers') && random() < 0.5) {
    const type = a.kind === 'declareAttackers' ? 'DECLARE_ATTACKERS' : 'DECLARE_BLOCKERS';
    return { event: concretize({ type, player: a.player }, view, setup, random, 0), expect: 'accept', why: 'a random legal declaration' };
  }
  const event = plainestAnswer(view);
  return event === null ? null : { event, expect: 'accept', why: 'the plainest answer to what is awaited' };
}

/**
 * A host that reports what its cards did: in even turns a trigger as the upkeep begins, and
 * in turns divisible by four state-based actions in the first cleanup step (so players get
 * priority in cleanup, CR 514.3a). Each fires once: `fired` is the host's own state, which
 * a host restoring a game restores too.
 */
export function makeHostHook(fired = new Set<string>()): { hook: CheckpointHook; fired: Set<string> } {
  const hook: CheckpointHook = (view): CheckpointResult | undefined => {
    if (view.turn % 2 !== 0) return undefined;
    const key = `${view.turn}:${view.step}`;
    if (fired.has(key)) return undefined;
    if (view.step === 'upkeep') {
      fired.add(key);
      return { triggers: [{ id: `h${view.turn}`, controller: view.players[view.turn % view.players.length] as string }] };
    }
    if (view.step === 'cleanup' && view.priority === null && view.turn % 4 === 0) {
      fired.add(key);
      return { stateBasedActions: true };
    }
    return undefined;
  };
  return { hook, fired };
}
