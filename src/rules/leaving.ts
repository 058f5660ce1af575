/**
 * A player leaving the game, and the end of the game.
 * CR 104.2a, 104.3a, 104.4a, 800.4a, 800.4d, 800.4j, 800.4k.
 */
import type { GameResult, PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { withoutPlayer } from './combat.js';
import { nextPlayerAfter } from './turnOrder.js';
import { lastStanding } from './teams.js';

/**
 * The game without `player` (CR 800.4a): the objects they control leave the stack, their
 * pending triggers are never put on it (800.4d), their creatures leave combat, their extra
 * turns never begin (800.4k), the effects they control end, control of or by them ends, and
 * if they held priority the next player in turn order receives it. On their own turn the
 * turn goes on without an active player (800.4j). With one player left, that player wins
 * (104.2a). `priorityTo` is the player who must now receive priority, or null if it did not
 * move; `endedEffects` the ids of effects that ended.
 */
export function leaveGame(
  ctx: TurnContext,
  player: PlayerId,
  reason: string,
): { patch: Partial<TurnContext>; priorityTo: PlayerId | null; endedEffects: string[]; removed: TurnContext['stack'] } {
  const players = ctx.players.filter((p) => p !== player);
  const wasActive = ctx.activePlayer === player;
  const heldPriority = ctx.priority === player;
  const priorityTo = heldPriority && players.length > 1 ? nextPlayerAfter({ seats: ctx.seats, players }, player) : null;
  const without = <T>(record: Record<PlayerId, T>): Record<PlayerId, T> => {
    const out = { ...record };
    delete out[player];
    return out;
  };
  const controlledBy: Record<PlayerId, PlayerId> = {};
  for (const [p, c] of Object.entries(ctx.controlledBy)) if (p !== player && c !== player) controlledBy[p] = c;
  const endedEffects = ctx.effects.filter((e) => e.controller === player).map((e) => e.id);
  const reasons = { ...ctx.reasons, [player]: reason };
  const patch: Partial<TurnContext> = {
    players,
    activePlayer: wasActive ? null : ctx.activePlayer,
    priority: heldPriority ? null : ctx.priority,
    passed: ctx.passed.filter((p) => p !== player && p !== priorityTo),
    stack: ctx.stack.filter((o) => o.controller !== player),
    pendingTriggers: ctx.pendingTriggers.filter((t) => t.controller !== player),
    triggerOrder: ctx.triggerOrder === null ? null : { ...ctx.triggerOrder, batch: ctx.triggerOrder.batch.filter((t) => t.controller !== player) },
    combat: withoutPlayer(ctx.combat, player, wasActive),
    extraTurns: ctx.extraTurns.filter((t) => t.player !== player),
    manaPool: without(ctx.manaPool),
    handSizes: without(ctx.handSizes),
    // CR 800.4i: the spells they cast this turn still count for day and night (731.2); a new turn drops them.
    skips: without(ctx.skips),
    stops: without(ctx.stops),
    yields: without(ctx.yields),
    effects: ctx.effects.filter((e) => e.controller !== player),
    controlNext: ctx.controlNext.filter((c) => c.player !== player && c.controller !== player),
    controlledBy,
    reasons,
    result: lastStanding({ teams: ctx.teams, players }) === null ? null : { winners: lastStanding({ teams: ctx.teams, players }) ?? [], draw: false, reasons },
  };
  return { patch, priorityTo, endedEffects, removed: ctx.stack.filter((o) => o.controller === player) };
}

/** The game ends in a draw for every player still in it (CR 104.4a). */
export function drawnGame(ctx: Pick<TurnContext, 'players' | 'reasons'>): GameResult {
  const reasons = { ...ctx.reasons };
  for (const p of ctx.players) reasons[p] = 'draw';
  return { winners: [], draw: true, reasons };
}
