/**
 * The combat phase: the players' declarations and orders (CR 506-510), and what the host's
 * cards do to combat (creatures put onto the battlefield attacking or blocking, removed from
 * combat, given first or double strike; combat ended, 506.4).
 */
import type { Awaiting } from '../contract.js';
import { violation } from '../errors.js';
import { AttackerSchema, BlockerSchema, By, ObjectIdSchema, PlayerIdSchema, Strikes, deciderOf, eventSchema, isObjectId, isPlayerId, list, listOf, withByOf, withStrikes } from '../fields.js';
import { attackablePlayers, attackViolation, blockViolation, isInCombat, orderViolation } from '../rules/combat.js';
import { byViolation } from '../rules/control.js';
import { awaited, first, inCombatPhase } from '../rules/legality.js';
import type { EventOf, EventRecord } from './record.js';

type AwaitingOf<K extends Awaiting['kind']> = Extract<Awaiting, { kind: K }>;

export const DECLARE_ATTACKERS = {
  schema: eventSchema('DECLARE_ATTACKERS', { player: PlayerIdSchema, attackers: list(AttackerSchema), by: By }),
  fast: (r) => {
    const who = deciderOf(r);
    if (who === undefined) return undefined;
    const attackers = listOf(r.attackers, 0, (a) => (isObjectId(a.id) && isPlayerId(a.defender) ? withStrikes({ id: a.id, defender: a.defender }, a) : undefined));
    return attackers === undefined ? undefined : withByOf<EventOf<'DECLARE_ATTACKERS'>>(r, { type: 'DECLARE_ATTACKERS', player: who.player, attackers });
  },
  players: ['player', 'by', 'attackers[].defender'],
  awaits: 'declareAttackers',
  teammateMayAnswer: true,
  legality: (ctx, a, e) =>
    awaited(a, 'declareAttackers', e.player, '508.1', 'a declaration of attackers', ctx) ?? byViolation(ctx, e.player, e.by) ?? attackViolation(ctx, e.player, e.attackers),
  template: {
    choose: ['attackers'],
    fill: (e) => {
      e.attackers = [];
    },
  },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'DECLARE_ATTACKERS'>;

export const DECLARE_BLOCKERS = {
  schema: eventSchema('DECLARE_BLOCKERS', { player: PlayerIdSchema, blockers: list(BlockerSchema), by: By }),
  fast: (r) => {
    const who = deciderOf(r);
    if (who === undefined) return undefined;
    const blockers = listOf(r.blockers, 0, (b) => (isObjectId(b.id) && isObjectId(b.attacker) ? withStrikes({ id: b.id, attacker: b.attacker }, b) : undefined));
    return blockers === undefined ? undefined : withByOf<EventOf<'DECLARE_BLOCKERS'>>(r, { type: 'DECLARE_BLOCKERS', player: who.player, blockers });
  },
  players: ['player', 'by'],
  awaits: 'declareBlockers',
  teammateMayAnswer: true,
  legality: (ctx, a, e) =>
    awaited(a, 'declareBlockers', e.player, '509.1', 'a declaration of blockers', ctx) ?? byViolation(ctx, e.player, e.by) ?? blockViolation(ctx, e.player, e.blockers),
  template: {
    choose: ['blockers'],
    fill: (e) => {
      e.blockers = [];
    },
  },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'DECLARE_BLOCKERS'>;

export const CHOOSE_DEFENDER = {
  schema: eventSchema('CHOOSE_DEFENDER', { player: PlayerIdSchema, defender: PlayerIdSchema, by: By }),
  players: ['player', 'by', 'defender'],
  awaits: 'chooseDefender',
  teammateMayAnswer: true,
  legality: (ctx, a, e) =>
    first(
      () => awaited(a, 'chooseDefender', e.player, '507.1', 'a choice of the defending player', ctx),
      () => byViolation(ctx, e.player, e.by),
      () =>
        a?.kind === 'chooseDefender' && a.defenders.includes(e.defender)
          ? null
          : violation('507.1', `${e.defender} cannot be chosen (choose one of ${a?.kind === 'chooseDefender' ? a.defenders.join(', ') : 'nobody'})`),
    ),
  template: {
    choose: ['defender'],
    fill: (e, a) => {
      e.defender = a?.kind === 'chooseDefender' ? (a.defenders[0] ?? '') : '';
    },
  },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'CHOOSE_DEFENDER'>;

export const ORDER_BLOCKERS = {
  schema: eventSchema('ORDER_BLOCKERS', { player: PlayerIdSchema, attacker: ObjectIdSchema, order: list(ObjectIdSchema), by: By }),
  players: ['player', 'by'],
  awaits: 'orderBlockers',
  teammateMayAnswer: true,
  legality: (ctx, a, e) =>
    first(
      () => awaited(a, 'orderBlockers', e.player, '509.2', 'a damage assignment order of blockers', ctx),
      () => byViolation(ctx, e.player, e.by),
      () => (a?.kind === 'orderBlockers' && a.attacker === e.attacker ? null : violation('509.2', `the order awaited is for attacker ${a?.kind === 'orderBlockers' ? a.attacker : '?'}, not ${e.attacker}`)),
      () => orderViolation(a?.kind === 'orderBlockers' ? a.blockers : [], e.order, '509.2'),
    ),
  template: {
    choose: ['order'],
    fields: (a) => [{ attacker: (a as AwaitingOf<'orderBlockers'>).attacker }],
    fill: (e, a) => {
      e.order = a?.kind === 'orderBlockers' ? [...a.blockers] : [];
    },
  },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'ORDER_BLOCKERS'>;

export const ORDER_ATTACKERS = {
  schema: eventSchema('ORDER_ATTACKERS', { player: PlayerIdSchema, blocker: ObjectIdSchema, order: list(ObjectIdSchema), by: By }),
  players: ['player', 'by'],
  awaits: 'orderAttackers',
  // CR 805.10f: with shared team turns the defending team announces the order: any member may.
  teammateMayAnswer: true,
  legality: (ctx, a, e) =>
    first(
      () => awaited(a, 'orderAttackers', e.player, '509.3', 'a damage assignment order of attackers', ctx),
      () => byViolation(ctx, e.player, e.by),
      () => (a?.kind === 'orderAttackers' && a.blocker === e.blocker ? null : violation('509.3', `the order awaited is for blocker ${a?.kind === 'orderAttackers' ? a.blocker : '?'}, not ${e.blocker}`)),
      () => orderViolation(a?.kind === 'orderAttackers' ? a.attackers : [], e.order, '509.3'),
    ),
  template: {
    choose: ['order'],
    fields: (a) => [{ blocker: (a as AwaitingOf<'orderAttackers'>).blocker }],
    fill: (e, a) => {
      e.order = a?.kind === 'orderAttackers' ? [...a.attackers] : [];
    },
  },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'ORDER_ATTACKERS'>;

export const END_COMBAT = {
  schema: eventSchema('END_COMBAT', {}),
  players: [],
  legality: () => null,
  route: 'turn',
} satisfies EventRecord<'END_COMBAT'>;

export const REMOVE_FROM_COMBAT = {
  schema: eventSchema('REMOVE_FROM_COMBAT', { id: ObjectIdSchema }),
  players: [],
  // CONTRACT v3 (608.2b): an id not in combat, or outside a combat phase, already left: accepted, changes nothing.
  legality: () => null,
  hostEffect: true,
  route: 'turn',
} satisfies EventRecord<'REMOVE_FROM_COMBAT'>;

export const SET_COMBAT_ABILITIES = {
  schema: eventSchema('SET_COMBAT_ABILITIES', { id: ObjectIdSchema, ...Strikes }),
  players: [],
  legality: (ctx, _a, e) =>
    first(
      () => inCombatPhase(ctx, 'changing a creature in combat'),
      () => (isInCombat(ctx.combat, e.id) ? null : violation('506.4', `${e.id} is not attacking or blocking`)),
    ),
  hostEffect: true,
  route: 'turn',
} satisfies EventRecord<'SET_COMBAT_ABILITIES'>;

export const ADD_ATTACKER = {
  schema: eventSchema('ADD_ATTACKER', { id: ObjectIdSchema, defender: PlayerIdSchema, ...Strikes }),
  players: ['defender'],
  legality: (ctx, _a, e) =>
    first(
      () => inCombatPhase(ctx, 'putting a creature onto the battlefield attacking'),
      () => (ctx.activePlayer === null ? violation('800.4j', 'there is no active player to attack for') : null),
      () => (isInCombat(ctx.combat, e.id) ? violation('508.4', `${e.id} is already in combat`) : null),
      () => (attackablePlayers(ctx).includes(e.defender) ? null : violation('508.4', `${e.defender} cannot be attacked in this combat`)),
    ),
  hostEffect: true,
  route: 'turn',
} satisfies EventRecord<'ADD_ATTACKER'>;

export const ADD_BLOCKER = {
  schema: eventSchema('ADD_BLOCKER', { id: ObjectIdSchema, attacker: ObjectIdSchema, ...Strikes }),
  players: [],
  legality: (ctx, _a, e) =>
    first(
      () => inCombatPhase(ctx, 'putting a creature onto the battlefield blocking'),
      () => (ctx.combat?.attackers.some((a) => a.id === e.attacker) ? null : violation('509.4', `${e.attacker} is not an attacking creature`)),
      () => {
        const defender = ctx.combat?.attackers.find((a) => a.id === e.attacker)?.defender;
        return defender === undefined || ctx.players.includes(defender) ? null : violation('800.4a', `${e.attacker} attacks ${defender}, who has left the game`);
      },
      () => (ctx.combat?.attackers.some((a) => a.id === e.id) ? violation('509.4', `${e.id} is attacking and cannot block`) : null),
      () => (ctx.combat?.blockers.find((b) => b.id === e.id)?.blocking.includes(e.attacker) ? violation('509.4', `${e.id} is already blocking ${e.attacker}`) : null),
    ),
  hostEffect: true,
  route: 'turn',
} satisfies EventRecord<'ADD_BLOCKER'>;
