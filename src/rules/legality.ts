/**
 * The checks the events' legality rows are made of (each row is in its event's record,
 * src/events/): a player still in the game, a decision awaited from that player, ids unique on
 * the stack, a combat phase. Each returns the violated rule and a message saying what to do
 * instead, or null.
 */
import type { Awaiting, PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { MAX_STACK } from './limits.js';
import { startingCandidates } from './pregame.js';
import { unitOf } from './units.js';

/** A player who has left can no longer do anything (CR 800.4a). */
export function inGame(ctx: Pick<TurnContext, 'players'>, player: PlayerId, field = 'player'): Violation | null {
  return ctx.players.includes(player) ? null : violation('800.4a', `${field} ${player} has left the game`);
}

/** The starting player must be one the variant allows (CR 904.6: the archenemy; 809.4: an emperor). */
export function startingViolation(ctx: Pick<TurnContext, 'players' | 'teams' | 'variant'>, starting: PlayerId): Violation | null {
  const candidates = startingCandidates(ctx);
  if (candidates === null || candidates.includes(starting)) return null;
  return ctx.variant === 'archenemy'
    ? violation('904.6', `the archenemy takes the first turn, not ${starting}`)
    : violation('809.4', `an emperor goes first (${candidates.join(', ')}), not ${starting}`);
}

/**
 * A decision must be awaited from that player (or be one of the decisions priority allows).
 * Given `ctx`, any member of the awaited team decides for it with shared team turns (CR 805.5, 805.10).
 */
export function awaited(awaiting: Awaiting | null, kind: Awaiting['kind'], player: PlayerId, rule: string, what: string, ctx?: Pick<TurnContext, 'teams' | 'variant'>): Violation | null {
  if (awaiting?.kind === kind && (awaiting.player === player || (ctx !== undefined && unitOf(ctx, awaiting.player) === unitOf(ctx, player)))) return null;
  const now = awaiting === null ? 'nothing is awaited' : `the game awaits ${awaiting.kind} from ${awaiting.player}`;
  return violation(rule, `${what} by ${player} is not awaited now: ${now}`);
}

/** Ids on the stack are unique (and among the triggers waiting to be put on it, or to be ordered first, 603.3b). */
export function stackIdViolation(ctx: Pick<TurnContext, 'stack' | 'pendingTriggers' | 'triggerOrder'>, ids: readonly string[]): Violation | null {
  // No id (a check that reported no trigger): nothing to look through.
  if (ids.length === 0) return stackLimitViolation(ctx, 0);
  // One id (a spell or ability, the usual case): a look through the lists, no set built.
  if (ids.length === 1) return stackIdTaken(ctx, ids[0] as string) ? duplicateId(ids[0] as string) : stackLimitViolation(ctx, 1);
  const taken = new Set([...ctx.stack.map((o) => o.id), ...ctx.pendingTriggers.map((t) => t.id), ...(ctx.triggerOrder?.batch ?? []).map((t) => t.id)]);
  for (const id of ids) {
    if (taken.has(id)) return duplicateId(id);
    taken.add(id);
  }
  return stackLimitViolation(ctx, ids.length);
}

function stackIdTaken(ctx: Pick<TurnContext, 'stack' | 'pendingTriggers' | 'triggerOrder'>, id: string): boolean {
  for (const o of ctx.stack) if (o.id === id) return true;
  for (const t of ctx.pendingTriggers) if (t.id === id) return true;
  for (const t of ctx.triggerOrder?.batch ?? []) if (t.id === id) return true;
  return false;
}

function duplicateId(id: string): Violation {
  return violation('405.1', `an object with id ${id} is already on the stack (or waiting)`);
}

function stackLimitViolation(ctx: Pick<TurnContext, 'stack' | 'pendingTriggers'>, adding: number): Violation | null {
  return ctx.stack.length + ctx.pendingTriggers.length + adding > MAX_STACK ? violation('405.1', `the stack would be past MAX_STACK = ${MAX_STACK}`) : null;
}

/** Changing what is in combat needs a combat phase (CR 506.4). */
export function inCombatPhase(ctx: Pick<TurnContext, 'phase' | 'combat'>, what: string): Violation | null {
  return ctx.phase === 'combat' && ctx.combat !== null ? null : violation('506.4', `${what} needs a combat phase; this is the ${ctx.phase} phase`);
}

/** The first violation of checks run in order (a check runs only when the ones before it pass). */
export const first = (...checks: (() => Violation | null)[]): Violation | null => {
  for (const c of checks) {
    const v = c();
    if (v !== null) return v;
  }
  return null;
};
