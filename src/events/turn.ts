/**
 * What the turn will be: cleanup's discard (CR 514.1), extra turns, phases and steps (500.7-
 * 500.10), skips (614.10), ending the turn (724) and, in Grand Melee, the coordinator beginning
 * a turn marker's next turn (807.4c-d).
 */
import * as z from 'zod/mini';
import type { Awaiting } from '../contract.js';
import { violation } from '../errors.js';
import { By, ObjectIdSchema, PlayerIdSchema, Positive, SkipTargetSchema, TurnPhaseSchema, TurnStepSchema, deciderOf, eventSchema, isObjectId, isWhole, opt, withByOf } from '../fields.js';
import { discardDue } from '../rules/cleanup.js';
import { byViolation } from '../rules/control.js';
import { awaited, first, inGame } from '../rules/legality.js';
import { MAX_PENDING_EXTRA_TURNS, MAX_PENDING_SKIPS } from '../rules/limits.js';
import { addPhases, addStep, getsOnThisTurn, kindOf, kindOfStep, newPhase } from '../rules/schedule.js';
import type { EventOf, EventRecord } from './record.js';

export const DISCARD = {
  schema: eventSchema('DISCARD', { player: PlayerIdSchema, count: Positive, by: By }),
  fast: (r) => {
    const who = deciderOf(r);
    if (who === undefined) return undefined;
    const { count } = r;
    return isWhole(count, 1) ? withByOf<EventOf<'DISCARD'>>(r, { type: 'DISCARD', player: who.player, count }) : undefined;
  },
  players: ['player', 'by'],
  awaits: 'discard',
  teammateMayAnswer: false,
  legality: (ctx, a, e) =>
    awaited(a, 'discard', e.player, '514.1', 'a discard') ??
    byViolation(ctx, e.player, e.by) ??
    (e.count === discardDue(ctx) ? null : violation('514.1', `${e.player} must discard exactly ${discardDue(ctx)} card(s), not ${e.count}`)),
  template: { choose: [], fields: (a) => [{ count: (a as Extract<Awaiting, { kind: 'discard' }>).count }] },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'DISCARD'>;

export const ADD_EXTRA_TURN = {
  schema: eventSchema('ADD_EXTRA_TURN', { player: PlayerIdSchema, id: opt(ObjectIdSchema) }),
  fast: (r) => {
    const who = deciderOf(r);
    if (who === undefined || who.by !== undefined) return undefined;
    // As zod builds it: an optional key given as undefined is kept.
    if (!('id' in r)) return { type: 'ADD_EXTRA_TURN', player: who.player };
    const { id } = r;
    return id === undefined || isObjectId(id) ? { type: 'ADD_EXTRA_TURN', player: who.player, id } : undefined;
  },
  players: ['player'],
  legality: (ctx, _a, e) =>
    first(
      () => inGame(ctx, e.player),
      () => (ctx.extraTurns.length < MAX_PENDING_EXTRA_TURNS ? null : violation('500.7', `past MAX_PENDING_EXTRA_TURNS = ${MAX_PENDING_EXTRA_TURNS} extra turns`)),
    ),
  hostEffect: true,
  changesLater: true,
  route: 'gameWide',
} satisfies EventRecord<'ADD_EXTRA_TURN'>;

export const ADD_EXTRA_COMBAT = {
  schema: eventSchema('ADD_EXTRA_COMBAT', { followedByMain: opt(z.boolean()), after: opt(TurnPhaseSchema) }),
  players: [],
  legality: (ctx, _a, e) => {
    if (ctx.phase === 'ending' || ctx.phase === 'pregame') return violation('500.8', `no combat phase can be added in the ${ctx.phase} phase: none comes after it`);
    const added = addPhases(ctx, [newPhase('combat', true), newPhase('main', true)], e.after);
    return 'rule' in added ? added : null;
  },
  hostEffect: true,
  changesLater: true,
  route: 'turn',
} satisfies EventRecord<'ADD_EXTRA_COMBAT'>;

export const ADD_EXTRA_STEP = {
  schema: eventSchema('ADD_EXTRA_STEP', { step: TurnStepSchema, after: opt(TurnStepSchema), before: opt(TurnStepSchema), afterPhase: opt(TurnPhaseSchema), player: opt(PlayerIdSchema) }),
  players: ['player'],
  legality: (ctx, _a, e) => {
    if (e.player !== undefined && !ctx.players.includes(e.player)) return inGame(ctx, e.player);
    if (ctx.phase === 'pregame') return violation('500.9', 'no step can be added before the game has begun');
    if (e.after !== undefined && e.before !== undefined) return violation('500.9', 'name `after` or `before`, not both');
    if (!getsOnThisTurn(ctx, e.player)) return null; // CR 500.10a: nothing is added
    if (e.afterPhase !== undefined) {
      const added = addPhases(ctx, [newPhase(kindOfStep(e.step), true, e.step)], e.afterPhase);
      return 'rule' in added ? added : null;
    }
    const added = addStep(ctx, e.step, e.before !== undefined ? { before: e.before } : e.after !== undefined ? { after: e.after } : {});
    return 'rule' in added ? added : null;
  },
  hostEffect: true,
  changesLater: true,
  route: 'turn',
} satisfies EventRecord<'ADD_EXTRA_STEP'>;

export const ADD_EXTRA_PHASE = {
  schema: eventSchema('ADD_EXTRA_PHASE', { phase: TurnPhaseSchema, after: opt(TurnPhaseSchema), player: opt(PlayerIdSchema) }),
  players: ['player'],
  legality: (ctx, _a, e) => {
    if (e.player !== undefined && !ctx.players.includes(e.player)) return inGame(ctx, e.player);
    if (ctx.phase === 'pregame') return violation('500.8', 'no phase can be added before the game has begun');
    if (!getsOnThisTurn(ctx, e.player)) return null; // CR 500.10a: nothing is added
    const added = addPhases(ctx, [newPhase(kindOf(e.phase), true)], e.after);
    return 'rule' in added ? added : null;
  },
  hostEffect: true,
  changesLater: true,
  route: 'turn',
} satisfies EventRecord<'ADD_EXTRA_PHASE'>;

export const SKIP_NEXT = {
  schema: eventSchema('SKIP_NEXT', { player: PlayerIdSchema, what: SkipTargetSchema }),
  players: ['player'],
  legality: (ctx, _a, e) =>
    first(
      () => inGame(ctx, e.player),
      () => ((ctx.skips[e.player]?.[e.what] ?? 0) < MAX_PENDING_SKIPS ? null : violation('614.10a', `past MAX_PENDING_SKIPS = ${MAX_PENDING_SKIPS} skips of one thing`)),
    ),
  hostEffect: true,
  changesLater: true,
  route: 'gameWide',
} satisfies EventRecord<'SKIP_NEXT'>;

export const END_TURN = {
  schema: eventSchema('END_TURN', {}),
  players: [],
  legality: (ctx) => (ctx.phase === 'pregame' ? violation('724.1', 'the game has not begun: there is no turn to end') : null),
  route: 'turn',
} satisfies EventRecord<'END_TURN'>;

export const BEGIN_MARKER_TURN = {
  // The Grand Melee coordinator's own event: hosts cannot send it.
  schema: null,
  players: [],
  legality: () => violation('807.4d', "BEGIN_MARKER_TURN is the Grand Melee coordinator's own event"),
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'BEGIN_MARKER_TURN'>;
