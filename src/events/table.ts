/**
 * CONTRACT v3, "Playing between people": the host events about time and seats, taken by the
 * table around the turn (src/table/time.ts), never by the chart. Each carries the host's clock
 * (`at`, required here); none is a player decision (legalActions never lists them).
 */
import * as z from 'zod/mini';
import { PlayerIdSchema, timedEventSchema } from '../fields.js';
import { inGame } from '../rules/legality.js';
import type { EventRecord } from './record.js';

/** What the events that only carry the host's clock have in common: no player, legal whenever the game is live. */
const CLOCK_EVENT = { players: [], legality: () => null, route: 'gameWide', table: true } as const;

/** The host makes the engine look at its clock (a clock or an away grace may have run out). */
export const TICK = { schema: timedEventSchema('TICK', {}), ...CLOCK_EVENT } satisfies EventRecord<'TICK'>;

/** Every clock stops (a judge call, a vote, a dropped player); the away grace periods do not. */
export const PAUSE_CLOCKS = { schema: timedEventSchema('PAUSE_CLOCKS', {}), ...CLOCK_EVENT } satisfies EventRecord<'PAUSE_CLOCKS'>;

/** Every clock runs again. */
export const RESUME_CLOCKS = { schema: timedEventSchema('RESUME_CLOCKS', {}), ...CLOCK_EVENT } satisfies EventRecord<'RESUME_CLOCKS'>;

/** A player's client is connected, or away (dropped): `view().seats`, and the `away` option's policy. */
export const SET_SEAT_STATUS = {
  schema: timedEventSchema('SET_SEAT_STATUS', { player: PlayerIdSchema, status: z.enum(['connected', 'away']) }),
  players: ['player'],
  // CR 800.4a: a player who left the game has no seat at the table any more.
  legality: (ctx, _a, e) => inGame(ctx, e.player),
  route: 'gameWide',
  table: true,
} satisfies EventRecord<'SET_SEAT_STATUS'>;
