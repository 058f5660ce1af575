/**
 * Issue 33 (papercuts): a served game becomes a scenario. The server stores the setup it made the
 * game with; a game of the cards `serve` runs (the v3 shape without hooks) plays as a plain game,
 * so its stored recording starts from that setup (`from: 'options'`) and `recordingToScenario`
 * and `replay --scenario` take it. Its own file: Colyseus runs one table server per process.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { main } from '../../src/cli/main.js';
import { allModules } from '../../src/allModules.js';
import { recordingToScenario, replayGame, runScenario } from '../../src/index.js';
import { storedRecording, type TableServer } from '../../src/server/index.js';
import { join, playUntil, startServer } from './harness.js';

let started: TableServer | null = null;
afterAll(async () => {
  await started?.close();
});

describe('a served game as a scenario (issue 33)', () => {
  it('a served game becomes a scenario: its recording starts from the setup the store keeps, recordingToScenario and replay --scenario take it, and the scenario passes (issue 33)', async () => {
    // The cards `serve` runs (the v3 shape without hooks): a served game of them plays as a plain game.
    const plain = await startServer({ cards: { saveState: () => null, loadState: () => undefined } });
    started = plain.server;
    const { gameId, tokens } = await plain.server.createGame({ players: ['A', 'B'], seed: 8, rules: 'm10' });
    const a = await join(plain.url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(plain.url, { gameId, seat: 'B', token: tokens.B as string });
    await playUntil([a, b], (v) => v.turn === 2 && v.step === 'upkeep');
    const seen = a.getSnapshot();
    const recording = await storedRecording(plain.store, gameId, {});
    await Promise.all([a.close(), b.close()]);
    expect(recording).toMatchObject({ from: 'options', options: { players: ['A', 'B'], seed: 8, rules: 'm10' }, hooks: { checkpoint: false, autoPass: false } });
    expect(replayGame(recording, { use: allModules }).getSnapshot({ seat: 'A' })).toEqual(seen);
    const scenario = recordingToScenario(recording, { name: 'a served game' });
    expect(scenario.setup).toMatchObject({ players: ['A', 'B'], seed: 8, rules: 'm10' });
    expect(scenario.steps.filter((s) => 'send' in s).length).toBe(seen.version);
    expect(runScenario(scenario)).toEqual({ ok: true, failures: [] });
    // The command line: replay FILE --scenario prints the same scenario.
    const dir = mkdtempSync(joinPath(tmpdir(), 'mtg-served-recording-'));
    const out: string[] = [];
    const log = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (out.push(String(chunk)), true));
    try {
      const file = joinPath(dir, 'served.json');
      writeFileSync(file, JSON.stringify(recording));
      expect(await main(['replay', file, '--scenario'])).toBe(0);
      expect((JSON.parse(out.join('')) as { steps: unknown[] }).steps).toEqual(recordingToScenario(recording).steps);
    } finally {
      log.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    await a.close();
    await b.close();
  });
});
