/**
 * Tournament shortcuts (CR 732; CONTRACT v3, "Playing between people"): the proposal and the
 * other players' answers. The table around the turn (src/table/) takes these events, never the
 * turn: their records say `atTable`, their legality rows only what the turn can tell (the player is
 * in the game), and CR 732 is applied by the table (src/table/shortcuts.ts).
 */
import * as z from 'zod/mini';
import type { Awaiting, ShortcutPoint, TurnStepName } from '../contract.js';
import { By, PlayerIdSchema, TurnPhaseSchema, TurnStepSchema, eventSchema, int, opt, refine } from '../fields.js';
import { playerInGame } from './undo.js';
import { STEPS_OF_PHASE } from '../rules/schedule.js';
import type { EventRecord } from './record.js';

/** CR 502.4, 514.3: no player receives priority in the untap step, nor (as a rule) in the cleanup step. */
const NO_PRIORITY: readonly TurnStepName[] = ['untap', 'cleanup'];

/** CR 732.2a: the point a shortcut ends at: a place where a player has priority. */
export const ShortcutPointSchema = z
  .object({
    turn: opt(int(1, 2 ** 31 - 1)),
    phase: opt(TurnPhaseSchema),
    step: TurnStepSchema.check(refine((step) => !NO_PRIORITY.includes(step), "must be a step with priority, not 'untap' or 'cleanup' (CR 732.2a)")),
    player: opt(PlayerIdSchema),
  })
  .check(
    refine<{ phase?: keyof typeof STEPS_OF_PHASE; step: string }>((p) => p.phase === undefined || STEPS_OF_PHASE[p.phase].includes(p.step as never), 'is not a step of the phase given (CR 500.1)', ['step']),
  );

/** The shortcut point a SHORTEN_SHORTCUT template offers: the one proposed (the same point is accepted as it is). */
function proposedPoint(event: Record<string, unknown>, awaiting: Awaiting | null): void {
  if (awaiting?.kind === 'shortcut') event.until = { ...awaiting.until } satisfies ShortcutPoint;
}

export const PROPOSE_SHORTCUT = {
  schema: eventSchema('PROPOSE_SHORTCUT', { player: PlayerIdSchema, by: By, until: ShortcutPointSchema }),
  players: ['player', 'by', 'until.player'],
  legality: playerInGame,
  // CONTRACT v3, "Serving games": a player's request, sent by their own client (legalActions does not list it).
  byPlayer: true,
  route: 'gameWide',
  atTable: true,
} satisfies EventRecord<'PROPOSE_SHORTCUT'>;

export const ACCEPT_SHORTCUT = {
  schema: eventSchema('ACCEPT_SHORTCUT', { player: PlayerIdSchema, by: By }),
  players: ['player', 'by'],
  awaits: 'shortcut',
  teammateMayAnswer: false,
  legality: playerInGame,
  template: { choose: [] },
  // CR 732.2b: accepting is the plainest answer (the players pass, as they would).
  plainest: true,
  route: 'gameWide',
  atTable: true,
} satisfies EventRecord<'ACCEPT_SHORTCUT'>;

export const SHORTEN_SHORTCUT = {
  schema: eventSchema('SHORTEN_SHORTCUT', { player: PlayerIdSchema, by: By, until: ShortcutPointSchema }),
  players: ['player', 'by', 'until.player'],
  awaits: 'shortcut',
  teammateMayAnswer: false,
  legality: playerInGame,
  template: { choose: ['until'], fill: proposedPoint },
  route: 'gameWide',
  atTable: true,
} satisfies EventRecord<'SHORTEN_SHORTCUT'>;
