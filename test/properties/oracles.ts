/**
 * What an accepted event must have done, checked from the views before and after it and the
 * events it emitted, each with the rule it follows. Written from the rules, not from the
 * engine: turn order is recomputed from the seats.
 */
import type { EmittedEvent, StackObject, TurnView } from '../../src/index.js';
import type { GameSetup } from './arbitraries.js';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The next player after `player` in turn order who is still in the game (CR 101.4, 800.4a). */
export function nextInTurnOrder(seats: readonly string[], players: readonly string[], player: string): string | null {
  const start = seats.indexOf(player);
  for (let i = 1; i <= seats.length; i++) {
    const seat = seats[(start + i) % seats.length] as string;
    if (players.includes(seat)) return seat;
  }
  return null;
}

type Event = { type: string; player?: string; id?: string; amount?: number; size?: number; count?: number; attackers?: { id: string }[] };

function stackProblem(e: Event, before: TurnView, after: TurnView, resolved: StackObject[]): string | null {
  if (resolved.length > 1) return `${resolved.length} objects resolved in one event`;
  if (resolved.length === 1) {
    // CR 117.4, 405.5: all players passed in succession; the top object resolves.
    if (e.type !== 'PASS_PRIORITY') return `${e.type} made an object resolve`;
    if (!same(resolved[0], before.stack[before.stack.length - 1])) return `resolved ${JSON.stringify(resolved[0])}, not the top of the stack`;
    if (!same(after.stack.slice(0, before.stack.length - 1), before.stack.slice(0, -1))) return 'a resolution changed the rest of the stack';
  }
  if (e.type === 'CAST_SPELL' || e.type === 'ACTIVATE_ABILITY') {
    // CR 601.2a, 602.2a: the object goes on top of the stack; CR 117.3c: its controller receives priority.
    const kind = e.type === 'CAST_SPELL' ? 'spell' : 'ability';
    if (!same(after.stack.slice(0, before.stack.length), before.stack)) return `${e.type} changed the objects below it`;
    if (!same(after.stack[before.stack.length], { id: e.id, controller: e.player, kind })) return `${e.type} did not put its ${kind} on top of the stack`;
    if (after.priority !== e.player) return `after ${e.type} priority went to ${after.priority}, not back to ${e.player} (CR 117.3c)`;
  }
  return null;
}

function manaProblem(e: Event, before: TurnView, after: TurnView, emitted: readonly EmittedEvent[], setup: GameSetup): string | null {
  const boundary = emitted.some((x) => x.type === 'stepBegan' || x.type === 'turnBegan');
  const emptied = emitted.filter((x) => x.type === 'manaEmptied');
  if (e.type === 'ADD_MANA' || e.type === 'SPEND_MANA') {
    const delta = e.type === 'ADD_MANA' ? (e.amount as number) : -(e.amount as number);
    if (after.manaPool[e.player as string] !== (before.manaPool[e.player as string] ?? 0) + delta) return `${e.type} ${e.amount}: pool went from ${before.manaPool[e.player as string]} to ${after.manaPool[e.player as string]} (CR 106.4)`;
    return null;
  }
  if (after.gameOver !== null || e.type === 'CONCEDE') return null;
  if (!boundary) {
    if (emptied.length > 0) return 'mana emptied without a step ending';
    return same(after.manaPool, before.manaPool) ? null : 'mana pools changed without a step ending';
  }
  const phaseEnded = after.turn !== before.turn || after.phase !== before.phase;
  const empties = setup.rules === 'current' || phaseEnded;
  if (!empties) return null;
  // CR 500.5 (current: every step; classic 300.3: every phase, with mana burn).
  for (const [p, n] of Object.entries(after.manaPool)) if (n !== 0) return `${p}'s pool holds ${n} after a ${setup.rules === 'current' ? 'step' : 'phase'} ended (CR 500.5)`;
  for (const p of after.players) {
    const had = before.manaPool[p] ?? 0;
    const reported = emptied.filter((x) => x.player === p).reduce((sum, x) => sum + (x.type === 'manaEmptied' ? x.amount : 0), 0);
    if (reported !== had) return `${p} had ${had} mana but manaEmptied reported ${reported}`;
    const burned = emitted.filter((x) => x.type === 'manaBurn' && x.player === p).reduce((sum, x) => sum + (x.type === 'manaBurn' ? x.amount : 0), 0);
    if (burned !== (setup.rules === 'classic' ? had : 0)) return `${p} had ${had} mana and burned ${burned} under ${setup.rules} rules`;
  }
  return null;
}

function handProblem(e: Event, before: TurnView, after: TurnView, emitted: readonly EmittedEvent[], setup: GameSetup): string | null {
  if (e.type === 'HAND_SIZE') return after.handSizes[e.player as string] === e.size ? null : 'HAND_SIZE did not set the hand size';
  const drawsOf = (p: string) => emitted.filter((x) => x.type === 'draw' && x.player === p).length;
  if (e.type === 'DISCARD') {
    // CR 514.1: down to the maximum hand size (plus what the turns that follow in the same event drew).
    const expected = setup.maxHandSize + drawsOf(e.player as string);
    if (after.handSizes[e.player as string] !== expected) return `after discarding ${e.player} holds ${after.handSizes[e.player as string]}, not ${expected}`;
    if (!emitted.some((x) => x.type === 'discard' && x.player === e.player && x.count === e.count)) return 'DISCARD emitted no discard event';
    return null;
  }
  if (e.type === 'CONCEDE') return null;
  for (const p of after.players) {
    // CR 504.1: the engine adds one card for each draw it performs.
    const draws = drawsOf(p);
    if (after.handSizes[p] !== (before.handSizes[p] ?? 0) + draws) return `${p}'s hand went from ${before.handSizes[p]} to ${after.handSizes[p]} with ${draws} draw(s)`;
  }
  return null;
}

function priorityProblem(e: Event, before: TurnView, after: TurnView, emitted: readonly EmittedEvent[], setup: GameSetup): string | null {
  const moved = emitted.some((x) => x.type === 'stepBegan' || x.type === 'turnBegan' || x.type === 'resolve');
  if (after.gameOver !== null) return null;
  if (e.type === 'PASS_PRIORITY' && !moved) {
    // CR 117.3d: the next player in turn order receives priority.
    const next = nextInTurnOrder(setup.players, after.players, e.player as string);
    if (after.priority !== next) return `after ${e.player} passed, ${after.priority} holds priority, not ${next} (CR 117.3d)`;
  }
  if (e.type === 'PASS_PRIORITY' && emitted.some((x) => x.type === 'resolve') && !emitted.some((x) => x.type === 'stepBegan') && after.activePlayer !== null) {
    // CR 117.3b: after a resolution the active player receives priority.
    if (after.priority !== after.activePlayer) return `after a resolution ${after.priority} holds priority, not the active player ${after.activePlayer} (CR 117.3b)`;
  }
  if (e.type === 'PLAY_LAND') {
    // CR 305.1, 116.2a: no stack; the player keeps priority.
    if (after.landsPlayed !== before.landsPlayed + 1) return 'PLAY_LAND did not count the land';
    if (after.priority !== e.player) return 'PLAY_LAND moved priority';
  }
  if (e.type === 'CONCEDE') {
    // CR 800.4a: the player leaves with the objects they control; priority moves on if they held it.
    if (after.players.includes(e.player as string)) return 'CONCEDE left the player in the game';
    if (before.priority === e.player && after.awaiting?.kind === 'priority' && !moved) {
      const next = nextInTurnOrder(setup.players, after.players, e.player as string);
      if (after.priority !== next) return `${e.player} conceded holding priority; ${after.priority} holds it, not ${next} (CR 800.4a)`;
    }
    if (!emitted.some((x) => x.type === 'playerLeft' && x.player === e.player)) return 'CONCEDE emitted no playerLeft';
  }
  if (emitted.some((x) => x.type === 'turnBegan') && after.landsPlayed !== 0) return 'landsPlayed did not reset with the new turn (CR 305.2)';
  if (e.type === 'DECLARE_ATTACKERS' && (e.attackers?.length ?? 0) > 0 && after.step === 'declareAttackers') {
    // CR 508.1: the declared creatures are attacking.
    if (!same(after.combat?.attackers.map((a) => a.id), e.attackers?.map((a) => a.id))) return 'the attackers in combat are not the declared ones';
  }
  return null;
}

type Combatant = { id: string; firstStrike?: boolean; doubleStrike?: boolean };
const strikesFirst = (c: Combatant) => c.firstStrike === true || c.doubleStrike === true;

/**
 * The creatures that deal combat damage in a damage step, from the rules: in the first-strike
 * step those with first or double strike (CR 510.4, 702.7b, 702.4b); in the second step, after
 * a first-strike step, those without first strike and those with double strike; otherwise all.
 * An attacker whose defending player left deals none (800.4e), nor do its blockers (510.1d).
 */
export function expectedDamage(combat: NonNullable<TurnView['combat']>, players: readonly string[], first: boolean): string[] {
  const hadFirstStrikeStep = combat.attackers.some(strikesFirst) || combat.blockers.some(strikesFirst);
  const deals = (c: Combatant) => (first ? strikesFirst(c) : !hadFirstStrikeStep || c.doubleStrike === true || c.firstStrike !== true);
  const live = combat.attackers.filter((a) => players.includes(a.defender));
  const ids = new Set(live.map((a) => a.id));
  const out = new Set(live.filter(deals).map((a) => a.id));
  for (const b of combat.blockers) if (ids.has(b.attacker) && deals(b)) out.add(b.id);
  return [...out].sort();
}

function combatProblem(before: TurnView, after: TurnView, emitted: readonly EmittedEvent[], skipsPending: boolean): string | null {
  const combat = (before.combat?.attackers.length ?? 0) > 0 ? before.combat : after.combat;
  for (const x of emitted) {
    if (x.type !== 'combatDamage' || combat === null) continue;
    const expected = expectedDamage(combat, after.players, x.first);
    if (!skipsPending && !same([...x.creatures].sort(), expected)) return `combat damage (first: ${x.first}) from ${JSON.stringify(x.creatures)}, expected ${JSON.stringify(expected)} (CR 510.1, 510.4)`;
  }
  const steps = emitted.flatMap((x) => (x.type === 'stepBegan' ? [x.step] : []));
  const firstStrikers = combat !== null && (combat.attackers.some(strikesFirst) || combat.blockers.some(strikesFirst));
  if (!skipsPending && steps.includes('combatDamage') && combat !== null) {
    // CR 510.4: a first-strike damage step exactly when a combatant has first or double strike.
    const fromBlockers = before.step === 'declareBlockers' || steps.includes('declareBlockers');
    if (fromBlockers && firstStrikers && !steps.includes('firstStrikeDamage') && before.step !== 'firstStrikeDamage') return 'no first-strike combat damage step although a combatant has first strike (CR 510.4)';
  }
  if (!skipsPending && steps.includes('firstStrikeDamage') && !firstStrikers) return 'a first-strike combat damage step without first strike (CR 510.4)';
  return null;
}

/**
 * A pending "skip your next ..." replaces the next occurrence (CR 614.10, 614.10a): a step,
 * main phase or combat phase of the active player that begins while such a skip is pending,
 * and the event consumed none of it, is a violation.
 */
function skipProblem(before: TurnView, after: TurnView, emitted: readonly EmittedEvent[]): string | null {
  // With added phases a skipped phase and another of its kind can both come in one event.
  if (before.schedule.extraPhases.length > 0) return null;
  let active = before.activePlayer;
  for (const x of emitted) {
    if (x.type === 'turnBegan') active = x.activePlayer;
    if (x.type !== 'stepBegan' || active === null) continue;
    const targets: string[] = x.step === 'beginningOfCombat' ? ['combat', x.step] : [x.step];
    for (const target of targets) {
      const key = target as keyof (typeof before.schedule.skips)[string];
      const was = before.schedule.skips[active]?.[key] ?? 0;
      const now = after.schedule.skips[active]?.[key] ?? 0;
      if (was > 0 && now === was) return `${x.phase}/${x.step} began although ${active} had a pending skip of ${target} (CR 614.10)`;
    }
  }
  return null;
}

/** The first thing an accepted event did wrong, or null. */
export function acceptedEventProblem(event: unknown, before: TurnView, after: TurnView, emitted: readonly EmittedEvent[], setup: GameSetup): string | null {
  const skipsPending = Object.keys(before.schedule.skips).length > 0 || before.schedule.extraPhases.length > 0;
  const combat = combatProblem(before, after, emitted, skipsPending) ?? skipProblem(before, after, emitted);
  if (combat !== null) return combat;
  const e = event as Event;
  const resolved = emitted.flatMap((x) => (x.type === 'resolve' ? [x.object] : []));
  for (const x of emitted) {
    if (x.type === 'combatDamage') {
      const known = new Set([...(before.combat?.attackers ?? []), ...(before.combat?.blockers ?? []), ...(after.combat?.attackers ?? []), ...(after.combat?.blockers ?? [])].map((c) => c.id));
      const stranger = x.creatures.find((c) => !known.has(c));
      if (stranger !== undefined) return `combat damage from ${stranger}, which is not in combat (CR 510.1)`;
    }
  }
  return stackProblem(e, before, after, resolved) ?? manaProblem(e, before, after, emitted, setup) ?? handProblem(e, before, after, emitted, setup) ?? priorityProblem(e, before, after, emitted, setup);
}

/** What decides who takes the next turn, as the view shows it plus the last regular turn's player. */
export interface TurnOrderModel {
  /** The player whose regular turn was the last one (extra turns do not move it). */
  rotation: string;
  extraTurns: string[];
  turnSkips: Record<string, number>;
}

/** The model before an event, from the view's schedule. */
export function turnOrderModel(rotation: string, view: TurnView): TurnOrderModel {
  const turnSkips: Record<string, number> = {};
  for (const [p, s] of Object.entries(view.schedule.skips)) turnSkips[p] = s.turn ?? 0;
  return { rotation, extraTurns: [...view.schedule.extraTurns], turnSkips };
}

/**
 * Who takes the next turn (and the model after it): the most recently created extra turn
 * first (CR 500.7), else the next player in turn order (CR 101.4); a player who left takes no
 * turn (800.4k) and a pending "skip your next turn" replaces that turn with nothing (614.10).
 */
export function takeNextTurn(m: TurnOrderModel, seats: readonly string[], players: readonly string[]): string {
  for (;;) {
    const extra = m.extraTurns.pop();
    const candidate = extra ?? nextInTurnOrder(seats, players, m.rotation);
    if (candidate === null) throw new Error('no player left to take a turn');
    if (extra === undefined) m.rotation = candidate;
    if (!players.includes(candidate)) continue;
    if ((m.turnSkips[candidate] ?? 0) > 0) {
      m.turnSkips[candidate] = (m.turnSkips[candidate] ?? 0) - 1;
      continue;
    }
    return candidate;
  }
}

/**
 * Who declares blockers (CR 509.1): each defending player, in APNAP order (101.4), before the
 * declare blockers step goes on. Follows the accepted declarations of the current combat.
 */
export class BlockTracker {
  private declared = new Set<string>();

  constructor(private readonly seats: readonly string[]) {}

  /** Checks an accepted event; returns the first problem or null. */
  check(event: unknown, before: TurnView, after: TurnView, emitted: readonly EmittedEvent[], skipsPending: boolean): string | null {
    const steps = emitted.flatMap((x) => (x.type === 'stepBegan' ? [x.step] : []));
    const e = event as { type?: string; player?: string };
    if (e.type === 'DECLARE_BLOCKERS' && typeof e.player === 'string') this.declared.add(e.player);
    const left = (before.step === 'declareBlockers' || steps.includes('declareBlockers')) && steps.some((s) => s !== 'declareBlockers');
    if (left && !skipsPending && before.combat !== null) {
      const due = before.combat.attackers.map((a) => a.defender).filter((p) => after.players.includes(p) && !this.declared.has(p));
      if (due.length > 0) return `the declare blockers step ended before ${due[0]} declared blockers (CR 509.1)`;
    }
    if (steps.includes('declareBlockers')) this.declared = new Set();
    const a = after.awaiting;
    if (a?.kind === 'declareBlockers' && after.activePlayer !== null && after.combat !== null) {
      const attacked = new Set(after.combat.attackers.map((x) => x.defender));
      const start = this.seats.indexOf(after.activePlayer);
      const apnap = this.seats.map((_, i) => this.seats[(start + i) % this.seats.length] as string).filter((p) => after.players.includes(p));
      const next = apnap.find((p) => attacked.has(p) && !this.declared.has(p));
      if (a.player !== next) return `${a.player} is to declare blockers, but in APNAP order it is ${next} (CR 509.1)`;
    }
    return null;
  }
}
