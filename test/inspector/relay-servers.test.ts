/**
 * The relay on the inspector's two real servers (issue 22): `npm run inspector` (vite preview) and the
 * documented dev server (`npx vite inspector`), both started on 127.0.0.1 with the inspector's
 * own config. Upgrade requests for other paths are refused and their sockets closed for good,
 * but the dev server's HMR socket; a request whose URL does not parse gets 400 and the server
 * goes on serving. Raw sockets, so nothing is hidden by a client library.
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer, preview } from 'vite';
import { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CONFIG_FILE = resolve('inspector', 'vite.config.ts');

interface Served {
  port: number;
  /** The server's side of the next connection made to it. */
  nextSocket(): Promise<Socket>;
  close(): Promise<void>;
}

function servedFrom(httpServer: import('node:http').Server, close: () => Promise<void>): Served {
  const address = httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('the server has no port');
  return { port: address.port, nextSocket: () => once(httpServer, 'connection').then(([s]) => s as Socket), close };
}

/** `npm run inspector`'s server: vite preview with the inspector's config, serving a stand-in page (no build needed). */
async function startPreview(): Promise<Served> {
  const outDir = await mkdtemp(join(tmpdir(), 'mtg-relay-preview-'));
  await writeFile(join(outDir, 'index.html'), '<!doctype html><title>inspector</title>');
  const server = await preview({ configFile: CONFIG_FILE, logLevel: 'silent', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  return servedFrom(server.httpServer as import('node:http').Server, async () => {
    await server.close();
    await rm(outDir, { recursive: true, force: true });
  });
}

/** The dev server (`npx vite inspector`), with its own cache folder and no dependency scan. */
async function startDev(): Promise<Served> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'mtg-relay-dev-'));
  const server = await createServer({
    configFile: CONFIG_FILE,
    logLevel: 'silent',
    cacheDir,
    optimizeDeps: { noDiscovery: true, include: [] },
    server: { host: '127.0.0.1', port: 0, strictPort: false, watch: null },
  });
  await server.listen();
  if (server.httpServer === null) throw new Error('the dev server has no HTTP server');
  return servedFrom(server.httpServer as import('node:http').Server, async () => {
    await server.close();
    await rm(cacheDir, { recursive: true, force: true });
  });
}

/**
 * Sends `request` on a raw socket that never closes its own side (half-open allowed), and
 * resolves with what the server answered once the server has ended its side.
 */
function raw(port: number, request: string): Promise<{ answer: string; client: Socket }> {
  return new Promise((done, fail) => {
    const client = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => client.write(request));
    let answer = '';
    client.on('data', (d) => (answer += d.toString()));
    client.once('end', () => done({ answer, client }));
    client.once('error', fail);
  });
}

const upgrade = (port: number, target: string, extra = '') =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`;

/** Whether the server answers a plain page request. */
async function servesPage(port: number): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}/`);
  await response.arrayBuffer();
  return response.status;
}

/** Whether a page can still join the relay. */
function joinsRelay(port: number): Promise<boolean> {
  return new Promise((done) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/relay`, { headers: { Origin: `http://127.0.0.1:${port}` } });
    ws.once('open', () => (ws.close(), done(true)));
    ws.once('error', () => done(false));
  });
}

describe.each([
  ['npm run inspector (vite preview)', startPreview],
  ['the dev server (npx vite inspector)', startDev],
])('the relay on %s (issue 22)', (_name, start) => {
  let served: Served;

  beforeAll(async () => {
    served = await start();
  });

  afterAll(async () => {
    await served?.close();
  });

  it('refuses an upgrade to another path with 404 and closes its socket, though the client keeps its side open', async () => {
    const serverSide = served.nextSocket();
    const { answer, client } = await raw(served.port, upgrade(served.port, '/other'));
    expect(answer).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    // The server's side is destroyed, not left half-open: its descriptor is freed.
    const socket = await serverSide;
    if (!socket.destroyed) await once(socket, 'close');
    expect(socket.destroyed).toBe(true);
    client.destroy();
  });

  it('answers an upgrade whose URL does not parse with 400, and goes on serving', async () => {
    const { answer, client } = await raw(served.port, upgrade(served.port, 'http://[bad/relay'));
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('not a URL');
    client.destroy();
    expect(await servesPage(served.port)).toBe(200);
    expect(await joinsRelay(served.port)).toBe(true);
  });
});

describe('the dev server keeps its own HMR socket (issue 22)', () => {
  let served: Served;

  beforeAll(async () => {
    served = await startDev();
  });

  afterAll(async () => {
    await served?.close();
  });

  it("leaves Vite's HMR upgrade to Vite: the HMR client connects and is greeted", async () => {
    const hmr = new WebSocket(`ws://127.0.0.1:${served.port}/`, 'vite-hmr');
    const [greeting] = (await once(hmr, 'message')) as [Buffer];
    expect(JSON.parse(greeting.toString())).toEqual({ type: 'connected' });
    hmr.close();
  });

  it('has the relay attached, with the same origin rules as npm run inspector', async () => {
    const { answer, client } = await raw(served.port, upgrade(served.port, '/relay', 'Origin: http://evil.example\r\n'));
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    client.destroy();
    expect(await joinsRelay(served.port)).toBe(true);
  });
});
