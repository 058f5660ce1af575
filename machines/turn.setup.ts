/**
 * The implementations the turn machine names: guards are predicates, actions are verbs.
 * Each is a one-line adapter over a pure rules function (src/rules/) or a pure effect
 * (turn.effects.ts, host.effects.ts); nothing here decides a rule by itself.
 */
import { assertEvent, enqueueActions, setup } from 'xstate';
import { attackViolation, awaitedDefender, blockViolation, orderDue } from '../src/rules/combat.js';
import { eraOf } from '../src/rules/eras.js';
import { isLastToPassWithObjectOnStack, isStepOver } from '../src/rules/priority.js';
import type { TurnPhaseName, TurnStepName } from './turn.types.js';
import { nextTurn } from '../src/rules/turnOrder.js';
import { autoPassReason } from '../src/rules/stops.js';
import { byUnits, unitOf } from '../src/rules/units.js';
import { bottomDue, mulliganDue, openingHandDue } from '../src/rules/pregame.js';
import * as pre from './pregame.effects.js';
import type { Effect } from './effect.js';
import { hostEffect } from './host.effects.js';
import { runtimeOf, type GameHooksRuntime } from './hooks.js';
import * as cx from './combat.effects.js';
import * as pri from './priority.effects.js';
import * as fx from './turn.effects.js';
import type { EmittedEvent, StepName, TurnContext, TurnEvent, TurnInput } from './turn.types.js';

type EventOf<T extends TurnEvent['type']> = Extract<TurnEvent, { type: T }>;

/** Narrows the event a guard or action was given (XState's assertEvent: throws on a mismatch). */
function eventOf<T extends TurnEvent['type']>(event: TurnEvent, type: T): EventOf<T> {
  assertEvent(event, type);
  return event as unknown as EventOf<T>;
}

type EffectOf<TParams> = (ctx: TurnContext, event: TurnEvent, runtime: GameHooksRuntime | undefined, params: TParams) => Effect;

/** Adapts a pure effect into an action: assign its patch, emit its events, raise what it raises. */
function perform<TParams extends Record<string, unknown> | undefined = undefined>(run: EffectOf<TParams>) {
  return enqueueActions<TurnContext, TurnEvent, TParams, TurnEvent, never, never, never, never, EmittedEvent>(({ context, event, self, enqueue }, params) => {
    const { patch, emit, raise } = run(context, event, runtimeOf(self), params);
    for (const _ in patch) {
      enqueue.assign(patch);
      break;
    }
    for (const e of emit) enqueue.emit(e);
    if (raise) for (const e of raise) enqueue.raise(e);
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
    // Steps and phases
    isStepOver: ({ context }) => isStepOver(byUnits(context)),
    isNextStepSkipped: ({ context }) => fx.isNextStepSkipped(context),
    isNextStep: ({ context }, params: { step: TurnStepName }) => fx.nextStepName(context) === params.step,
    isNextPhaseSkipped: ({ context }) => fx.isNextPhaseSkipped(context),
    isNextPhase: ({ context }, params: { phase: TurnPhaseName }) => fx.nextPhaseName(context) === params.phase,
    hasExtraTurn: ({ context }) => nextTurn(byUnits(context)).extra,
    wasCleanupActive: ({ context }) => context.cleanupCheck === 'active',
    isInCombatPhase: ({ context }) => context.phase === 'combat',
    // Priority
    isLastToPassWithObjectOnStack: ({ context, event }) => isLastToPassWithObjectOnStack(byUnits(context), unitOf(context, eventOf(event, 'PASS_PRIORITY').player)),
    // Combat
    hasNoDefenderChoiceDue: ({ context }) => !cx.isDefenderChoiceDue(context),
    hasNoAttackDeclarationDue: ({ context }) => context.result === null && context.activePlayer === null,
    isLegalAttack: ({ context, event }) => attackViolation(context, eventOf(event, 'DECLARE_ATTACKERS').player, eventOf(event, 'DECLARE_ATTACKERS').attackers) === null,
    skipsRestOfStepWithoutAttackers: ({ context }) => cx.skipsRestOfDeclareAttackersStep(context),
    hasNoBlockDeclarationDue: ({ context }) => context.result === null && awaitedDefender(context) === null,
    isLegalBlock: ({ context, event }) => blockViolation(context, eventOf(event, 'DECLARE_BLOCKERS').player, eventOf(event, 'DECLARE_BLOCKERS').blockers) === null,
    hasNoOrderDue: ({ context }) => context.result === null && !(eraOf(context).damageAssignmentOrder && orderDue(context) !== null),
    // Cleanup
    hasNoDiscardDue: ({ context }) => context.result === null && !fx.isDiscardDue(context),
    isGameOver: ({ context }) => context.result !== null,
    hasPregame: ({ context }) => context.pregame !== null,
    isBottomDue: ({ context }) => bottomDue(context) !== null,
    hasEveryoneKept: ({ context }) => mulliganDue(context) === null,
    hasOpeningHandsDone: ({ context }) => openingHandDue(context) === null,
    shouldAutoPass: ({ context }) => autoPassReason(context) !== null,
  },
  actions: {
    beginFirstTurn: perform((ctx) => fx.beginFirstTurn(ctx)),
    beginTurn: perform((ctx) => fx.beginTurn(ctx)),
    beginPhase: perform((ctx) => fx.beginPhase(ctx)),
    passOverPhase: perform((ctx) => fx.passOverPhase(ctx)),
    takeNextStep: perform((ctx) => fx.takeNextStep(ctx)),
    passOverStep: perform((ctx) => fx.passOverStep(ctx)),
    beginStep: perform<{ step: StepName }>((ctx, _e, _r, p) => fx.beginStep(ctx, p.step)),
    phaseInPermanents: perform((ctx) => fx.phaseIn(ctx)),
    checkDayNight: perform((ctx) => fx.checkDayNight(ctx)),
    untapActivePlayer: perform((ctx) => fx.untapActivePlayer(ctx)),
    drawForTurn: perform((ctx) => fx.drawForTurn(ctx)),
    beginPrecombatMain: perform((ctx) => fx.beginPrecombatMain(ctx)),
    givePriorityToActivePlayer: perform((ctx, _e, r) => pri.givePriorityToActivePlayer(ctx, r)),
    keepPriority: perform((ctx, _e, r) => pri.keepPriority(ctx, r)),
    autoPassPriority: perform((ctx, _e, r) => pri.autoPassPriority(ctx, r)),
    passPriority: perform((ctx, e, r) => pri.passPriority(ctx, r, eventOf(e, 'PASS_PRIORITY').player)),
    resolveTopOfStack: perform((ctx, _e, r) => pri.resolveTopOfStack(ctx, r)),
    castSpell: perform((ctx, e) => pri.castOrActivate(ctx, eventOf(e, 'CAST_SPELL').player, eventOf(e, 'CAST_SPELL').id, 'spell')),
    activateAbility: perform((ctx, e) => pri.castOrActivate(ctx, eventOf(e, 'ACTIVATE_ABILITY').player, eventOf(e, 'ACTIVATE_ABILITY').id, 'ability')),
    playLand: perform((ctx) => pri.playLand(ctx)),
    beginCombat: perform((ctx) => cx.beginCombat(ctx)),
    endCombat: perform((ctx, e) => cx.endCombatAsPhaseIsLeft(ctx, e)),
    chooseDefender: perform((ctx, e) => cx.chooseDefender(ctx, eventOf(e, 'CHOOSE_DEFENDER').defender)),
    declareAttackers: perform((ctx, e) => cx.declareAttackers(ctx, eventOf(e, 'DECLARE_ATTACKERS').attackers)),
    markAttacksDeclared: perform((ctx) => cx.markAttacksDeclared(ctx)),
    declareBlockers: perform((ctx, e) => cx.declareBlockers(ctx, eventOf(e, 'DECLARE_BLOCKERS').player, eventOf(e, 'DECLARE_BLOCKERS').blockers)),
    orderBlockers: perform((ctx, e) => cx.orderBlockers(ctx, eventOf(e, 'ORDER_BLOCKERS').attacker, eventOf(e, 'ORDER_BLOCKERS').order)),
    orderAttackers: perform((ctx, e) => cx.orderAttackers(ctx, eventOf(e, 'ORDER_ATTACKERS').blocker, eventOf(e, 'ORDER_ATTACKERS').order)),
    dealCombatDamage: perform<{ first: boolean }>((ctx, _e, _r, p) => cx.dealCombatDamage(ctx, p.first)),
    emptyManaPools: perform<{ at: 'step' | 'phase' }>((ctx, _e, _r, p) => fx.emptyManaPools(ctx, p.at)),
    discardToHandSize: perform((ctx, e) => fx.discardToHandSize(ctx, eventOf(e, 'DISCARD').count)),
    endTurnEffects: perform((ctx) => fx.endTurnEffects(ctx)),
    checkCleanup: perform((ctx, _e, r) => fx.checkCleanup(ctx, r)),
    endTheTurnOrCombat: perform((ctx, _e, r) => fx.endTheTurnOrCombat(ctx, r)),
    skipToCleanup: perform((ctx) => fx.skipToCleanup(ctx)),
    addTriggers: perform((ctx, e, r) => pri.addTriggers(ctx, r, eventOf(e, 'TRIGGER').triggers)),
    orderTriggers: perform((ctx, e, r) => pri.orderTriggers(ctx, r, eventOf(e, 'ORDER_TRIGGERS').player, eventOf(e, 'ORDER_TRIGGERS').order)),
    chooseStartingPlayer: perform((ctx, e) => pre.chooseStartingPlayer(ctx, eventOf(e, 'CHOOSE_STARTING_PLAYER').starting)),
    takeMulligan: perform((ctx, e) => pre.takeMulligan(ctx, eventOf(e, 'MULLIGAN').player)),
    keepHand: perform((ctx, e) => pre.keepHand(ctx, eventOf(e, 'KEEP').player)),
    putOnBottom: perform((ctx, e) => pre.putOnBottom(ctx, eventOf(e, 'BOTTOM').player, eventOf(e, 'BOTTOM').count)),
    finishOpeningHand: perform((ctx, e) => pre.finishOpeningHand(ctx, eventOf(e, 'OPENING_HAND_DONE').player)),
    rollPlanarDie: perform((ctx, e, r) => pri.rollPlanarDie(ctx, r, eventOf(e, 'ROLL_PLANAR_DIE').player)),
    applyHostEvent: perform((ctx, e) => hostEffect(ctx, e)),
    removePlayer: perform((ctx, e, r) => pri.removePlayer(ctx, r, e as EventOf<'CONCEDE' | 'LOSE' | 'WIN' | 'DRAW_GAME'>)),
  },
});
