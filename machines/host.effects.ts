/**
 * What the host's events do to the game: bookkeeping, effects that change the turn, the
 * stack, combat updates, control and results. Pure functions of the context; the machine's
 * actions and the checkpoint (for events a hook returns) are adapters over these.
 */
import { isInCombat, removedFromCombat, withBlock, withCombatAbilities, combatAttacker } from '../src/rules/combat.js';
import { drawnGame, leaveGame } from '../src/rules/leaving.js';
import { leavingWith, losersWhenWinning } from '../src/rules/teams.js';
import { addPhases, addStep, getsOnThisTurn, kindOf, kindOfStep, newPhase } from '../src/rules/schedule.js';
import { withSkipCount } from '../src/rules/turnOrder.js';
import { unitOf } from '../src/rules/units.js';
import { DECISIONS } from '../src/rules/legality.js';
import { andThen, effect, sequence, NOTHING, type Effect } from './effect.js';
import { endYieldsOnStackChange } from './yields.js';
import type { TurnEvent } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';

type EventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

/** Whether an event reports what the host's cards did (CONTRACT: host events), rather than a player's decision. */
export function isHostEvent(e: TurnEvent): boolean {
  return !DECISIONS.has(e.type);
}

/** The stack with an object removed, and the event that says so (CR 701.6, 608.2b). */
export function removeFromStack(ctx: TurnContext, e: EventOf<'REMOVE_FROM_STACK'>): Effect {
  const object = ctx.stack.find((o) => o.id === e.id);
  if (object === undefined) return NOTHING;
  return effect(ctx, { stack: ctx.stack.filter((o) => o !== object) }, [{ type: 'removedFromStack', object: { ...object }, reason: e.reason ?? 'removed' }]);
}

/**
 * A host event that needs no priority: bookkeeping (mana, hand sizes), what the turn will be
 * (extra turns, phases and steps, skips, effects), the stack outside priority, combat updates,
 * control and day/night. Legality is checked before (src/rules/legality.ts).
 */
export function hostEffect(ctx: TurnContext, e: TurnEvent): Effect {
  switch (e.type) {
    case 'HAND_SIZE':
      return effect(ctx, { handSizes: { ...ctx.handSizes, [e.player]: e.size } });
    case 'ADD_MANA':
    case 'SPEND_MANA': {
      if (e.amount === 0) return NOTHING;
      const delta = e.type === 'ADD_MANA' ? e.amount : -e.amount;
      return effect(ctx, { manaPool: { ...ctx.manaPool, [e.player]: (ctx.manaPool[e.player] ?? 0) + delta } });
    }
    case 'ADD_EXTRA_TURN':
      // CR 500.7, 805.8: the most recently created extra turn is taken first.
      return effect(ctx, { extraTurns: [...ctx.extraTurns, e.id === undefined ? { player: unitOf(ctx, e.player) } : { player: unitOf(ctx, e.player), id: e.id }] });
    case 'ADD_EXTRA_COMBAT': {
      // CR 500.8: an additional combat phase, followed by an additional main phase unless told otherwise.
      const added = e.followedByMain === false ? [newPhase('combat', true)] : [newPhase('combat', true), newPhase('main', true)];
      const phases = addPhases(ctx, added, e.after);
      return 'rule' in phases ? NOTHING : effect(ctx, { phases });
    }
    case 'ADD_EXTRA_PHASE': {
      if (!getsOnThisTurn(ctx, e.player)) return NOTHING; // CR 500.10a, 805.8
      const phases = addPhases(ctx, [newPhase(kindOf(e.phase), true)], e.after);
      return 'rule' in phases ? NOTHING : effect(ctx, { phases });
    }
    case 'ADD_EXTRA_STEP': {
      if (!getsOnThisTurn(ctx, e.player)) return NOTHING; // CR 500.10a, 805.8
      if (e.afterPhase !== undefined) {
        // CR 500.10: a new phase of the step's kind with only that step, directly after the phase.
        const phases = addPhases(ctx, [newPhase(kindOfStep(e.step), true, e.step)], e.afterPhase);
        return 'rule' in phases ? NOTHING : effect(ctx, { phases });
      }
      const where = e.before !== undefined ? { before: e.before } : e.after !== undefined ? { after: e.after } : {};
      const added = addStep(ctx, e.step, where);
      return 'rule' in added ? NOTHING : effect(ctx, added);
    }
    case 'SKIP_NEXT': {
      const unit = unitOf(ctx, e.player); // CR 805.8: with shared team turns, the team's
      return effect(ctx, { skips: withSkipCount(ctx.skips, unit, e.what, (ctx.skips[unit]?.[e.what] ?? 0) + 1) });
    }
    case 'ADD_EFFECT': {
      const entry = { id: e.id, effect: e.effect, duration: e.duration ?? 'untilRemoved', since: ctx.turn, ...(e.controller === undefined ? {} : { controller: e.controller }) };
      return effect(ctx, { effects: [...ctx.effects, entry] });
    }
    case 'REMOVE_EFFECT':
      return effect(ctx, { effects: ctx.effects.filter((x) => x.id !== e.id) }, [{ type: 'effectEnded', id: e.id }]);
    case 'REMOVE_FROM_STACK':
      return removeFromStack(ctx, e);
    case 'PUT_ON_STACK': {
      // CR 707.10, 601.2: on the stack outside priority; a cast spell counts for day/night and spell limits.
      const patch: Partial<TurnContext> = { stack: [...ctx.stack, { ...e.object }], passed: [] };
      if (e.cast === true && e.object.kind === 'spell') patch.spellsCast = { ...ctx.spellsCast, [e.object.controller]: (ctx.spellsCast[e.object.controller] ?? 0) + 1 };
      return andThen(ctx, effect(ctx, patch), endYieldsOnStackChange);
    }
    case 'REMOVE_FROM_COMBAT':
      return ctx.combat === null ? NOTHING : effect(ctx, { combat: removedFromCombat(ctx.combat, e.id) });
    case 'SET_COMBAT_ABILITIES': {
      if (ctx.combat === null) return NOTHING;
      const abilities: { firstStrike?: boolean; doubleStrike?: boolean } = {};
      if (e.firstStrike !== undefined) abilities.firstStrike = e.firstStrike;
      if (e.doubleStrike !== undefined) abilities.doubleStrike = e.doubleStrike;
      return effect(ctx, { combat: withCombatAbilities(ctx.combat, e.id, abilities) });
    }
    case 'ADD_ATTACKER': {
      if (ctx.combat === null || isInCombat(ctx.combat, e.id)) return NOTHING;
      // CR 508.3a, 508.4: put onto the battlefield attacking; it was never declared, but it counts for 508.8.
      return effect(ctx, { combat: { ...ctx.combat, declared: true, attackers: [...ctx.combat.attackers, combatAttacker(e)] } });
    }
    case 'ADD_BLOCKER': {
      const attacker = ctx.combat?.attackers.find((a) => a.id === e.attacker);
      if (ctx.combat === null || attacker === undefined) return NOTHING;
      // CR 509.4: blocking without being declared; in damage assignment order it goes last.
      const block = { id: e.id, attacker: e.attacker, ...(e.firstStrike === undefined ? {} : { firstStrike: e.firstStrike }), ...(e.doubleStrike === undefined ? {} : { doubleStrike: e.doubleStrike }) };
      return effect(ctx, { combat: withBlock(ctx.combat, attacker.defender, block) });
    }
    case 'CONTROL_PLAYER':
      return effect(ctx, { controlNext: [...ctx.controlNext, { controller: e.controller, player: e.player }] });
    case 'SET_DAY_NIGHT':
      return ctx.dayNight === e.value ? effect(ctx, {}) : effect(ctx, { dayNight: e.value }, [{ type: 'dayNight', value: e.value }]);
    case 'SET_STOPS':
      return effect(ctx, { stops: { ...ctx.stops, [e.player]: e.stops === null ? null : e.stops.map((s) => ({ ...s })) } });
    case 'YIELD': {
      const yields = { ...ctx.yields };
      if (e.until === null) delete yields[e.player];
      else yields[e.player] = { until: e.until, evenIfStackChanges: e.evenIfStackChanges === true };
      // CONTRACT: a yield given by the player holding priority passes at once.
      const holds = e.until !== null && ctx.priority !== null && ctx.priority === unitOf(ctx, e.player);
      return effect(ctx, holds ? { yields, priorityFresh: true } : { yields });
    }
    default:
      return NOTHING;
  }
}

/**
 * A player leaves the game or the game ends (CR 104.2a, 104.3a, 104.4a, 800.4a): CONCEDE,
 * LOSE, WIN (every other player loses), DRAW_GAME. Who receives priority next is decided by
 * the caller.
 */
export function leaveEffect(ctx: TurnContext, e: EventOf<'CONCEDE' | 'LOSE' | 'WIN' | 'DRAW_GAME'>): Effect {
  if (e.type === 'DRAW_GAME') {
    const result = drawnGame(ctx);
    return effect(ctx, { result, priority: null }, [{ type: 'gameOver', winners: [], draw: true }]);
  }
  if (e.type === 'WIN') {
    // CR 104.2a, 801.14: every opponent (within the winner's range of influence) loses.
    const losers = losersWhenWinning(ctx, e.player);
    return sequence(ctx, ...losers.map((p) => (c: TurnContext) => (c.result !== null ? NOTHING : leaveOne(c, p, 'another player won'))));
  }
  // CR 104.2, 809.5, 810.8a-b: in team games the team leaves together (a general alone).
  const reason = e.type === 'CONCEDE' ? 'conceded' : (e.reason ?? 'lost');
  return sequence(ctx, ...leavingWith(ctx, e.player).map((p) => (c: TurnContext) => (c.result !== null ? NOTHING : leaveOne(c, p, reason))));
}

function leaveOne(ctx: TurnContext, player: string, reason: string): Effect {
  if (!ctx.players.includes(player)) return NOTHING;
  const { patch, endedEffects, removed } = leaveGame(ctx, player, reason);
  const emit: Parameters<typeof effect>[2] = [{ type: 'playerLeft', player, reason }];
  for (const object of removed.reverse()) emit.push({ type: 'removedFromStack', object: { ...object }, reason: 'removed' });
  for (const id of endedEffects) emit.push({ type: 'effectEnded', id });
  if (patch.result) emit.push({ type: 'gameOver', winners: [...patch.result.winners], draw: false });
  return effect(ctx, patch, emit);
}
