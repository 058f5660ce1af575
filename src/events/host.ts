/**
 * The host's bookkeeping and settings: hand sizes and mana (CR 402, 106.4), effects that change
 * the turn (613, 611.2), control of a player's next turn (723.1), day and night (730), and each
 * player's stops and yields (CONTRACT.md, "Stops and auto-pass").
 */
import * as z from 'zod/mini';
import { violation } from '../errors.js';
import { Count, DurationSchema, EffectSchema, ObjectIdSchema, PlayerIdSchema, StopSchema, deciderOf, eventSchema, isWhole, list, opt, refine } from '../fields.js';
import { first, inGame } from '../rules/legality.js';
import { MAX_CONTROL_EFFECTS, MAX_EFFECTS } from '../rules/limits.js';
import { spendViolation } from '../rules/mana.js';
import type { EventOf, EventRecord } from './record.js';

/** ADD_MANA or SPEND_MANA as zod's schema reads it, without zod. */
function manaOf<T extends 'ADD_MANA' | 'SPEND_MANA'>(type: T, r: Record<string, unknown>): EventOf<T> | undefined {
  const who = deciderOf(r);
  if (who === undefined || who.by !== undefined) return undefined;
  const { amount } = r;
  return isWhole(amount, 0) ? ({ type, player: who.player, amount } as EventOf<T>) : undefined;
}

export const HAND_SIZE = {
  schema: eventSchema('HAND_SIZE', { player: PlayerIdSchema, size: Count }),
  fast: (r) => {
    const who = deciderOf(r);
    if (who === undefined || who.by !== undefined) return undefined;
    const { size } = r;
    return isWhole(size, 0) ? { type: 'HAND_SIZE', player: who.player, size } : undefined;
  },
  players: ['player'],
  legality: (ctx, _a, e) => inGame(ctx, e.player),
  hostEffect: true,
  route: 'gameWide',
} satisfies EventRecord<'HAND_SIZE'>;

export const ADD_MANA = {
  schema: eventSchema('ADD_MANA', { player: PlayerIdSchema, amount: Count }),
  fast: (r) => manaOf('ADD_MANA', r),
  players: ['player'],
  legality: (ctx, _a, e) => inGame(ctx, e.player),
  hostEffect: true,
  changesLater: true,
  route: 'gameWide',
} satisfies EventRecord<'ADD_MANA'>;

export const SPEND_MANA = {
  schema: eventSchema('SPEND_MANA', { player: PlayerIdSchema, amount: Count }),
  fast: (r) => manaOf('SPEND_MANA', r),
  players: ['player'],
  legality: (ctx, _a, e) => spendViolation(ctx, e.player, e.amount),
  hostEffect: true,
  route: 'gameWide',
} satisfies EventRecord<'SPEND_MANA'>;

export const ADD_EFFECT = {
  // CONTRACT v3: an event lacking a field another of its fields requires is malformed whatever the state (INVALID_EVENT).
  schema: eventSchema('ADD_EFFECT', { id: ObjectIdSchema, effect: EffectSchema, duration: opt(DurationSchema), controller: opt(PlayerIdSchema) }).check(
    refine<{ duration?: unknown; controller?: unknown }>((e) => e.duration !== 'untilYourNextTurn' || e.controller !== undefined, "is required with duration 'untilYourNextTurn' (CR 611.2b)", ['controller']),
  ),
  players: ['controller', 'effect.players[]', 'duration.ofPlayer'],
  legality: (ctx, _a, e) => {
    if (ctx.effects.some((x) => x.id === e.id)) return violation('613.7', `an effect with id ${e.id} is already in force`);
    if (ctx.effects.length >= MAX_EFFECTS) return violation('613.7', `past MAX_EFFECTS = ${MAX_EFFECTS} effects`);
    if (e.controller !== undefined && !ctx.players.includes(e.controller)) return inGame(ctx, e.controller, 'controller');
    return null;
  },
  hostEffect: true,
  changesLater: true,
  route: 'gameWide',
} satisfies EventRecord<'ADD_EFFECT'>;

export const REMOVE_EFFECT = {
  schema: eventSchema('REMOVE_EFFECT', { id: ObjectIdSchema }),
  players: [],
  // CONTRACT v3: an id not in force (the effect already ended) is accepted and changes nothing.
  legality: () => null,
  hostEffect: true,
  route: 'gameWide',
} satisfies EventRecord<'REMOVE_EFFECT'>;

export const CONTROL_PLAYER = {
  schema: eventSchema('CONTROL_PLAYER', { controller: PlayerIdSchema, player: PlayerIdSchema }),
  players: ['player', 'controller'],
  legality: (ctx, _a, e) =>
    first(
      () => inGame(ctx, e.controller, 'controller'),
      () => inGame(ctx, e.player),
      // CR 723.9: a player may be given control of themselves (the latest effect wins, 723.1a).
      () => (ctx.controlNext.length < MAX_CONTROL_EFFECTS ? null : violation('723.1', `past MAX_CONTROL_EFFECTS = ${MAX_CONTROL_EFFECTS} control effects`)),
    ),
  hostEffect: true,
  route: 'gameWide',
} satisfies EventRecord<'CONTROL_PLAYER'>;

export const SET_DAY_NIGHT = {
  schema: eventSchema('SET_DAY_NIGHT', { value: z.enum(['day', 'night']) }),
  players: [],
  legality: () => null,
  hostEffect: true,
  route: 'gameWide',
} satisfies EventRecord<'SET_DAY_NIGHT'>;

export const SET_STOPS = {
  schema: eventSchema('SET_STOPS', { player: PlayerIdSchema, stops: z.nullable(list(StopSchema, 64)) }),
  players: ['player'],
  legality: (ctx, _a, e) => inGame(ctx, e.player),
  hostEffect: true,
  route: 'gameWide',
  byPlayer: true,
} satisfies EventRecord<'SET_STOPS'>;

export const YIELD = {
  schema: eventSchema('YIELD', { player: PlayerIdSchema, until: z.nullable(z.enum(['stackResolved', 'endOfTurn', 'nextTurn'])), evenIfStackChanges: opt(z.boolean()) }),
  players: ['player'],
  legality: (ctx, _a, e) => inGame(ctx, e.player),
  hostEffect: true,
  changesLater: true,
  route: 'turn',
  byPlayer: true,
} satisfies EventRecord<'YIELD'>;
