/**
 * `simulate --inspect` / `simulate --stately`: a random legal game, played at a readable pace,
 * whose actor streams its inspection events with `@statelyai/inspect`'s WebSocket inspector:
 * - to the local relay of the mtg-turn-engine inspector (`npm run inspector`), which needs no internet;
 * - or, with `--stately`, to `@statelyai/inspect/server`'s bridge to Stately's hosted
 *   inspector (https://stately.ai/inspect, which needs internet).
 * `@statelyai/inspect` is loaded only here, so the library itself never loads it.
 */
import type { WebSocket } from 'ws';

/** Loads an optional peer dependency of the CLI, or says how to install it. */
async function optional<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (err) {
    throw new Error(`this command needs the optional package '${name}': npm install ${name} (${err instanceof Error ? err.message : String(err)})`);
  }
}
import type { TurnView } from '../contract.js';
import { createGame } from '../game/create.js';
import { allModules } from '../allModules.js';
import { actorOf } from '../game/actor.js';
import { concreteEvent, seededRandom } from '../simulation.js';

/** Where the inspection events go. */
export type InspectTarget = { kind: 'relay'; url: string } | { kind: 'stately'; port: number };

/** Options of {@link playInspected}. */
export interface InspectedGameOptions {
  players: number;
  turns: number;
  rules: 'current' | 'm10' | 'classic';
  seed: number;
  /** Milliseconds between two actions. */
  delayMs: number;
  target: InspectTarget;
  /** Prints a line of the game log (where to connect is always printed). */
  print(line: string): void;
  /** Called after each event sent (tests use it). */
  onSend?: (event: Record<string, unknown>, ok: boolean, view: TurnView) => void;
  /** Resolves when a `--stately` bridge may stop (default: on Ctrl-C). */
  keepBridgeUntil?: Promise<unknown>;
}

/** How long to wait for the relay to accept a connection. */
export const RELAY_CONNECT_TIMEOUT_MS = 3000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when a WebSocket server accepts connections at `url`; rejects with a clear message otherwise. */
export async function probeRelay(url: string, timeoutMs = RELAY_CONNECT_TIMEOUT_MS): Promise<void> {
  const { WebSocket: Socket } = await optional('ws', () => import('ws'));
  return new Promise((resolve, reject) => {
    let ws: WebSocket;
    try {
      ws = new Socket(url);
    } catch (err) {
      reject(new Error(`--relay: '${url}' is not a WebSocket URL (${err instanceof Error ? err.message : String(err)})`));
      return;
    }
    const fail = (why: string) => {
      clearTimeout(timer);
      ws.terminate();
      reject(new Error(`no inspector relay at ${url} (${why}): start the inspector with \`npm run inspector\` first, or pass --relay <ws://host:port/relay>`));
    };
    const timer = setTimeout(() => fail('timed out'), timeoutMs);
    ws.once('open', () => {
      clearTimeout(timer);
      ws.close();
      resolve();
    });
    ws.once('error', (err) => fail(err.message || 'connection refused'));
  });
}

/** A running bridge to Stately's hosted inspector. */
export interface StatelyBridge {
  /** Where it listens (127.0.0.1). */
  address(): { address: string; port: number } | null;
  /** The URL a game publishes to, with the relay's token. */
  readonly publishUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts `@statelyai/inspect/server`'s bridge to Stately's hosted inspector, listening on
 * 127.0.0.1 only: the library listens on every interface, so the HTTP server it creates is
 * made to bind to the loopback address (issue 13: nothing on the network can read the game).
 * The library's own WebSocket server accepts any Origin and Host and lets every client
 * publish; it is replaced by the inspector's relay (relay.ts, at `/`, where the bridge page
 * connects), so the bridge checks what the inspector's relay checks (issue 22): only the page's
 * own origin and a loopback Host connect, only the game (with the per-start token) publishes,
 * a message over 1 MiB closes its connection, and what is kept for late pages is bounded.
 */
export async function startStatelyBridge(port: number): Promise<StatelyBridge> {
  const { createInspectorServer } = await optional('@statelyai/inspect', () => import('@statelyai/inspect/server'));
  const { attachRelay } = await optional('ws', () => import('./relay.js'));
  const http = (await import('node:http')).default;
  const original = http.createServer;
  let created: import('node:http').Server | undefined;
  http.createServer = ((...args: Parameters<typeof original>) => {
    const server = original(...args);
    const listen = server.listen.bind(server) as (port: number, host: string, callback?: () => void) => import('node:http').Server;
    server.listen = ((p: number, callback?: () => void) => listen(p, '127.0.0.1', callback)) as typeof server.listen;
    created = server;
    return server;
  }) as typeof original;
  let bridge: { stop(): void };
  try {
    bridge = createInspectorServer({ port, autoOpen: false });
  } finally {
    http.createServer = original;
  }
  const server = created;
  if (server === undefined) throw new Error("@statelyai/inspect/server made no HTTP server: this version of the bridge is not supported");
  server.removeAllListeners('upgrade');
  const relay = attachRelay(server, { path: '/', closeOtherPaths: true });
  await new Promise<void>((resolve, reject) => {
    if (server.listening) return resolve();
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const address = () => server.address() as { address: string; port: number } | null;
  return {
    address,
    publishUrl: `ws://127.0.0.1:${address()?.port ?? port}/?token=${relay.token}`,
    stop: async () => {
      await relay.close();
      bridge.stop();
    },
  };
}

/** Plays a random legal game at a readable pace while streaming its inspection events. */
export async function playInspected(options: InspectedGameOptions): Promise<{ events: number; view: TurnView }> {
  const { createWebSocketInspector } = await optional('@statelyai/inspect', () => import('@statelyai/inspect'));
  let bridge: StatelyBridge | undefined;
  let url: string;
  if (options.target.kind === 'stately') {
    bridge = await startStatelyBridge(options.target.port);
    url = bridge.publishUrl;
    console.log(`Stately's inspector: open http://127.0.0.1:${bridge.address()?.port ?? options.target.port} (it loads https://stately.ai/inspect, so it needs internet)`);
  } else {
    url = options.target.url;
    await probeRelay(url);
    console.log(`streaming inspection events to ${url}: open the inspector page and choose "Remote game"`);
  }
  const inspector = createWebSocketInspector({ url });
  const random = seededRandom(options.seed);
  const players = Array.from({ length: options.players }, (_, i) => String.fromCharCode(65 + i));
  const game = createGame({ players, rules: options.rules, use: allModules });
  actorOf(game, { inspect: inspector.inspect });
  let events = 0;
  for (let serial = 1; ; serial++) {
    const view = game.view();
    if (view.gameOver !== null || view.turn > options.turns) break;
    await sleep(options.delayMs);
    const roll = random();
    let event: Record<string, unknown>;
    if (roll < 0.03) {
      event = { type: 'TRIGGER', triggers: [{ id: `trigger-${serial}`, controller: view.players[Math.floor(random() * view.players.length)] }] };
    } else {
      const awaited = view.awaiting === null ? [] : game.legalActions(view.awaiting.player).filter((a) => a.type !== 'CONCEDE');
      if (awaited.length === 0) break;
      const pass = awaited.find((a) => a.type === 'PASS_PRIORITY');
      const choice = pass !== undefined && random() < 0.8 ? pass : awaited[Math.floor(random() * awaited.length)];
      if (choice === undefined) break;
      event = concreteEvent(choice, view, random, serial);
    }
    const result = game.send(event as unknown);
    events++;
    const after = game.view();
    options.print(`turn ${after.turn} ${after.phase}/${after.step}: ${String(event.type)}${'player' in event ? ` (${String(event.player)})` : ''}${result.ok ? '' : ' refused'}`);
    options.onSend?.(event, result.ok, after);
  }
  // Inspection events are sent on the next tick: let them go out before closing.
  await sleep(Math.max(300, options.delayMs));
  inspector.stop();
  if (bridge !== undefined) {
    console.log('the game is over; the bridge stays up for the inspector: press Ctrl-C to stop');
    await (options.keepBridgeUntil ?? new Promise((resolve) => process.once('SIGINT', resolve)));
    await bridge.stop();
  }
  return { events, view: game.view() };
}
