/**
 * CONTRACT v4, "Serving games" (one client cannot hurt other games), measured: while one
 * connection floods one game with 10,000 messages a second (readable and not) and another asks
 * for 200 resumes a second, another game's send p99 stays within 2x its unflooded p99, measured
 * the same way in the same run. The flooders are processes of their own (their own work would
 * otherwise load the server's event loop, which is not what is measured); the count of sends
 * bounds each phase, and a floor keeps a fast unflooded phase from making noise a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LegalAction } from '../../src/index.js';
import type { Table } from '../../src/client/index.js';
import type { TableServer } from '../../src/server/index.js';
import { join, plainest, startServer, until } from './harness.js';

const root = resolve(import.meta.dirname, '../..');
/** Sends measured per phase, in blocks. */
const SENDS = 200;
const BLOCKS = 4;
/** The pause after each measured send (untimed): the two tables together send at most 25 a second. */
const PACE_MS = 40;
/** The unflooded p99 counted as at least this (ms): below it, the machine's noise is the measure. */
const FLOOR_MS = 50;

function p99(samples: number[]): number {
  const sorted = [...samples].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] as number;
}

/** Times `count` sends of the plainest game through its two tables (each send to its answer). */
async function measure(tables: Table[], count: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < count) {
    const table = tables.find((t) => t.legalActions().some((a) => a.type !== 'CONCEDE'));
    if (table === undefined) throw new Error('no table may act');
    const action = table.legalActions().find((a) => a.type !== 'CONCEDE') as LegalAction;
    const started = performance.now();
    const result = await table.send(plainest(action) as unknown);
    times.push(performance.now() - started);
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    const version = table.getSnapshot().version;
    await Promise.all(tables.map((t) => until(t, (v) => v.version >= version)));
    // Each table stays within its own budget (20 messages a second): a table that sent faster would have its sends dropped.
    await new Promise((done) => setTimeout(done, PACE_MS));
  }
  return times;
}

function flooder(url: string, gameId: string, mode: 'messages' | 'resumes', rate: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/server/flooder.ts', url, gameId, mode, String(rate)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return new Promise((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('flooding')) done(child);
    });
    child.on('exit', (code) => fail(new Error(`the flooder exited (${String(code)})`)));
  });
}

describe('a flood on one game does not hurt another (CONTRACT v4)', () => {
  let server: TableServer;
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await server?.close();
  });

  it("keeps another game's send p99 within 2x its unflooded p99 under 10,000 messages/s and 200 resumes/s", async () => {
    const started = await startServer();
    server = started.server;
    // The flooded game has a backlog, so that each resume has events to answer.
    const flooded = await server.createGame({ players: ['A', 'B'], seed: 1 });
    const fa = await join(started.url, { gameId: flooded.gameId, seat: 'A', token: flooded.tokens.A as string });
    const fb = await join(started.url, { gameId: flooded.gameId, seat: 'B', token: flooded.tokens.B as string });
    await measure([fa, fb], 200);
    const measured = await server.createGame({ players: ['A', 'B'], seed: 2 });
    const tables = [
      await join(started.url, { gameId: measured.gameId, seat: 'A', token: measured.tokens.A as string }),
      await join(started.url, { gameId: measured.gameId, seat: 'B', token: measured.tokens.B as string }),
    ];
    children.push(await flooder(started.url, flooded.gameId, 'messages', 10_000), await flooder(started.url, flooded.gameId, 'resumes', 200));
    await measure(tables, 30); // warm up
    // Quiet and flooded blocks in turn, so that the machine's own load falls on both alike.
    const quiet: number[] = [];
    const flood: number[] = [];
    for (let block = 0; block < BLOCKS; block++) {
      quiet.push(...(await measure(tables, SENDS / BLOCKS)));
      for (const child of children) child.stdin?.write('r\n');
      await new Promise((done) => setTimeout(done, 300));
      flood.push(...(await measure(tables, SENDS / BLOCKS)));
      for (const child of children) child.stdin?.write('p\n');
      await new Promise((done) => setTimeout(done, 100));
    }
    for (const child of children) child.kill('SIGTERM');
    const [quietP99, floodP99] = [p99(quiet), p99(flood)];
    console.log(`send p99: ${quietP99.toFixed(1)} ms unflooded, ${floodP99.toFixed(1)} ms flooded (${SENDS} sends each)`);
    expect(floodP99).toBeLessThanOrEqual(2 * Math.max(quietP99, FLOOR_MS));
    // The flooded game itself still plays.
    expect((await fa.send({ type: 'CONCEDE', player: 'A' })).ok).toBe(true);
    await Promise.all([fa, fb, ...tables].map((t) => t.close()));
  });
});
