/**
 * Baseline 1: a hand-written immutable reducer over the same steps and the same priority
 * rules as the engine, for the events the benchmark workloads use. It is the proxy for the
 * physical limit: a plain switch, no statechart, no input validation, no emitted events,
 * no view built per event. Every event returns a new state object (or the same one when
 * refused), so it is as immutable as the engine's snapshots.
 *
 * It supports the 'current' rules profile and every event except SKIP_NEXT,
 * ADD_EXTRA_COMBAT and CONCEDE (the workloads do not send them). The benchmark checks that
 * it ends in the same views as the engine on every workload (bench/run.ts).
 * Never imported by the library.
 */
import type { Attacker, PhaseName, StackObject, StepName, Trigger, TurnEvent } from '../src/contract.js';

/** A declared blocker, as the reducer keeps it. */
interface DeclaredBlocker {
  id: string;
  attacker: string;
  player: string;
  firstStrike?: boolean;
  doubleStrike?: boolean;
}

/** A step passed over, and the rule. */
interface SkipRecord {
  phase: PhaseName;
  step?: StepName;
  rule: string;
}

/** What the reducer awaits (the kinds of the engine's Awaiting it models). */
type ReducerAwaiting = { kind: 'priority' | 'declareAttackers' | 'declareBlockers'; player: string } | { kind: 'discard'; player: string; count: number };

/** The part of the engine's TurnView the reducer models (bench/run.ts compares these fields). */
export interface ReducerView {
  turn: number;
  activePlayer: string;
  phase: PhaseName;
  step: StepName;
  priority: string | null;
  awaiting: ReducerAwaiting | null;
  stack: StackObject[];
  landsPlayed: number;
  manaPool: Record<string, number>;
  players: string[];
  gameOver: null;
  handSizes: Record<string, number>;
  rules: 'current';
  combat: { attackers: Attacker[]; blockers: DeclaredBlocker[] } | null;
  schedule: { extraTurns: string[] };
  skippedThisTurn: SkipRecord[];
}

/** Where in a step the game is: who is awaited for what. */
type At = 'priority' | 'declaringAttackers' | 'declaringBlockers' | 'discarding';

/** The reducer's whole state: plain data, never mutated. */
export interface ReducerState {
  readonly seats: readonly string[];
  readonly players: readonly string[];
  readonly startingPlayer: string;
  readonly maxHandSize: number;
  readonly turn: number;
  readonly activePlayer: string;
  readonly rotation: string;
  readonly phase: PhaseName;
  readonly step: StepName;
  readonly at: At;
  readonly priority: string | null;
  readonly passed: readonly string[];
  readonly stack: readonly StackObject[];
  readonly pendingTriggers: readonly Trigger[];
  readonly landsPlayed: number;
  readonly manaPool: Readonly<Record<string, number>>;
  readonly handSizes: Readonly<Record<string, number>>;
  readonly combat: { readonly attackers: readonly Attacker[]; readonly blockers: readonly DeclaredBlocker[]; readonly declaredBy: readonly string[] } | null;
  readonly extraTurns: readonly string[];
  readonly regularPhases: number;
  readonly skippedThisTurn: readonly SkipRecord[];
  readonly cleanupSteps: number;
}

const next = (s: ReducerState, p: string): string => s.seats[(s.seats.indexOf(p) + 1) % s.seats.length] as string;

/** APNAP order: the active player, then the others in turn order (CR 101.4). */
function apnap(s: ReducerState): string[] {
  const out: string[] = [];
  let p = s.activePlayer;
  for (let i = 0; i < s.seats.length; i++, p = next(s, p)) out.push(p);
  return out;
}

/** A player receives priority; waiting triggers go on the stack first, in APNAP order (CR 117.5, 603.3b). */
function give(s: ReducerState, to: string, reset: boolean): ReducerState {
  let stack = s.stack;
  if (s.pendingTriggers.length > 0) {
    const added: StackObject[] = [];
    for (const p of apnap(s)) for (const t of s.pendingTriggers) if (t.controller === p) added.push({ id: t.id, controller: p, kind: 'trigger' });
    stack = [...stack, ...added];
  }
  return { ...s, stack, pendingTriggers: s.pendingTriggers.length > 0 ? [] : s.pendingTriggers, at: 'priority', priority: to, passed: reset ? [] : s.passed };
}

function begin(s: ReducerState, phase: PhaseName, step: StepName): ReducerState {
  return { ...s, phase, step, priority: null, passed: [], cleanupSteps: step === 'cleanup' ? s.cleanupSteps + 1 : s.cleanupSteps };
}

/** Mana empties as each step ends (CR 500.5). */
function emptyMana(s: ReducerState): ReducerState {
  if (s.players.every((p) => (s.manaPool[p] ?? 0) === 0)) return s;
  const manaPool: Record<string, number> = {};
  for (const p of s.players) manaPool[p] = 0;
  return { ...s, manaPool };
}

const skip = (s: ReducerState, phase: PhaseName, steps: StepName[], rule: string): ReducerState => ({
  ...s,
  skippedThisTurn: [...s.skippedThisTurn, ...steps.map((step) => ({ phase, step, rule }))],
});

function defenderDue(s: ReducerState): string | null {
  const c = s.combat;
  if (c === null) return null;
  for (const p of apnap(s)) if (!c.declaredBy.includes(p) && c.attackers.some((a) => a.defender === p)) return p;
  return null;
}

const discardDue = (s: ReducerState): number => Math.max(0, (s.handSizes[s.activePlayer] ?? 0) - s.maxHandSize);
const strikesFirst = (c: { firstStrike?: boolean; doubleStrike?: boolean }): boolean => c.firstStrike === true || c.doubleStrike === true;
const isMain = (s: ReducerState): boolean => s.phase === 'precombatMain' || s.phase === 'postcombatMain';

/** Enters a step and performs its turn-based actions (CR 501-514). */
function enter(s0: ReducerState, phase: PhaseName, step: StepName): ReducerState {
  const s = begin(s0, phase, step);
  switch (step) {
    case 'untap':
      return enter(emptyMana(s), 'beginning', 'upkeep');
    case 'draw':
      return give({ ...s, handSizes: { ...s.handSizes, [s.activePlayer]: (s.handSizes[s.activePlayer] ?? 0) + 1 } }, s.activePlayer, true);
    case 'declareAttackers':
      return { ...s, at: 'declaringAttackers' };
    case 'declareBlockers':
      return defenderDue(s) === null ? give(s, s.activePlayer, true) : { ...s, at: 'declaringBlockers' };
    case 'cleanup':
      return discardDue(s) > 0 ? { ...s, at: 'discarding' } : check(s);
    default:
      return give(s, s.activePlayer, true);
  }
}

/** CR 514.3a: the cleanup step's check; waiting triggers give players priority. */
function check(s: ReducerState): ReducerState {
  if (s.pendingTriggers.length > 0) return give(s, s.activePlayer, true);
  return newTurn(emptyMana(s));
}

/** CR 500.7: extra turns first, most recent first; then turn order. */
function newTurn(s: ReducerState): ReducerState {
  const extra = s.extraTurns.length > 0;
  const player = extra ? (s.extraTurns[s.extraTurns.length - 1] as string) : next(s, s.rotation);
  return enter(
    {
      ...s,
      turn: s.turn + 1,
      activePlayer: player,
      rotation: extra ? s.rotation : player,
      extraTurns: extra ? s.extraTurns.slice(0, -1) : s.extraTurns,
      landsPlayed: 0,
      combat: null,
      regularPhases: 1,
      skippedThisTurn: [],
      cleanupSteps: 0,
    },
    'beginning',
    'untap',
  );
}

const phase = (s: ReducerState): ReducerState => ({ ...s, regularPhases: s.regularPhases + 1 });

/** The step is over (CR 500.2): the next step, phase or turn begins. */
function stepOver(s0: ReducerState): ReducerState {
  const s = emptyMana(s0);
  switch (s.step) {
    case 'upkeep':
      if (s.turn === 1 && s.seats.length === 2 && s.activePlayer === s.startingPlayer) return enter(phase(skip(s, 'beginning', ['draw'], '103.8a')), 'precombatMain', 'main');
      return enter(s, 'beginning', 'draw');
    case 'draw':
      return enter(phase(s), 'precombatMain', 'main');
    case 'main':
      if (s.phase === 'precombatMain') return enter({ ...phase(s), combat: { attackers: [], blockers: [], declaredBy: [] } }, 'combat', 'beginningOfCombat');
      return enter(phase(s), 'ending', 'end');
    case 'beginningOfCombat':
      return enter(s, 'combat', 'declareAttackers');
    case 'declareAttackers':
      if ((s.combat?.attackers.length ?? 0) > 0) return enter(s, 'combat', 'declareBlockers');
      return enter(skip(s, 'combat', ['declareBlockers', 'combatDamage'], '508.8'), 'combat', 'endOfCombat');
    case 'declareBlockers': {
      const c = s.combat;
      if (c !== null && (c.attackers.some(strikesFirst) || c.blockers.some(strikesFirst))) return enter(s, 'combat', 'firstStrikeDamage');
      return enter(skip(s, 'combat', ['firstStrikeDamage'], '510.4'), 'combat', 'combatDamage');
    }
    case 'firstStrikeDamage':
      return enter(s, 'combat', 'combatDamage');
    case 'combatDamage':
      return enter(s, 'combat', 'endOfCombat');
    case 'endOfCombat':
      return enter({ ...phase(s), combat: null }, 'postcombatMain', 'main');
    case 'end':
      return enter(s, 'ending', 'cleanup');
    case 'cleanup':
      return enter(s, 'ending', 'cleanup');
    default:
      return s;
  }
}

function settle(s: ReducerState): ReducerState {
  const over = s.at === 'priority' && s.priority === null && s.stack.length === 0 && s.players.every((p) => s.passed.includes(p));
  return over ? stepOver(s) : s;
}

/** The game as createGame leaves it: turn 1, the starting player holds priority in the upkeep step. */
export function initialState(players: readonly string[], handSize = 7, maxHandSize = 7): ReducerState {
  const manaPool: Record<string, number> = {};
  const handSizes: Record<string, number> = {};
  for (const p of players) {
    manaPool[p] = 0;
    handSizes[p] = handSize;
  }
  const first = players[0] as string;
  const s: ReducerState = {
    seats: [...players],
    players: [...players],
    startingPlayer: first,
    maxHandSize,
    turn: 1,
    activePlayer: first,
    rotation: first,
    phase: 'beginning',
    step: 'untap',
    at: 'priority',
    priority: null,
    passed: [],
    stack: [],
    pendingTriggers: [],
    landsPlayed: 0,
    manaPool,
    handSizes,
    combat: null,
    extraTurns: [],
    regularPhases: 1,
    skippedThisTurn: [],
    cleanupSteps: 0,
  };
  return enter(s, 'beginning', 'untap');
}

/** Applies one event; a refused event returns the same state object. */
export function reduce(s: ReducerState, e: TurnEvent): ReducerState {
  switch (e.type) {
    case 'PASS_PRIORITY': {
      if (s.priority !== e.player) return s;
      const passed = [...s.passed, e.player];
      const all = s.players.every((p) => passed.includes(p));
      if (all && s.stack.length > 0) return give({ ...s, stack: s.stack.slice(0, -1) }, s.activePlayer, true);
      if (all) return settle({ ...s, passed, priority: null });
      return give({ ...s, passed }, next(s, e.player), false);
    }
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY': {
      if (s.priority !== e.player) return s;
      if (e.speed === 'sorcery' && (e.player !== s.activePlayer || !isMain(s) || s.stack.length > 0)) return s;
      return give({ ...s, stack: [...s.stack, { id: e.id, controller: e.player, kind: e.type === 'CAST_SPELL' ? 'spell' : 'ability' }] }, e.player, true);
    }
    case 'PLAY_LAND':
      if (s.priority !== e.player || e.player !== s.activePlayer || !isMain(s) || s.stack.length > 0 || s.landsPlayed >= 1) return s;
      return give({ ...s, landsPlayed: s.landsPlayed + 1 }, e.player, true);
    case 'DECLARE_ATTACKERS':
      if (s.at !== 'declaringAttackers' || e.player !== s.activePlayer || s.combat === null) return s;
      if (e.attackers.some((a, i) => a.defender === e.player || !s.players.includes(a.defender) || e.attackers.findIndex((b) => b.id === a.id) !== i)) return s;
      return give({ ...s, combat: { ...s.combat, attackers: e.attackers.map((a) => ({ ...a })) } }, s.activePlayer, true);
    case 'DECLARE_BLOCKERS': {
      const c = s.combat;
      if (s.at !== 'declaringBlockers' || c === null || e.player !== defenderDue(s)) return s;
      if (e.blockers.some((b) => c.attackers.find((a) => a.id === b.attacker)?.defender !== e.player)) return s;
      const after = { ...s, combat: { ...c, blockers: [...c.blockers, ...e.blockers.map((b) => ({ ...b, player: e.player }))], declaredBy: [...c.declaredBy, e.player] } };
      return defenderDue(after) === null ? give(after, s.activePlayer, true) : after;
    }
    case 'TRIGGER': {
      const pending = { ...s, pendingTriggers: [...s.pendingTriggers, ...e.triggers.map((t) => ({ id: t.id, controller: t.controller }))] };
      return s.priority === null ? pending : give(pending, s.priority, false);
    }
    case 'DISCARD':
      if (s.at !== 'discarding' || e.player !== s.activePlayer || e.count !== discardDue(s)) return s;
      return check({ ...s, handSizes: { ...s.handSizes, [e.player]: s.maxHandSize } });
    case 'HAND_SIZE':
      return { ...s, handSizes: { ...s.handSizes, [e.player]: e.size } };
    case 'ADD_MANA':
      return { ...s, manaPool: { ...s.manaPool, [e.player]: (s.manaPool[e.player] ?? 0) + e.amount } };
    case 'SPEND_MANA':
      if ((s.manaPool[e.player] ?? 0) < e.amount) return s;
      return { ...s, manaPool: { ...s.manaPool, [e.player]: (s.manaPool[e.player] ?? 0) - e.amount } };
    case 'ADD_EXTRA_TURN':
      return { ...s, extraTurns: [...s.extraTurns, e.player] };
    default:
      throw new Error(`the reducer baseline does not model ${e.type}`);
  }
}

function awaiting(s: ReducerState): ReducerAwaiting | null {
  switch (s.at) {
    case 'declaringAttackers':
      return { kind: 'declareAttackers', player: s.activePlayer };
    case 'declaringBlockers':
      return { kind: 'declareBlockers', player: defenderDue(s) as string };
    case 'discarding':
      return { kind: 'discard', player: s.activePlayer, count: discardDue(s) };
    default:
      return s.priority === null ? null : { kind: 'priority', player: s.priority };
  }
}

/** The TurnView of a reducer state (built only when asked, as the engine's is). */
export function reducerView(s: ReducerState): ReducerView {
  return {
    turn: s.turn,
    activePlayer: s.activePlayer,
    phase: s.phase,
    step: s.step,
    priority: s.priority,
    awaiting: awaiting(s),
    stack: s.stack.map((o) => ({ ...o })),
    landsPlayed: s.landsPlayed,
    manaPool: { ...s.manaPool },
    players: [...s.players],
    gameOver: null,
    handSizes: { ...s.handSizes },
    rules: 'current',
    combat: s.combat === null ? null : { attackers: s.combat.attackers.map((a) => ({ ...a })), blockers: s.combat.blockers.map((b) => ({ ...b })) },
    schedule: { extraTurns: [...s.extraTurns] },
    skippedThisTurn: s.skippedThisTurn.map((r) => ({ ...r })),
  };
}
