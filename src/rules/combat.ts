/**
 * Combat declarations and combat damage.
 * CR 506.4, 508.1, 508.8, 509.1, 510.1, 510.4, 702.4b, 702.7b, 800.4e.
 */
import type { Attacker, Blocker, CombatState, PlayerId, TurnContext } from '../../machines/turn.types.js';
import { violation, type Violation } from '../errors.js';
import { apnapOrder } from './turnOrder.js';

type CombatContext = Pick<TurnContext, 'combat' | 'players' | 'seats' | 'turnOwner' | 'activePlayer'>;

/** An empty combat, as the combat phase begins. */
export function newCombat(): CombatState {
  return { attackers: [], blockers: [], declaredBy: [], firstStrikeStep: false };
}

/** Whether any creature was declared as an attacker (CR 508.8: otherwise blockers and damage are skipped). */
export function hasAttackers(ctx: Pick<TurnContext, 'combat'>): boolean {
  return (ctx.combat?.attackers.length ?? 0) > 0;
}

/**
 * Whether the rest of the declare attackers step is skipped: under 'classic' rules (before
 * July 2009), when no attackers are declared, "skip the rest of this step, the Declare
 * Blockers step, and the Combat Damage step" (CR 508.8 today skips only the latter two).
 */
export function skipsRestOfDeclareAttackersStep(ctx: Pick<TurnContext, 'rules' | 'combat'>): boolean {
  return ctx.rules === 'classic' && !hasAttackers(ctx);
}

/** Whether a creature deals combat damage in the first of two damage steps. */
function strikesFirst(c: { firstStrike?: boolean; doubleStrike?: boolean }): boolean {
  return c.firstStrike === true || c.doubleStrike === true;
}

/**
 * Whether an attacking or blocking creature has first strike or double strike as the
 * combat damage step begins, which gives the phase a first combat damage step
 * (CR 510.4, 702.7b, 702.4b).
 */
export function hasFirstStrikeCombatant(ctx: Pick<TurnContext, 'combat'>): boolean {
  const combat = ctx.combat;
  if (combat === null) return false;
  return combat.attackers.some(strikesFirst) || combat.blockers.some(strikesFirst);
}

/**
 * Validates a declaration of attackers (CR 508.1): each creature attacks once, and each
 * attacks an opponent of the active player who is still in the game (CR 508.1b, 506.2).
 */
export function attackViolation(ctx: CombatContext, player: PlayerId, attackers: readonly Attacker[]): Violation | null {
  const seen = new Set<string>();
  for (const [i, a] of attackers.entries()) {
    if (seen.has(a.id)) return violation('508.1a', `attackers[${i}]: creature ${a.id} is declared as an attacker twice`);
    seen.add(a.id);
    if (a.defender === player) return violation('508.1b', `attackers[${i}]: ${player} cannot attack themselves`);
    if (!ctx.players.includes(a.defender)) return violation('508.1b', `attackers[${i}]: defender ${a.defender} is not a player in the game`);
  }
  return null;
}

/** The defending players (players attacked by at least one creature), in APNAP order (CR 509.1). */
export function defendingPlayers(ctx: CombatContext): PlayerId[] {
  const attacked = new Set(ctx.combat?.attackers.map((a) => a.defender) ?? []);
  return apnapOrder(ctx).filter((p) => attacked.has(p));
}

/** The defending player who must declare blockers now, or null once every one has (CR 509.1). */
export function awaitedDefender(ctx: CombatContext): PlayerId | null {
  const declared = ctx.combat?.declaredBy ?? [];
  return defendingPlayers(ctx).find((p) => !declared.includes(p)) ?? null;
}

/**
 * Validates a declaration of blockers (CR 509.1a): each blocker blocks a creature that is
 * attacking the declaring player, is not itself attacking, and blocks each attacker at most once.
 */
export function blockViolation(ctx: CombatContext, player: PlayerId, blockers: readonly Blocker[]): Violation | null {
  const combat = ctx.combat;
  if (combat === null) return violation('509.1', 'there is no combat to block in');
  const attackerIds = new Set(combat.attackers.map((a) => a.id));
  const otherBlockers = new Set(combat.blockers.filter((b) => b.player !== player).map((b) => b.id));
  const pairs = new Set<string>();
  for (const [i, b] of blockers.entries()) {
    const attacker = combat.attackers.find((a) => a.id === b.attacker);
    if (attacker === undefined) return violation('509.1a', `blockers[${i}]: ${b.attacker} is not an attacking creature`);
    if (attacker.defender !== player) return violation('509.1a', `blockers[${i}]: ${b.attacker} is attacking ${attacker.defender}, not ${player}`);
    if (attackerIds.has(b.id)) return violation('509.1a', `blockers[${i}]: ${b.id} is an attacking creature and cannot block`);
    if (otherBlockers.has(b.id)) return violation('509.1a', `blockers[${i}]: ${b.id} was declared as a blocker by another player`);
    const pair = `${b.id}\u0000${b.attacker}`;
    if (pairs.has(pair)) return violation('509.1a', `blockers[${i}]: ${b.id} is declared blocking ${b.attacker} twice`);
    pairs.add(pair);
  }
  return null;
}

/**
 * The creatures that deal combat damage in this combat damage step (CR 510.1, 510.4):
 * in a first-strike step those with first or double strike; in the second step those
 * without first strike plus those with double strike; otherwise all. An attacker deals
 * none once its defending player has left (CR 800.4e; that player's blockers left with
 * them, and a blocked creature with no blockers deals none, CR 510.1c); a blocker deals
 * none once the attackers are gone (CR 510.1d).
 */
export function creaturesDealingDamage(ctx: Pick<TurnContext, 'combat' | 'players'>, first: boolean): string[] {
  const combat = ctx.combat;
  if (combat === null) return [];
  const dealsNow = (c: { firstStrike?: boolean; doubleStrike?: boolean }): boolean => {
    if (first) return strikesFirst(c);
    if (combat.firstStrikeStep) return c.doubleStrike === true || c.firstStrike !== true;
    return true;
  };
  const ids: string[] = [];
  const attackerIds = new Set<string>();
  for (const a of combat.attackers) {
    if (!ctx.players.includes(a.defender)) continue;
    attackerIds.add(a.id);
    if (dealsNow(a)) ids.push(a.id);
  }
  for (const b of combat.blockers) {
    if (dealsNow(b) && attackerIds.has(b.attacker) && !ids.includes(b.id)) ids.push(b.id);
  }
  return ids;
}

/**
 * Removes a departed player's creatures from combat (CR 800.4a, 506.4): their attackers if
 * they were the active player, their blockers if they were defending.
 */
export function removeFromCombat(combat: CombatState | null, player: PlayerId, wasActive: boolean): CombatState | null {
  if (combat === null) return null;
  return {
    ...combat,
    attackers: wasActive ? [] : combat.attackers,
    blockers: combat.blockers.filter((b) => b.player !== player),
  };
}
