/**
 * A player leaving the game, and the end of the game.
 * CR 104.2a, 104.3a, 104.4a, 800.4a, 800.4d, 800.4j, 800.4k.
 */
import type { GameResult, PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { withoutPlayer } from './combat.js';
import { nextPlayerAfter } from './turnOrder.js';
import { lastStanding } from './teams.js';
import { byUnits, representative, unitOf } from './units.js';

/**
 * The game without `player` (CR 800.4a): the objects they control leave the stack, their
 * pending triggers are never put on it (800.4d), their creatures leave combat, their extra
 * turns never begin (800.4k), control of or by them ends (the only effects that end, 800.4a:
 * the effects they control that change the turn last their duration, and one lasting "until
 * your next turn" lasts until that turn would have begun, 800.4m, see `endsAt`), and if they
 * held priority the next player in turn order receives it. On their own turn the turn goes on
 * without an active player (800.4j). With one player (team) left, that one wins (104.2a).
 * `priorityTo` is the player who must now receive priority, or null if it did not move.
 */
export function leaveGame(
  ctx: TurnContext,
  player: PlayerId,
  reason: string,
): { patch: Partial<TurnContext>; priorityTo: PlayerId | null; removed: TurnContext['stack'] } {
  const players = ctx.players.filter((p) => p !== player);
  // CR 805.2, 904: with shared team turns the turn and priority belong to a team, named by its
  // first player (its unit). A team goes on while a member is in the game (in Archenemy a player
  // leaves alone): it stays active, keeps priority, its extra turns and skips; it is gone with its
  // last member. Without shared turns a player is their own unit.
  const unit = unitOf(ctx, player);
  const unitGone = !players.some((p) => unitOf(ctx, p) === unit);
  const wasActive = ctx.activePlayer === unit && unitGone;
  const heldPriority = ctx.priority === unit && unitGone;
  const priorityTo = heldPriority && players.length > 1 ? nextPlayerAfter(byUnits({ seats: ctx.seats, players, teams: ctx.teams, variant: ctx.variant }), unit) : null;
  const without = <T>(record: Record<PlayerId, T>, key: PlayerId = player): Record<PlayerId, T> => {
    const out = { ...record };
    delete out[key];
    return out;
  };
  // A team's combat damage on the stack (classic rules) is the team's: a member still in the game controls it.
  const standIn = unitGone ? null : representative({ players, teams: ctx.teams, variant: ctx.variant }, unit);
  const stack: TurnContext['stack'] = [];
  for (const o of ctx.stack) {
    if (o.controller !== player) stack.push(o);
    else if (o.kind === 'combatDamage' && standIn !== null) stack.push({ ...o, controller: standIn });
  }
  const controlledBy: Record<PlayerId, PlayerId> = {};
  for (const [p, c] of Object.entries(ctx.controlledBy)) if (p !== player && c !== player) controlledBy[p] = c;
  const reasons = { ...ctx.reasons, [player]: reason };
  const standing = lastStanding({ teams: ctx.teams, players });
  const patch: Partial<TurnContext> = {
    players,
    activePlayer: wasActive ? null : ctx.activePlayer,
    priority: heldPriority ? null : ctx.priority,
    passed: ctx.passed.filter((p) => !(p === unit && unitGone) && p !== priorityTo),
    stack,
    pendingTriggers: ctx.pendingTriggers.filter((t) => t.controller !== player),
    triggerOrder: ctx.triggerOrder === null ? null : { ...ctx.triggerOrder, batch: ctx.triggerOrder.batch.filter((t) => t.controller !== player) },
    combat: withoutPlayer(ctx.combat, player, wasActive, unitGone),
    // CR 800.4k, 800.4m: a departed player's extra turns stay, so that the turn order passes each over
    // where it would have begun (what lasts until their next turn ends there); Grand Melee's markers
    // never reach them (807.4i-j), so there they go.
    extraTurns: unitGone && ctx.variant === 'grandMelee' ? ctx.extraTurns.filter((t) => t.player !== unit) : ctx.extraTurns,
    manaPool: without(ctx.manaPool),
    handSizes: without(ctx.handSizes),
    // CR 800.4i: the spells they cast this turn still count for day and night (731.2); a new turn drops them.
    // A team's pending skips are kept under its unit (805.8): they stay while the team plays on.
    skips: unitGone ? without(ctx.skips, unit) : ctx.skips,
    stops: without(ctx.stops),
    yields: without(ctx.yields),
    controlNext: ctx.controlNext.filter((c) => c.player !== player && c.controller !== player),
    controlledBy,
    // CR 702.26n: what phased out under them phases in once their next turn would have begun (nothing
    // has phased out before turn 1, and nothing waits once the game is over).
    waitingToPhaseIn: standing === null && ctx.pregame === null ? [...ctx.waitingToPhaseIn, { player, due: false }] : [],
    reasons,
    result: standing === null ? null : { winners: standing, draw: false, reasons },
  };
  return { patch, priorityTo, removed: ctx.stack.filter((o) => o.controller === player && !stack.some((kept) => kept.id === o.id)) };
}

/** The game ends in a draw for every player still in it (CR 104.4a). */
export function drawnGame(ctx: Pick<TurnContext, 'players' | 'reasons'>): GameResult {
  const reasons = { ...ctx.reasons };
  for (const p of ctx.players) reasons[p] = 'draw';
  return { winners: [], draw: true, reasons };
}
