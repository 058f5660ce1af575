/**
 * The conformance runner and protocol (issue 26, CONTRACT "Conformance kit", docs/conformance.md):
 * `conformance run --engine "<command>"` starts the engine process and plays scenarios over
 * newline-delimited JSON-RPC 2.0 on its stdio; one line per scenario with the first divergence
 * (step, expected, got), then `N passed, M failed, K skipped`; `--json` for machines; scenarios
 * needing features the engine does not declare are skipped; an engine that crashes, hangs past
 * the time-out or writes what is not JSON-RPC fails its scenario alone and is restarted for the
 * next. Every message a run exchanges (checkpoint requests included) validates against its JSON
 * Schema in schema/conformance/.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { runConformance, scenarioFeatures, type ConformanceResult } from '../../src/conformance.js';
import { createGame, recordingToScenario, type Recording } from '../../src/index.js';
import { playout } from '../../src/sim/index.js';

const root = resolve(import.meta.dirname, '../..');
/** This engine behind the protocol, from the sources. */
export const SELF = `"${process.execPath}" --import tsx scripts/cli.ts conformance serve-self`;

let dir: string;
let out: string[];
let err: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mtg-conformance-'));
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
  vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

function scenarioFile(name: string, scenario: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(scenario));
  return file;
}

describe('conformance run against this engine (serve-self)', () => {
  it('prints one line per scenario and "N passed, 0 failed, 0 skipped", and exits 0', async () => {
    const code = await main(['conformance', 'run', '--engine', SELF, join(root, 'scenarios/shared')]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const files = readdirSync(join(root, 'scenarios/shared')).filter((f) => f.endsWith('.json'));
    expect(out.filter((l) => l.startsWith('ok    '))).toHaveLength(files.length);
    expect(out.at(-1)).toBe(`${files.length} passed, 0 failed, 0 skipped`);
  });

  it('a scenario made to fail (a wrong expectation) prints its step and the difference: expected and got', async () => {
    const file = scenarioFile('wrong.json', {
      name: 'the first step is the draw step (it is not)',
      setup: { players: ['A', 'B'] },
      steps: [{ expect: { turn: 1 } }, { expect: { step: 'draw', priority: 'A' } }, { expect: { turn: 1 } }],
    });
    expect(await main(['conformance', 'run', '--engine', SELF, file])).toBe(1);
    expect(out[0]).toBe(`FAIL  the first step is the draw step (it is not)  (${file})  step 1 {"expect":{"step":"draw","priority":"A"}}: expect: step: expected "draw", got "upkeep"`);
    expect(out.at(-1)).toBe('0 passed, 1 failed, 0 skipped');
  });

  it('--json gives each result with its step and message, the engine and the counts', async () => {
    const bad = scenarioFile('bad.json', { name: 'B passes first', setup: { players: ['A', 'B'] }, steps: [{ send: { type: 'PASS_PRIORITY', player: 'B' } }] });
    const good = scenarioFile('good.json', { name: 'upkeep', setup: { players: ['A', 'B'] }, steps: [{ expect: { step: 'upkeep' } }] });
    expect(await main(['conformance', 'run', '--engine', SELF, '--json', bad, good])).toBe(1);
    const run = JSON.parse(out.join('\n')) as { engine: { name: string; features: string[] }; results: ConformanceResult[]; passed: number; failed: number; skipped: number };
    expect(run.engine.name).toBe('mtg-turn-engine');
    expect([run.passed, run.failed, run.skipped]).toEqual([1, 1, 0]);
    expect(run.results[0]).toMatchObject({ name: 'B passes first', status: 'failed', stepIndex: 0, step: { send: { type: 'PASS_PRIORITY', player: 'B' } } });
    expect(run.results[0]?.message).toMatch(/was refused: ILLEGAL_ACTION: B cannot pass priority: A holds priority/);
    expect(run.results[1]).toMatchObject({ name: 'upkeep', status: 'passed', features: [] });
  });

  it('skips the scenarios that need a feature the engine does not declare, naming it; --features narrows the run', async () => {
    const classic = scenarioFile('classic.json', { name: 'classic', setup: { players: ['A', 'B'], rules: 'classic' }, steps: [{ expect: { rules: 'classic' } }] });
    const core = scenarioFile('core.json', { name: 'core', setup: { players: ['A', 'B'] }, steps: [{ expect: { rules: 'current' } }] });
    const stops = scenarioFile('stops.json', { name: 'stops', setup: { players: ['A', 'B'] }, steps: [{ send: { type: 'SET_STOPS', player: 'A', stops: null } }] });
    expect(await main(['conformance', 'run', '--engine', `${SELF} --features stops`, classic, core, stops])).toBe(0);
    expect(out).toEqual([`skip  classic  (${classic})  needs eras:classic`, `ok    core  (${core})`, `ok    stops  (${stops})`, '2 passed, 0 failed, 1 skipped']);
    out = [];
    expect(await main(['conformance', 'run', '--engine', SELF, '--features', 'eras:classic', classic, core, stops])).toBe(0);
    expect(out.at(-1)).toBe('2 passed, 0 failed, 1 skipped');
    expect(out).toContain(`skip  stops  (${stops})  needs stops`);
  });

  it('answers the checkpoint from the scenario\'s inject, plays restore and expectNextStop through persist, restore and nextStop', async () => {
    const files = ['21-cleanup-with-state-based-actions-gives-priority-then-another.json', '301-nextstop-where-the-game-will-next-ask-a-player-with-stops-de.json', '302-stops-and-yields-persist-a-restored-game-keeps-every-player.json'];
    const lines: string[] = [];
    const run = await runConformance({ engine: SELF, cwd: root, files: files.map((f) => join(root, 'scenarios', f)), trace: (d, line) => lines.push(`${d} ${line}`) });
    expect([run.passed, run.failed, run.skipped]).toEqual([3, 0, 0]);
    const methods = new Set(lines.map((l) => (JSON.parse(l.slice(2)) as { method?: string }).method).filter((m) => m !== undefined));
    expect([...methods].sort()).toEqual(['checkpoint', 'createGame', 'initialize', 'nextStop', 'persist', 'restore', 'send', 'shutdown', 'view']);
    expect(lines.filter((l) => l.startsWith('< ') && l.includes('"method":"checkpoint"')).length).toBeGreaterThan(0);
  });

  it("a scenario made by recordingToScenario from a game with hooks.autoPass passes through the protocol: the engine asks the runner autoPass (feature 'autoPassHook')", async () => {
    const game = createGame({ players: ['A', 'B'], seed: 1, record: true, hooks: { autoPass: (view, player) => view.step === 'upkeep' && player !== view.activePlayer } });
    playout(game, { until: { turn: 3 }, seed: 1 });
    const scenario = recordingToScenario(JSON.parse(JSON.stringify(game.recording())) as Recording);
    expect(scenario.setup.autoPass?.length).toBeGreaterThan(0);
    expect(scenarioFeatures(scenario)).toContain('autoPassHook');
    const file = scenarioFile('autopass.json', scenario);
    const lines: string[] = [];
    const run = await runConformance({ engine: SELF, cwd: root, files: [file], trace: (d, line) => lines.push(`${d} ${line}`) });
    expect(run.results.map((r) => `${r.status}: ${r.message ?? ''}`)).toEqual(['passed: ']);
    expect(lines.find((l) => l.includes('"method":"createGame"'))).toContain('"autoPass":true');
    expect(lines.filter((l) => l.startsWith('< ') && l.includes('"method":"autoPass"')).length).toBeGreaterThan(0);
    // An engine that does not declare the feature skips it, naming the feature.
    const without = await runConformance({ engine: `${SELF} --features checkpoint,leaving,persist,stops,schedule,teams,effects,dayNight,clock,undo,away,control`, cwd: root, files: [file] });
    expect(without.results[0]).toMatchObject({ status: 'skipped', missing: expect.arrayContaining(['autoPassHook']) });
  });

  it('every message of a run validates against its JSON Schema (schema/conformance/), both ways', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const folder = join(root, 'schema/conformance');
    for (const f of readdirSync(folder)) ajv.addSchema(JSON.parse(readFileSync(join(folder, f), 'utf8')) as object);
    const schema = (name: string) => ajv.getSchema(`https://github.com/mtg-turn-engine/mtg-turn-engine/schema/conformance/${name}`)!;
    const lines: string[] = [];
    // A recorded game with an autoPass hook: the runner answers `autoPass` requests too.
    const game = createGame({ players: ['A', 'B'], seed: 2, record: true, hooks: { autoPass: (view, player) => view.step === 'upkeep' && player !== view.activePlayer } });
    playout(game, { until: { turn: 2 }, seed: 2 });
    const autoPassed = scenarioFile('autopass.json', recordingToScenario(JSON.parse(JSON.stringify(game.recording())) as Recording));
    const files = ['21-cleanup-with-state-based-actions-gives-priority-then-another.json', '302-stops-and-yields-persist-a-restored-game-keeps-every-player.json', '301-nextstop-where-the-game-will-next-ask-a-player-with-stops-de.json'];
    await runConformance({ engine: SELF, cwd: root, files: [...files.map((f) => join(root, 'scenarios', f)), join(root, 'scenarios/shared'), autoPassed], trace: (d, line) => lines.push(`${d} ${line}`) });
    const asked = new Map<string, string>();
    const seen = new Set<string>();
    for (const line of lines) {
      const message = JSON.parse(line.slice(2)) as { id: number | string; method?: string; error?: unknown };
      let name: string;
      if (message.method !== undefined) {
        name = `${message.method}.request.json`;
        asked.set(`${line[0]}${message.id}`, message.method);
      } else {
        name = message.error !== undefined ? 'error.response.json' : `${asked.get(`${line[0] === '>' ? '<' : '>'}${message.id}`)}.response.json`;
      }
      seen.add(name);
      const check = schema(name);
      expect(check(message), `${name}: ${ajv.errorsText(check.errors)}: ${line.slice(0, 300)}`).toBe(true);
      expect(schema('message.schema.json')(message), line.slice(0, 300)).toBe(true);
    }
    expect(seen.has('checkpoint.request.json') && seen.has('checkpoint.response.json') && seen.has('send.response.json') && seen.has('view.response.json')).toBe(true);
    expect(seen.has('autoPass.request.json') && seen.has('autoPass.response.json')).toBe(true);
    // The schemas refuse what is not a message of the protocol.
    expect(schema('send.response.json')({ jsonrpc: '2.0', id: 1, result: { ok: 'yes' } })).toBe(false);
    expect(schema('initialize.response.json')({ jsonrpc: '2.0', id: 1, result: { name: 'x', version: '1' } })).toBe(false);
    expect(schema('checkpoint.response.json')({ jsonrpc: '2.0', id: 'c', result: { triggers: [{ id: 't' }] } })).toBe(false);
  });
});

/** An engine that answers as told by each scenario's seed: 1 crashes, 2 hangs, 3 writes a line that is not JSON, 4 answers a wrong send; others play an upkeep. */
const FAKE = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
let mode = 0;
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') return send({ id: m.id, result: { name: 'fake', version: '0.0.1', features: [] } });
  if (m.method === 'createGame') { mode = m.params.options.seed ?? 0; return send({ id: m.id, result: {} }); }
  if (m.method === 'view') {
    if (mode === 1) { process.stderr.write('fake engine: boom\\n'); process.exit(3); }
    if (mode === 2) return;
    if (mode === 3) return process.stdout.write('this is not JSON\\n');
    return send({ id: m.id, result: { turn: 1, step: 'upkeep' } });
  }
  if (m.method === 'send') return send({ id: m.id, result: mode === 4 ? { ok: 'maybe' } : { ok: true, events: [] } });
  if (m.method === 'shutdown') { send({ id: m.id, result: {} }); process.exit(0); }
  send({ id: m.id, error: { code: -32601, message: 'no such method' } });
});
`;

describe('an engine that crashes, hangs or breaks the protocol fails its scenario, not the run', () => {
  it('fails that scenario with what happened, restarts the engine, and plays the next', async () => {
    const engine = join(dir, 'fake.cjs');
    writeFileSync(engine, FAKE);
    const scenario = (name: string, seed: number) => scenarioFile(`${name}.json`, { name, setup: { players: ['A', 'B'], seed }, steps: [{ send: { type: 'PASS_PRIORITY', player: 'A' } }, { expect: { step: 'upkeep' } }] });
    const files = [scenario('a', 0), scenario('crash', 1), scenario('b', 0), scenario('hang', 2), scenario('c', 0), scenario('garbage', 3), scenario('d', 0), scenario('wrong answer', 4), scenario('e', 0)];
    const lines: string[] = [];
    const run = await runConformance({ engine: `"${process.execPath}" "${engine}"`, files, timeoutMs: 1000, trace: (d, l) => lines.push(`${d} ${l}`) });
    expect(run.results.map((r) => `${r.name}: ${r.status}`)).toEqual(['a: passed', 'crash: failed', 'b: passed', 'hang: failed', 'c: passed', 'garbage: failed', 'd: passed', 'wrong answer: failed', 'e: passed']);
    const failure = (name: string) => run.results.find((r) => r.name === name);
    expect(failure('crash')).toMatchObject({ stepIndex: 0 });
    expect(failure('crash')?.message).toMatch(/the engine exited \(code 3\); its last stderr: fake engine: boom/);
    expect(failure('hang')?.message).toBe('no answer to view within 1000 ms (the time-out of one message)');
    expect(failure('garbage')?.message).toMatch(/the engine wrote a line that is not JSON: this is not JSON/);
    expect(failure('wrong answer')?.message).toMatch(/the engine's answer to send is not \{ ok, error\?, events \}: ok: expected true or false/);
    // A new process after each crash, hang and broken line (the wrong answer keeps the process).
    expect(lines.filter((l) => l.includes('"method":"initialize"'))).toHaveLength(4);
    expect([run.passed, run.failed, run.skipped]).toEqual([5, 4, 0]);
  });

  it('conformance --help lists the subcommands and the options with their defaults', async () => {
    expect(await main(['conformance', '--help'])).toBe(0);
    const help = out.join('\n');
    expect(help).toMatch(/^usage: mtg-turn-engine conformance list/);
    for (const option of ['serve-self', '--engine <cmd>', '--features <a,b>', '--timeout <ms>', '(default 10000)', '--json', '--quiet', '--trace <file>']) expect(help).toContain(option);
  });

  it('an engine that cannot start or answer initialize stops the run with exit code 2, saying why', async () => {
    const file = scenarioFile('one.json', { name: 'one', setup: { players: ['A', 'B'] }, steps: [] });
    expect(await main(['conformance', 'run', '--engine', 'exit 7', file, '--timeout', '2000'])).toBe(2);
    expect(err.join('\n')).toMatch(/mtg-turn-engine conformance: the engine exited \(code 7\)/);
    expect(await main(['conformance', 'run', file])).toBe(2);
    expect(err.join('\n')).toContain('--engine "<command>" is required');
    expect(await main(['conformance', 'run', '--engine', 'x', '--timeout', 'soon', file])).toBe(2);
    expect(err.join('\n')).toContain("--timeout must be a whole number of milliseconds from 1 to 3600000; got 'soon'");
  });
});
