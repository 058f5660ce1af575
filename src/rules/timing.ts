/**
 * Timing of spells, abilities and land plays.
 * CR 101.2, 116.2a, 117.1a, 117.1b, 305.1, 305.2, 305.3, 307.1, 307.5.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { landPlaysAllowed, spellLimitOf } from './effects.js';
import { priorityViolation } from './priority.js';
import { unitOf } from './units.js';

type TimingContext = Pick<TurnContext, 'priority' | 'players' | 'activePlayer' | 'phase' | 'stack' | 'landsPlayedBy' | 'effects' | 'spellsCast' | 'teams' | 'variant'>;

/** Whether the turn is in a main phase (CR 505.1). */
export function isMainPhase(ctx: Pick<TurnContext, 'phase'>): boolean {
  return ctx.phase === 'precombatMain' || ctx.phase === 'postcombatMain';
}

/**
 * "Sorcery speed": it must be the player's turn and main phase, and the stack must be
 * empty (CR 307.1, 307.5, 117.1a).
 */
export function sorceryTimingViolation(ctx: Pick<TurnContext, 'activePlayer' | 'phase' | 'stack' | 'teams' | 'variant'>, player: PlayerId, rule: string): Violation | null {
  if (unitOf(ctx, player) !== ctx.activePlayer) return violation(rule, `${player} can act at sorcery speed only during their own turn`);
  if (!isMainPhase(ctx)) return violation(rule, `sorcery-speed actions need a main phase; this is the ${ctx.phase} phase`);
  if (ctx.stack.length > 0) return violation(rule, 'sorcery-speed actions need an empty stack');
  return null;
}

/** Whether a player may cast another spell this turn under the `spellLimit` effects (CR 101.2). */
export function spellLimitViolation(ctx: Pick<TurnContext, 'effects' | 'spellsCast'>, player: PlayerId): Violation | null {
  const limit = spellLimitOf(ctx, player);
  const cast = ctx.spellsCast[player] ?? 0;
  return cast >= limit ? violation('101.2', `${player} can't cast more than ${limit} spell(s) each turn and has cast ${cast}`) : null;
}

/** Casting a spell (CR 117.1a, 307.1) or activating an ability (CR 117.1b, 307.5). */
export function castViolation(ctx: TimingContext, player: PlayerId, speed: 'sorcery' | 'instant', what: 'spell' | 'ability'): Violation | null {
  const doing = what === 'spell' ? 'cast a spell' : 'activate an ability';
  const noPriority = priorityViolation(ctx, player, what === 'spell' ? '117.1a' : '117.1b', doing);
  if (noPriority) return noPriority;
  if (speed === 'sorcery') {
    const timing = sorceryTimingViolation(ctx, player, what === 'spell' ? '307.1' : '307.5');
    if (timing) return timing;
  }
  return what === 'spell' ? spellLimitViolation(ctx, player) : null;
}

/**
 * Playing a land: the active player, holding priority, in a main phase, with an empty
 * stack, having played fewer lands this turn than allowed (CR 305.1, 305.2, 305.3, 116.2a).
 */
export function landViolation(ctx: TimingContext, player: PlayerId): Violation | null {
  if (ctx.players.includes(player) && unitOf(ctx, player) !== ctx.activePlayer) return violation('305.3', `${player} cannot play a land: it is not their turn`);
  const noPriority = priorityViolation(ctx, player, '305.1', 'play a land');
  if (noPriority) return noPriority;
  if (!isMainPhase(ctx)) return violation('305.1', `lands are played in a main phase; this is the ${ctx.phase} phase`);
  if (ctx.stack.length > 0) return violation('305.1', 'lands are played only while the stack is empty');
  const allowed = landPlaysAllowed(ctx, player);
  const played = landsPlayedBy(ctx, player);
  if (played >= allowed) return violation('305.2', `${player} has already played ${played} land(s) this turn (allowed: ${allowed})`);
  return null;
}

/** The lands a player played this turn (CR 305.2; with shared team turns each player of the team counts their own, 805.4c). */
export function landsPlayedBy(ctx: Pick<TurnContext, 'landsPlayedBy'>, player: PlayerId): number {
  return ctx.landsPlayedBy[player] ?? 0;
}

/** The lands the players of a unit (a player, or a team with shared team turns) played this turn (805.4c). */
export function landsPlayedByUnit(ctx: Pick<TurnContext, 'landsPlayedBy' | 'teams' | 'variant'>, unit: PlayerId | null): number {
  let lands = 0;
  if (unit === null) return lands;
  for (const [player, n] of Object.entries(ctx.landsPlayedBy)) if (unitOf(ctx, player) === unit) lands += n;
  return lands;
}
