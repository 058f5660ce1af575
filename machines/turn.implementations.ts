/**
 * What the chart's names stand for: the guards (predicates) and the actions' effects (verbs),
 * each a one-line adapter over a pure rules function (src/rules/) or a pure effect
 * (turn.effects.ts, host.effects.ts, ...); nothing here decides a rule by itself. Free of
 * XState: `setup()` (turn.setup.ts) wraps these tables for the chart, and the compiled runtime
 * (src/compiled/) links the generated plan to these very functions, so both run the same code.
 */
import { attackViolation, awaitedDefender, blockViolation, orderDue } from '../src/rules/combat.js';
import { eraOf } from '../src/rules/eras.js';
import { hasNoAttackers, hasNoFirstStrike, isFirstDrawSkipped, isOtherStepOfAddedPhase, isSkippedByEffect, type StepSkipRule } from '../src/rules/schedule.js';
import { isLastToPassWithObjectOnStack, isStepOver } from '../src/rules/priority.js';
import type { StepName, TurnPhaseName, TurnStepName } from '../src/contract.js';
import type { MachineEvent, TurnContext } from '../src/state.js';
import { nextTurn } from '../src/rules/turnOrder.js';
import { autoPassReason } from '../src/rules/stops.js';
import { byPriority, byUnits, unitOf } from '../src/rules/units.js';
import { bottomDue, mulliganDue, openingHandDue } from '../src/rules/pregame.js';
import * as pre from './pregame.effects.js';
import type { Effect } from './effect.js';
import { hostEffect } from './host.effects.js';
import type { GameHooksRuntime } from './hooks.js';
import * as cx from './combat.effects.js';
import * as pri from './priority.effects.js';
import * as fx from './turn.effects.js';

type EventOf<T extends MachineEvent['type']> = Extract<MachineEvent, { type: T }>;

/** Narrows the event a guard or action was given; throws on a mismatch (as XState's assertEvent does). */
function eventOf<T extends MachineEvent['type']>(event: MachineEvent, type: T): EventOf<T> {
  if (event.type !== type) throw new Error(`Expected event ${JSON.stringify(type)}, got event ${JSON.stringify(event.type)}`);
  return event as EventOf<T>;
}

/** What an action does, as a pure function of the context, the event, the game's hooks runtime and the action's params. */
export type EffectOf<TParams> = (ctx: TurnContext, event: MachineEvent, runtime: GameHooksRuntime | undefined, params: TParams) => Effect;

/**
 * The guards the chart names: plain predicates over the context and the event. `setup()` below
 * and the compiled runtime (src/compiled/) call these very functions.
 */
/** What a guard reads: the context and event; the compiled runtime also gives the hooks runtime (the chart's XState guards have none). */
type GuardArgs = { context: TurnContext; event: MachineEvent; runtime?: GameHooksRuntime | undefined };
export const GUARDS = {
  // Steps and phases
  isStepOver: ({ context }) => isStepOver(byPriority(context)),
  // What passes over the next step, each as its rule says (src/rules/schedule.ts; the chart lists them in the order they are checked).
  isOtherStepOfAddedPhase: ({ context }) => fx.isNextStepSkippedBy(context, isOtherStepOfAddedPhase),
  isFirstDrawSkipped: ({ context }) => fx.isNextStepSkippedBy(context, isFirstDrawSkipped),
  hasNoAttackers: ({ context }) => fx.isNextStepSkippedBy(context, hasNoAttackers),
  hasNoFirstStrike: ({ context }) => fx.isNextStepSkippedBy(context, hasNoFirstStrike),
  isSkippedByEffect: ({ context }) => fx.isNextStepSkippedBy(context, isSkippedByEffect),
  isNextStep: ({ context }, params: { step: TurnStepName }) => fx.nextStepName(context) === params.step,
  isNextPhaseSkipped: ({ context }) => fx.isNextPhaseSkipped(context),
  isNextPhase: ({ context }, params: { phase: TurnPhaseName }) => fx.nextPhaseName(context) === params.phase,
  hasExtraTurn: ({ context }) => nextTurn(byUnits(context)).extra,
  wasCleanupActive: ({ context }) => context.cleanupCheck === 'active',
  // Priority
  isLastToPassWithObjectOnStack: ({ context, event }) => isLastToPassWithObjectOnStack(byPriority(context), unitOf(context, eventOf(event, 'PASS_PRIORITY').player)),
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
  // CR 807.4c: in Grand Melee the turn marker passes when the turn ends; the coordinator begins its next turn.
  isTurnMarkerPassing: ({ context }) => context.variant === 'grandMelee',
  hasPregame: ({ context }) => context.pregame !== null,
  isBottomDue: ({ context }) => bottomDue(context) !== null,
  hasNothingToBottom: ({ context }) => bottomDue(context) === null,
  hasEveryoneKept: ({ context }) => mulliganDue(context) === null,
  hasOpeningHandsDone: ({ context }) => openingHandDue(context) === null,
  // CONTRACT v3: with hooks.autoPass the host, and in a shortcut the table, may pass for the player (priority.effects.ts decides, once).
  shouldAutoPass: ({ context, runtime }) => autoPassReason(context) !== null || pri.mayBePassedFor(context, runtime),
} satisfies Record<string, (args: GuardArgs, params: never) => boolean>;

/**
 * The effect of every action the chart names. `setup()` wraps each in {@link perform}; the
 * compiled runtime (src/compiled/) calls them directly, so both run the same code.
 */
export const ACTION_EFFECTS = {
  beginFirstTurn: (ctx) => fx.beginFirstTurn(ctx),
  beginTurn: (ctx) => fx.beginTurn(ctx),
  beginPhase: (ctx) => fx.beginPhase(ctx),
  passOverPhase: (ctx) => fx.passOverPhase(ctx),
  takeNextStep: (ctx) => fx.takeNextStep(ctx),
  passOverStep: (ctx, _e, _r, p: { rule: StepSkipRule }) => fx.passOverStep(ctx, p.rule),
  beginStep: (ctx, _e, _r, p: { step: StepName }) => fx.beginStep(ctx, p.step),
  phaseInPermanents: (ctx) => fx.phaseIn(ctx),
  checkDayNight: (ctx) => fx.checkDayNight(ctx),
  untapActivePlayer: (ctx) => fx.untapActivePlayer(ctx),
  drawForTurn: (ctx) => fx.drawForTurn(ctx),
  beginPrecombatMain: (ctx) => fx.beginPrecombatMain(ctx),
  givePriorityToActivePlayer: (ctx, _e, r) => pri.givePriorityToActivePlayer(ctx, r),
  keepPriority: (ctx, _e, r) => pri.keepPriority(ctx, r),
  autoPassPriority: (ctx, _e, r) => pri.autoPassPriority(ctx, r),
  passPriority: (ctx, e, r) => pri.passSent(ctx, r, eventOf(e, 'PASS_PRIORITY').player),
  resolveTopOfStack: (ctx, _e, r) => pri.resolveTopOfStack(ctx, r),
  castSpell: (ctx, e) => pri.castOrActivate(ctx, eventOf(e, 'CAST_SPELL').player, eventOf(e, 'CAST_SPELL').id, 'spell'),
  activateAbility: (ctx, e) => pri.castOrActivate(ctx, eventOf(e, 'ACTIVATE_ABILITY').player, eventOf(e, 'ACTIVATE_ABILITY').id, 'ability'),
  playLand: (ctx, e) => pri.playLand(ctx, eventOf(e, 'PLAY_LAND').player),
  beginCombat: (ctx) => cx.beginCombat(ctx),
  endCombat: (ctx, e) => cx.endCombatAsPhaseIsLeft(ctx, e),
  chooseDefender: (ctx, e) => cx.chooseDefender(ctx, eventOf(e, 'CHOOSE_DEFENDER').defender),
  declareAttackers: (ctx, e) => cx.declareAttackers(ctx, eventOf(e, 'DECLARE_ATTACKERS').attackers),
  markAttacksDeclared: (ctx) => cx.markAttacksDeclared(ctx),
  declareBlockers: (ctx, e) => cx.declareBlockers(ctx, eventOf(e, 'DECLARE_BLOCKERS').player, eventOf(e, 'DECLARE_BLOCKERS').blockers),
  orderBlockers: (ctx, e) => cx.orderBlockers(ctx, eventOf(e, 'ORDER_BLOCKERS').attacker, eventOf(e, 'ORDER_BLOCKERS').order),
  orderAttackers: (ctx, e) => cx.orderAttackers(ctx, eventOf(e, 'ORDER_ATTACKERS').blocker, eventOf(e, 'ORDER_ATTACKERS').order),
  dealCombatDamage: (ctx, _e, _r, p: { first: boolean }) => cx.dealCombatDamage(ctx, p.first),
  emptyManaPools: (ctx, e, _r, p: { at: 'step' | 'phase' }) => fx.emptyManaPools(ctx, p.at, e),
  discardToHandSize: (ctx, e) => fx.discardToHandSize(ctx, eventOf(e, 'DISCARD').count),
  endTurnEffects: (ctx) => fx.endTurnEffects(ctx),
  checkCleanup: (ctx, _e, r) => fx.checkCleanup(ctx, r),
  endTheTurnOrCombat: (ctx, e, r) => fx.endTheTurnOrCombat(ctx, r, e.type === 'END_TURN'),
  skipToCleanup: (ctx) => fx.skipToCleanup(ctx),
  addTriggers: (ctx, e, r) => pri.addTriggers(ctx, r, eventOf(e, 'TRIGGER').triggers),
  orderTriggers: (ctx, e, r) => pri.orderTriggers(ctx, r, eventOf(e, 'ORDER_TRIGGERS').player, eventOf(e, 'ORDER_TRIGGERS').order),
  chooseStartingPlayer: (ctx, e) => pre.chooseStartingPlayer(ctx, eventOf(e, 'CHOOSE_STARTING_PLAYER').starting),
  takeMulligan: (ctx, e) => pre.takeMulligan(ctx, eventOf(e, 'MULLIGAN').player),
  keepHand: (ctx, e) => pre.keepHand(ctx, eventOf(e, 'KEEP').player),
  putOnBottom: (ctx, e) => pre.putOnBottom(ctx, eventOf(e, 'BOTTOM').player, eventOf(e, 'BOTTOM').count),
  finishOpeningHand: (ctx, e) => pre.finishOpeningHand(ctx, eventOf(e, 'OPENING_HAND_DONE').player),
  rollPlanarDie: (ctx, e, r) => pri.rollPlanarDie(ctx, r, eventOf(e, 'ROLL_PLANAR_DIE').player),
  applyHostEvent: (ctx, e) => hostEffect(ctx, e),
  removePlayer: (ctx, e, r) => pri.removePlayer(ctx, r, e as EventOf<'CONCEDE' | 'LOSE' | 'WIN' | 'DRAW_GAME'>),
} satisfies Record<string, EffectOf<never>>;


