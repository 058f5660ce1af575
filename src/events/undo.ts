/**
 * Undo with a policy (CONTRACT v3, "Playing between people"): the requests, the answers of the
 * other players and the host's point of no return. The table around the turn (src/table/) takes
 * these events, never the turn: their records say `atTable`, their legality rows only what the turn
 * can tell (the player is in the game), and the table's rules decide the rest (src/table/undo.ts).
 */
import type { PlayerId } from '../contract.js';
import { By, PlayerIdSchema, eventSchema, int } from '../fields.js';
import { inGame } from '../rules/legality.js';
import { byViolation } from '../rules/control.js';
import type { EventRecord } from './record.js';

/** What the turn can tell of a table event: its player is in the game, and its `by` is who decides for them (CR 723.5). */
export const playerInGame = (ctx: Parameters<typeof inGame>[0] & Parameters<typeof byViolation>[0], _a: unknown, e: { player: PlayerId; by?: PlayerId }) => inGame(ctx, e.player) ?? byViolation(ctx, e.player, e.by);

/** A version of the game (TurnView.version). */
const Version = int(0, Number.MAX_SAFE_INTEGER);

export const UNDO = {
  schema: eventSchema('UNDO', { player: PlayerIdSchema, by: By, to: Version }),
  players: ['player', 'by'],
  legality: playerInGame,
  template: { choose: [] },
  route: 'gameWide',
  atTable: true,
} satisfies EventRecord<'UNDO'>;

export const ACCEPT_UNDO = {
  schema: eventSchema('ACCEPT_UNDO', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  awaits: 'undoConsent',
  teammateMayAnswer: false,
  legality: playerInGame,
  template: { choose: [] },
  route: 'gameWide',
  atTable: true,
} satisfies EventRecord<'ACCEPT_UNDO'>;

export const DECLINE_UNDO = {
  schema: eventSchema('DECLINE_UNDO', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  awaits: 'undoConsent',
  teammateMayAnswer: false,
  legality: playerInGame,
  template: { choose: [] },
  // The plainest answer to an undo request (a player out of time or away): the game goes on as it was.
  plainest: true,
  route: 'gameWide',
  atTable: true,
} satisfies EventRecord<'DECLINE_UNDO'>;

export const MARK_IRREVERSIBLE = {
  schema: eventSchema('MARK_IRREVERSIBLE', {}),
  players: [],
  legality: () => null,
  route: 'gameWide',
  atTable: true,
} satisfies EventRecord<'MARK_IRREVERSIBLE'>;

