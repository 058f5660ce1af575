/**
 * The table server's tests: a server on 127.0.0.1 (port 0) with a MemoryStore and a small host
 * whose cards count what they saw per game, tables joined over real WebSockets (colyseus.js),
 * and a plainest player that answers whatever the game asks of its seat.
 */
import { Client, type Room } from 'colyseus.js';
import type { GameHooks, LegalAction, SeatEvent, TurnView } from '../../src/index.js';
import { connectTable, type Table, type TableJoin, type TableSendResult } from '../../src/client/index.js';
import { MESSAGE_TYPE, ROOM_NAME, decodeServerMessage, encodeMessage, type ServerMessage } from '../../src/client/protocol.js';
import { applyDocChange, type StateDoc } from '../../src/client/patch.js';
import { MemoryStore, createTableServer, type TableServer, type TableServerOptions } from '../../src/server/index.js';

export const ADMIN_KEY = 'test-admin-key-0123456789';

/** The host's state of one game: how many checkpoints and settled sends its cards saw. */
export interface HostState {
  checkpoints: number;
  settled: number;
}

/** Cards that count their checkpoints per game (their state is saved with every send). */
export function countingCards(extra: Partial<GameHooks> = {}) {
  let state: HostState = { checkpoints: 0, settled: 0 };
  const loads: unknown[] = [];
  return {
    loads,
    current: () => state,
    cards: {
      hooks: {
        checkpoint: () => {
          state = { ...state, checkpoints: state.checkpoints + 1 };
          return undefined;
        },
        settled: () => {
          state = { ...state, settled: state.settled + 1 };
        },
        ...extra,
      } as GameHooks,
      saveState: () => state,
      loadState: (s: unknown) => {
        loads.push(s);
        state = s === null ? { checkpoints: 0, settled: 0 } : (s as HostState);
      },
    },
  };
}

/** A table server on 127.0.0.1 with a MemoryStore (and the counting cards, unless others are given). */
export async function startServer(options: Partial<TableServerOptions> = {}): Promise<{ server: TableServer; store: MemoryStore; url: string; logs: string[] }> {
  const store = (options.store as MemoryStore | undefined) ?? new MemoryStore();
  const logs: string[] = [];
  const server = await createTableServer({ store, cards: countingCards().cards, port: 0, adminKey: ADMIN_KEY, log: (line) => logs.push(line), ...options });
  return { server, store, url: `ws://127.0.0.1:${server.port}`, logs };
}

/** Joins a table, with quick retries. */
export function join(url: string, as: TableJoin): Promise<Table> {
  return connectTable(url, as, { joinTimeoutMs: 60_000, retryMs: { min: 20, max: 200 } });
}

/** Resolves when `test` holds (checked after every update of the table, and now). */
export function until(table: Table, test: (view: TurnView) => boolean, timeoutMs = 60_000): Promise<TurnView> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const view = table.getSnapshot();
      if (view !== null && test(view)) {
        off();
        clearTimeout(timer);
        resolve(view);
        return true;
      }
      return false;
    };
    const off = table.subscribe(check);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`until: timed out; the view is at version ${table.getSnapshot()?.version}`));
    }, timeoutMs);
    check();
  });
}

/** A legal action filled the plainest way (no attackers, no blockers, the order as offered, a fresh id). */
export function plainest(action: LegalAction): unknown {
  const { choose, ...event } = action as LegalAction & Record<string, unknown>;
  for (const field of choose as string[]) {
    if (field === 'attackers') event.attackers = [];
    else if (field === 'blockers') event.blockers = [];
    else if (field === 'id') event.id = `obj-${Math.random().toString(36).slice(2)}`;
  }
  return event;
}

/**
 * Plays the plainest game through the tables until `done(view)`: whichever table may answer what
 * the game awaits sends its first legal action that is not a concession.
 */
export async function playUntil(tables: Table[], done: (view: TurnView) => boolean, maxSends = 500): Promise<TableSendResult[]> {
  const results: TableSendResult[] = [];
  for (let i = 0; i < maxSends; i++) {
    const view = tables[0]!.getSnapshot();
    if (done(view)) return results;
    const table = tables.find((t) => t.legalActions().some((a) => a.type !== 'CONCEDE'));
    if (table === undefined) throw new Error(`playUntil: no table may act at version ${view.version} (awaiting ${JSON.stringify(view.awaiting)})`);
    const action = table.legalActions().find((a) => a.type !== 'CONCEDE') as LegalAction;
    const result = await table.send(plainest(action) as unknown);
    if (!result.ok) throw new Error(`playUntil: ${JSON.stringify(action)} was refused: ${result.error.code} ${result.error.message}`);
    results.push(result);
    // Every table has the update before the sender has its answer only for the sender; wait for the others.
    const version = table.getSnapshot().version;
    await Promise.all(tables.map((t) => until(t, (v) => v.version >= version)));
  }
  throw new Error(`playUntil: not done after ${maxSends} sends`);
}

/** A raw colyseus.js room joined to a game (for what a table would never send), with every message it receives. */
export async function rawJoin(
  url: string,
  options: Record<string, unknown>,
): Promise<{
  room: Room;
  messages: ServerMessage[];
  next: (kind: ServerMessage['kind'], timeoutMs?: number) => Promise<ServerMessage>;
  waitFor: (test: (m: ServerMessage) => boolean, timeoutMs?: number) => Promise<ServerMessage>;
  answer: (id: number, timeoutMs?: number) => Promise<TableSendResult>;
  sendJson: (value: unknown) => void;
}> {
  const client = new Client(url);
  const room = await client.joinOrCreate(ROOM_NAME, options);
  const messages: ServerMessage[] = [];
  const waiting: { kind: string; resolve: (m: ServerMessage) => void }[] = [];
  let seen = 0;
  room.onMessage(MESSAGE_TYPE, (bytes: unknown) => {
    const m = decodeServerMessage(bytes);
    if (m === null) return;
    messages.push(m);
    const w = waiting.findIndex((x) => x.kind === m.kind);
    if (w >= 0) waiting.splice(w, 1)[0]!.resolve(m);
  });
  const next = (kind: ServerMessage['kind'], timeoutMs = 60_000) =>
    new Promise<ServerMessage>((resolve, reject) => {
      const found = messages.slice(seen).find((m) => m.kind === kind);
      if (found !== undefined) {
        seen = messages.indexOf(found) + 1;
        resolve(found);
        return;
      }
      const timer = setTimeout(() => reject(new Error(`rawJoin: no '${kind}' message within ${timeoutMs} ms`)), timeoutMs);
      waiting.push({
        kind,
        resolve: (m) => {
          clearTimeout(timer);
          seen = messages.indexOf(m) + 1;
          resolve(m);
        },
      });
    });
  const waitFor = async (test: (m: ServerMessage) => boolean, timeoutMs = 60_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(test);
      if (found !== undefined) return found;
      if (Date.now() > end) throw new Error(`rawJoin: no such message within ${timeoutMs} ms`);
      await settle(10);
    }
  };
  // The answer to a send: the update it caused (accepted), or a result (refused).
  const answer = async (id: number, timeoutMs = 60_000): Promise<TableSendResult> => {
    const m = await waitFor((x) => (x.kind === 'result' && x.id === id) || ((x.kind === 'update' || x.kind === 'patch') && x.answers === id), timeoutMs);
    if (m.kind === 'result') return m.result;
    return { ok: true, events: (m as Extract<ServerMessage, { kind: 'update' | 'patch' }>).events };
  };
  return { room, messages, next, waitFor, answer, sendJson: (value) => room.sendBytes(MESSAGE_TYPE, encodeMessage(value as never)) };
}

/**
 * The states a connection was told, message by message (CONTRACT v4: a welcome or update whole,
 * a patch applied to the state before it), with the events of each message.
 */
export function statesOf(messages: readonly ServerMessage[]): (StateDoc & { events: SeatEvent[] })[] {
  const out: (StateDoc & { events: SeatEvent[] })[] = [];
  let doc: StateDoc | null = null;
  for (const m of messages) {
    if (m.kind === 'welcome' || m.kind === 'update') doc = { view: m.view, legalActions: m.legalActions, nextStop: m.nextStop };
    else if (m.kind === 'patch' && doc !== null) doc = applyDocChange(doc, m);
    else continue;
    out.push({ ...doc, events: m.events });
  }
  return out;
}

/** Waits a little (for messages that should NOT come, and for the server to settle). */
export const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A TCP proxy on 127.0.0.1 in front of the server: `cut()` drops every connection through it (a
 * network failure, as the client sees it), and while `blocked` it drops new ones at once.
 */
export async function startProxy(targetPort: number): Promise<{ url: string; cut: () => void; blocked: boolean; close: () => Promise<void> }> {
  const { createServer, connect } = await import('node:net');
  const sockets = new Set<import('node:net').Socket>();
  const proxy = {
    url: '',
    blocked: false,
    cut: () => {
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    close: () => new Promise<void>((resolve) => {
      proxy.cut();
      server.close(() => resolve());
    }),
  };
  const server = createServer((inbound) => {
    if (proxy.blocked) {
      inbound.destroy();
      return;
    }
    const outbound = connect(targetPort, '127.0.0.1');
    sockets.add(inbound);
    sockets.add(outbound);
    inbound.pipe(outbound).pipe(inbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `ws://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`;
  return proxy;
}
