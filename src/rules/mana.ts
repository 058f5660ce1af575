/**
 * Mana pools.
 * CR 106.4, 500.5, 703.4q; classic (before July 2009) 300.3: pools empty only when a
 * phase ends, and unspent mana burns its owner.
 */
import type { PlayerId, RulesProfile, TurnContext } from '../../machines/turn.types.js';
import { violation, type Violation } from '../errors.js';

/** A pool that was emptied, and how much it held. */
export interface EmptiedPool {
  player: PlayerId;
  amount: number;
}

/** A pool with no mana for each player. */
export function emptyPools(players: readonly PlayerId[]): Record<PlayerId, number> {
  const pool: Record<PlayerId, number> = {};
  for (const p of players) pool[p] = 0;
  return pool;
}

/**
 * Whether pools empty when this boundary is crossed: every step and phase end under the
 * current rules (CR 500.5), only phase ends under 'classic' (classic 300.3).
 */
export function poolsEmptyAt(rules: RulesProfile, boundary: 'step' | 'phase'): boolean {
  return rules === 'classic' ? boundary === 'phase' : boundary === 'step';
}

/** The pools that hold mana, in turn order, as they empty. */
export function poolsWithMana(ctx: Pick<TurnContext, 'players' | 'manaPool'>): EmptiedPool[] {
  const out: EmptiedPool[] = [];
  for (const player of ctx.players) {
    const amount = ctx.manaPool[player] ?? 0;
    if (amount > 0) out.push({ player, amount });
  }
  return out;
}

/** Spending mana: the pool must hold that much (CR 106.4). */
export function spendViolation(ctx: Pick<TurnContext, 'players' | 'manaPool'>, player: PlayerId, amount: number): Violation | null {
  if (!ctx.players.includes(player)) return violation('800.4a', `${player} has left the game`);
  const have = ctx.manaPool[player] ?? 0;
  if (amount > have) return violation('106.4', `${player} cannot spend ${amount} mana: their pool holds ${have}`);
  return null;
}
