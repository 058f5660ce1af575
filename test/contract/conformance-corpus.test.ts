/**
 * The conformance kit's corpus (issue 26, CONTRACT "Conformance kit"): `scenarioFeatures`
 * derives the features a scenario needs from its setup and steps alone (a pure function);
 * `mtg-turn-engine/conformance` lists the shipped scenarios (the project's own, the shared
 * suite's, the generated ones) with their features and the scenario JSON Schema; the
 * command `conformance list [--features a,b]`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { conformanceCorpus, FEATURE_NAMES, FEATURES, missingFeatures, scenarioFeatures, scenarioSchema, scenarioSchemaPath } from '../../src/conformance.js';
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
    expect([...folders].sort()).toEqual(['.', 'generated', 'shared']);
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

  it('--json prints the list as JSON', async () => {
    expect(await main(['conformance', 'list', '--json', '--features', 'pregame'])).toBe(0);
    const listed = JSON.parse(out.join('\n')) as { path: string; features: string[] }[];
    expect(listed.length).toBe((await conformanceCorpus({ features: ['pregame'] })).length);
    expect(listed.some((e) => e.features.includes('pregame'))).toBe(true);
  });

  it('refuses an unknown feature, naming the known ones', async () => {
    expect(await main(['conformance', 'list', '--features', 'pregame,flying'])).toBe(2);
    expect(err.join('\n')).toMatch(/--features: unknown feature 'flying'; the features are multiplayer, teams/);
    expect(await main(['conformance', 'nonsense'])).toBe(2);
    expect(err.join('\n')).toContain("name list, run or serve-self; got 'nonsense'");
  });
});
