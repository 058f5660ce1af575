/**
 * The pregame's decisions (CR 103): who starts, mulligans, cards put on the bottom, the end
 * of opening hand actions. Each is the player's own: a teammate does not make it for them.
 */
import type { Awaiting } from '../contract.js';
import { violation } from '../errors.js';
import { By, PlayerIdSchema, Positive, eventSchema } from '../fields.js';
import { byViolation } from '../rules/control.js';
import { awaited, first, inGame, startingViolation } from '../rules/legality.js';
import { mayMulligan } from '../rules/pregame.js';
import type { EventRecord } from './record.js';

export const CHOOSE_STARTING_PLAYER = {
  schema: eventSchema('CHOOSE_STARTING_PLAYER', { player: PlayerIdSchema, starting: PlayerIdSchema, by: By }),
  players: ['player', 'by', 'starting'],
  awaits: 'chooseStartingPlayer',
  teammateMayAnswer: false,
  legality: (ctx, a, e) =>
    first(
      () => awaited(a, 'chooseStartingPlayer', e.player, '103.1', 'a choice of the starting player'),
      () => byViolation(ctx, e.player, e.by),
      () => inGame(ctx, e.starting, 'starting'),
      () => startingViolation(ctx, e.starting),
    ),
  template: {
    choose: ['starting'],
    fill: (e) => {
      e.starting = e.player;
    },
  },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'CHOOSE_STARTING_PLAYER'>;

export const MULLIGAN = {
  schema: eventSchema('MULLIGAN', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  awaits: 'mulligan',
  teammateMayAnswer: false,
  legality: (ctx, a, e) =>
    first(
      () => awaited(a, 'mulligan', e.player, '103.5', 'a mulligan'),
      () => byViolation(ctx, e.player, e.by),
      () => (mayMulligan(ctx, e.player) ? null : violation('103.5', `${e.player} has no cards left to mulligan`)),
    ),
  template: { choose: [] },
  route: 'turn',
} satisfies EventRecord<'MULLIGAN'>;

export const KEEP = {
  schema: eventSchema('KEEP', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  awaits: 'mulligan',
  teammateMayAnswer: false,
  legality: (ctx, a, e) => first(() => awaited(a, 'mulligan', e.player, '103.5', 'keeping a hand'), () => byViolation(ctx, e.player, e.by)),
  template: { choose: [] },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'KEEP'>;

export const BOTTOM = {
  schema: eventSchema('BOTTOM', { player: PlayerIdSchema, count: Positive, by: By }),
  players: ['player', 'by'],
  awaits: 'bottom',
  teammateMayAnswer: false,
  legality: (ctx, a, e) =>
    first(
      () => awaited(a, 'bottom', e.player, '103.5', 'putting cards on the bottom'),
      () => byViolation(ctx, e.player, e.by),
      () => (a?.kind === 'bottom' && a.count === e.count ? null : violation('103.5', `${e.player} must put exactly ${a?.kind === 'bottom' ? a.count : 0} card(s) on the bottom, not ${e.count}`)),
    ),
  template: { choose: [], fields: (a) => [{ count: (a as Extract<Awaiting, { kind: 'bottom' }>).count }] },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'BOTTOM'>;

export const OPENING_HAND_DONE = {
  schema: eventSchema('OPENING_HAND_DONE', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  awaits: 'openingHandActions',
  teammateMayAnswer: false,
  legality: (ctx, a, e) => first(() => awaited(a, 'openingHandActions', e.player, '103.6', 'the end of opening hand actions'), () => byViolation(ctx, e.player, e.by)),
  template: { choose: [] },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'OPENING_HAND_DONE'>;
