/**
 * What a player does holding priority (CR 117.1): pass, cast a spell, activate an ability,
 * play a land, roll the planar die.
 */
import type { TurnContext } from '../state.js';
import { violation } from '../errors.js';
import { By, ObjectIdSchema, PlayerIdSchema, Speed, deciderOf, eventSchema, isObjectId, withByOf } from '../fields.js';
import { byViolation } from '../rules/control.js';
import { first, stackIdViolation } from '../rules/legality.js';
import { priorityViolation } from '../rules/priority.js';
import { planarDieCost } from '../rules/teams.js';
import { castViolation, landViolation, sorceryTimingViolation } from '../rules/timing.js';
import type { EventOf, EventRecord } from './record.js';

/** The two speeds a spell or an ability is offered at (`legalActions` checks each). */
const SPEEDS = [{ speed: 'instant' }, { speed: 'sorcery' }] as const;

/** Whether an object of `objects` has the id (looked for in place: no Set of the ids per template). */
function holds(objects: readonly { id: string }[], id: string): boolean {
  for (const o of objects) if (o.id === id) return true;
  return false;
}

/** An id no object on the stack or waiting for it has: `object-<n>`, n from the number of them. */
function unusedId(event: Record<string, unknown>, _awaiting: unknown, ctx: Pick<TurnContext, 'stack' | 'pendingTriggers'>): void {
  let n = ctx.stack.length + ctx.pendingTriggers.length;
  while (holds(ctx.stack, `object-${n}`) || holds(ctx.pendingTriggers, `object-${n}`)) n++;
  event.id = `object-${n}`;
}

/** A spell or an ability as zod's schema reads it, without zod. */
function castOf<T extends 'CAST_SPELL' | 'ACTIVATE_ABILITY'>(type: T, r: Record<string, unknown>): EventOf<T> | undefined {
  const who = deciderOf(r);
  if (who === undefined) return undefined;
  const { id, speed } = r;
  return isObjectId(id) && (speed === 'sorcery' || speed === 'instant') ? withByOf(r, { type, player: who.player, id, speed } as EventOf<T>) : undefined;
}

export const PASS_PRIORITY = {
  schema: eventSchema('PASS_PRIORITY', { player: PlayerIdSchema, by: By }),
  fast: (r) => {
    const who = deciderOf(r);
    return who === undefined ? undefined : withByOf<EventOf<'PASS_PRIORITY'>>(r, { type: 'PASS_PRIORITY', player: who.player });
  },
  players: ['player', 'by'],
  awaits: 'priority',
  teammateMayAnswer: true,
  // The events most games send chain their checks with `??`, as `first` does (a check runs only
  // when the ones before it pass), without a closure per check.
  legality: (ctx, _a, e) => priorityViolation(ctx, e.player, '117.3d', 'pass priority') ?? byViolation(ctx, e.player, e.by),
  template: { choose: [] },
  plainest: true,
  route: 'turn',
} satisfies EventRecord<'PASS_PRIORITY'>;

export const CAST_SPELL = {
  schema: eventSchema('CAST_SPELL', { player: PlayerIdSchema, id: ObjectIdSchema, speed: Speed, by: By }),
  fast: (r) => castOf('CAST_SPELL', r),
  players: ['player', 'by'],
  awaits: 'priority',
  teammateMayAnswer: true,
  legality: (ctx, _a, e) => castViolation(ctx, e.player, e.speed, 'spell') ?? byViolation(ctx, e.player, e.by) ?? stackIdViolation(ctx, [e.id]),
  template: { choose: ['id'], fields: () => SPEEDS, fill: unusedId },
  route: 'turn',
} satisfies EventRecord<'CAST_SPELL'>;

export const ACTIVATE_ABILITY = {
  schema: eventSchema('ACTIVATE_ABILITY', { player: PlayerIdSchema, id: ObjectIdSchema, speed: Speed, by: By }),
  fast: (r) => castOf('ACTIVATE_ABILITY', r),
  players: ['player', 'by'],
  awaits: 'priority',
  teammateMayAnswer: true,
  legality: (ctx, _a, e) => castViolation(ctx, e.player, e.speed, 'ability') ?? byViolation(ctx, e.player, e.by) ?? stackIdViolation(ctx, [e.id]),
  template: { choose: ['id'], fields: () => SPEEDS, fill: unusedId },
  route: 'turn',
} satisfies EventRecord<'ACTIVATE_ABILITY'>;

export const PLAY_LAND = {
  schema: eventSchema('PLAY_LAND', { player: PlayerIdSchema, by: By }),
  fast: (r) => {
    const who = deciderOf(r);
    return who === undefined ? undefined : withByOf<EventOf<'PLAY_LAND'>>(r, { type: 'PLAY_LAND', player: who.player });
  },
  players: ['player', 'by'],
  awaits: 'priority',
  teammateMayAnswer: true,
  legality: (ctx, _a, e) => landViolation(ctx, e.player) ?? byViolation(ctx, e.player, e.by),
  template: { choose: [] },
  route: 'turn',
} satisfies EventRecord<'PLAY_LAND'>;

export const ROLL_PLANAR_DIE = {
  schema: eventSchema('ROLL_PLANAR_DIE', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  awaits: 'priority',
  teammateMayAnswer: true,
  legality: (ctx, _a, e) =>
    first(
      () => (ctx.variant === 'planechase' ? null : violation('901.9', 'the planar die is rolled only in a Planechase game')),
      () => priorityViolation(ctx, e.player, '901.9', 'roll the planar die'),
      () => byViolation(ctx, e.player, e.by),
      () => sorceryTimingViolation(ctx, e.player, '901.9'),
      () => ((ctx.manaPool[e.player] ?? 0) >= planarDieCost(ctx) ? null : violation('901.9', `rolling the planar die costs ${planarDieCost(ctx)} mana; ${e.player}'s pool holds ${ctx.manaPool[e.player] ?? 0}`)),
    ),
  template: { choose: [] },
  route: 'turn',
} satisfies EventRecord<'ROLL_PLANAR_DIE'>;
