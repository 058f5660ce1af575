/**
 * The inspection relay is safe on a developer's machine (issue 13): only the page's own origin
 * connects, only a publisher with the per-start token writes, a message over 1 MiB closes its
 * connection, what is kept for late pages is bounded in bytes, other paths are closed.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect as connectRaw, type Socket } from 'node:net';
import { WebSocket } from 'ws';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachRelay, RELAY_CLIENT_BUFFER_BYTES, RELAY_CLOSE_FULL, RELAY_CLOSE_SLOW, RELAY_MAX_CLIENTS, RELAY_MAX_MESSAGE_BYTES, relayOptionsFromEnv, type Relay } from '../../inspector/relay.js';

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
    // The watcher may fall the whole flood (20 MB) behind on a busy machine: its limit holds it.
    await start({ bufferBytes: 64 * 1024, clientBufferBytes: 64 * 1024 * 1024 });
    // A page there from the start: once it has every message, the relay has taken them all
    // (however long that takes on a busy machine), and the late page below gets only what was kept.
    const watcher = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    const watched = received(watcher);
    const game = await connect(`/relay?token=${relay.token}`);
    const pad = 'x'.repeat(10_000);
    for (let i = 0; i < 2_000; i++) game.send(message(i % 10 === 0 ? '@xstate.actor' : '@xstate.snapshot', i, pad));
    await expect.poll(() => watched.length, { timeout: 120_000 }).toBe(2_000);
    expect(relay.bufferedBytes).toBeGreaterThan(0);
    expect(relay.bufferedBytes).toBeLessThanOrEqual(64 * 1024);
    const late = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    const seen = received(late);
    await settle();
    expect(seen.length).toBeLessThan(10);
    game.close();
    late.close();
    watcher.close();
  });

  it('closes upgrade requests for other paths when asked (the preview server)', async () => {
    await start({ closeOtherPaths: true });
    await expect(connect('/other')).rejects.toThrow('HTTP 404');
  });
});

/** A page that stops reading: a raw socket that does the WebSocket handshake, then reads nothing more. */
async function stalledPage(): Promise<Socket> {
  const socket = connectRaw({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  socket.write(`GET /relay HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: http://127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  const [head] = (await once(socket, 'data')) as [Buffer];
  expect(head.toString()).toMatch(/^HTTP\/1\.1 101 /);
  socket.pause();
  return socket;
}

describe('the relay under load (issue 22)', () => {
  it(`caps its clients (default ${RELAY_MAX_CLIENTS}): one more is closed with ${RELAY_CLOSE_FULL} and a reason naming the cap`, async () => {
    await start({ maxClients: 2 });
    const page = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    const game = await connect(`/relay?token=${relay.token}`);
    expect(relay.clients).toBe(2);
    const extra = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    const [code, reason] = (await once(extra, 'close')) as [number, Buffer];
    expect(code).toBe(RELAY_CLOSE_FULL);
    expect(reason.toString()).toBe('the relay is full: 2 clients (maxClients)');
    expect(relay.clients).toBe(2);
    // The one refused got nothing, and the others go on.
    const seen = received(page);
    game.send(message('@xstate.snapshot', 1));
    await expect.poll(() => seen.length).toBe(1);
    // A place freed is a place taken.
    page.close();
    await expect.poll(() => relay.clients).toBe(1);
    const next = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    expect(relay.clients).toBe(2);
    next.close();
    game.close();
  });

  it(`closes a client that stops reading once more than its buffer limit waits for it (${RELAY_CLOSE_SLOW}), and serves the others in full`, async () => {
    // Well above a message: a reader that keeps up can still have a few waiting at a burst.
    const limit = 2 * 1024 * 1024;
    await start({ clientBufferBytes: limit, bufferBytes: 64 * 1024 });
    const reader = await connect('/relay', { Origin: `http://127.0.0.1:${port}` });
    const seen = received(reader);
    const stalled = await stalledPage();
    const game = await connect(`/relay?token=${relay.token}`);
    expect(relay.clients).toBe(3);
    // 20 MB in batches of 1 MB the reader reads before the next: more than the kernel's
    // buffers on both sides of the stalled socket and the limit hold.
    const pad = 'x'.repeat(20_000);
    const batch = 50;
    for (let sent = 0; sent < 1000; ) {
      for (let i = 0; i < batch; i++, sent++) game.send(message('@xstate.snapshot', sent, pad));
      await expect.poll(() => seen.length, { timeout: 120_000 }).toBe(sent);
    }
    expect(relay.clients).toBe(2);
    // The stalled page, reading again, finds the close frame after what was sent before it.
    const reason = `reading too slowly: over ${limit} bytes waiting (clientBufferBytes)`;
    const closeFrame = Buffer.concat([Buffer.from([0x88, 2 + reason.length, RELAY_CLOSE_SLOW >> 8, RELAY_CLOSE_SLOW & 0xff]), Buffer.from(reason)]);
    let bytes = Buffer.alloc(0);
    stalled.on('data', (d: Buffer) => (bytes = Buffer.concat([bytes.subarray(-1024), d])));
    stalled.resume();
    await expect.poll(() => bytes.includes(closeFrame), { timeout: 120_000 }).toBe(true);
    stalled.destroy();
    game.close();
    reader.close();
  });

  it('refuses limits that are not whole numbers of at least 1, naming the option', () => {
    const bare = createServer();
    expect(() => attachRelay(bare, { maxClients: 0 })).toThrow('options.maxClients must be a whole number of at least 1');
    expect(() => attachRelay(bare, { clientBufferBytes: 1.5 })).toThrow('options.clientBufferBytes must be a whole number of at least 1');
    expect(bare.listenerCount('upgrade')).toBe(0);
  });

  it('reads its limits for npm run inspector from MTG_RELAY_MAX_CLIENTS and MTG_RELAY_CLIENT_BUFFER_BYTES', () => {
    expect(relayOptionsFromEnv({})).toEqual({});
    expect(relayOptionsFromEnv({ MTG_RELAY_MAX_CLIENTS: '4', MTG_RELAY_CLIENT_BUFFER_BYTES: '1048576' })).toEqual({ maxClients: 4, clientBufferBytes: 1_048_576 });
    expect(() => relayOptionsFromEnv({ MTG_RELAY_MAX_CLIENTS: 'many' })).toThrow("MTG_RELAY_MAX_CLIENTS must be a whole number of at least 1, got 'many'");
    expect(() => relayOptionsFromEnv({ MTG_RELAY_CLIENT_BUFFER_BYTES: '-1' })).toThrow('MTG_RELAY_CLIENT_BUFFER_BYTES');
    expect(RELAY_CLIENT_BUFFER_BYTES).toBeGreaterThan(RELAY_MAX_MESSAGE_BYTES);
  });
});

describe('simulate --stately (issue 22: the same checks as the relay)', () => {
  type Bridge = Awaited<ReturnType<typeof import('../../src/cli/live.js').startStatelyBridge>>;
  let bridge: Bridge | undefined;
  const startBridge = async () => {
    const { startStatelyBridge } = await import('../../src/cli/live.js');
    bridge = await startStatelyBridge(0);
    port = bridge.address()?.port as number;
    return bridge;
  };
  afterEach(async () => {
    await bridge?.stop();
    bridge = undefined;
  });

  it("binds Stately's bridge to 127.0.0.1 only", async () => {
    expect((await startBridge()).address()?.address).toBe('127.0.0.1');
  });

  it("refuses a foreign Origin and a foreign Host with 403; accepts the bridge page's own origin", async () => {
    await startBridge();
    await expect(connect('/', { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect('/', { Origin: `http://localhost:${port + 1}` })).rejects.toThrow('HTTP 403');
    await expect(connect('/', { Host: `evil.example:${port}` })).rejects.toThrow('HTTP 403');
    await expect(connect('/other')).rejects.toThrow('HTTP 404');
    const page = await connect('/', { Origin: `http://localhost:${port}` });
    page.close();
  });

  it('lets only the game (with the token) publish: what another client sends reaches no page', async () => {
    const { publishUrl } = await startBridge();
    const page = await connect('/', { Origin: `http://127.0.0.1:${port}` });
    const seen = received(page);
    const intruder = await connect('/');
    intruder.send(message('@xstate.snapshot', 1));
    const game = await connect(new URL(publishUrl).pathname + new URL(publishUrl).search);
    game.send(message('@xstate.snapshot', 2));
    await settle();
    expect(seen.map((m) => JSON.parse(m).n)).toEqual([2]);
    for (const ws of [page, intruder, game]) ws.close();
  });

  it('closes the connection of a message over 1 MiB', async () => {
    const { publishUrl } = await startBridge();
    const game = await connect(new URL(publishUrl).pathname + new URL(publishUrl).search);
    const closed = new Promise<number>((resolve) => game.once('close', (code) => resolve(code)));
    game.send(message('@xstate.snapshot', 1, 'x'.repeat(RELAY_MAX_MESSAGE_BYTES)));
    expect(await closed).toBe(1009);
  });

  it("streams the game of simulate --stately to the bridge page (it publishes with the bridge's token)", async () => {
    const { playInspected } = await import('../../src/cli/live.js');
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    let release: () => void = () => {};
    const keepBridgeUntil = new Promise<void>((resolve) => (release = resolve));
    try {
      const played = playInspected({ players: 2, turns: 1, rules: 'current', seed: 3, delayMs: 0, target: { kind: 'stately', port: 0 }, print: () => {}, keepBridgeUntil });
      await vi.waitFor(() => expect(printed.some((l) => l.startsWith('the game is over'))).toBe(true), { timeout: 120_000 });
      port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(printed.join('\n'))?.[1]);
      // A page opened late gets the game so far: the relay kept what the game published.
      // Listening before the socket opens: the replay may arrive in the same chunk as the upgrade.
      const page = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { Origin: `http://localhost:${port}` } });
      const seen = received(page);
      await new Promise((resolve) => page.once('open', resolve));
      await settle();
      expect(seen.some((m) => JSON.parse(m).type === '@xstate.actor')).toBe(true);
      page.close();
      release();
      expect((await played).events).toBeGreaterThan(0);
    } finally {
      release();
      log.mockRestore();
    }
  });
});
