/**
 * CONTRACT v3, "Serving games": `mtg-turn-engine serve` in a child process: it listens on
 * 127.0.0.1, prints the admin key it made (`admin key: K`), serves games created with
 * `POST /games` to tables, and stops cleanly on SIGTERM (exit code 0); bad options are refused
 * with a message naming them.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newKey } from '../../src/cli/serve.js';
import { runCli, type ServeProcess } from './cluster.js';
import { join } from './harness.js';

/** Runs `mtg-turn-engine <args>` from the sources; collects its output (20 s for an awaited line). */
function cli(args: string[]): ServeProcess {
  const run = runCli(args);
  return { ...run, line: (test: RegExp, timeoutMs = 120_000) => run.line(test, timeoutMs) };
}

describe('mtg-turn-engine serve (CONTRACT v3, "Serving games")', () => {
  let dir = '';
  let running: ChildProcess | null = null;
  afterEach(() => {
    running?.kill('SIGKILL');
    running = null;
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('listens on 127.0.0.1, prints the admin key it made, serves a game, and stops cleanly on SIGTERM', async () => {
    dir = mkdtempSync(joinPath(tmpdir(), 'mtg-serve-'));
    const run = cli(['serve', '--port', '0', '--data', joinPath(dir, 'data')]);
    running = run.child;
    const listening = await run.line(/^listening on ws:\/\/127\.0\.0\.1:(\d+)$/);
    const key = (await run.line(/^admin key: (\S+)$/))[1] as string;
    expect(run.out).toContain(`store: PGlite in ${joinPath(dir, 'data')}`);
    expect(key.length).toBeGreaterThanOrEqual(16);
    const port = Number(listening[1]);
    const unauthorized = await fetch(`http://127.0.0.1:${port}/games`, { method: 'POST', body: '{}' });
    expect(unauthorized.status).toBe(401);
    const res = await fetch(`http://127.0.0.1:${port}/games`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify({ players: ['A', 'B'] }) });
    expect(res.status).toBe(200);
    const { gameId, tokens } = (await res.json()) as { gameId: string; tokens: Record<string, string> };
    const a = await join(`ws://127.0.0.1:${port}`, { gameId, seat: 'A', token: tokens.A as string });
    expect((await a.send({ type: 'PASS_PRIORITY', player: 'A' })).ok).toBe(true);
    await a.close();
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.out).toContain('stopped');
    running = null;
    // The game stayed in the store: a new server on the same folder serves it again.
    const again = cli(['serve', '--port', '0', '--data', joinPath(dir, 'data'), '--admin-key', key]);
    running = again.child;
    const port2 = Number((await again.line(/^listening on ws:\/\/127\.0\.0\.1:(\d+)$/))[1]);
    const back = await join(`ws://127.0.0.1:${port2}`, { gameId, seat: 'B', token: tokens.B as string });
    expect(back.getSnapshot().version).toBeGreaterThanOrEqual(1);
    expect(back.getSnapshot().priority).toBe('B');
    await back.close();
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
    running = null;
  });

  it('prints no admin key it was given, and refuses bad options naming them', async () => {
    dir = mkdtempSync(joinPath(tmpdir(), 'mtg-serve-'));
    const run = cli(['serve', '--port', '0', '--admin-key', 'a-key-of-my-own-choosing', '--data', joinPath(dir, 'data')]);
    running = run.child;
    await run.line(/^listening on/);
    expect(run.out.some((l) => l.startsWith('admin key:'))).toBe(false);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    running = null;
    for (const [args, message] of [
      [['serve', '--port', 'many'], /--port/],
      [['serve', '--admin-key', 'short'], /--admin-key/],
      [['serve', '--store', 'mysql://x'], /--store/],
      [['serve', '--redis', 'redis://127.0.0.1:1'], /--redis needs --store/],
      [['serve', '--public-address', 'games.example:2567'], /--public-address is for a process of a cluster/],
      [['serve', '--store', 'postgres://x@127.0.0.1:1/db', '--redis', 'redis://127.0.0.1:1', '--port', '0'], /--port 0 with --redis/],
    ] as const) {
      const bad = cli([...args]);
      expect(await bad.exited).toBe(2);
      expect(bad.out.join('\n')).toMatch(message);
    }
  });

  it('makes keys that can be given back as --admin-key K: hex, never starting with a dash', () => {
    // base64url keys started with '-' one time in 64, and parseArgs refused them back ("ambiguous").
    for (let i = 0; i < 2000; i += 1) expect(newKey()).toMatch(/^[0-9a-f]{48}$/);
  });
});
