/**
 * What the host's events do to the game: bookkeeping, effects that change the turn, the
 * stack, combat updates, control and results. Pure functions of the context; the machine's
 * actions and the checkpoint (for events a hook returns) are adapters over these.
 */
import { isInCombat, removedFromCombat, withBlock, withCombatAbilities, combatAttacker } from '../src/rules/combat.js';
import { drawnGame, leaveGame } from '../src/rules/leaving.js';
import { drawingWith, leavingWith, losersWhenWinning } from '../src/rules/teams.js';
import { addPhases, addStep, getsOnThisTurn, kindOf, kindOfStep, newPhase } from '../src/rules/schedule.js';
import { withSkipCount } from '../src/rules/turnOrder.js';
import { unitOf } from '../src/rules/units.js';
import { DECISIONS, type HostEffectType } from '../src/events/index.js';
import { andThen, effect, sequence, NOTHING, type Effect } from './effect.js';
import { endYieldsOnStackChange } from './yields.js';
import type { TurnEvent } from '../src/contract.js';
import type { MachineEvent, TurnContext } from '../src/state.js';

type EventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

/**
 * Whether an event reports what the host's cards did (CONTRACT: host events), rather than a
 * player's decision or concession (CR 104.3a: conceding is the player's own choice; the cards make
 * a player lose with LOSE). Stops and yields, a player's settings, a host may apply.
 */
export function isHostEvent(type: string): boolean {
  return !DECISIONS.has(type as TurnEvent['type']) && type !== 'CONCEDE';
}

/** The stack with an object removed, and the event that says so (CR 701.6, 608.2b). */
export function removeFromStack(ctx: TurnContext, e: EventOf<'REMOVE_FROM_STACK'>): Effect {
  const object = ctx.stack.find((o) => o.id === e.id);
  if (object === undefined) return NOTHING;
  return effect(ctx, { stack: ctx.stack.filter((o) => o !== object) }, [{ type: 'removedFromStack', object: { ...object }, reason: e.reason ?? 'removed' }]);
}

/** The mana in a player's pool changed by `delta` (CR 106.4). */
function changeMana(ctx: TurnContext, player: string, delta: number): Effect {
  return delta === 0 ? NOTHING : effect(ctx, { manaPool: { ...ctx.manaPool, [player]: (ctx.manaPool[player] ?? 0) + delta } });
}

/**
 * What each host event that needs no priority does: bookkeeping (mana, hand sizes), what the
 * turn will be (extra turns, phases and steps, skips, effects), the stack outside priority,
 * combat updates, control, day/night, stops and yields. One entry for every event whose record
 * says `hostEffect` (the compiler checks); legality is checked before (the record's `legality`).
 */
const HOST_EFFECTS: { [T in HostEffectType]: (ctx: TurnContext, e: EventOf<T>) => Effect } = {
  HAND_SIZE: (ctx, e) => effect(ctx, { handSizes: { ...ctx.handSizes, [e.player]: e.size } }),
  ADD_MANA: (ctx, e) => changeMana(ctx, e.player, e.amount),
  SPEND_MANA: (ctx, e) => changeMana(ctx, e.player, -e.amount),
  // CR 500.7, 805.8: the most recently created extra turn is taken first.
  ADD_EXTRA_TURN: (ctx, e) => effect(ctx, { extraTurns: [...ctx.extraTurns, e.id === undefined ? { player: unitOf(ctx, e.player) } : { player: unitOf(ctx, e.player), id: e.id }] }),
  ADD_EXTRA_COMBAT: (ctx, e) => {
    // CR 500.8: an additional combat phase, followed by an additional main phase unless told otherwise.
    const added = e.followedByMain === false ? [newPhase('combat', true)] : [newPhase('combat', true), newPhase('main', true)];
    const phases = addPhases(ctx, added, e.after);
    return 'rule' in phases ? NOTHING : effect(ctx, { phases });
  },
  ADD_EXTRA_PHASE: (ctx, e) => {
    if (!getsOnThisTurn(ctx, e.player)) return NOTHING; // CR 500.10a, 805.8
    const phases = addPhases(ctx, [newPhase(kindOf(e.phase), true)], e.after);
    return 'rule' in phases ? NOTHING : effect(ctx, { phases });
  },
  ADD_EXTRA_STEP: (ctx, e) => {
    if (!getsOnThisTurn(ctx, e.player)) return NOTHING; // CR 500.10a, 805.8
    if (e.afterPhase !== undefined) {
      // CR 500.10: a new phase of the step's kind with only that step, directly after the phase.
      const phases = addPhases(ctx, [newPhase(kindOfStep(e.step), true, e.step)], e.afterPhase);
      return 'rule' in phases ? NOTHING : effect(ctx, { phases });
    }
    const where = e.before !== undefined ? { before: e.before } : e.after !== undefined ? { after: e.after } : {};
    const added = addStep(ctx, e.step, where);
    return 'rule' in added ? NOTHING : effect(ctx, added);
  },
  SKIP_NEXT: (ctx, e) => {
    const unit = unitOf(ctx, e.player); // CR 805.8: with shared team turns, the team's
    return effect(ctx, { skips: withSkipCount(ctx.skips, unit, e.what, (ctx.skips[unit]?.[e.what] ?? 0) + 1) });
  },
  ADD_EFFECT: (ctx, e) => {
    const entry = { id: e.id, effect: e.effect, duration: e.duration ?? 'untilRemoved', since: ctx.turn, ...(e.controller === undefined ? {} : { controller: e.controller }) };
    return effect(ctx, { effects: [...ctx.effects, entry] });
  },
  REMOVE_EFFECT: (ctx, e) => (ctx.effects.some((x) => x.id === e.id) ? effect(ctx, { effects: ctx.effects.filter((x) => x.id !== e.id) }, [{ type: 'effectEnded', id: e.id }]) : NOTHING),
  REMOVE_FROM_STACK: (ctx, e) => removeFromStack(ctx, e),
  PUT_ON_STACK: (ctx, e) => {
    // CR 707.10, 601.2: on the stack outside priority; whatever is cast counts for day/night and spell limits,
    // a copy cast included (707.12: a copy of a card that is cast is a spell cast; CONTRACT "Turn-changing effects").
    const patch: Partial<TurnContext> = { stack: [...ctx.stack, { ...e.object }], passed: [] };
    if (e.cast === true) patch.spellsCast = { ...ctx.spellsCast, [e.object.controller]: (ctx.spellsCast[e.object.controller] ?? 0) + 1 };
    return andThen(ctx, effect(ctx, patch), endYieldsOnStackChange);
  },
  REMOVE_FROM_COMBAT: (ctx, e) => (ctx.combat === null || !isInCombat(ctx.combat, e.id) ? NOTHING : effect(ctx, { combat: removedFromCombat(ctx.combat, e.id) })),
  SET_COMBAT_ABILITIES: (ctx, e) => {
    if (ctx.combat === null) return NOTHING;
    const abilities: { firstStrike?: boolean; doubleStrike?: boolean } = {};
    if (e.firstStrike !== undefined) abilities.firstStrike = e.firstStrike;
    if (e.doubleStrike !== undefined) abilities.doubleStrike = e.doubleStrike;
    return effect(ctx, { combat: withCombatAbilities(ctx.combat, e.id, abilities) });
  },
  ADD_ATTACKER: (ctx, e) => {
    if (ctx.combat === null || isInCombat(ctx.combat, e.id)) return NOTHING;
    // CR 508.3a, 508.4: put onto the battlefield attacking; it was never declared, but it counts for 508.8.
    return effect(ctx, { combat: { ...ctx.combat, declared: true, attackers: [...ctx.combat.attackers, combatAttacker(e)] } });
  },
  ADD_BLOCKER: (ctx, e) => {
    const attacker = ctx.combat?.attackers.find((a) => a.id === e.attacker);
    if (ctx.combat === null || attacker === undefined) return NOTHING;
    // CR 509.4: blocking without being declared; in damage assignment order it goes last.
    const block = { id: e.id, attacker: e.attacker, ...(e.firstStrike === undefined ? {} : { firstStrike: e.firstStrike }), ...(e.doubleStrike === undefined ? {} : { doubleStrike: e.doubleStrike }) };
    return effect(ctx, { combat: withBlock(ctx.combat, attacker.defender, block) });
  },
  CONTROL_PLAYER: (ctx, e) => effect(ctx, { controlNext: [...ctx.controlNext, { controller: e.controller, player: e.player }] }),
  SET_DAY_NIGHT: (ctx, e) => (ctx.dayNight === e.value ? effect(ctx, {}) : effect(ctx, { dayNight: e.value }, [{ type: 'dayNight', value: e.value }])),
  SET_STOPS: (ctx, e) => effect(ctx, { stops: { ...ctx.stops, [e.player]: e.stops === null ? null : e.stops.map((s) => ({ ...s })) } }),
  YIELD: (ctx, e) => {
    const yields = { ...ctx.yields };
    if (e.until === null) delete yields[e.player];
    else yields[e.player] = { until: e.until, evenIfStackChanges: e.evenIfStackChanges === true };
    // CONTRACT: a yield given by the player holding priority passes at once.
    const holds = e.until !== null && ctx.priority !== null && ctx.priority === unitOf(ctx, e.player);
    return effect(ctx, holds ? { yields, priorityFresh: true } : { yields });
  },
};

/**
 * A host event that needs no priority ({@link HOST_EFFECTS}), as the chart's `applyHostEvent`
 * and a checkpoint hook's result apply it. Any other event is a mistake of the caller: it throws.
 */
export function hostEffect(ctx: TurnContext, e: MachineEvent): Effect {
  const run = HOST_EFFECTS[e.type as HostEffectType] as ((ctx: TurnContext, e: MachineEvent) => Effect) | undefined;
  if (run === undefined) throw new Error(`hostEffect: ${e.type} is not a host event it applies`);
  return run(ctx, e);
}

/**
 * A player leaves the game or the game ends (CR 104.2a, 104.3a, 104.4a, 800.4a): CONCEDE,
 * LOSE, WIN (every other player loses), DRAW_GAME. Who receives priority next is decided by
 * the caller.
 */
export function leaveEffect(ctx: TurnContext, e: EventOf<'CONCEDE' | 'LOSE' | 'WIN' | 'DRAW_GAME'>): Effect {
  if (e.type === 'DRAW_GAME') {
    // CR 801.15, 809.5c: with a limited range of influence the game is a draw for the effect's
    // controller and the players within their range: they leave, the others play on.
    const drawn = drawingWith(ctx, e.player);
    if (drawn.length < ctx.players.length) return leaveAll(ctx, drawn, 'draw');
    const result = drawnGame(ctx);
    return effect(ctx, { result, priority: null }, [{ type: 'gameOver', winners: [], draw: true }]);
  }
  if (e.type === 'WIN') {
    // CR 104.2a, 801.14: every opponent (within the winner's range of influence) loses.
    const losers = losersWhenWinning(ctx, e.player);
    return leaveAll(ctx, losers, 'another player won');
  }
  // CR 104.2, 809.5, 810.8a-b: in Two-Headed Giant and Emperor the team leaves together (a general alone).
  const reason = e.type === 'CONCEDE' ? 'conceded' : (e.reason ?? 'lost');
  return leaveAll(ctx, leavingWith(ctx, e.player), reason);
}

/** Players leaving at once (CR 104.2a, 801.14, 801.15, 810.8a): the game ends, if it does, as the last of them leaves. */
function leaveAll(ctx: TurnContext, players: readonly string[], reason: string): Effect {
  return sequence(ctx, ...players.map((p, i) => (c: TurnContext) => leaveOne(c, p, reason, i === players.length - 1)));
}

/** `player` leaves; `last` false when others leave with them, after them. */
function leaveOne(ctx: TurnContext, player: string, reason: string, last: boolean): Effect {
  if (!ctx.players.includes(player)) return NOTHING;
  const { patch, removed } = leaveGame(ctx, player, reason);
  if (!last) patch.result = null;
  const emit: Parameters<typeof effect>[2] = [{ type: 'playerLeft', player, reason }];
  for (const object of removed.reverse()) emit.push({ type: 'removedFromStack', object: { ...object }, reason: 'removed' });
  if (patch.result) emit.push({ type: 'gameOver', winners: [...patch.result.winners], draw: false });
  return effect(ctx, patch, emit);
}
