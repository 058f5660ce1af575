/**
 * The stack as the host's cards change it: triggered abilities (CR 603.3), their order when
 * the players order them (603.3b), objects put on it outside priority (707.10) and removed from
 * it (701.6).
 */
import * as z from 'zod/mini';
import { By, MAX_LIST_LENGTH, ObjectIdSchema, PlayerIdSchema, TriggerSchema, eventSchema, isObjectId, isPlayerId, list, listOf } from '../fields.js';
import { orderViolation } from '../rules/combat.js';
import { byViolation } from '../rules/control.js';
import { spellLimitViolation } from '../rules/timing.js';
import { awaited, first, inGame, stackIdViolation } from '../rules/legality.js';
import type { EventRecord } from './record.js';

export const ORDER_TRIGGERS = {
  schema: eventSchema('ORDER_TRIGGERS', { player: PlayerIdSchema, order: list(ObjectIdSchema), by: By }),
  players: ['player', 'by'],
  awaits: 'orderTriggers',
  teammateMayAnswer: true,
  legality: (ctx, a, e) =>
    first(
      () => awaited(a, 'orderTriggers', e.player, '603.3b', 'an order of triggered abilities', ctx),
      () => byViolation(ctx, e.player, e.by),
      () => orderViolation(a?.kind === 'orderTriggers' ? a.triggers : [], e.order, '603.3b'),
    ),
  template: {
    choose: ['order'],
    fill: (e, a) => {
      e.order = a?.kind === 'orderTriggers' ? [...a.triggers] : [];
    },
  },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'ORDER_TRIGGERS'>;

export const TRIGGER = {
  schema: eventSchema('TRIGGER', { triggers: list(TriggerSchema, MAX_LIST_LENGTH, 1) }),
  // The one event without a player that most games send.
  fast: (r) => {
    const triggers = listOf(r.triggers, 1, (t) => (isObjectId(t.id) && isPlayerId(t.controller) ? { id: t.id, controller: t.controller } : undefined));
    return triggers === undefined ? undefined : { type: 'TRIGGER', triggers };
  },
  players: ['triggers[].controller'],
  legality: (ctx, _a, e) => stackIdViolation(ctx, e.triggers.filter((t) => ctx.players.includes(t.controller)).map((t) => t.id)),
  route: 'turn',
} satisfies EventRecord<'TRIGGER'>;

export const REMOVE_FROM_STACK = {
  schema: eventSchema('REMOVE_FROM_STACK', { id: ObjectIdSchema, reason: z.optional(z.enum(['countered', 'exiled', 'removed'])) }),
  players: [],
  // CONTRACT v3: an id not on the stack (it already left) is accepted and changes nothing.
  legality: () => null,
  hostEffect: true,
  route: 'turn',
} satisfies EventRecord<'REMOVE_FROM_STACK'>;

export const PUT_ON_STACK = {
  schema: eventSchema('PUT_ON_STACK', {
    object: z.object({ id: ObjectIdSchema, controller: PlayerIdSchema, kind: z.enum(['spell', 'ability', 'trigger', 'copy']) }),
    cast: z.optional(z.boolean()),
  }),
  players: ['object.controller'],
  legality: (ctx, _a, e) =>
    first(
      () => inGame(ctx, e.object.controller, 'object.controller'),
      () => stackIdViolation(ctx, [e.object.id]),
      // CR 101.2: a spell cast while another object resolves counts against a `spellLimit`, as CAST_SPELL does.
      () => (e.cast === true ? spellLimitViolation(ctx, e.object.controller) : null),
    ),
  hostEffect: true,
  route: 'turn',
} satisfies EventRecord<'PUT_ON_STACK'>;
