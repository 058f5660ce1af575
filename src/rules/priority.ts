/**
 * Priority: who holds it, passing, and when a step ends.
 * CR 117.3, 117.4, 117.5, 500.2, 500.3, 603.3b, 800.4a, 800.4d.
 */
import type { PlayerId, StackObject, Trigger } from '../contract.js';
import type { TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { activeOrNext, apnapOrder, nextPlayerAfter } from './turnOrder.js';
import { byPriority, byUnits, membersOf, sharesTurns, unitOf } from './units.js';

/**
 * CR 117.5, 800.4a: who receives priority once the check is done: the player who would have
 * received it, or, if they left meanwhile, the next player in turn order still in the game.
 */
export function receivesPriority(ctx: TurnContext, player: PlayerId): PlayerId | null {
  const circle = byPriority(ctx);
  return circle.players.includes(player) ? player : ((circle.seats.includes(player) ? nextPlayerAfter(circle, player) : null) ?? activeOrNext(ctx));
}

/** Refuses a decision from a player who does not hold priority. */
export function priorityViolation(ctx: Pick<TurnContext, 'priority' | 'players' | 'teams' | 'variant'>, player: PlayerId, rule: string, doing: string): Violation | null {
  if (!ctx.players.includes(player)) return violation('800.4a', `${player} has left the game and can no longer ${doing}`);
  // CR 805.5: with shared team turns, any member of the team holding priority may act for it.
  if (ctx.priority === unitOf(ctx, player)) return null;
  const holder = ctx.priority === null ? 'no player holds priority now' : `${ctx.priority} holds priority`;
  return violation(rule, `${player} cannot ${doing}: ${holder}`);
}

/**
 * Every player in APNAP order (CR 101.4): with shared team turns the active team's players
 * first, then each other team's in turn order (805.7), each team's in seat order.
 */
export function apnapPlayers(ctx: Pick<TurnContext, 'seats' | 'players' | 'turnOwner' | 'teams' | 'variant'>): PlayerId[] {
  if (!sharesTurns(ctx)) return apnapOrder(ctx);
  return apnapOrder(byUnits(ctx)).flatMap((u) => membersOf(ctx, u));
}

/** Whether every player still in the game has passed in succession (CR 117.4). */
export function allPlayersPassed(ctx: Pick<TurnContext, 'players' | 'passed'>): boolean {
  return ctx.players.length > 0 && ctx.players.every((p) => ctx.passed.includes(p));
}

/** Whether the player holding priority is the last to pass with an object on the stack, so the top resolves (CR 117.4, 608.1). */
export function isLastToPassWithObjectOnStack(ctx: Pick<TurnContext, 'priority' | 'stack' | 'players' | 'passed'>, player: PlayerId): boolean {
  return ctx.priority === player && ctx.stack.length > 0 && ctx.players.every((p) => p === player || ctx.passed.includes(p));
}

/**
 * Records a pass (CR 117.3d): the next player in turn order receives priority, unless all
 * players have now passed in succession, in which case nobody holds priority until the top
 * of the stack resolves or the step ends (CR 117.4).
 */
export function recordPass(ctx: Pick<TurnContext, 'players' | 'passed' | 'seats'>, player: PlayerId): { passed: PlayerId[]; next: PlayerId | null } {
  const passed = ctx.passed.includes(player) ? ctx.passed : [...ctx.passed, player];
  if (ctx.players.every((p) => passed.includes(p))) return { passed, next: null };
  return { passed, next: nextPlayerAfter(ctx, player) };
}

/**
 * A step or phase with priority ends when all players pass in succession with the stack
 * empty (CR 500.2). Once the game is over no step ends (CR 104.1).
 */
export function isStepOver(ctx: Pick<TurnContext, 'stack' | 'priority' | 'players' | 'passed' | 'result' | 'triggerOrder'>): boolean {
  // Nor while triggers wait for their controllers to order them (CR 603.3b).
  if (ctx.result !== null || ctx.triggerOrder !== null) return false;
  return ctx.priority === null && ctx.stack.length === 0 && allPlayersPassed(ctx);
}

/** The units (players, or teams with shared team turns) in APNAP order (CR 101.4, 805.6). */
function apnapUnits(ctx: Pick<TurnContext, 'seats' | 'players' | 'turnOwner' | 'teams' | 'variant'>): PlayerId[] {
  return sharesTurns(ctx) ? apnapOrder(byUnits(ctx)) : apnapOrder(ctx);
}

/**
 * The next player who must order triggers of a waiting batch (CR 603.3b, with
 * `orderTriggers: 'players'`): in APNAP order, each player with two or more triggers in it.
 * With shared team turns a team orders every trigger its members control (805.7), awaited
 * from its first player still in the game; any member may answer (805.5, 805.2). The order
 * is kept under the unit (the team's primary player, or the player).
 */
export function triggerOrderDue(ctx: Pick<TurnContext, 'triggerOrder' | 'seats' | 'players' | 'turnOwner' | 'teams' | 'variant'>): { player: PlayerId; unit: PlayerId; triggers: string[] } | null {
  const pending = ctx.triggerOrder;
  if (pending === null) return null;
  for (const unit of apnapUnits(ctx)) {
    const ours = unitTriggers(ctx, pending.batch, unit);
    if (ours.length >= 2 && pending.orders[unit] === undefined) return { player: membersOf(ctx, unit)[0] ?? unit, unit, triggers: ours.map((t) => t.id) };
  }
  return null;
}

/** The triggers of a batch controlled by a unit's players, each player's in the order listed, players in seat order (805.7). */
function unitTriggers(ctx: Pick<TurnContext, 'players' | 'teams' | 'variant'>, batch: readonly Trigger[], unit: PlayerId): Trigger[] {
  return batch.filter((t) => unitOf(ctx, t.controller) === unit);
}

/** Whether a batch of triggers must wait for its controllers to order them (CR 603.3b; a team's, 805.7). */
export function needsOrdering(ctx: Pick<TurnContext, 'orderTriggers' | 'teams' | 'variant'>, triggers: readonly Trigger[]): boolean {
  if (ctx.orderTriggers !== 'players') return false;
  const seen = new Set<string>();
  for (const t of triggers) {
    const unit = unitOf(ctx, t.controller);
    if (seen.has(unit)) return true;
    seen.add(unit);
  }
  return false;
}

/**
 * A waiting batch in the order it goes on the stack (CR 603.3b, 805.7): units in APNAP order,
 * each unit's triggers as it ordered them, or as listed.
 */
export function orderedBatch(ctx: Pick<TurnContext, 'triggerOrder' | 'seats' | 'players' | 'turnOwner' | 'teams' | 'variant'>): Trigger[] {
  const pending = ctx.triggerOrder;
  if (pending === null) return [];
  const batch: Trigger[] = [];
  for (const unit of apnapUnits(ctx)) {
    const ours = unitTriggers(ctx, pending.batch, unit);
    const ids = pending.orders[unit] ?? ours.map((t) => t.id);
    for (const id of ids) {
      const t = ours.find((x) => x.id === id);
      if (t) batch.push(t);
    }
  }
  return batch;
}

/**
 * Puts triggered abilities on the stack (CR 603.3b): the active player's first (lowest),
 * then each other player's in turn order, each player's in the order given. With shared team
 * turns, the active team's first, then each other team's in turn order, each team's in the
 * order given, its members' triggers in any order (805.7). Abilities of players who have left
 * the game are not put on the stack (CR 800.4d).
 */
export function stackTriggers(ctx: Pick<TurnContext, 'seats' | 'players' | 'turnOwner' | 'stack' | 'teams' | 'variant'>, triggers: readonly Trigger[]): StackObject[] {
  if (triggers.length === 0) return ctx.stack;
  const stack = [...ctx.stack];
  for (const unit of apnapUnits(ctx)) {
    for (const t of triggers) {
      if (ctx.players.includes(t.controller) && unitOf(ctx, t.controller) === unit) stack.push({ id: t.id, controller: t.controller, kind: 'trigger' });
    }
  }
  return stack;
}
