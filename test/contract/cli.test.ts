/**
 * The command line under bad input (issue 22, docs/reliability.md "Command-line tool"), run
 * in process through `main` (the FIFO in a child process, with a time limit):
 * - `scenarios`: only regular files of at most 1 MiB are read; a FIFO, a device, a file too
 *   large, a missing file, a symbolic link loop, a folder too deep or that cannot be searched,
 *   JSON nested too deep and a `passUntil.max` over 100,000 each fail on their own line, and
 *   the other files still run; names are printed with control characters escaped;
 * - `generate --out` never writes through a symbolic link;
 * - `simulate` prints the engine's own speed (the time of `game.send` alone), refuses a
 *   `--players` its variant does not seat, and its Grand Melee log names each line's turn
 *   marker with that marker's stack and priority.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { writeScenarioFiles } from '../../src/cli/generate.js';
import { describeEmitted, describeSent } from '../../src/cli/log.js';
import { createGame } from '../../src/game/create.js';
import { runScenario } from '../../src/scenarios/runner.js';
import { MAX_SCENARIO_FILE_BYTES, MAX_SCENARIO_FOLDER_DEPTH } from '../../src/scenarios/files.js';
import { allModules } from '../../src/allModules.js';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
let out: string[];
let err: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mtg-cli-'));
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const upkeep = (name: string) => JSON.stringify({ name, setup: { players: ['A', 'B'] }, steps: [{ expect: { step: 'upkeep' } }] });
/** Writes a scenario that passes; returns its path. */
function good(name = 'upkeep first', file = 'good.json'): string {
  writeFileSync(join(dir, file), upkeep(name));
  return join(dir, file);
}
const lines = () => out.join('\n').split('\n');
const failLine = (file: string) => lines().find((l) => l.startsWith('FAIL') && l.includes(`(${file})`));
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('scenarios: a bad file fails on its own line and the run goes on (issue 22)', () => {
  it('reports a missing file on its own line, runs the others, and exits 1', async () => {
    const missing = join(dir, 'missing.json');
    expect(await main(['scenarios', missing, good()])).toBe(1);
    expect(failLine(missing)).toMatch(/step -1: cannot read .*ENOENT/);
    expect(lines()).toContain(`ok    upkeep first  (${join(dir, 'good.json')})`);
    expect(lines().at(-1)).toBe('1 passed, 1 failed');
  });

  it('does not hang on a FIFO: not a regular file, refused without a blocking read', () => {
    const fifo = join(dir, 'fifo.json');
    if (spawnSync('mkfifo', [fifo]).status !== 0) return; // no mkfifo (not a POSIX system)
    good();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/cli.ts', 'scenarios', dir], { cwd: root, encoding: 'utf8', timeout: 300_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^FAIL .*\\(${fifo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)  step -1: cannot read .*not a regular file \\(a FIFO\\)$`, 'm'));
    expect(run.stdout).toMatch(/^1 passed, 1 failed$/m);
  });

  it('refuses a device (/dev/zero) and a file over the size cap before reading them', async () => {
    const big = join(dir, 'big.json');
    writeFileSync(big, '');
    truncateSync(big, MAX_SCENARIO_FILE_BYTES + 1); // sparse: nothing to read but NULs
    const paths = [...(existsSync('/dev/zero') ? ['/dev/zero'] : []), big, good()];
    expect(await main(['scenarios', ...paths])).toBe(1);
    if (paths.includes('/dev/zero')) expect(failLine('/dev/zero')).toMatch(/not a regular file \(a character device\)$/);
    expect(failLine(big)).toContain(`${MAX_SCENARIO_FILE_BYTES + 1} bytes; a scenario file has at most ${MAX_SCENARIO_FILE_BYTES}`);
    expect(lines().at(-1)).toBe('1 passed, 2 failed');
  });

  it('survives symbolic link loops: a link to itself fails on its own, a link to a folder is not searched', async () => {
    symlinkSync('loop.json', join(dir, 'loop.json'));
    symlinkSync('.', join(dir, 'back.json'));
    symlinkSync('.', join(dir, 'back'));
    good();
    expect(await main(['scenarios', dir, join(dir, 'loop.json')])).toBe(1);
    expect(failLine(join(dir, 'loop.json'))).toMatch(/ELOOP/);
    expect(failLine(join(dir, 'back.json'))).toMatch(/not a regular file \(a directory\)$/);
    expect(lines().filter((l) => l.startsWith('ok '))).toEqual([`ok    upkeep first  (${join(dir, 'good.json')})`]);
    expect(lines().at(-1)).toBe('1 passed, 3 failed');
  });

  it(`reports a folder nested more than ${MAX_SCENARIO_FOLDER_DEPTH} levels deep, and one whose path is too long to search`, async () => {
    good();
    const deep = join(dir, ...Array.from({ length: MAX_SCENARIO_FOLDER_DEPTH + 2 }, () => 'd'));
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'deep.json'), upkeep('too deep'));
    // A path over PATH_MAX: two halves made apart, one moved into the other.
    const part = () => Array.from({ length: 12 }, (_, i) => `${i}`.padEnd(200, 'x'));
    const outer = join(dir, 'long', ...part());
    const inner = join(dir, 'inner');
    mkdirSync(outer, { recursive: true });
    mkdirSync(join(inner, ...part()), { recursive: true });
    renameSync(inner, join(outer, 'inner'));
    try {
      expect(await main(['scenarios', dir])).toBe(1);
      expect(lines().filter((l) => l.startsWith('FAIL')).some((l) => l.includes(`a folder nested deeper than ${MAX_SCENARIO_FOLDER_DEPTH} levels is not searched`))).toBe(true);
      expect(lines().some((l) => l.startsWith('FAIL') && /cannot search the folder: ENAMETOOLONG/.test(l))).toBe(true);
      expect(lines()).toContain(`ok    upkeep first  (${join(dir, 'good.json')})`);
      expect(lines().at(-1)).toBe('1 passed, 2 failed');
    } finally {
      renameSync(join(outer, 'inner'), inner); // rm cannot reach a path over PATH_MAX
    }
  });

  it('fails a scenario whose JSON nests too deep at step -1, instead of overflowing the stack of the whole run', async () => {
    const scenario = (step: string) => `{"name":"deep","setup":{"players":["A","B"]},"steps":[${step}]}`;
    writeFileSync(join(dir, 'a-pass.json'), scenario(`{"passUntil":{"turn":${nested(20_000)}},"max":1}`));
    writeFileSync(join(dir, 'b-send.json'), scenario(`{"send":{"type":"PASS_PRIORITY","player":"Z","x":${nested(20_000)}}}`));
    good();
    expect(await main(['scenarios', dir])).toBe(1);
    for (const file of ['a-pass.json', 'b-send.json']) expect(failLine(join(dir, file))).toMatch(/step -1: not a scenario: scenario\.steps\[0\]\..*: nested deeper than 32 levels$/);
    expect(lines().at(-1)).toBe('1 passed, 2 failed');
  });

  it('refuses a passUntil.max over 100,000 (CONTRACT "Scenarios") at step -1, naming the field', () => {
    const passUntil = (max: number, until: Record<string, unknown>) => runScenario({ name: 'n', setup: { players: ['A', 'B'] }, steps: [{ passUntil: until, max }] });
    const refused = passUntil(100_001, { turn: 100_000 });
    expect(refused.ok).toBe(false);
    expect(refused.failures[0]?.stepIndex).toBe(-1);
    expect(refused.failures[0]?.message).toMatch(/steps\[0\]\.max/);
    expect(passUntil(100_000, { step: 'draw' })).toEqual({ ok: true, failures: [] });
    // The least is 1, and the message says so.
    expect(passUntil(0, { step: 'draw' }).failures[0]?.message).toBe('not a scenario: scenario.steps[0].max: must be at least 1');
  });

  it("escapes control characters in printed names, paths and messages (a file cannot drive the terminal)", async () => {
    const name = 'red \u001b[31mtext\u001b[0m, title \u001b]0;pwned\u0007, CSI \u009b2J, bidi \u202eevil';
    good(name, 'named.json');
    const badFile = join(dir, 'esc\u001b[2J.json');
    writeFileSync(badFile, '{ not json');
    expect(await main(['scenarios', join(dir, 'named.json'), badFile])).toBe(1);
    const printed = out.join('\n');
    expect(printed.replaceAll('\n', ' ')).not.toMatch(/[\p{Cc}\u202e]/u);
    expect(printed).toContain('ok    red \\x1b[31mtext\\x1b[0m, title \\x1b]0;pwned\\x07, CSI \\x9b2J, bidi \\u202eevil');
    expect(printed).toContain(`FAIL  ${dir}/esc\\x1b[2J.json  (${dir}/esc\\x1b[2J.json)  step -1: cannot read ${dir}/esc\\x1b[2J.json`);
  });
});

describe('generate --out never writes through a symbolic link (issue 22)', () => {
  it('refuses an --out that is a symbolic link, before generating anything', async () => {
    const real = join(dir, 'real');
    mkdirSync(real);
    symlinkSync(real, join(dir, 'link'));
    expect(await main(['generate', '--out', join(dir, 'link'), '--config', '2p-current', '--max', '1'])).toBe(2);
    expect(err.join('\n')).toContain(`--out: '${join(dir, 'link')}' is a symbolic link`);
    expect(readdirSync(real)).toEqual([]);
  });

  it('refuses to replace a file that is a symbolic link (or a FIFO), writing nothing at all', async () => {
    const target = join(dir, 'outside.txt');
    writeFileSync(target, 'keep me');
    const folder = join(dir, 'out');
    mkdirSync(folder);
    symlinkSync(target, join(folder, 'b.json'));
    const files = [{ file: 'a.json', text: '{}\n' }, { file: 'b.json', text: '{}\n' }];
    await expect(writeScenarioFiles(folder, files)).rejects.toThrow(`'${join(folder, 'b.json')}' exists and is a symbolic link`);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect(existsSync(join(folder, 'a.json'))).toBe(false);
    rmSync(join(folder, 'b.json'));
    if (spawnSync('mkfifo', [join(folder, 'b.json')]).status === 0) {
      await expect(writeScenarioFiles(folder, files)).rejects.toThrow('exists and is not a regular file');
      rmSync(join(folder, 'b.json'));
    }
    await writeScenarioFiles(folder, files);
    expect(readdirSync(folder).sort()).toEqual(['a.json', 'b.json']);
  });
});

describe('simulate (issue 22)', () => {
  it("prints the engine's speed: the time of game.send alone, not of the random choices, legalActions or the log", async () => {
    // A clock that moves 1 ms per reading: only a reading on each side of each send gives 1 ms per event.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now++);
    expect(await main(['simulate', '--seed', '42', '--players', '3'])).toBe(0);
    const events = Number(/events sent: (\d+)/.exec(out.join('\n'))?.[1]);
    expect(events).toBeGreaterThan(50);
    expect(lines()).toContain(`  the engine: ${events} events in ${(events / 1000).toFixed(3)} s of game.send (1,000 events/s)`);
  });

  it('refuses a --players that the variant does not seat, naming the option and the count', async () => {
    expect(await main(['simulate', '--players', '3', '--variant', 'twoHeadedGiant'])).toBe(2);
    expect(err.join('\n')).toMatch(/--players 3 does not fit --variant twoHeadedGiant, which is played by 4 players/);
    expect(await main(['simulate', '--players', '4', '--variant', 'twoHeadedGiant', '--quiet', '--turns', '1'])).toBe(0);
    expect(await main(['simulate', '--inspect', '--variant', 'emperor'])).toBe(2);
    expect(err.join('\n')).toMatch(/--variant: not played with --inspect/);
  });

  it("logs a Grand Melee event with its turn marker, and that marker's stack and priority (CR 807.5)", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], variant: 'grandMelee' });
    const marker = (n: number) => game.view().turns?.find((t) => t.turnMarker === n);
    const holder = marker(2)?.priority as string;
    expect(holder).not.toBe(game.view().priority); // the first running turn's priority is marker 1's
    const cast = { type: 'CAST_SPELL', player: holder, id: 'spell-1', speed: 'instant', turnMarker: 2 };
    expect(game.send(cast as unknown).ok).toBe(true);
    const line = describeSent(cast, true, game.view());
    expect(line).toBe(`      [marker 2] ${holder}: CAST_SPELL {"id":"spell-1","speed":"instant"}  stack: [spell-1]  -> priority ${marker(2)?.priority}`);
    const mana = { type: 'ADD_MANA', player: 'A', amount: 1 };
    expect(game.send(mana as unknown).ok).toBe(true);
    expect(describeSent(mana, true, game.view())).toBe(`      A: ADD_MANA {"amount":1}  [marker 1  -> priority ${marker(1)?.priority}]  [marker 2  stack: [spell-1]  -> priority ${marker(2)?.priority}]`);
    expect(describeEmitted({ type: 'draw', player: 'E', turnMarker: 2 })).toBe('    [marker 2] E draws a card');
    expect(describeEmitted({ type: 'turnBegan', turn: 2, activePlayer: 'F', turnMarker: 2 } as never)).toBe("\nTurn 2, turn marker 2: F's turn");
  });

  it('names the turn marker on every line of a Grand Melee log', async () => {
    expect(await main(['simulate', '--variant', 'grandMelee', '--turns', '1', '--seed', '3'])).toBe(0);
    const log = lines();
    expect(log).toContain("Turn 1, turn marker 2: E's turn (untap step taken)");
    const sent = log.filter((l) => /^ {6}\S/.test(l) && l.includes('PASS_PRIORITY'));
    expect(sent.length).toBeGreaterThan(10);
    expect(sent.filter((l) => !/^ {6}\[marker [12]\] /.test(l))).toEqual([]);
    expect(log.filter((l) => / {2}\S.* \/ /.test(l) && !l.includes('[marker '))).toEqual([]);
  });
});
