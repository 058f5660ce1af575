/**
 * Combat: defenders, declarations, damage assignment order (2009-2024), combat damage, and
 * creatures that enter or leave combat.
 * CR 506.2, 506.4, 507.1, 508.1, 508.3a, 508.4, 508.8, 509.1, 509.1b, 509.1h, 509.2, 509.3,
 * 509.4, 510.1, 510.4, 702.4c, 702.7c, 800.4a, 800.4e, 802, 803.
 */
import type { Attacker, Blocker, PlayerId } from '../contract.js';
import type { CombatAttacker, CombatBlocker, CombatState, TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { apnapOrder, nextPlayerAfter } from './turnOrder.js';
import { attackableOpponents } from './teams.js';
import { byUnits, unitOf } from './units.js';

type CombatContext = Pick<TurnContext, 'combat' | 'players' | 'seats' | 'turnOwner' | 'activePlayer' | 'teams' | 'variant'>;

/** An empty combat, as the combat phase begins. */
export function newCombat(): CombatState {
  return { attackers: [], blockers: [], declared: false, attacksDeclared: false, declaredBy: [], firstStrikeStep: false, defenders: null };
}

/** The active player's opponents still in the game (CR 102.2). */
export function opponentsOf(ctx: Pick<TurnContext, 'players'>, player: PlayerId | null): PlayerId[] {
  return ctx.players.filter((p) => p !== player);
}

/**
 * The opponents the active player may choose as the defending player as the beginning of
 * combat step begins (CR 506.2a, 507.1, 703.4h), or null when every opponent is a defending
 * player (two players, or the attack multiple players option, 802.2). Attack left or right:
 * only the nearest opponent on that side (803.1a, 803.1b).
 */
export function defenderChoices(ctx: Pick<TurnContext, 'players' | 'seats' | 'activePlayer' | 'attack' | 'teams' | 'influence' | 'variant'>): PlayerId[] | null {
  const active = ctx.activePlayer;
  // CR 800.1: a multiplayer game is one that began with more than two players (seats), however many are left.
  if (active === null || ctx.seats.length <= 2 || ctx.attack === 'all') return null;
  const allowed = attackableOpponents(ctx, active);
  if (ctx.attack === 'chooseOne') return allowed;
  const order = ctx.attack === 'left' ? ctx.seats : [...ctx.seats].reverse();
  const side = nextPlayerAfter({ seats: order, players: ctx.players }, active);
  return side === null || !allowed.includes(side) ? [] : [side];
}

/**
 * The players the active player may attack in this combat (CR 506.2, 508.1b, 801.3, 809.3c).
 * Before a defending player is chosen, those the choice would allow: nobody when none can be
 * chosen (803.1a: the nearest opponent to the left is more than one seat away, or out of range).
 */
export function attackablePlayers(ctx: Pick<TurnContext, 'players' | 'seats' | 'attack' | 'combat' | 'activePlayer' | 'teams' | 'influence' | 'variant' | 'phase' | 'step'>): PlayerId[] {
  // CR 506.2a, 507.1, 614.10a: the defending player is chosen in the beginning of combat step; when that step was skipped nobody was chosen, and nobody can be attacked.
  if (ctx.attack === 'chooseOne' && ctx.combat !== null && ctx.combat.defenders === null && ctx.phase === 'combat' && ctx.step !== 'beginningOfCombat' && defenderChoices(ctx) !== null) return [];
  const chosen = ctx.combat?.defenders ?? defenderChoices(ctx);
  const opponents = attackableOpponents(ctx, ctx.activePlayer);
  return chosen === null ? opponents : chosen.filter((p) => opponents.includes(p));
}

/** Whether any creature was declared as an attacker or put onto the battlefield attacking (CR 508.8). */
export function hasAttackers(ctx: Pick<TurnContext, 'combat'>): boolean {
  return ctx.combat?.declared === true;
}

/** Whether a creature deals combat damage in the first of two damage steps. */
function strikesFirst(c: { firstStrike: boolean; doubleStrike: boolean }): boolean {
  return c.firstStrike || c.doubleStrike;
}

/**
 * Whether an attacking or blocking creature has first strike or double strike as the
 * combat damage step begins, which gives the phase a first combat damage step (CR 510.4).
 */
export function hasFirstStrikeCombatant(ctx: Pick<TurnContext, 'combat'>): boolean {
  const combat = ctx.combat;
  if (combat === null) return false;
  return combat.attackers.some(strikesFirst) || combat.blockers.some(strikesFirst);
}

/**
 * Validates a declaration of attackers (CR 508.1): each creature attacks once (one already
 * attacking, put onto the battlefield attacking, is not declared again), and each attacks a player the active player may attack (CR 508.1b, 506.2, 803).
 */
export function attackViolation(ctx: Pick<TurnContext, 'players' | 'seats' | 'attack' | 'combat' | 'activePlayer' | 'teams' | 'influence' | 'variant' | 'phase' | 'step'>, player: PlayerId, attackers: readonly Attacker[]): Violation | null {
  const allowed = attackablePlayers(ctx);
  const seen = new Set<string>();
  for (const [i, a] of attackers.entries()) {
    if (seen.has(a.id)) return violation('508.1a', `attackers[${i}]: creature ${a.id} is declared as an attacker twice`);
    // CR 508.4: a creature put onto the battlefield attacking is already attacking; it was never declared and cannot be.
    if (ctx.combat?.attackers.some((c) => c.id === a.id) === true) return violation('508.1a', `attackers[${i}]: creature ${a.id} is already attacking (CR 508.4)`);
    seen.add(a.id);
    if (a.defender === player) return violation('508.1b', `attackers[${i}]: ${player} cannot attack themselves`);
    if (!ctx.players.includes(a.defender)) return violation('508.1b', `attackers[${i}]: defender ${a.defender} is not a player in the game`);
    if (!allowed.includes(a.defender)) return violation('506.2', `attackers[${i}]: ${a.defender} may not be attacked (may: ${allowed.join(', ') || 'nobody'})`);
  }
  return null;
}

/** The defending players (players attacked by at least one creature), in APNAP order (CR 509.1, 802.4). */
export function defendingPlayers(ctx: CombatContext): PlayerId[] {
  // CR 805.10: with shared team turns the defending team declares blockers together (as its primary player).
  const attacked = new Set(ctx.combat?.attackers.map((a) => unitOf(ctx, a.defender)) ?? []);
  return apnapOrder(byUnits(ctx)).filter((p) => attacked.has(p));
}

/** The defending player who must declare blockers now, or null once every one has (CR 509.1). */
export function awaitedDefender(ctx: CombatContext): PlayerId | null {
  const declared = ctx.combat?.declaredBy ?? [];
  return defendingPlayers(ctx).find((p) => !declared.includes(p)) ?? null;
}

/**
 * Validates a declaration of blockers (CR 509.1a): each blocker blocks a creature that is
 * attacking the declaring player, is not itself attacking, and blocks each attacker at most
 * once; a creature may block several attackers (509.1b), once per attacker.
 */
export function blockViolation(ctx: CombatContext, player: PlayerId, blockers: readonly Blocker[]): Violation | null {
  const combat = ctx.combat;
  if (combat === null) return violation('509.1', 'there is no combat to block in');
  const attackerIds = new Set(combat.attackers.map((a) => a.id));
  const otherBlockers = new Set(combat.blockers.filter((b) => unitOf(ctx, b.player) !== unitOf(ctx, player)).map((b) => b.id));
  const pairs = new Set<string>();
  for (const [i, b] of blockers.entries()) {
    const attacker = combat.attackers.find((a) => a.id === b.attacker);
    if (attacker === undefined) return violation('509.1a', `blockers[${i}]: ${b.attacker} is not an attacking creature`);
    if (unitOf(ctx, attacker.defender) !== unitOf(ctx, player)) return violation('509.1a', `blockers[${i}]: ${b.attacker} is attacking ${attacker.defender}, not ${player}`);
    if (attackerIds.has(b.id)) return violation('509.1a', `blockers[${i}]: ${b.id} is an attacking creature and cannot block`);
    if (otherBlockers.has(b.id)) return violation('509.1a', `blockers[${i}]: ${b.id} was declared as a blocker by another player`);
    const pair = `${b.id}\u0000${b.attacker}`;
    if (pairs.has(pair)) return violation('509.1a', `blockers[${i}]: ${b.id} is declared blocking ${b.attacker} twice`);
    pairs.add(pair);
  }
  return null;
}

/** The combat with a defending player's blockers added (CR 509.1, 509.1b). */
export function withBlockers(combat: CombatState, player: PlayerId, blockers: readonly Blocker[], declarer: PlayerId = player): CombatState {
  let attackers = combat.attackers;
  let all = combat.blockers;
  for (const b of blockers) ({ attackers, blockers: all } = withBlock({ ...combat, attackers, blockers: all }, player, b));
  return { ...combat, attackers, blockers: all, declaredBy: [...combat.declaredBy, declarer] };
}

/** One more block: the attacker becomes blocked and the blocker goes last in its order (CR 509.1h, 509.4). */
export function withBlock(combat: CombatState, player: PlayerId, b: Blocker): CombatState {
  const attackers = combat.attackers.map((a) => (a.id === b.attacker ? { ...a, blocked: true, blockedBy: [...a.blockedBy, b.id] } : a));
  const existing = combat.blockers.find((x) => x.id === b.id);
  const blocker: CombatBlocker = existing
    ? {
        ...existing,
        blocking: [...existing.blocking, b.attacker],
        firstStrike: b.firstStrike ?? existing.firstStrike,
        doubleStrike: b.doubleStrike ?? existing.doubleStrike,
      }
    : { id: b.id, player, blocking: [b.attacker], firstStrike: b.firstStrike === true, doubleStrike: b.doubleStrike === true, dealtFirst: false, ordered: false };
  const blockersList = existing ? combat.blockers.map((x) => (x.id === b.id ? blocker : x)) : [...combat.blockers, blocker];
  return { ...combat, attackers, blockers: blockersList };
}

/** An attacker as the engine keeps it. */
export function combatAttacker(a: Attacker): CombatAttacker {
  return {
    id: a.id,
    defender: a.defender,
    firstStrike: a.firstStrike === true,
    doubleStrike: a.doubleStrike === true,
    blockedBy: [],
    blocked: false,
    dealtFirst: false,
    ordered: false,
  };
}

/**
 * The next damage assignment order decision of the 2009-2024 rules (509.2, 509.3): first,
 * for each attacker blocked by two or more creatures, in the order declared, the active
 * player orders its blockers; then for each blocker blocking two or more attackers, its
 * controller orders them. Null when none is due.
 */
export function orderDue(
  ctx: Pick<TurnContext, 'combat' | 'activePlayer'>,
): { kind: 'orderBlockers'; attacker: CombatAttacker } | { kind: 'orderAttackers'; blocker: CombatBlocker } | null {
  const combat = ctx.combat;
  if (combat === null) return null;
  if (ctx.activePlayer !== null) {
    const attacker = combat.attackers.find((a) => !a.ordered && a.blockedBy.length >= 2);
    if (attacker) return { kind: 'orderBlockers', attacker };
  }
  const blocker = combat.blockers.find((b) => !b.ordered && b.blocking.length >= 2);
  return blocker ? { kind: 'orderAttackers', blocker } : null;
}

/** Validates an announced order: exactly the creatures to order, each once (CR 509.2, 2009-2024). */
export function orderViolation(expected: readonly string[], order: readonly string[], rule: string): Violation | null {
  const sorted = (xs: readonly string[]) => [...xs].sort().join('\u0000');
  if (order.length !== expected.length || sorted(order) !== sorted(expected)) {
    return violation(rule, `order must list each of ${expected.join(', ')} exactly once`);
  }
  return null;
}

/**
 * The creatures that deal combat damage in this combat damage step (CR 510.1, 510.4):
 * in a first-strike step those with first or double strike; in the second step the remaining
 * creatures that had neither as the first step began, plus those that have double strike now
 * (702.4c, 702.7c); otherwise all. An unblocked attacker deals none once its defending player
 * has left (CR 800.4e), nor a blocked attacker whose blockers are all gone (510.1c); a blocker
 * deals none once the attackers it blocks are gone (510.1d).
 */
export function creaturesDealingDamage(ctx: Pick<TurnContext, 'combat' | 'players'>, first: boolean): string[] {
  const combat = ctx.combat;
  if (combat === null) return [];
  const dealsNow = (c: CombatAttacker | CombatBlocker): boolean => {
    if (first) return strikesFirst(c);
    if (combat.firstStrikeStep) return !c.dealtFirst || c.doubleStrike;
    return true;
  };
  const ids: string[] = [];
  const present = new Set<string>();
  for (const a of combat.attackers) {
    present.add(a.id);
    // CR 800.4e: no damage to a player who left; a blocked creature deals its damage to its blockers, if any are left (510.1c).
    if (a.blocked ? a.blockedBy.length === 0 : !ctx.players.includes(a.defender)) continue;
    if (dealsNow(a)) ids.push(a.id);
  }
  for (const b of combat.blockers) {
    if (dealsNow(b) && b.blocking.some((id) => present.has(id)) && !ids.includes(b.id)) ids.push(b.id);
  }
  return ids;
}

/**
 * The first combat damage step begins (CR 510.4): every attacker and blocker that has first
 * strike or double strike now is marked, whether or not it deals damage in this step (a blocked
 * creature whose blockers are gone deals none, 510.1c). In the second step only the unmarked
 * ones and those that have double strike then deal damage.
 */
export function markFirstStrikers(combat: CombatState): CombatState {
  return {
    ...combat,
    firstStrikeStep: true,
    attackers: combat.attackers.map((a) => (strikesFirst(a) ? { ...a, dealtFirst: true } : a)),
    blockers: combat.blockers.map((b) => (strikesFirst(b) ? { ...b, dealtFirst: true } : b)),
  };
}

/** Whether a creature is in combat (attacking or blocking). */
export function isInCombat(combat: CombatState | null, id: string): boolean {
  return combat !== null && (combat.attackers.some((a) => a.id === id) || combat.blockers.some((b) => b.id === id));
}

/**
 * A creature stops attacking or blocking (CR 506.4). A blocked attacker stays blocked
 * (509.1h); a creature that leaves combat leaves every damage assignment order (509.2a of 2009-2024).
 */
export function removedFromCombat(combat: CombatState, id: string): CombatState {
  return {
    ...combat,
    attackers: combat.attackers.filter((a) => a.id !== id).map((a) => (a.blockedBy.includes(id) ? { ...a, blockedBy: a.blockedBy.filter((x) => x !== id) } : a)),
    blockers: combat.blockers.filter((b) => b.id !== id).map((b) => (b.blocking.includes(id) ? { ...b, blocking: b.blocking.filter((x) => x !== id) } : b)),
  };
}

/** A creature in combat gains or loses first strike or double strike (CR 702.4, 702.7). */
export function withCombatAbilities(combat: CombatState, id: string, abilities: { firstStrike?: boolean; doubleStrike?: boolean }): CombatState {
  const set = <T extends { id: string; firstStrike: boolean; doubleStrike: boolean }>(c: T): T =>
    c.id !== id ? c : { ...c, firstStrike: abilities.firstStrike ?? c.firstStrike, doubleStrike: abilities.doubleStrike ?? c.doubleStrike };
  return { ...combat, attackers: combat.attackers.map(set), blockers: combat.blockers.map(set) };
}

/**
 * Removes a departed player's creatures from combat (CR 800.4a, 506.4): their attackers if
 * they were the active player, their blockers if they were defending, unless their team plays on
 * (`unitGone` false: the team's blocks were declared together, 805.10).
 */
export function withoutPlayer(combat: CombatState | null, player: PlayerId, wasActive: boolean, unitGone: boolean): CombatState | null {
  if (combat === null) return null;
  let out = combat;
  if (wasActive) for (const a of combat.attackers) out = removedFromCombat(out, a.id);
  // A team that plays on declared its blocks together (805.10): which were the leaver's creatures is the host's to say.
  if (unitGone) for (const b of combat.blockers) if (b.player === player) out = removedFromCombat(out, b.id);
  return out;
}
