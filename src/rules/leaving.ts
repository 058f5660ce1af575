/**
 * A player leaving the game.
 * CR 104.3a, 800.4a, 800.4d, 800.4j, 800.4k.
 */
import type { PlayerId, TurnContext } from '../../machines/turn.types.js';
import { removeFromCombat } from './combat.js';
import { nextPlayerAfter } from './turnOrder.js';

/**
 * The game without `player` (CR 800.4a): the objects they control leave the stack, their
 * pending triggers are never put on it (800.4d), their creatures leave combat, their extra
 * turns never begin (800.4k), and if they held priority the next player in turn order
 * receives it. On their own turn the turn goes on without an active player (800.4j).
 * `priorityTo` is the player who must now receive priority, or null if it did not move.
 */
export function leaveGame(ctx: TurnContext, player: PlayerId): { patch: Partial<TurnContext>; priorityTo: PlayerId | null } {
  const players = ctx.players.filter((p) => p !== player);
  const wasActive = ctx.activePlayer === player;
  const heldPriority = ctx.priority === player;
  const priorityTo = heldPriority && players.length > 1 ? nextPlayerAfter({ seats: ctx.seats, players }, player) : null;
  const manaPool = { ...ctx.manaPool };
  delete manaPool[player];
  const handSizes = { ...ctx.handSizes };
  delete handSizes[player];
  const skips = { ...ctx.skips };
  delete skips[player];
  const patch: Partial<TurnContext> = {
    players,
    activePlayer: wasActive ? null : ctx.activePlayer,
    priority: heldPriority ? null : ctx.priority,
    passed: ctx.passed.filter((p) => p !== player && p !== priorityTo),
    stack: ctx.stack.filter((o) => o.controller !== player),
    pendingTriggers: ctx.pendingTriggers.filter((t) => t.controller !== player),
    combat: removeFromCombat(ctx.combat, player, wasActive),
    extraTurns: ctx.extraTurns.filter((p) => p !== player),
    manaPool,
    handSizes,
    skips,
    winners: players.length === 1 ? players : null,
  };
  return { patch, priorityTo };
}
