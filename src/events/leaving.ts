/**
 * Players leaving the game and the game ending (CR 104.2a, 104.3a, 104.4a, 800.4a, 801.15): a
 * concession, a loss, a win, a draw. In Grand Melee every turn takes them.
 */
import { violation } from '../errors.js';
import { By, ObjectIdSchema, PlayerIdSchema, eventSchema, opt } from '../fields.js';
import { inGame } from '../rules/legality.js';
import type { EventRecord } from './record.js';

export const CONCEDE = {
  schema: eventSchema('CONCEDE', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  // CR 723.6: the controller of another player can't make that player concede; `by`, when given, is the player.
  legality: (ctx, _a, e) => inGame(ctx, e.player) ?? (e.by === undefined || e.by === e.player ? null : violation('723.6', `${e.by} cannot make ${e.player} concede: only ${e.player} can`)),
  // CR 104.3a: a player may concede at any time.
  template: { choose: [] },
  changesLater: true,
  route: 'leaving',
} satisfies EventRecord<'CONCEDE'>;

export const LOSE = {
  schema: eventSchema('LOSE', { player: PlayerIdSchema, reason: opt(ObjectIdSchema) }),
  players: ['player'],
  legality: (ctx, _a, e) => inGame(ctx, e.player),
  route: 'leaving',
} satisfies EventRecord<'LOSE'>;

export const WIN = {
  schema: eventSchema('WIN', { player: PlayerIdSchema }),
  players: ['player'],
  legality: (ctx, _a, e) => inGame(ctx, e.player),
  route: 'leaving',
} satisfies EventRecord<'WIN'>;

export const DRAW_GAME = {
  // CR 801.15: `player`, the controller of the effect, limits the draw to their range of influence.
  schema: eventSchema('DRAW_GAME', { player: opt(PlayerIdSchema) }),
  players: ['player'],
  legality: (ctx, _a, e) => (e.player === undefined ? null : inGame(ctx, e.player)),
  route: 'leaving',
} satisfies EventRecord<'DRAW_GAME'>;
