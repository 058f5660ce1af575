/**
 * Mana pools.
 * CR 106.4, 500.5, 703.4q; classic (before July 2009) 300.3: pools empty only when a
 * phase ends, and unspent mana burns its owner.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { violation, type Violation } from '../errors.js';
import { decider } from './control.js';
import { keepsMana } from './effects.js';
import { eraOf } from './eras.js';

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
 * Whether pools empty when this boundary is crossed, in the game's era: as every step and every
 * phase ends (CR 500.5: after the effects that last until then have ended, so mana an 'until end
 * of combat' effect kept through the end of combat step empties as the combat phase ends), or in
 * 'classic' only as a phase ends (classic 300.3).
 */
export function poolsEmptyAt(ctx: Pick<TurnContext, 'rules'>, boundary: 'step' | 'phase'): boolean {
  return eraOf(ctx).manaEmpties === 'step' || boundary === 'phase';
}

/** The pools that hold mana and empty now, in turn order: not those an effect keeps (CR 500.5). */
export function poolsToEmpty(ctx: Pick<TurnContext, 'players' | 'manaPool' | 'effects'>): EmptiedPool[] {
  const out: EmptiedPool[] = [];
  // Many players (Grand Melee's 64 empty them every few events): whether any pool holds mana, known once per record of pools.
  if (ctx.players.length > MANY_PLAYERS && !holdsMana(ctx.manaPool)) return out;
  for (const player of ctx.players) {
    const amount = ctx.manaPool[player] ?? 0;
    if (amount > 0 && !keepsMana(ctx, player)) out.push({ player, amount });
  }
  return out;
}

/** From how many players poolsToEmpty first asks {@link holdsMana} (below, a look at each pool costs less than the question). */
const MANY_PLAYERS = 8;

/** Whether some pool holds mana: found once per record of pools (never changed in place), read as every step ends. */
function holdsMana(pools: Record<PlayerId, number>): boolean {
  let holds = poolsHolding.get(pools);
  if (holds === undefined) {
    holds = false;
    for (const p in pools) if ((pools[p] ?? 0) > 0) holds = true;
    poolsHolding.set(pools, holds);
  }
  return holds;
}
const poolsHolding = new WeakMap<Record<PlayerId, number>, boolean>();

/** Spending mana: the pool must hold that much (CR 106.4). */
export function spendViolation(ctx: Pick<TurnContext, 'players' | 'manaPool'>, player: PlayerId, amount: number): Violation | null {
  if (!ctx.players.includes(player)) return violation('800.4a', `${player} has left the game`);
  const have = ctx.manaPool[player] ?? 0;
  if (amount > have) return violation('106.4', `${player} cannot spend ${amount} mana: their pool holds ${have}`);
  return null;
}

/**
 * Whether the mana a player loses as a pool empties burns them, 1 life each (classic 300.3):
 * only in an era with mana burn, and never while another player controls their turn (classic
 * 507.4; control holds only during the controlled player's turn, CR 723.1b).
 */
export function burnsMana(ctx: Pick<TurnContext, 'rules' | 'controlledBy'>, player: PlayerId): boolean {
  return eraOf(ctx).manaBurn && decider(ctx, player) === player;
}
