/**
 * CONTRACT v4, "Serving games" (clocks stand still while no server owns a game; time-outs are
 * facts of time): the owner writes a running game's instant at least once a second; a game loaded
 * after a `close()`, a SIGTERM or a SIGKILL charges no one for the time between that instant and
 * the load; `close()` and SIGTERM write it and the `serve` process exits within 2 s; the server
 * TICKs at each deadline (on the game's own clock after a reload), so an idle client sees a
 * time-out without sending anything.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnView } from '../../src/index.js';
import type { Table } from '../../src/client/index.js';
import { MemoryStore, type TableServer } from '../../src/server/index.js';
import { postGame, runCli, type ServeProcess } from './cluster.js';
import { join, settle, startServer, until } from './harness.js';

const msLeft = (view: TurnView, player: string) => view.clocks?.[player]?.msLeft ?? NaN;

let server: TableServer | null = null;
let running: ChildProcess | null = null;
let dir = '';
const tables: Table[] = [];
afterEach(async () => {
  await Promise.all(tables.splice(0).map((t) => t.close()));
  await server?.close();
  server = null;
  running?.kill('SIGKILL');
  running = null;
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
  dir = '';
});

describe('time across restarts (CONTRACT v4)', () => {
  it('a game loaded after close() charges no one for the time no server owned it, and its deadline falls on its own clock', async () => {
    const store = new MemoryStore();
    const first = await startServer({ store });
    server = first.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 1, clock: { initialMs: 4000, onTimeout: 'lose' } });
    const a = await join(first.url, { gameId, seat: 'A', token: tokens.A as string });
    tables.push(a);
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    const passedAt = Date.now();
    await settle(1200); // B's clock runs; the owner writes the game's instant meanwhile
    expect((await store.loadGame(gameId))?.instant).toEqual(expect.any(Number));
    await a.close();
    await server.close();
    const ran = Date.now() - passedAt;
    server = null;
    const downtime = 5000;
    await settle(downtime);
    const second = await startServer({ store });
    server = second.server;
    const watcher = await join(second.url, { gameId, spectator: true });
    tables.push(watcher);
    const loadedAt = Date.now();
    expect(watcher.getSnapshot().gameOver).toBeNull();
    // The table's clock is the game's: behind the wall clock by at least the downtime, so a page counting
    // B's clock down from its `at` by `now()` shows time left (by Date.now() it would show the downtime spent).
    expect(Date.now() - watcher.now()).toBeGreaterThanOrEqual(downtime - 50);
    const clock = watcher.getSnapshot().clocks?.B;
    expect(clock?.running).toBe(true);
    expect((clock?.msLeft ?? 0) - (watcher.now() - (clock?.at ?? 0))).toBeGreaterThan(0);
    // B loses on time when its 4 s are used up on the game's clock: about 4 s - ran after the load, not at once.
    const over = await until(watcher, (v) => v.gameOver !== null, 10_000);
    const after = Date.now() - loadedAt;
    expect(over.gameOver).toMatchObject({ winners: ['A'], reasons: { B: 'time' } });
    expect(after).toBeGreaterThan(4000 - ran - 1000);
    expect(after).toBeLessThan(4000 + 2000);
  });

  it('an idle connected client sees a time-out without sending (the server TICKs at the deadline)', async () => {
    const started = await startServer();
    server = started.server;
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 1, clock: { initialMs: 1000, onTimeout: 'lose' } });
    const a = await join(started.url, { gameId, seat: 'A', token: tokens.A as string });
    tables.push(a);
    const b = await join(started.url, { gameId, seat: 'B', token: tokens.B as string });
    tables.push(b);
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    const due = Date.now() + msLeft(b.getSnapshot(), 'B');
    const over = await until(b, (v) => v.gameOver !== null, 5000);
    const late = Date.now() - due;
    expect(over.gameOver).toMatchObject({ winners: ['A'] });
    // The contract's figure is 100 ms on an unloaded server; a loaded test machine gets more room.
    expect(late).toBeLessThan(1000);
  });
});

/** Whether a port can be listened on again (the stopped server let it go). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

async function serve(data: string, key: string, port = 0): Promise<{ run: ServeProcess; port: number }> {
  const run = runCli(['serve', '--port', String(port), '--data', data, '--admin-key', key]);
  running = run.child;
  const listening = await run.line(/^listening on ws:\/\/127\.0\.0\.1:(\d+)$/, 120_000);
  return { run, port: Number(listening[1]) };
}

describe('`serve` stopped by SIGTERM and SIGKILL (CONTRACT v4)', () => {
  it('SIGKILL: the reloaded game charges no one for the downtime (the heartbeat); SIGTERM: exits within 2 s, port and folder free, downtime not charged', async () => {
    dir = mkdtempSync(joinPath(tmpdir(), 'mtg-restart-'));
    const data = joinPath(dir, 'data');
    const key = 'restart-admin-key-0123456789';
    let { run, port } = await serve(data, key);
    const { gameId, tokens } = await postGame(`http://127.0.0.1:${port}`, key, { players: ['A', 'B'], seed: 1, clock: { initialMs: 600_000, onTimeout: 'lose' } });
    let a = await join(`ws://127.0.0.1:${port}`, { gameId, seat: 'A', token: tokens.A as string });
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    const bAt = msLeft(a.getSnapshot(), 'B');
    const passed = Date.now();
    await settle(1500);
    run.child.kill('SIGKILL');
    await run.exited;
    const ranBeforeKill = Date.now() - passed;
    await a.close();
    await settle(5000);
    ({ run, port } = await serve(data, key));
    const b = await join(`ws://127.0.0.1:${port}`, { gameId, seat: 'B', token: tokens.B as string });
    expect((await b.send({ type: 'PASS_PRIORITY', player: 'B' })).ok).toBe(true);
    const charged = bAt - msLeft(b.getSnapshot(), 'B');
    // B's clock ran 1.5 s before the kill; the 5 s down and the start are charged to no one (a heartbeat may lose up to 1 s).
    expect(charged).toBeGreaterThanOrEqual(ranBeforeKill - 1000);
    expect(charged).toBeLessThan(ranBeforeKill + 2500);
    // Now A's clock runs (B passed): SIGTERM with a client connected.
    a = await join(`ws://127.0.0.1:${port}`, { gameId, seat: 'A', token: tokens.A as string });
    await until(a, (v) => v.priority === 'A' || v.awaiting !== null);
    const aAt = msLeft(b.getSnapshot(), 'A');
    const aSince = Date.now();
    const signalled = Date.now();
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(2000);
    const ranBeforeTerm = Date.now() - aSince;
    running = null;
    expect(await portFree(port)).toBe(true);
    expect(existsSync(joinPath(data, 'store.lock'))).toBe(false);
    await Promise.all([a.close(), b.close()]);
    await settle(4000);
    ({ run, port } = await serve(data, key));
    const again = await join(`ws://127.0.0.1:${port}`, { gameId, seat: 'A', token: tokens.A as string });
    tables.push(again);
    const view = again.getSnapshot();
    const action = again.legalActions().find((x) => x.type === 'PASS_PRIORITY');
    expect(action).toBeDefined();
    expect((await again.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    const chargedA = aAt - msLeft(again.getSnapshot(), 'A');
    expect(view.gameOver).toBeNull();
    expect(chargedA).toBeLessThan(ranBeforeTerm + 2500);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    running = null;
  });
});
