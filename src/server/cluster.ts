/**
 * Many server processes (CONTRACT v3, "Serving games"; issue 25, point 6): the processes of a
 * cluster share Colyseus' presence and matchmaking driver (`RedisPresence`, `RedisDriver`), so a
 * join that reaches any process finds the game's room wherever it runs. What this module adds
 * to Colyseus 0.16 is what a process that dies needs:
 *
 * - **Stale listings.** A process killed with SIGKILL leaves its rooms listed in Redis. Colyseus
 *   finds out only when a join times out asking the dead room for a seat (2 s), and again asking
 *   the dead process (2 s more). A process that is alive holds a subscription to its channel
 *   (`p:<processId>`), and Redis drops the subscriptions of a connection that closes, which the
 *   kernel does at once for a process that dies: so {@link clusterDriver} answers a listing of a
 *   process without a subscriber as absent (and removes it), and the join makes the game's room
 *   here at once.
 * - **Removing only one's own listing.** A room id is its game id, so the listing of a game's new
 *   room has the same key as its old room's: a listing is removed only if it still names the
 *   process that removes it (a compare-and-delete in Redis), never the new owner's.
 *
 * The lease in the store (./owned.ts) stays what decides who may write a game: a new room waits
 * for the lease of a dead owner to expire before it loads the game.
 */
import type { IRoomCache, MatchMakerDriver, Presence, RoomCache, SortOptions } from '@colyseus/core';

/** The hash where Colyseus' RedisDriver keeps its listings (room id -> JSON). */
const LISTINGS_KEY = 'roomcaches';

/** Deletes the field only if its JSON still holds the given `"processId":"..."`. */
const REMOVE_IF_OWNED = `local v = redis.call('HGET', KEYS[1], ARGV[1])
if v and string.find(v, ARGV[2], 1, true) then return redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0`;

/** What the driver needs to know of the processes. */
export interface ClusterPeers {
  /** This process's Colyseus process id. */
  self(): string;
  /** Whether the process is alive (holds its channel). */
  alive(processId: string): Promise<boolean>;
}

/** The Redis client of a RedisDriver, for the one script it runs (ioredis' `eval`). */
interface EvalClient {
  eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
}

function evalClientOf(driver: MatchMakerDriver): EvalClient | null {
  const client = (driver as unknown as { _client?: Partial<EvalClient> })._client;
  return typeof client?.eval === 'function' ? (client as EvalClient) : null;
}

/**
 * Whether Colyseus' process `processId` is alive: it holds its channel in the presence (Redis: a
 * subscriber). On a Redis Cluster a node knows only its own subscribers: every process counts as
 * alive there (Colyseus' own health check finds the dead ones, more slowly).
 */
export async function processAlive(presence: Presence, processId: string): Promise<boolean> {
  if ((presence as { pub?: { isCluster?: boolean } }).pub?.isCluster === true) return true;
  const channel = `p:${processId}`;
  try {
    return (await presence.channels(channel)).includes(channel);
  } catch {
    return true; // Redis cannot be asked: assume alive (Colyseus' own health check still applies)
  }
}

/** The Colyseus process id in a lease owner's name (`host:pid:processId`), or null. */
export function processOfOwner(owner: string | null): string | null {
  if (owner === null) return null;
  const at = owner.lastIndexOf(':');
  return at < 0 ? null : owner.slice(at + 1) || null;
}

/**
 * The driver of a cluster: `inner` (Colyseus' RedisDriver) with the listings of dead processes
 * answered as absent (and removed), and each process removing only its own listings.
 */
export function clusterDriver(inner: MatchMakerDriver, peers: ClusterPeers): MatchMakerDriver {
  const redis = evalClientOf(inner);
  /** Removes the listing `roomId` if it still names `processId`. */
  const removeIfOwned = async (roomId: string, processId: string): Promise<void> => {
    if (redis !== null) await redis.eval(REMOVE_IF_OWNED, 1, LISTINGS_KEY, roomId, `"processId":${JSON.stringify(processId)}`);
  };
  /** A listing of a process that is gone: removed, and answered as absent. */
  const stale = async (listing: RoomCache | undefined): Promise<boolean> => {
    if (listing === undefined || listing === null || listing.processId === peers.self()) return false;
    if (await peers.alive(listing.processId)) return false;
    await removeIfOwned(listing.roomId, listing.processId).catch(() => undefined);
    return true;
  };
  return {
    createInstance(initialValues: Partial<IRoomCache>): RoomCache {
      const listing = inner.createInstance(initialValues);
      // RoomData.remove() deletes by room id: a listing is removed only while it still names this process.
      const own = listing as RoomCache & { hdel?: (key: string, field: string) => Promise<unknown> };
      if (redis !== null && typeof own.hdel === 'function') own.hdel = (_key: string, field: string) => removeIfOwned(field, listing.processId);
      return listing;
    },
    has: (roomId) => inner.has(roomId),
    query: (conditions, sortOptions) => inner.query(conditions, sortOptions),
    async cleanup(processId: string): Promise<void> {
      // Colyseus removes a process's listings when it stops (or is found dead): only those still its own.
      if (redis === null) return inner.cleanup?.(processId);
      for (const listing of await inner.query({ processId })) await removeIfOwned(listing.roomId, processId);
    },
    async findOne(conditions: Partial<IRoomCache>, sortOptions?: SortOptions): Promise<RoomCache> {
      // Each stale listing found is removed, so this ends (a few rounds at most in practice).
      for (let round = 0; round < 16; round++) {
        const listing = (await inner.findOne(conditions, sortOptions)) as RoomCache | undefined;
        if (!(await stale(listing))) return listing as RoomCache;
      }
      return undefined as unknown as RoomCache;
    },
    clear: () => inner.clear(),
    shutdown: () => inner.shutdown(),
  };
}
