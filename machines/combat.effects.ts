/**
 * What the combat actions do, as pure functions of the context: the defending player,
 * declarations, damage assignment orders and combat damage.
 * CR 506-511, 703.4h, 703.4m; 2009-2024 509.2, 509.3; classic 310.4.
 */
import { representative, unitOf } from '../src/rules/units.js';
import { combatAttacker, creaturesDealingDamage, defenderChoices, markFirstStrikers, newCombat, withBlockers } from '../src/rules/combat.js';
import { eraOf } from '../src/rules/eras.js';
import { assertStackLimit } from './checkpoint.js';
import { effect, NOTHING, andThen, type Effect } from './effect.js';
import { endCombat, isLeftBeforeEndingChecks } from './boundaries.js';
import { endYieldsOnStackChange } from './yields.js';
import type { Attacker, Blocker, PlayerId } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';

/** The combat phase begins with no creatures in combat; the defending player is chosen or fixed (CR 506.2, 507.1). */
export function beginCombat(ctx: TurnContext): Effect {
  // CR 803.1a, 801.3: with no opponent the active player could choose, nobody can be attacked (attackablePlayers).
  return effect(ctx, { combat: newCombat() });
}

/** Whether the active player must choose the defending player now (CR 507.1, 703.4h). */
export function isDefenderChoiceDue(ctx: TurnContext): boolean {
  if (ctx.result !== null || ctx.combat === null || ctx.combat.defenders !== null) return false;
  // CR 803.1a: with nobody to choose, the player can't attack; nothing is awaited.
  const choices = defenderChoices(ctx);
  return choices !== null && choices.length > 0;
}

/**
 * The combat phase is left: it ends now (511.3), except when the turn is ending and the stack
 * is still to be exiled and state-based actions checked (724.1b-c): `skipToCleanup` ends the
 * combat after them (724.1d).
 */
export function endCombatAsPhaseIsLeft(ctx: TurnContext, event: { type: string }): Effect {
  return isLeftBeforeEndingChecks(ctx, event) ? NOTHING : endCombat(ctx);
}

/** CR 507.1: the chosen player becomes the defending player. */
export function chooseDefender(ctx: TurnContext, defender: PlayerId): Effect {
  return ctx.combat === null ? NOTHING : effect(ctx, { combat: { ...ctx.combat, defenders: [defender] } });
}


/** CR 508.1: the active player's attackers. */
export function declareAttackers(ctx: TurnContext, attackers: readonly Attacker[]): Effect {
  const combat = ctx.combat ?? newCombat();
  return effect(ctx, { combat: { ...combat, attacksDeclared: true, declared: combat.declared || attackers.length > 0, attackers: [...combat.attackers, ...attackers.map(combatAttacker)] } });
}

/** No declaration is due (no active player, CR 800.4j): the step goes on as if none were declared. */
export function markAttacksDeclared(ctx: TurnContext): Effect {
  return ctx.combat === null ? NOTHING : effect(ctx, { combat: { ...ctx.combat, attacksDeclared: true } });
}

/** Whether the 'classic' era skips the rest of the declare attackers step now (classic 308.5: no attackers). */
export function skipsRestOfDeclareAttackersStep(ctx: TurnContext): boolean {
  return eraOf(ctx).noAttackersSkipsRestOfStep && ctx.combat !== null && !ctx.combat.declared;
}

/** CR 509.1: one defending player's blockers. */
export function declareBlockers(ctx: TurnContext, player: PlayerId, blockers: readonly Blocker[]): Effect {
  const combat = ctx.combat ?? newCombat();
  return effect(ctx, { combat: withBlockers(combat, player, blockers, unitOf(ctx, player)) });
}

/** CR 509.2 (2009-2024): the damage assignment order of an attacker's blockers. */
export function orderBlockers(ctx: TurnContext, attacker: string, order: readonly string[]): Effect {
  if (ctx.combat === null) return NOTHING;
  return effect(ctx, { combat: { ...ctx.combat, attackers: ctx.combat.attackers.map((a) => (a.id === attacker ? { ...a, blockedBy: [...order], ordered: true } : a)) } });
}

/** CR 509.3 (2009-2024): the damage assignment order of a blocker's attackers. */
export function orderAttackers(ctx: TurnContext, blocker: string, order: readonly string[]): Effect {
  if (ctx.combat === null) return NOTHING;
  return effect(ctx, { combat: { ...ctx.combat, blockers: ctx.combat.blockers.map((b) => (b.id === blocker ? { ...b, blocking: [...order], ordered: true } : b)) } });
}

/**
 * Combat damage is assigned and dealt (CR 510.1, 510.2, 703.4m). In the 'classic' era the
 * assignment goes on the stack as one object and is dealt when it resolves (classic 310.4);
 * with no creature dealing damage there is no object and an empty `combatDamage`.
 */
export function dealCombatDamage(ctx: TurnContext, first: boolean): Effect {
  if (ctx.combat === null) return NOTHING;
  const creatures = creaturesDealingDamage(ctx, first);
  const combat = first ? markFirstStrikers(ctx.combat) : ctx.combat;
  if (!eraOf(ctx).combatDamageOnStack || creatures.length === 0) return effect(ctx, { combat }, [{ type: 'combatDamage', first, creatures }]);
  assertStackLimit(ctx.stack.length + 1, 'the stack');
  const object = { id: `combat-damage-${ctx.nextObjectId}`, controller: representative(ctx, ctx.activePlayer ?? ctx.turnOwner), kind: 'combatDamage' as const, creatures };
  return andThen(ctx, effect(ctx, { combat, stack: [...ctx.stack, object], nextObjectId: ctx.nextObjectId + 1 }), endYieldsOnStackChange);
}

export { endCombat } from './boundaries.js';
