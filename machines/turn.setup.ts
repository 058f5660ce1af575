/**
 * The implementations the turn machine names: guards are predicates, actions are verbs.
 * Each is a one-line adapter over a pure rules function (src/rules/) or a pure effect
 * (turn.effects.ts); nothing here decides a rule by itself.
 */
import { assertEvent, assign, enqueueActions, setup } from 'xstate';
import { discardDue } from '../src/rules/cleanup.js';
import { attackViolation, awaitedDefender, blockViolation, hasAttackers, hasFirstStrikeCombatant } from '../src/rules/combat.js';
import { spendViolation } from '../src/rules/mana.js';
import { allPlayersPassed, isStepOver } from '../src/rules/priority.js';
import { MAX_PENDING_EXTRA_PHASES, MAX_PENDING_EXTRA_TURNS, MAX_PENDING_SKIPS, isFirstMainPhase, nextPhase } from '../src/rules/schedule.js';
import { castViolation, landViolation } from '../src/rules/timing.js';
import { nextTurn } from '../src/rules/turnOrder.js';
import { hooksOf } from './hooks.js';
import * as fx from './turn.effects.js';
import type { CheckpointHook, EmittedEvent, PhaseKind, PhaseName, StepName, TurnContext, TurnEvent, TurnInput } from './turn.types.js';

type EventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

/** Narrows the event a guard or action was given (XState's assertEvent: throws on a mismatch). */
function eventOf<T extends TurnEvent['type']>(event: TurnEvent, type: T): EventOf<T> {
  assertEvent(event, type);
  return event as unknown as EventOf<T>;
}

/** The checkpoint hook of the game this actor runs. */
function hookOf(self: object): CheckpointHook | undefined {
  return hooksOf(self)?.checkpoint;
}

/** Whether an object has any own enumerable key (without allocating a list of them). */
function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

type EffectOf<TParams> = (ctx: TurnContext, event: TurnEvent, hook: CheckpointHook | undefined, params: TParams) => fx.Effect;

/**
 * Adapts a pure effect into an action: assign its patch, then emit its events. A patch
 * with no keys is not assigned (it would only copy the context).
 */
function perform<TParams extends Record<string, unknown> | undefined = undefined>(effect: EffectOf<TParams>) {
  return enqueueActions<TurnContext, TurnEvent, TParams, TurnEvent, never, never, never, never, EmittedEvent>(
    ({ context, event, self, enqueue }, params) => {
      const { patch, emit } = effect(context, event, hookOf(self), params);
      if (hasKeys(patch)) enqueue.assign(patch);
      for (const e of emit) enqueue.emit(e);
    },
  );
}

/**
 * Adapts a pure effect that never emits into a plain `assign` (cheaper than `perform`:
 * no queue of actions to build and resolve).
 */
function update<TParams extends Record<string, unknown> | undefined = undefined>(effect: EffectOf<TParams>) {
  return assign<TurnContext, TurnEvent, TParams, TurnEvent, never>(({ context, event, self }, params) => {
    const { patch, emit } = effect(context, event, hookOf(self), params);
    if (emit.length > 0) throw new Error('an effect adapted with update() emitted events; adapt it with perform()');
    return patch;
  });
}

export const turnSetup = setup({
  types: {
    context: {} as TurnContext,
    events: {} as TurnEvent,
    input: {} as TurnInput,
    emitted: {} as EmittedEvent,
  },
  guards: {
    // Step and phase boundaries
    isStepOver: ({ context }) => isStepOver(context),
    hasAttackers: ({ context }) => hasAttackers(context),
    hasFirstStrikeCombatant: ({ context }) => hasFirstStrikeCombatant(context),
    isNextPhase: ({ context }, params: { phase: PhaseKind }) => nextPhase(context) === params.phase,
    isNextPhaseFirstMain: ({ context }) => nextPhase(context) === 'main' && isFirstMainPhase(context),
    isTurnOver: ({ context }) => nextPhase(context) === null,
    hasExtraTurn: ({ context }) => nextTurn(context).extra,
    wasCleanupActive: ({ context }) => context.cleanupCheck === 'active',
    // Priority
    holdsPriority: ({ context, event }) => context.priority === eventOf(event, 'PASS_PRIORITY').player,
    isLastToPassWithObjectOnStack: ({ context, event }) =>
      context.priority === eventOf(event, 'PASS_PRIORITY').player &&
      context.stack.length > 0 &&
      allPlayersPassed({ players: context.players, passed: [...context.passed, context.priority] }),
    canCastSpell: ({ context, event }) => {
      const e = eventOf(event, 'CAST_SPELL');
      return castViolation(context, e.player, e.speed, 'spell') === null;
    },
    canActivateAbility: ({ context, event }) => {
      const e = eventOf(event, 'ACTIVATE_ABILITY');
      return castViolation(context, e.player, e.speed, 'ability') === null;
    },
    canPlayLand: ({ context, event }) => landViolation(context, eventOf(event, 'PLAY_LAND').player) === null,
    // Combat
    // A finished game awaits nothing, and leaves no step (the root's isGameOver ends it).
    hasNoAttackDeclarationDue: ({ context }) => context.winners === null && (context.skipping !== null || context.activePlayer === null),
    isLegalAttack: ({ context, event }) => {
      const e = eventOf(event, 'DECLARE_ATTACKERS');
      return e.player === context.activePlayer && attackViolation(context, e.player, e.attackers) === null;
    },
    isLegalBlock: ({ context, event }) => {
      const e = eventOf(event, 'DECLARE_BLOCKERS');
      return e.player === awaitedDefender(context) && blockViolation(context, e.player, e.blockers) === null;
    },
    hasNoBlockDeclarationDue: ({ context }) => context.winners === null && (context.skipping !== null || awaitedDefender(context) === null),
    // Cleanup
    hasNoDiscardDue: ({ context }) => context.winners === null && discardDue(context) === 0,
    isDiscardDue: ({ context, event }) => {
      const e = eventOf(event, 'DISCARD');
      return e.player === context.activePlayer && e.count === discardDue(context);
    },
    // Host bookkeeping
    isPlayerInGame: ({ context, event }) => 'player' in event && context.players.includes(event.player),
    canSpendMana: ({ context, event }) => {
      const e = eventOf(event, 'SPEND_MANA');
      return spendViolation(context, e.player, e.amount) === null;
    },
    canAddExtraTurn: ({ context, event }) =>
      context.players.includes(eventOf(event, 'ADD_EXTRA_TURN').player) && context.extraTurns.length < MAX_PENDING_EXTRA_TURNS,
    canAddExtraCombat: ({ context }) => context.extraPhases.length + 2 <= MAX_PENDING_EXTRA_PHASES,
    canSkipNext: ({ context, event }) => {
      const e = eventOf(event, 'SKIP_NEXT');
      return context.players.includes(e.player) && (context.skips[e.player]?.[e.what] ?? 0) < MAX_PENDING_SKIPS;
    },
    isGameOver: ({ context }) => context.winners !== null,
  },
  actions: {
    announceFirstTurn: perform((ctx) => fx.announceFirstTurn(ctx)),
    beginStep: perform<{ phase: PhaseName; step: StepName }>((ctx, _e, _h, p) => fx.beginStep(ctx, p.phase, p.step)),
    recordSkips: update<{ phase: PhaseName; steps: StepName[]; rule: string }>((ctx, _e, _h, p) => fx.recordSkips(ctx, p.phase, p.steps, p.rule)),
    beginPhase: update((ctx) => fx.beginPhase(ctx)),
    beginTurn: perform((ctx) => fx.beginTurn(ctx)),
    untapActivePlayer: perform((ctx) => fx.untapActivePlayer(ctx)),
    drawForTurn: perform((ctx) => fx.drawForTurn(ctx)),
    givePriorityToActivePlayer: update((ctx, _e, hook) => fx.givePriorityToActivePlayer(ctx, hook)),
    keepPriority: update((ctx, _e, hook) => fx.keepPriority(ctx, hook)),
    passPriority: update((ctx, e, hook) => fx.passPriority(ctx, hook, eventOf(e, 'PASS_PRIORITY').player)),
    resolveTopOfStack: perform((ctx) => fx.resolveTopOfStack(ctx)),
    castSpell: update((ctx, e) => fx.putOnStack(ctx, eventOf(e, 'CAST_SPELL').player, eventOf(e, 'CAST_SPELL').id, 'spell')),
    activateAbility: update((ctx, e) => fx.putOnStack(ctx, eventOf(e, 'ACTIVATE_ABILITY').player, eventOf(e, 'ACTIVATE_ABILITY').id, 'ability')),
    playLand: update((ctx) => fx.playLand(ctx)),
    beginCombat: update(() => fx.beginCombat()),
    endCombat: update(() => fx.endCombat()),
    skipRestOfStepWithoutAttackers: update((ctx) => fx.skipRestOfStepWithoutAttackers(ctx)),
    declareAttackers: update((ctx, e) => fx.declareAttackers(ctx, eventOf(e, 'DECLARE_ATTACKERS').attackers)),
    declareBlockers: update((ctx, e) => fx.declareBlockers(ctx, eventOf(e, 'DECLARE_BLOCKERS').player, eventOf(e, 'DECLARE_BLOCKERS').blockers)),
    dealCombatDamage: perform<{ first: boolean }>((ctx, _e, _h, p) => fx.dealCombatDamage(ctx, p.first)),
    emptyManaPools: perform<{ at: 'step' | 'phase' }>((ctx, _e, _h, p) => fx.emptyManaPools(ctx, p.at)),
    discardToHandSize: perform((ctx) => fx.discardToHandSize(ctx)),
    endTurnEffects: perform((ctx) => fx.endTurnEffects(ctx)),
    checkCleanup: update((ctx, _e, hook) => fx.checkCleanup(ctx, hook)),
    addTriggers: update((ctx, e, hook) => fx.addTriggers(ctx, hook, eventOf(e, 'TRIGGER').triggers)),
    setHandSize: update((ctx, e) => fx.setHandSize(ctx, eventOf(e, 'HAND_SIZE').player, eventOf(e, 'HAND_SIZE').size)),
    addMana: update((ctx, e) => fx.changeMana(ctx, eventOf(e, 'ADD_MANA').player, eventOf(e, 'ADD_MANA').amount)),
    spendMana: update((ctx, e) => fx.changeMana(ctx, eventOf(e, 'SPEND_MANA').player, -eventOf(e, 'SPEND_MANA').amount)),
    addExtraTurn: update((ctx, e) => fx.addExtraTurn(ctx, eventOf(e, 'ADD_EXTRA_TURN').player)),
    addExtraCombat: update((ctx, e) => fx.addCombatPhase(ctx, eventOf(e, 'ADD_EXTRA_COMBAT').followedByMain !== false)),
    skipNext: update((ctx, e) => fx.skipNext(ctx, eventOf(e, 'SKIP_NEXT').player, eventOf(e, 'SKIP_NEXT').what)),
    removePlayer: perform((ctx, e, hook) => fx.removePlayer(ctx, hook, eventOf(e, 'CONCEDE').player)),
  },
});
