/**
 * The connections' heartbeat, spread over its interval (issue 31: one client, or many, cannot
 * slow every game). Colyseus' WebSocket transport pings every connection in one loop every 3
 * seconds: with a thousand connections that loop is a thousand socket writes, some 30 ms in which
 * no send is answered, once every 3 seconds (in `npm run bench:server`, about 1% of the sends
 * waited behind it: the p99). Here each tick pings a slice of the connections, so that each is
 * still pinged once per interval and closed after the same unanswered pings as Colyseus closes it.
 */
import type { WebSocketTransport } from '@colyseus/ws-transport';

/** The ticks an interval is spread over: each pings about 1/PING_SLICES of the connections. */
export const PING_SLICES = 30;

/** A connection as the transport's WebSocket server holds it (`ws`, with Colyseus' count of unanswered pings). */
export interface Pingable {
  /** Pings sent and not answered yet (Colyseus sets it to 0 at each pong). */
  pingCount: number;
  ping(callback: () => void): void;
  terminate(): void;
}

const noop = () => undefined;

/**
 * Pings the connections a slice per tick: a pass over them all takes PING_SLICES ticks (one
 * interval), each tick pinging at most 1/PING_SLICES of those there were when the pass began,
 * the last tick whatever is left (the connections that joined during the pass).
 */
export class SlicedPinger {
  #pass: Iterator<Pingable> = new Set<Pingable>().values();
  #tick = 0;
  #perTick = 0;

  /**
   * `clients`: the live set of connections (connections added during a pass are pinged in it,
   * those removed are not). `maxMissed`: a connection with that many pings unanswered is closed
   * at its next turn instead of pinged again (Colyseus' `pingMaxRetries`).
   */
  constructor(
    private readonly clients: () => ReadonlySet<Pingable>,
    private readonly maxMissed: number,
  ) {}

  /** One tick: the next slice of the pass. */
  tick(): void {
    if (this.#tick === 0) {
      const clients = this.clients();
      this.#pass = clients.values();
      this.#perTick = Math.ceil(clients.size / PING_SLICES);
    }
    let left = this.#tick === PING_SLICES - 1 ? Infinity : this.#perTick;
    this.#tick = (this.#tick + 1) % PING_SLICES;
    for (let next = left > 0 ? this.#pass.next() : null; next !== null && next.done !== true; next = --left > 0 ? this.#pass.next() : null) {
      const client = next.value;
      if (client.pingCount >= this.maxMissed) {
        client.terminate();
        continue;
      }
      client.pingCount++;
      client.ping(noop);
    }
  }
}

/**
 * Colyseus' WebSocket transport with its heartbeat spread: the same interval (`pingInterval`,
 * 3 s by default) and the same unanswered pings before a connection is closed
 * (`pingMaxRetries`, 2), the pings in PING_SLICES ticks instead of one loop. The transport
 * starts it when its server listens and stops it when it closes, as it does its own.
 */
export function withSpreadHeartbeat(Transport: typeof WebSocketTransport): typeof WebSocketTransport {
  return class SpreadHeartbeatTransport extends Transport {
    protected override autoTerminateUnresponsiveClients(pingInterval: number, pingMaxRetries: number): void {
      const pinger = new SlicedPinger(() => this.wss.clients as unknown as ReadonlySet<Pingable>, pingMaxRetries);
      this.pingInterval = setInterval(() => pinger.tick(), Math.max(1, Math.floor(pingInterval / PING_SLICES)));
    }
  };
}
