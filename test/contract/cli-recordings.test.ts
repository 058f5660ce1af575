/**
 * Recorded games on the command line (CONTRACT v3, "Recordings"; issue 23): `simulate --record
 * FILE` writes the game's recording, `replay FILE [--until N]` prints its log, `replay FILE
 * --scenario` prints its scenario (JSON that the runner passes). Bad input gets a clear message
 * and exit code 2; a recording is never written through a symbolic link.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { replayGame, runScenario, type Recording } from '../../src/index.js';

let dir: string;
let out: string[];
let err: string[];
let stdout: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mtg-rec-'));
  out = [];
  err = [];
  stdout = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => (stdout.push(String(chunk)), true));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const lines = () => out.join('\n').split('\n');

async function recorded(args: string[] = []): Promise<string> {
  const file = join(dir, 'game.json');
  expect(await main(['simulate', '--turns', '3', '--seed', '4', '--quiet', '--record', file, ...args])).toBe(0);
  return file;
}

describe('simulate --record FILE and replay FILE (issue 23)', () => {
  it('simulate --record writes the recording; replay prints the same log as the simulation', async () => {
    const file = join(dir, 'game.json');
    expect(await main(['simulate', '--turns', '3', '--seed', '4', '--record', file])).toBe(0);
    const simulated = lines();
    expect(simulated.at(-1)).toMatch(/^ {2}recording: \d+ accepted sends written to /);
    const recording = JSON.parse(readFileSync(file, 'utf8')) as Recording;
    expect(recording.format).toBe('mtg-turn-engine/recording@1');
    expect(recording.options).toMatchObject({ players: ['A', 'B'], seed: 4 });
    out = [];
    expect(await main(['replay', file])).toBe(0);
    const replayed = lines();
    expect(replayed[0]).toBe(`mtg-turn-engine replay: ${file}: 2 players, 'current' rules, from version 0`);
    // The turn log between the header and the summary is the simulation's, line for line.
    const log = (l: string[]) => l.slice(1, l.indexOf('Summary'));
    expect(log(replayed)).toEqual(log(simulated));
    expect(replayed).toContain(`  replayed ${recording.inputs.length - 1} sends to version ${recording.inputs.length - 1}: turn ${replayGame(recording).view().turn}, ${replayGame(recording).view().phase}/${replayGame(recording).view().step}`);
  });

  it('replay --until N stops at version N', async () => {
    const file = await recorded();
    expect(await main(['replay', file, '--until', '7', '--quiet'])).toBe(0);
    const view = replayGame(JSON.parse(readFileSync(file, 'utf8')), { until: 7 }).view();
    expect(lines()).toContain(`  replayed 7 sends to version 7: turn ${view.turn}, ${view.phase}/${view.step}`);
  });

  it('replay --scenario prints the scenario JSON, which the runner passes', async () => {
    const file = await recorded(['--pregame']);
    out = [];
    expect(await main(['replay', file, '--scenario', '--until', '40'])).toBe(0);
    expect(out).toEqual([]);
    const scenario = JSON.parse(stdout.join('')) as { steps: unknown[] };
    expect(scenario.steps.filter((s) => typeof s === 'object' && s !== null && 'send' in s)).toHaveLength(40);
    expect(runScenario(scenario)).toEqual({ ok: true, failures: [] });
  });

  it('refuses bad input with a clear message and exit code 2', async () => {
    const file = await recorded();
    const notJson = join(dir, 'notjson.json');
    writeFileSync(notJson, '{ not json');
    const notRecording = join(dir, 'other.json');
    writeFileSync(notRecording, JSON.stringify({ format: 'mtg-turn-engine/recording@1', engine: 'mtg-turn-engine', from: 'options', options: { players: ['A', 'B'] }, hooks: { checkpoint: false, autoPass: false }, inputs: [{}, { event: { type: 'PASS_PRIORITY', player: 'B' } }], snapshots: [] }));
    const cases: [string[], RegExp][] = [
      [['replay'], /name one recording file/],
      [['replay', join(dir, 'missing.json')], /cannot read .*missing\.json.*ENOENT/],
      [['replay', dir], /cannot read .*not a regular file/],
      [['replay', notJson], /is not JSON/],
      [['replay', notRecording], /recording\.inputs\[1\]\.event: the recorded send was refused: ILLEGAL_ACTION/],
      [['replay', file, '--until', 'soon'], /--until must be a version, a whole number from 0; got 'soon'/],
      [['replay', file, '--until', '100000'], /--until: must be a version the recording holds, a whole number from 0 to \d+; got number 100000/],
      [['replay', file, '--scenario', '--until', '100000'], /--until: must be a version the recording holds/],
      [['simulate', '--inspect', '--record', join(dir, 'x.json')], /--record: not with --inspect/],
    ];
    for (const [args, message] of cases) {
      err = [];
      expect(await main(args), args.join(' ')).toBe(2);
      expect(err.join('\n'), args.join(' ')).toMatch(message);
    }
  });

  it('never writes a recording through a symbolic link, and says so before playing', async () => {
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'keep me');
    const link = join(dir, 'link.json');
    symlinkSync(target, link);
    expect(await main(['simulate', '--turns', '2', '--record', link])).toBe(2);
    expect(err.join('\n')).toMatch(/--record: '.*link\.json' exists and is a symbolic link; nothing was written/);
    expect(out.some((l) => l.startsWith('Summary'))).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
  });
});
