/**
 * CONTRACT v4, "Serving games" (faults are named): a stored game that cannot be loaded is refused
 * to every join with code 4500 and a message naming the version and the cause (never 4503 busy),
 * logged once per game; `connectTable` rejects at once with JOIN_REFUSED and does not retry. The
 * store's folder and files are its user's only (0700/0600). An oversized frame logs one line, no
 * stack. `serve --demo`'s lobby and pages answer only a loopback `Host` (or the `--host` given).
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JOIN_FAILED_CODE, MESSAGE_TYPE } from '../../src/client/protocol.js';
import { demoRoutes } from '../../src/cli/web.js';
import { PGliteStore, type TableServer } from '../../src/server/index.js';
import { join, rawJoin, startServer } from './harness.js';

let server: TableServer | null = null;
let dir = '';
afterEach(async () => {
  await server?.close();
  server = null;
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('faults are named (CONTRACT v4)', () => {
  it('refuses a stored game that cannot be loaded with 4500 naming the version and the cause, logs it once, and connectTable does not retry', async () => {
    const started = await startServer();
    server = started.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const a = await join(started.url, { gameId, seat: 'A', token: tokens.A as string });
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    await a.close();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the room is disposed: the next join loads the game
    // The stored send is damaged (a row this engine would never write).
    // MemoryStore keeps the sends not yet packed as rows, their event as JSON text (src/server/store/memory.ts).
    const rows = (started.store as unknown as { games: Map<string, { rows: { event: string }[] }> }).games;
    rows.get(gameId)!.rows[0]!.event = JSON.stringify({ type: 'PASS_PRIORITY', player: 'Z' });
    for (let i = 0; i < 3; i++) {
      const startedAt = Date.now();
      const refused = await join(started.url, { gameId, seat: 'B', token: tokens.B as string }).catch((err: unknown) => err);
      expect(refused).toMatchObject({ name: 'TurnEngineError', code: 'JOIN_REFUSED', message: expect.stringMatching(/cannot be loaded \(stored version \d+\): .*the stored send of version 1 does not replay/) });
      expect(Date.now() - startedAt).toBeLessThan(3000); // at once: never retried as "busy"
    }
    await expect(rawJoin(started.url, { gameId, spectator: true })).rejects.toMatchObject({ code: JOIN_FAILED_CODE });
    expect(started.logs.filter((l) => l.includes(gameId))).toHaveLength(1);
  });

  it('an oversized frame closes its connection and logs one line, no stack', async () => {
    const started = await startServer();
    server = started.server;
    const { gameId } = await server.createGame({ players: ['A', 'B'] });
    const raw = await rawJoin(started.url, { gameId, spectator: true });
    await raw.next('welcome');
    const left = new Promise<number>((resolve) => raw.room.onLeave((code) => resolve(code)));
    raw.room.sendBytes(MESSAGE_TYPE, new Uint8Array(1024 * 1024));
    expect(await left).toBe(1009);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = started.logs.filter((l) => /payload|frame/i.test(l));
    expect(lines.length).toBeLessThanOrEqual(1);
    for (const line of started.logs) expect(line).not.toMatch(/\n\s+at /);
  });

  it("keeps the store's folder and files its user's only (0700 folders, 0600 files)", async () => {
    dir = mkdtempSync(joinPath(tmpdir(), 'mtg-faults-'));
    const data = joinPath(dir, 'data');
    const store = new PGliteStore({ dataDir: data });
    await store.init();
    await store.createGame({ gameId: 'g', setup: {}, snapshot: {}, version: 0, seq: 0, hostState: null, tokenHashes: {}, createdAt: 1 });
    const walk = (path: string): string[] => [path, ...(statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(joinPath(path, name))) : [])];
    const check = () => {
      for (const path of walk(data)) {
        const mode = statSync(path).mode & 0o777;
        expect([path, mode.toString(8)]).toEqual([path, statSync(path).isDirectory() ? '700' : '600']);
      }
    };
    check();
    await store.close();
    check();
  });

  it("the demo's lobby and pages answer only a loopback Host (or the --host given): 421 otherwise", async () => {
    dir = mkdtempSync(joinPath(tmpdir(), 'mtg-demo-'));
    const routes = demoRoutes({ folders: { table: dir, inspector: dir }, createGame: async () => ({ gameId: 'x', tokens: {} }), hosts: ['127.0.0.1'] });
    const started = await startServer({ routes });
    server = started.server;
    const ask = (host: string, method: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: started.server.port, method, path, headers: { Host: host, 'Content-Type': 'application/json' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end(method === 'POST' ? '{}' : undefined);
      });
    for (const host of ['evil.example', 'evil.example:2567', '192.168.1.5:2567']) {
      expect(await ask(host, 'POST', '/lobby/games')).toBe(421);
      expect(await ask(host, 'GET', '/')).toBe(421);
    }
    for (const host of [`127.0.0.1:${started.server.port}`, `localhost:${started.server.port}`, `[::1]:${started.server.port}`]) expect(await ask(host, 'GET', '/')).not.toBe(421);
    expect(await ask(`localhost:${started.server.port}`, 'POST', '/lobby/games')).toBe(200);
  });
});
