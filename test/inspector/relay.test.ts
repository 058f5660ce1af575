/**
 * The inspection relay is safe on a developer's machine (issue 13): only the page's own origin
 * connects, only a publisher with the per-start token writes, a message over 1 MiB closes its
 * connection, what is kept for late pages is bounded in bytes, other paths are closed.
 */
import { createServer, type Server } from 'node:http';
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import { attachRelay, RELAY_MAX_MESSAGE_BYTES, type Relay } from '../../inspector/relay.js';

let server: Server;
let relay: Relay;
let port: number;

async function start(options: Parameters<typeof attachRelay>[1] = {}): Promise<void> {
  server = createServer((_req, res) => res.end('page'));
  relay = attachRelay(server, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
}

afterEach(async () => {
  await relay?.close();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

/** Connects; resolves with the socket once open, or rejects with the HTTP status or error. */
function connect(path: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', (err) => reject(err));
  });
}

const message = (type: string, n = 0, pad = '') => JSON.stringify({ type, sessionId: 'x:0', n, pad });
const received = (ws: WebSocket) => {
  const out: string[] = [];
  ws.on('message', (data) => out.push(data.toString()));
  return out;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('the inspection relay (issue 13)', () => {
  it("refuses a foreign Origin and a foreign Host (DNS rebinding) with 403; accepts the page's own origin", async () => {
    await start();
    await expect(connect('/relay', { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect('/relay', { Origin: `http://127.0.0.1:${port + 1}` })).rejects.toThrow('HTTP 403');
    await expect(connect('/relay', { Host: `evil.example:${port}` })).rejects.toThrow('HTTP 403');
    const page = await connect('/relay', { Origin: `http://localhost:${port}` });
    expect(relay.clients).toBe(1);
    page.close();
  });

  it('lets only a client with the token publish; pages receive, and what they send goes nowhere', async () => {
    await start();
    const page = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    const seen = received(page);
    const intruder = await connect('/relay');
    intruder.send(message('@xstate.snapshot', 1));
    const game = await connect(`/relay?token=${relay.token}`);
    game.send(message('@xstate.snapshot', 2));
    await settle();
    expect(seen.map((m) => JSON.parse(m).n)).toEqual([2]);
    expect(relay.bufferedBytes).toBe(Buffer.byteLength(message('@xstate.snapshot', 2)));
    for (const ws of [page, intruder, game]) ws.close();
  });

  it('closes the connection of a message over 1 MiB, and keeps nothing of it', async () => {
    await start();
    const game = await connect(`/relay?token=${relay.token}`);
    const closed = new Promise<number>((resolve) => game.once('close', (code) => resolve(code)));
    game.send(message('@xstate.snapshot', 1, 'x'.repeat(RELAY_MAX_MESSAGE_BYTES)));
    expect(await closed).toBe(1009);
    expect(relay.bufferedBytes).toBe(0);
  });

  it('keeps what late pages get bounded in bytes under a flood', async () => {
    await start({ bufferBytes: 64 * 1024 });
    const game = await connect(`/relay?token=${relay.token}`);
    const pad = 'x'.repeat(10_000);
    for (let i = 0; i < 2_000; i++) game.send(message(i % 10 === 0 ? '@xstate.actor' : '@xstate.snapshot', i, pad));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(relay.bufferedBytes).toBeGreaterThan(0);
    expect(relay.bufferedBytes).toBeLessThanOrEqual(64 * 1024);
    const late = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    const seen = received(late);
    await settle();
    expect(seen.length).toBeLessThan(10);
    game.close();
    late.close();
  });

  it('closes upgrade requests for other paths when asked (the preview server)', async () => {
    await start({ closeOtherPaths: true });
    await expect(connect('/other')).rejects.toThrow('HTTP 404');
  });
});

describe('simulate --stately', () => {
  it("binds Stately's bridge to 127.0.0.1 only", async () => {
    const { startStatelyBridge } = await import('../../src/cli/live.js');
    const bridge = await startStatelyBridge(0);
    try {
      expect(bridge.address()?.address).toBe('127.0.0.1');
    } finally {
      bridge.stop();
    }
  });
});
