/**
 * The conformance runner's limits (issue 33, CONTRACT "Conformance kit", docs/conformance.md
 * "Time limits"): each scenario has an overall time limit; an engine that keeps sending
 * `checkpoint` requests still times out (its lines do not restart the time-out of the runner's
 * request); the runner answers no checkpoint of a game created with `checkpoint: false`; an
 * engine slow to start is timed by the start-up time-out, never by a scenario's message; an
 * unknown step kind and an unknown `$`-matcher each fail their scenario with a line naming them.
 * Each gets its line and the run goes on. Small fake engines play the other side.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { runConformance } from '../../src/conformance.js';
import { runScenario } from '../../src/scenarios/runner.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mtg-conformance-limits-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

function scenarioFile(name: string, scenario: unknown): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return file;
}

/**
 * A fake engine; each game's `seed` says how it plays: 0 well (an upkeep where A holds priority
 * and every send is accepted), 1 asks `checkpoint` again and again and never answers the send,
 * 2 never answers view, 3 asks `checkpoint` although createGame said `checkpoint: false`, 4 answers
 * a send with one line of 70 MiB written a mebibyte at a time (past the runner's 64 MiB).
 * With STARTUP_MS set, it reads nothing for that long after it starts (a slow start-up).
 */
const FAKE = `
const start = () => {
  const rl = require('node:readline').createInterface({ input: process.stdin });
  const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
  let mode = 0;
  let asked = 0;
  const view = { turn: 1, step: 'upkeep', priority: 'A', awaiting: { kind: 'priority', player: 'A' } };
  const ask = () => send({ id: 'c' + ++asked, method: 'checkpoint', params: { view, pending: [] } });
  rl.on('line', (line) => {
    const m = JSON.parse(line);
    if (m.method === undefined) { if (mode === 1) setTimeout(ask, 5); return; }
    if (m.method === 'initialize') return send({ id: m.id, result: { name: 'fake', version: '0.0.1', features: ['checkpoint'] } });
    if (m.method === 'createGame') { mode = m.params.options.seed ?? 0; return send({ id: m.id, result: {} }); }
    if (m.method === 'view') return mode === 2 ? undefined : send({ id: m.id, result: view });
    if (m.method === 'send') {
      if (mode === 1 || mode === 3) return ask();
      if (mode === 4) {
        const mib = 'x'.repeat(1 << 20);
        let left = 70;
        const more = () => { while (left > 0) { left--; if (!process.stdout.write(mib)) return process.stdout.once('drain', more); } process.stdout.write('\\n'); };
        return more();
      }
      return send({ id: m.id, result: { ok: true, events: [] } });
    }
    if (m.method === 'shutdown') { send({ id: m.id, result: {} }); process.exit(0); }
    send({ id: m.id, error: { code: -32601, message: 'no such method' } });
  });
};
const wait = Number(process.env.STARTUP_MS ?? 0);
if (wait > 0) { const until = Date.now() + wait; while (Date.now() < until); }
start();
`;

function fakeEngine(startupMs = 0): string {
  const file = join(dir, 'fake.cjs');
  writeFileSync(file, FAKE);
  return `STARTUP_MS=${startupMs} "${process.execPath}" "${file}"`;
}

const pass = (name: string, seed = 0, inject?: unknown[]) =>
  scenarioFile(name, { name, setup: { players: ['A', 'B'], seed, ...(inject === undefined ? {} : { inject }) }, steps: [{ send: { type: 'PASS_PRIORITY', player: 'A' } }, { expect: { step: 'upkeep' } }] });

describe('the conformance runner\'s time limits', () => {
  it('an engine that keeps asking checkpoint times out at the time-out of the request (its lines do not restart it); the run goes on', async () => {
    const lines: string[] = [];
    const run = await runConformance({ engine: fakeEngine(), files: [pass('a'), pass('chatty', 1, []), pass('b')], timeoutMs: 2000, trace: (d, l) => lines.push(`${d} ${l}`) });
    expect(run.results.map((r) => `${r.name}: ${r.status}`)).toEqual(['a: passed', 'chatty: failed', 'b: passed']);
    expect(run.results[1]).toMatchObject({ stepIndex: 0, message: 'no answer to send within 2000 ms (the time-out of one message)' });
    // It did keep asking (and was answered while its game had a checkpoint hook) until the time-out.
    expect(lines.filter((l) => l.startsWith('< ') && l.includes('"method":"checkpoint"')).length).toBeGreaterThan(3);
  });

  it('a line past 64 MiB fails its scenario as too long (not as a time-out: each chunk is searched once), and the run goes on', async () => {
    const run = await runConformance({ engine: fakeEngine(), files: [pass('huge', 4), pass('b')], timeoutMs: 60_000 });
    expect(run.results.map((r) => `${r.name}: ${r.status}`)).toEqual(['huge: failed', 'b: passed']);
    expect(run.results[0]?.message).toContain('the engine wrote a line longer than 67108864 bytes');
  }, 120_000);

  it('the runner does not answer checkpoint for a game created with checkpoint: false: the scenario fails saying so', async () => {
    const lines: string[] = [];
    const run = await runConformance({ engine: fakeEngine(), files: [pass('unasked', 3), pass('b')], timeoutMs: 5000, trace: (d, l) => lines.push(`${d} ${l}`) });
    expect(run.results.map((r) => `${r.name}: ${r.status}`)).toEqual(['unasked: failed', 'b: passed']);
    expect(run.results[0]?.message).toBe('the engine asked checkpoint though createGame said checkpoint: false (the runner answers checkpoint only for a game created with checkpoint: true)');
    // No answer went back to that checkpoint request.
    expect(lines.filter((l) => l.startsWith('> ') && l.includes('"id":"c1"'))).toEqual([]);
  });

  it('a scenario that goes on past its overall time limit fails with its own line, though every message is answered at once', async () => {
    const endless = scenarioFile('endless', { name: 'endless', setup: { players: ['A', 'B'] }, steps: [{ passUntil: { step: 'draw' }, max: 100_000 }] });
    const run = await runConformance({ engine: fakeEngine(), files: [endless, pass('b')], timeoutMs: 5000, scenarioTimeoutMs: 1500 });
    expect(run.results.map((r) => `${r.name}: ${r.status}`)).toEqual(['endless: failed', 'b: passed']);
    expect(run.results[0]).toMatchObject({ stepIndex: 0, message: 'the scenario did not finish within 1500 ms (the time limit of one scenario)' });
  });

  it('an engine slow at start-up: its restart after a time-out is timed by the start-up time-out, not by the next message\'s', async () => {
    const lines: string[] = [];
    const run = await runConformance({ engine: fakeEngine(3000), files: [pass('a'), pass('hang', 2), pass('b'), pass('c')], timeoutMs: 2000, trace: (d, l) => lines.push(`${d} ${l}`) });
    expect(run.results.map((r) => `${r.name}: ${r.status}`)).toEqual(['a: passed', 'hang: failed', 'b: passed', 'c: passed']);
    expect(run.results[1]?.message).toBe('no answer to view within 2000 ms (the time-out of one message)');
    expect(lines.filter((l) => l.includes('"method":"initialize"'))).toHaveLength(2);
  });

  it('a start-up past the start-up time-out stops the run saying which time-out it was', async () => {
    await expect(runConformance({ engine: fakeEngine(3000), files: [pass('a')], timeoutMs: 500, startupTimeoutMs: 500 })).rejects.toThrow(
      /^no answer to initialize within 500 ms \(the time-out of the start-up\)/,
    );
  });
});

describe('scenario files the runner cannot read as the format', () => {
  it('an unknown step kind fails at its step with a line naming the kind; an unknown $-matcher names the matcher; the run goes on', async () => {
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    const kind = scenarioFile('kind', { name: 'kind', setup: { players: ['A', 'B'] }, steps: [{ expect: { turn: 1 } }, { expectLog: ['x'] }] });
    const matcher = scenarioFile('matcher', { name: 'matcher', setup: { players: ['A', 'B'] }, steps: [{ expect: { turn: 1 } }, { passUntil: { turn: { $gte: 2 } } }] });
    const when = scenarioFile('when', { name: 'when', setup: { players: ['A', 'B'], inject: [{ when: { $any: true }, triggers: [] }] }, steps: [] });
    expect(await main(['conformance', 'run', '--engine', fakeEngine(), kind, matcher, when, pass('b')])).toBe(1);
    expect(out).toEqual([
      `FAIL  kind  (${kind})  step 1 {"expectLog":["x"]}: not a scenario: steps[1]: unknown step kind 'expectLog'; a step is one of send, expect, passUntil, expectEmitted, expectNextStop, restore`,
      `FAIL  matcher  (${matcher})  step 1 {"passUntil":{"turn":{"$gte":2}}}: not a scenario: steps[1].passUntil.turn.$gte: unknown matcher '$gte' (the scenario format has no $-matchers; fields match by equality, objects partially)`,
      `FAIL  when  (${when})  step -1: not a scenario: setup.inject[0].when.$any: unknown matcher '$any' (the scenario format has no $-matchers; fields match by equality, objects partially)`,
      `ok    b  (${pass('b')})`,
      '1 passed, 3 failed, 0 skipped',
    ]);
  });

  it('--startup-timeout and --scenario-timeout are checked and listed in --help', async () => {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
    expect(await main(['conformance', 'run', '--engine', 'x', '--scenario-timeout', '0', pass('a')])).toBe(2);
    expect(err.join('\n')).toContain("--scenario-timeout must be a whole number of milliseconds from 1 to 3600000; got '0'");
    expect(await main(['conformance', '--help'])).toBe(0);
    for (const option of ['--startup-timeout <ms>', '(default 60000)', '--scenario-timeout <ms>', '(default 120000)']) expect(out.join('\n')).toContain(option);
  });
});

describe('matching a list whose length the contract leaves open (schedule.turns: at least players + 1 turns)', () => {
  const scenario = (turns: unknown) => ({ name: 'n', setup: { players: ['A', 'B'] }, steps: [{ expect: { schedule: { turns } } }] });
  it('an object keyed by index matches the first entries of an array, however long it is', () => {
    expect(runScenario(scenario({ 0: { player: 'B' }, 1: { player: 'A' }, 2: { player: 'B', extra: false } }))).toEqual({ ok: true, failures: [] });
    expect(runScenario(scenario({ 1: { player: 'B' } })).failures).toEqual([{ stepIndex: 0, message: 'expect: schedule.turns[1].player: expected "B", got "A"' }]);
    expect(runScenario(scenario({ 99: { player: 'B' } })).failures[0]?.message).toMatch(/^expect: schedule\.turns\[99\]: expected \{"player":"B"\}, got nothing \(the array has \d+ element\(s\)\)$/);
    expect(runScenario(scenario({ first: { player: 'B' } })).failures[0]?.message).toMatch(/^expect: schedule\.turns: expected an object, got an array \(an object matches an array only by indexes "0", "1", \.\.\.; 'first' is not one\)/);
    // An array still matches whole.
    expect(runScenario(scenario([{ player: 'B' }])).failures[0]?.message).toMatch(/^expect: schedule\.turns: expected 1 element\(s\), got \d+/);
  });
});
