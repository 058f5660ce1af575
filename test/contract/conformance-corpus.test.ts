/**
 * The conformance kit's corpus (issue 26, CONTRACT "Conformance kit"): `scenarioFeatures`
 * derives the features a scenario needs from its setup and steps alone (a pure function);
 * `mtg-turn-engine/conformance` lists the shipped scenarios (the project's own, the shared
 * suite's, the generated ones, the ones exported from recorded games) with their features,
 * their source and the scenario JSON Schema; the command `conformance list [--features a,b]
 * [--source s,t]`. The recorded set (scenarios/recorded/) is what `npm run generate:recorded`
 * writes now, tagged, and passes through serve-self.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conformanceCorpus, FEATURE_NAMES, FEATURES, loadScenarios, missingFeatures, runConformance, scenarioFeatures, scenarioSchema, scenarioSchemaPath } from '../../src/conformance.js';
import { contractExpectations, narrowExpectations, recordedCorpus, recordedScenario } from '../../src/conformance/recorded.js';
import { RECORDED_GAMES } from '../../src/conformance/recordedGames.js';
import { playRecordedGame } from '../../src/conformance/recordedHost.js';
import { recordingToScenario } from '../../src/recording/scenario.js';
import { collectScenarioFiles } from '../../src/scenarios/files.js';
import { main } from '../../src/cli/main.js';

const root = resolve(import.meta.dirname, '../..');
const two = (steps: unknown[] = [], setup: Record<string, unknown> = {}) => ({ name: 'n', setup: { players: ['A', 'B'], ...setup }, steps });

describe('scenarioFeatures: what a scenario needs, from its setup and steps', () => {
  it('needs nothing for two players, the current rules and the core events', () => {
    const core = two([
      { passUntil: { step: 'declareAttackers' } },
      { send: { type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'a', defender: 'B', firstStrike: true }] } },
      { send: { type: 'PLAY_LAND', player: 'B' }, reject: 'ILLEGAL_ACTION' },
      { send: { type: 'NOT_AN_EVENT' }, reject: 'INVALID_EVENT' },
      { send: { type: 'TRIGGER', triggers: [{ id: 't', controller: 'A' }] } },
      { expect: { stack: [], combat: null, handSizes: { A: 7 }, manaPool: { A: 0 }, gameOver: null, decidedBy: { A: 'A' } } },
      { expectEmitted: [{ type: 'stepBegan' }, { type: 'combatDamage' }, { type: 'manaEmptied' }, { type: 'resolve' }] },
    ], { rules: 'current', seed: 3, handSize: 5, maxHandSize: 6, startingPlayer: 'B', orderTriggers: 'host', attack: 'all', variant: 'freeForAll' });
    expect(scenarioFeatures(core)).toEqual([]);
  });

  it.each([
    [{ players: ['A', 'B', 'C'] }, ['multiplayer']],
    [{ rules: 'm10' }, ['eras:m10']],
    [{ rules: 'classic' }, ['eras:classic']],
    [{ pregame: true }, ['pregame']],
    [{ teams: [{ id: 't', players: ['A'] }, { id: 'u', players: ['B'] }] }, ['teams']],
    [{ players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant' }, ['multiplayer', 'teams', 'variants', 'twoHeadedGiant']],
    [{ variant: 'planechase' }, ['variants', 'planechase']],
    [{ variant: 'grandMelee' }, ['variants', 'grandMelee']],
    [{ rangeOfInfluence: 1 }, ['rangeOfInfluence']],
    [{ attack: 'chooseOne' }, ['attack']],
    [{ orderTriggers: 'players' }, ['orderTriggers']],
    [{ inject: [{ when: { step: 'cleanup' }, stateBasedActions: true }] }, ['checkpoint']],
    [{ inject: [{ when: { schedule: {} }, events: [{ type: 'END_TURN' }] }] }, ['checkpoint', 'endTurn', 'schedule']],
    [{ clock: { initialMs: 1000, onTimeout: 'lose' }, undo: { mode: 'own' }, away: { graceMs: 1, then: 'wait' } }, ['clock', 'undo', 'away']],
  ])('from the setup %j: %j', (setup, features) => {
    expect(scenarioFeatures(two([], setup as Record<string, unknown>))).toEqual(features);
  });

  it.each([
    ['CONCEDE', 'leaving'], ['LOSE', 'leaving'], ['WIN', 'leaving'], ['DRAW_GAME', 'leaving'],
    ['PUT_ON_STACK', 'stackEvents'], ['REMOVE_FROM_STACK', 'stackEvents'],
    ['REMOVE_FROM_COMBAT', 'combatChanges'], ['SET_COMBAT_ABILITIES', 'combatChanges'], ['ADD_ATTACKER', 'combatChanges'], ['ADD_BLOCKER', 'combatChanges'],
    ['END_TURN', 'endTurn'], ['END_COMBAT', 'endTurn'], ['ADD_EXTRA_TURN', 'extraTurns'],
    ['ADD_EXTRA_COMBAT', 'extraPhases'], ['ADD_EXTRA_PHASE', 'extraPhases'], ['ADD_EXTRA_STEP', 'extraPhases'], ['SKIP_NEXT', 'skips'],
    ['ADD_EFFECT', 'effects'], ['REMOVE_EFFECT', 'effects'], ['CONTROL_PLAYER', 'control'], ['SET_DAY_NIGHT', 'dayNight'],
    ['SET_STOPS', 'stops'], ['YIELD', 'stops'], ['ORDER_TRIGGERS', 'orderTriggers'], ['ORDER_BLOCKERS', 'eras:m10'], ['ORDER_ATTACKERS', 'eras:m10'],
    ['CHOOSE_DEFENDER', 'attack'], ['KEEP', 'pregame'], ['ROLL_PLANAR_DIE', 'planechase'], ['TICK', 'clock'], ['UNDO', 'undo'],
    ['SET_SEAT_STATUS', 'away'], ['PROPOSE_SHORTCUT', 'shortcuts'],
  ])('a sent (even refused) %s needs %s', (type, feature) => {
    expect(scenarioFeatures(two([{ send: { type }, reject: 'ILLEGAL_ACTION' }]))).toEqual([feature]);
  });

  it('reads the fields of events, the view fields matched, the emitted events expected and the steps', () => {
    expect(scenarioFeatures(two([{ send: { type: 'PASS_PRIORITY', player: 'A', by: 'B' } }]))).toEqual(['control']);
    expect(scenarioFeatures(two([{ send: { type: 'PASS_PRIORITY', player: 'A', turnMarker: 1 } }]))).toEqual(['grandMelee']);
    expect(scenarioFeatures(two([{ send: { type: 'PASS_PRIORITY', player: 'A', at: 5 } }]))).toEqual(['clock']);
    expect(scenarioFeatures(two([{ expect: { effects: [], dayNight: null } }, { passUntil: { activeTeam: 't', stops: {} } }]))).toEqual(['teams', 'effects', 'dayNight', 'stops']);
    expect(scenarioFeatures(two([{ expect: { turns: [] } }, { expect: { schedule: {} } }]))).toEqual(['grandMelee', 'schedule']);
    expect(scenarioFeatures(two([{ expectEmitted: [{ type: 'manaBurn' }, { type: 'effectEnded' }, { type: 'autoPass' }, { type: 'drawHand' }, { type: 'setInMotion' }, { type: 'planarDie' }, { type: 'undone' }] }]))).toEqual([
      'archenemy', 'planechase', 'pregame', 'eras:classic', 'effects', 'stops', 'undo',
    ]);
    expect(scenarioFeatures(two([{ restore: true }, { expectNextStop: null, player: 'A' }]))).toEqual(['nextStop', 'persist']);
  });

  it('is pure: the same answer every time, in the order of FEATURE_NAMES, and the scenario untouched', () => {
    const scenario = two([{ send: { type: 'SET_STOPS', player: 'A', stops: null } }, { restore: true }], { rules: 'm10', pregame: true, players: ['A', 'B', 'C'] });
    const text = JSON.stringify(scenario);
    const first = scenarioFeatures(scenario);
    expect(scenarioFeatures(JSON.parse(text))).toEqual(first);
    expect(JSON.stringify(scenario)).toBe(text);
    expect(first).toEqual(FEATURE_NAMES.filter((f) => first.includes(f)));
    expect(first).toEqual(['multiplayer', 'pregame', 'eras:m10', 'stops', 'persist']);
  });

  it('needs nothing it can see in what is not a scenario, and never throws', () => {
    for (const v of [null, 3, 'x', [], {}, { setup: null, steps: 'no' }, { setup: { players: 'AB' }, steps: [null, 4, { send: null }] }]) expect(scenarioFeatures(v)).toEqual([]);
  });

  it('missingFeatures: what an engine lacks to play a scenario', () => {
    expect(missingFeatures(['pregame', 'stops'], ['stops', 'checkpoint'])).toEqual(['pregame']);
    expect(missingFeatures([], [])).toEqual([]);
  });
});

describe('mtg-turn-engine/conformance: the shipped corpus', () => {
  it('lists every scenario file the package ships, each with the features scenarioFeatures gives it', async () => {
    const corpus = await conformanceCorpus();
    const files = await collectScenarioFiles([join(root, 'scenarios')]);
    expect(corpus.map((e) => e.file)).toEqual(files);
    for (const e of corpus) {
      expect(e.problem).toBeNull();
      expect(e.features).toEqual(scenarioFeatures(JSON.parse(readFileSync(e.file, 'utf8'))));
      expect(e.name).toBe((e.scenario as { name: string }).name);
    }
    const folders = new Set(corpus.map((e) => (e.path.includes('/') ? e.path.split('/')[0] : '.')));
    expect([...folders].sort()).toEqual(['.', 'generated', 'recorded', 'shared']);
  });

  it("tags each scenario with its source: the project's own, shared, generated from the chart, recorded; a file outside the package is 'given'", async () => {
    const corpus = await conformanceCorpus();
    for (const e of corpus) expect(e.source, e.path).toBe(e.path.includes('/') ? e.path.split('/')[0] : 'project');
    expect([...new Set(corpus.map((e) => e.source))].sort()).toEqual(['generated', 'project', 'recorded', 'shared']);
    const recorded = await conformanceCorpus({ source: ['recorded'] });
    expect(recorded.map((e) => e.path)).toEqual(corpus.filter((e) => e.path.startsWith('recorded/')).map((e) => e.path));
    const both = await conformanceCorpus({ source: ['recorded', 'shared'], features: [] });
    expect(both.length).toBeGreaterThan(0);
    expect(both.every((e) => (e.source === 'recorded' || e.source === 'shared') && e.features.length === 0)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
    writeFileSync(join(dir, 'mine.json'), JSON.stringify(two([{ expect: { turn: 1 } }])));
    const given = await loadScenarios([dir, join(root, 'scenarios/recorded')]);
    expect(given.map((e) => e.source)).toEqual(['given', ...recorded.map(() => 'recorded')]);
    expect(given[0]).toMatchObject({ path: join(dir, 'mine.json'), problem: null, features: [] });
  });

  it('tags only with the known features', async () => {
    const used = new Set((await conformanceCorpus()).flatMap((e) => e.features));
    expect([...used].filter((f) => !(f in FEATURES))).toEqual([]);
    expect(used.size).toBeGreaterThan(20);
  });

  it('with features, lists only the scenarios an engine with them can play', async () => {
    const all = await conformanceCorpus();
    const core = await conformanceCorpus({ features: [] });
    const some = await conformanceCorpus({ features: ['pregame', 'orderTriggers'] });
    expect(core.every((e) => e.features.length === 0)).toBe(true);
    expect(core.map((e) => e.path)).toEqual(all.filter((e) => e.features.length === 0).map((e) => e.path));
    expect(some.every((e) => e.features.every((f) => f === 'pregame' || f === 'orderTriggers'))).toBe(true);
    expect(some.length).toBeGreaterThan(core.length);
    expect(core.map((e) => e.path)).toContain('shared/01-two-player-first-turn-the-starting-player-skips-the-draw-ste.json');
  });

  it('exports the scenario JSON Schema as shipped in schema/scenario.schema.json', () => {
    expect(scenarioSchemaPath()).toBe(join(root, 'schema', 'scenario.schema.json'));
    expect(scenarioSchema()).toEqual(JSON.parse(readFileSync(join(root, 'schema/scenario.schema.json'), 'utf8')));
  });

  it.runIf(existsSync(join(root, '../shared/scenarios')))('ships the shared conformance suite as it is (scenarios/shared equals ../shared/scenarios)', () => {
    const shared = join(root, '../shared/scenarios');
    const names = readdirSync(shared).filter((f) => f.endsWith('.json')).sort();
    expect(readdirSync(join(root, 'scenarios/shared')).sort()).toEqual(names);
    for (const name of names) expect(readFileSync(join(root, 'scenarios/shared', name), 'utf8'), name).toBe(readFileSync(join(shared, name), 'utf8'));
  });
});

describe('the recorded set (scenarios/recorded/): games recorded with record: true, exported with recordingToScenario', () => {
  const folder = join(root, 'scenarios/recorded');
  const SELF = `"${process.execPath}" --import tsx scripts/cli.ts conformance serve-self`;
  // The features of the example engine in Python (examples/conformance-python/engine.py).
  const PYTHON = [
    ...['checkpoint', 'leaving', 'stackEvents', 'combatChanges', 'endTurn', 'pregame', 'orderTriggers', 'persist'],
    ...['multiplayer', 'eras:m10', 'eras:classic', 'effects', 'stops', 'extraPhases', 'skips', 'extraTurns'],
  ];

  it('is what the recorded games give now, byte for byte, and the same on every run (regenerate: npm run generate:recorded)', () => {
    const fresh = recordedCorpus();
    const shipped = readdirSync(folder).sort();
    expect(shipped, 'npm run generate:recorded').toEqual(fresh.map((f) => f.file).sort());
    for (const f of fresh) expect(readFileSync(join(folder, f.file), 'utf8'), `${f.file} is stale: npm run generate:recorded`).toBe(f.text);
    expect(recordedCorpus().map((f) => f.text)).toEqual(fresh.map((f) => f.text));
  });

  it('holds 30 to 60 games of every setup, a few hundred KB in all', async () => {
    const entries = await conformanceCorpus({ source: ['recorded'] });
    expect(entries.length).toBe(RECORDED_GAMES.length);
    expect(entries.length).toBeGreaterThanOrEqual(30);
    expect(entries.length).toBeLessThanOrEqual(60);
    const bytes = readdirSync(folder).reduce((n, f) => n + statSync(join(folder, f)).size, 0);
    expect(bytes).toBeLessThan(512 * 1024);
    const setups = entries.map((e) => (e.scenario as { setup: { players: string[]; variant?: string; rules?: string; pregame?: boolean; teams?: unknown } }).setup);
    expect(new Set(setups.map((x) => x.variant ?? 'freeForAll'))).toEqual(new Set(['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee']));
    expect(new Set(setups.map((x) => x.rules ?? 'current'))).toEqual(new Set(['current', 'm10', 'classic']));
    expect(setups.some((x) => x.players.length === 2 && x.variant === undefined)).toBe(true);
    expect(setups.some((x) => x.players.length > 2 && x.variant === undefined && x.teams === undefined)).toBe(true);
    expect(setups.some((x) => x.teams !== undefined && x.variant === undefined)).toBe(true);
    expect(setups.filter((x) => x.pregame === true).length).toBeGreaterThan(3);
  });

  it('is tagged with the features each game needs, and together they need every feature a game can play', async () => {
    const entries = await conformanceCorpus({ source: ['recorded'] });
    for (const e of entries) expect(e.features, e.path).toEqual(scenarioFeatures(e.scenario));
    const used = new Set(entries.flatMap((e) => e.features));
    // (No recorded game has an autoPass hook: test/contract/conformance-runner.test.ts plays one through the protocol.)
    const playable = FEATURE_NAMES.filter((f) => !['nextStop', 'persist', 'clock', 'undo', 'away', 'shortcuts', 'autoPassHook'].includes(f));
    expect(playable.filter((f) => !used.has(f))).toEqual([]);
    // Some need the core alone, and a small engine (the Python example's features) can play several.
    expect(entries.filter((e) => e.features.length === 0).length).toBeGreaterThanOrEqual(2);
    expect(entries.filter((e) => missingFeatures(e.features, PYTHON).length === 0).length).toBeGreaterThanOrEqual(8);
  });

  it("each file is recordingToScenario's export of its game, its expectations kept to the view fields of the features the game plays", () => {
    const spec = RECORDED_GAMES.find((g) => g.slug === '2p-core');
    const full = RECORDED_GAMES.find((g) => g.fullView === true);
    if (spec === undefined || full === undefined) return expect.fail('the corpus has a two-player core game and a game with every view field');
    const made = recordingToScenario(playRecordedGame(spec), { name: 'x' });
    const narrowed = narrowExpectations(made);
    expect(narrowed.steps.filter((x) => !('expect' in x))).toEqual(made.steps.filter((x) => !('expect' in x)));
    expect(recordedScenario(spec).steps).toEqual(narrowed.steps);
    expect(recordedScenario(spec).setup).toEqual(made.setup);
    // The fields left out are those of features the game does not play (stops, schedule, effects, ...), nothing else.
    const first = made.steps[0] as { expect: Record<string, unknown> };
    const kept = (narrowed.steps[0] as { expect: Record<string, unknown> }).expect;
    expect(Object.keys(first).length).toBeGreaterThan(0);
    // landsPlayedBy and landPlaysAllowedBy are not the contract's: this engine's team fields (issue 33).
    expect(Object.keys(first.expect).filter((k) => !(k in kept)).sort()).toEqual(['activeTeam', 'clocks', 'dayNight', 'effects', 'landPlaysAllowedBy', 'landsPlayedBy', 'schedule', 'seats', 'stops', 'teams', 'undo']);
    expect(scenarioFeatures(made)).toEqual(['teams', 'effects', 'dayNight', 'schedule', 'stops', 'clock', 'undo', 'away']);
    expect(scenarioFeatures(narrowed)).toEqual([]);
    // A game marked fullView keeps every field (held to what the contract fixes), and is tagged for it.
    const all = recordingToScenario(playRecordedGame(full), { name: 'x' });
    expect(recordedScenario(full).steps).toEqual(contractExpectations(all).steps);
    expect(scenarioFeatures(recordedScenario(full))).toEqual(expect.arrayContaining(['effects', 'schedule', 'stops', 'dayNight']));
  });

  it('asks only what the contract names for its features: TurnView fields, this engine\'s team fields only where tagged teams, the first players + 1 turns of schedule.turns (issue 33)', async () => {
    const contract = new Set(['version', 'turn', 'activePlayer', 'activeTeam', 'phase', 'step', 'priority', 'awaiting', 'decidedBy', 'stack', 'landsPlayed', 'landPlaysAllowed', 'spellsCast', 'manaPool', 'handSizes', 'maxHandSize', 'players', 'teams', 'dayNight', 'combat', 'effects', 'schedule', 'stops', 'gameOver', 'rules', 'seq', 'currentTurn', 'clocks', 'undo', 'seats']);
    const entries = await conformanceCorpus({ source: ['recorded'] });
    let schedules = 0;
    for (const e of entries) {
      const scenario = e.scenario as { setup: { players: string[] }; steps: { expect?: Record<string, unknown> }[] };
      let players = scenario.setup.players.length;
      for (const step of scenario.steps) {
        if (step.expect === undefined) continue;
        if (Array.isArray(step.expect.players)) players = step.expect.players.length;
        const views = [step.expect, ...((step.expect.turns as Record<string, unknown>[] | undefined) ?? [])];
        for (const view of views) {
          for (const field of Object.keys(view)) {
            if (field === 'landsPlayedBy' || field === 'landPlaysAllowedBy') expect(e.features, `${e.path}: ${field}`).toContain('teams');
            else if (field === 'turns') expect(e.features, e.path).toContain('grandMelee');
            else if (view !== step.expect && (field === 'turnMarker' || field === 'player')) continue;
            else expect(contract.has(field), `${e.path}: ${field} is not a TurnView field`).toBe(true);
          }
          const turns = (view.schedule as { turns?: unknown } | undefined)?.turns;
          if (turns === undefined) continue;
          schedules++;
          expect(Array.isArray(turns), `${e.path}: schedule.turns whole`).toBe(false);
          expect(Object.keys(turns as object)).toEqual(Array.from({ length: players + 1 }, (_, i) => String(i)));
        }
      }
    }
    expect(schedules).toBeGreaterThan(0);
    // recorded/01-2p-core, the outsider's first try, needs nothing and names only the core's fields.
    expect(entries.find((e) => e.path === 'recorded/01-2p-core.json')?.features).toEqual([]);
  });

  it('passes 100% through the protocol on serve-self (this engine)', async () => {
    const run = await runConformance({ engine: SELF, cwd: root, files: [folder], timeoutMs: 60_000 });
    expect(run.results.filter((r) => r.status !== 'passed').map((r) => `${r.path}: ${r.message ?? r.missing?.join(', ')}`)).toEqual([]);
    expect(run.passed).toBe(RECORDED_GAMES.length);
    expect(new Set(run.results.map((r) => r.source))).toEqual(new Set(['recorded']));
  });
});

describe('conformance list', () => {
  let out: string[];
  let err: string[];
  beforeEach(() => {
    out = [];
    err = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
  });
  afterEach(() => vi.restoreAllMocks());

  it('prints each scenario with its features, then the count; --features keeps those an engine with them can play', async () => {
    expect(await main(['conformance', 'list'])).toBe(0);
    const all = (await conformanceCorpus()).length;
    expect(out.at(-1)).toBe(`${all} scenarios`);
    expect(out).toContain('shared/09-classic-rules-mana-burns-when-a-phase-ends-not-when-a-step-e.json  [multiplayer, eras:classic]  classic rules: mana burns when a phase ends, not when a step ends');
    out = [];
    expect(await main(['conformance', 'list', '--features', 'checkpoint,leaving'])).toBe(0);
    const playable = (await conformanceCorpus({ features: ['checkpoint', 'leaving'] })).length;
    expect(out.at(-1)).toBe(`${playable} of ${all} scenarios need only the core and checkpoint, leaving`);
    expect(out.length).toBe(playable + 1);
    expect(out.slice(0, -1).every((l) => /\[((checkpoint|leaving)(, )?)*\]/.test(l))).toBe(true);
  });

  it('--json prints the list as JSON, each scenario with its source', async () => {
    expect(await main(['conformance', 'list', '--json', '--features', 'pregame'])).toBe(0);
    const listed = JSON.parse(out.join('\n')) as { path: string; source: string; features: string[] }[];
    expect(listed.length).toBe((await conformanceCorpus({ features: ['pregame'] })).length);
    expect(listed.some((e) => e.features.includes('pregame'))).toBe(true);
    out = [];
    expect(await main(['conformance', 'list', '--json'])).toBe(0);
    const every = JSON.parse(out.join('\n')) as { path: string; source: string; features: string[] }[];
    expect(every.find((e) => e.path === 'recorded/20-2p-pregame.json')).toMatchObject({ source: 'recorded', features: ['pregame', 'checkpoint'] });
    expect(every.map((e) => e.source)).toEqual((await conformanceCorpus()).map((e) => e.source));
    expect(new Set(every.map((e) => e.source))).toEqual(new Set(['project', 'shared', 'generated', 'recorded']));
  });

  it('--source keeps the scenarios from those sources (with --features, those an engine with them can play)', async () => {
    expect(await main(['conformance', 'list', '--source', 'recorded'])).toBe(0);
    const all = (await conformanceCorpus()).length;
    const recorded = await conformanceCorpus({ source: ['recorded'] });
    expect(out.at(-1)).toBe(`${recorded.length} of ${all} scenarios (from recorded)`);
    expect(out.slice(0, -1)).toHaveLength(recorded.length);
    expect(out.slice(0, -1).every((l) => l.startsWith('recorded/'))).toBe(true);
    out = [];
    expect(await main(['conformance', 'list', '--source', 'recorded,shared', '--features', ''])).toBe(0);
    const core = await conformanceCorpus({ source: ['recorded', 'shared'], features: [] });
    expect(out.at(-1)).toBe(`${core.length} of ${all} scenarios (from recorded, shared) need only the core`);
    expect(await main(['conformance', 'list', '--source', 'recorded,mine'])).toBe(2);
    expect(err.join('\n')).toContain("--source: unknown source 'mine'; the sources are project, shared, generated, recorded");
  });

  it('refuses an unknown feature, naming the known ones', async () => {
    expect(await main(['conformance', 'list', '--features', 'pregame,flying'])).toBe(2);
    expect(err.join('\n')).toMatch(/--features: unknown feature 'flying'; the features are multiplayer, teams/);
    expect(await main(['conformance', 'nonsense'])).toBe(2);
    expect(err.join('\n')).toContain("name list, run or serve-self; got 'nonsense'");
  });
});
