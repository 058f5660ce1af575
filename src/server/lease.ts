/**
 * Opening a game here (CONTRACT v3, "Serving games"): what a process needs of its server to take
 * a game's lease in the store ({@link LeaseHost}), taking it ({@link takeLease}, waiting out a dead
 * holder's), and the error a game that cannot be opened here throws ({@link OpenError}).
 */
import type { GameStore } from './store/types.js';

/** What taking a game's lease needs of the server (an owned game's host: ./owned.ts). */
export interface LeaseHost {
  readonly store: GameStore;
  /** This process's name in the store's leases. */
  readonly owner: string;
  /** How long a lease holds (renewed every quarter of it). */
  readonly leaseMs: number;
  /** Whether the process that named itself `owner` in a lease is alive (a dead one's lease is waited for). */
  holderAlive(owner: string): Promise<boolean>;
}

/** The game cannot be opened here: it does not exist, or another process owns it. */
export class OpenError extends Error {
  constructor(
    readonly reason: 'missing' | 'busy' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'OpenError';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Takes a game's lease: at once if it is free, ours, or expired; after waiting, if its holder is
 * a process that is gone and the lease ends soon (never a live holder's: it renews it).
 */
export async function takeLease(host: LeaseHost, gameId: string): Promise<boolean> {
  if (await host.store.acquireLease(gameId, host.owner, Date.now(), host.leaseMs)) return true;
  for (let round = 0; round < 3; round++) {
    const current = await host.store.loadGame(gameId);
    if (current === null) throw new OpenError('missing', `no game '${gameId}' on this server`);
    const left = current.leaseUntil - Date.now();
    if (current.owner !== null && (left > host.leaseMs + 1000 || (await host.holderAlive(current.owner)))) return false;
    // The lease holds while lease_until >= now: it can be taken 1 ms after.
    if (current.owner !== null && left >= 0) await sleep(left + 2);
    if (await host.store.acquireLease(gameId, host.owner, Date.now(), host.leaseMs)) return true;
  }
  return false;
}
