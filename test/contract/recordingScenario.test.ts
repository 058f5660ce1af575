/**
 * Recorded games as scenarios (CONTRACT v3, "Recordings" and "Scenarios"; issue 23):
 * `recordingToScenario` writes the sends, the hook's results as `setup.inject` (at the
 * checkpoint call they were given at, `call`, with the view's version and seq as `when`) and
 * expectations from the views, and the project's runner replays it. An inject entry with `call`
 * fires at that call alone, so two checkpoints that show the same view keep their own results.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createGame, recordingToScenario, restoreGame, runScenario, ScenarioSchema, type CheckpointResult, type EmittedEvent, type Scenario, type TurnView } from '../../src/index.js';
import { simulate } from '../../src/simulation.js';
import { scenarioFeatures } from '../../src/conformance.js';
import { allModules } from '../../src/allModules.js';

/**
 * A hook that reports two triggers as each upkeep begins, one checkpoint after the other (the
 * second checkpoint shows the same version, seq, turn, step and priority as the first),
 * state-based actions in the cleanups of even turns, and mana in draw steps.
 */
function hook(): (view: TurnView, pending: EmittedEvent[]) => CheckpointResult | undefined {
  let second: string | null = null;
  let cleanups = 0;
  return (view, pending) => {
    if (pending.some((e) => e.type === 'turnBegan')) cleanups = 0;
    if (second !== null && view.priority !== null) {
      const trigger = { triggers: [{ id: second, controller: view.priority }] };
      second = null;
      return trigger;
    }
    if (view.priority !== null && pending.some((e) => e.type === 'stepBegan' && e.step === 'upkeep')) {
      second = `up${view.turn}b`;
      return { triggers: [{ id: `up${view.turn}a`, controller: view.priority }] };
    }
    if (view.step === 'cleanup' && view.priority === null && view.turn % 2 === 0 && cleanups++ === 0) return { stateBasedActions: true };
    if (view.step === 'draw' && view.priority !== null && view.manaPool[view.priority] === 0) return { events: [{ type: 'ADD_MANA', player: view.priority, amount: 1 }] };
    return undefined;
  };
}

function recorded(turns = 6, players = 3) {
  // Players order their triggers (CR 603.3b): two triggers put on the stack together are ordered; one after the other, not.
  return simulate({ players, turns, seed: 21, game: { record: true, orderTriggers: 'players', hooks: { checkpoint: hook() } } }).game.recording();
}

describe('recordingToScenario(recording, options?) (CONTRACT v3, "Recordings")', () => {
  it('writes a scenario of the format that the project runner replays', () => {
    const rec = recorded();
    const scenario = recordingToScenario(rec);
    expect(ScenarioSchema.safeParse(scenario).success).toBe(true);
    expect(scenario.setup).toMatchObject({ ...rec.options });
    expect(scenario.setup.inject?.length).toBeGreaterThan(0);
    expect(scenario.setup.inject?.slice(0, 2)).toEqual([
      { when: { version: 0, seq: expect.any(Number), turn: 1, step: 'upkeep', priority: 'A' }, call: 1, triggers: [{ id: 'up1a', controller: 'A' }] },
      { when: scenario.setup.inject?.[0]?.when, call: 2, triggers: [{ id: 'up1b', controller: 'A' }] },
    ]);
    // Every send, in order, each followed by what changed in the view and what it emitted.
    expect(scenario.steps.filter((s) => 'send' in s).map((s) => (s as { send: unknown }).send)).toEqual(rec.inputs.slice(1).map((i) => i.event));
    expect(scenario.steps[0]).toEqual({ expect: JSON.parse(JSON.stringify(createGame({ use: allModules, ...(rec.options as { players: string[] }), orderTriggers: 'players', hooks: { checkpoint: hook() } }).view())) });
    expect(scenario.steps.some((s) => 'expectEmitted' in s)).toBe(true);
    expect(runScenario(scenario)).toEqual({ ok: true, failures: [] });
    expect(runScenario(JSON.parse(JSON.stringify(scenario)))).toEqual({ ok: true, failures: [] });
  });

  it('keeps apart two checkpoints that show the same view (inject `call`): without it they would fire together', () => {
    const rec = recorded();
    const scenario = recordingToScenario(rec);
    const inject = scenario.setup.inject ?? [];
    const twins = inject.filter((a, i) => inject.some((b, j) => j !== i && JSON.stringify(a.when) === JSON.stringify(b.when)));
    expect(twins.length).toBeGreaterThan(1);
    const withoutCall = { ...scenario, setup: { ...scenario.setup, inject: inject.map(({ call: _call, ...entry }) => entry) } };
    expect(runScenario(withoutCall).ok).toBe(false);
  });

  it('fails a scenario whose recorded results or expectations are not what the engine does', () => {
    const scenario = recordingToScenario(recorded());
    const inject = scenario.setup.inject ?? [];
    // A result of a later send given at the first checkpoint call (createGame's): its `when` does not match there.
    const last = inject[inject.length - 1];
    const moved = { ...scenario, setup: { ...scenario.setup, inject: inject.map((e) => (e === last ? { ...e, call: 1 } : e)) } };
    expect(runScenario(moved).failures).toEqual([{ stepIndex: 0, message: `inject at checkpoint call 1: the view does not match \`when\`: version: expected ${last?.when.version}, got 0` }]);
    // A view expected otherwise.
    const steps = scenario.steps.map((s, i) => (i === scenario.steps.length - 1 && 'expect' in s ? { expect: { ...s.expect, turn: 99 } } : s));
    expect(runScenario({ ...scenario, steps }).failures[0]?.message).toMatch(/^expect: turn: expected 99/);
  });

  it('takes options: until, the expectations wanted, no expectEmitted, a name', () => {
    const rec = recorded(3, 2);
    const full = recordingToScenario(rec, { expect: 'full', emitted: false, until: 20, name: 'twenty sends' });
    expect(full.name).toBe('twenty sends');
    expect(full.steps.filter((s) => 'send' in s)).toHaveLength(20);
    expect(full.steps.filter((s) => 'expect' in s)).toHaveLength(21);
    expect(full.steps.some((s) => 'expectEmitted' in s)).toBe(false);
    expect(runScenario(full).ok).toBe(true);
    const none = recordingToScenario(rec, { expect: 'none' });
    expect(none.steps.some((s) => 'expect' in s)).toBe(false);
    expect(runScenario(none).ok).toBe(true);
    expect(() => recordingToScenario(rec, { expect: 'some' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.expect') }));
  });

  it("expect: 'portable' keeps the view fields of the features the game plays, and only what the contract fixes of them: another engine with those features can pass it", () => {
    const game = createGame({ players: ['A', 'B'], seed: 4, record: true });
    for (let i = 0; i < 12; i++) game.send({ type: 'PASS_PRIORITY', player: game.view().priority as string });
    const rec = game.recording();
    const changes = recordingToScenario(rec);
    const portable = recordingToScenario(rec, { expect: 'portable' });
    // This engine's own fields (clocks, undo, seats, landsPlayedBy, ...) made the default need every feature they belong to.
    expect(scenarioFeatures(changes)).toEqual(expect.arrayContaining(['clock', 'undo', 'away', 'schedule', 'stops']));
    expect(scenarioFeatures(portable)).toEqual([]);
    const first = (portable.steps.find((s) => 'expect' in s) as { expect: Record<string, unknown> }).expect;
    for (const field of ['clocks', 'undo', 'seats', 'landsPlayedBy', 'landPlaysAllowedBy', 'schedule', 'stops']) expect(first, field).not.toHaveProperty(field);
    expect(first).toMatchObject({ turn: 1, activePlayer: 'A', players: ['A', 'B'] });
    expect(portable.steps.filter((s) => 'send' in s)).toEqual(changes.steps.filter((s) => 'send' in s));
    expect(runScenario(portable).ok).toBe(true);
  });

  it('Grand Melee: the turn markers a hook names on its triggers (CR 807.5b) stay in `inject`, which the published JSON Schema accepts', () => {
    const players = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
    let calls = 0;
    const game = createGame({ use: allModules, players, variant: 'grandMelee', seed: 5, record: true, hooks: { checkpoint: () => (++calls === 1 ? { triggers: [{ id: 'far', controller: 'E', turnMarker: 1 }] } : undefined) } });
    const scenario = recordingToScenario(game.recording());
    expect(scenario.setup.inject?.[0]?.triggers).toEqual([{ id: 'far', controller: 'E', turnMarker: 1 }]);
    const parsed = ScenarioSchema.safeParse(JSON.parse(JSON.stringify(scenario)));
    expect(parsed.success && parsed.data.setup.inject?.[0]?.triggers?.[0]?.turnMarker).toBe(1);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(resolve(import.meta.dirname, '../../schema/scenario.schema.json'), 'utf8')) as Record<string, unknown>);
    expect(validate(JSON.parse(JSON.stringify(scenario))), ajv.errorsText(validate.errors)).toBe(true);
    expect(runScenario(scenario)).toEqual({ ok: true, failures: [] });
  });

  it('refuses a recording that starts from a persisted game, and what is not a recording (INVALID_RECORDING)', () => {
    const game = restoreGame(createGame({ players: ['A', 'B'] }).persist(), { use: allModules, record: true });
    expect(() => recordingToScenario(game.recording())).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: expect.stringContaining('recording.from') }));
    expect(() => recordingToScenario({ format: 'x' })).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: expect.stringContaining('recording.format') }));
  });
});

describe('the scenario runner: inject `call` and setup.autoPass (the format extended compatibly)', () => {
  const base: Scenario = { name: 'calls', setup: { players: ['A', 'B'] }, steps: [{ passUntil: { turn: 2, step: 'upkeep' } }, { expect: { stack: [] } }] };

  it('fires an entry with `call` at that checkpoint call only (an entry without it at the first match)', () => {
    const at = (call: number | undefined) => ({ ...base, setup: { ...base.setup, inject: [{ when: { step: 'upkeep' }, ...(call === undefined ? {} : { call }), triggers: [{ id: 't', controller: 'A' }] }] } });
    // The first upkeep check is call 1: without `call` the trigger goes on the stack there (turn 1) and has resolved by turn 2.
    expect(runScenario(at(undefined)).ok).toBe(true);
    const late = runScenario({ ...at(2), steps: [{ expect: { stack: [] } }, { send: { type: 'PASS_PRIORITY', player: 'A' } }, { expect: { stack: [{ id: 't' }] } }] });
    expect(late).toEqual({ ok: true, failures: [] });
  });

  it('accepts setup.autoPass entries and refuses malformed ones', () => {
    expect(runScenario({ ...base, setup: { ...base.setup, autoPass: [{ when: { step: 'end' }, player: 'B' }] } }).ok).toBe(true);
    expect(runScenario({ ...base, setup: { ...base.setup, autoPass: [{ when: {}, player: '' }] } }).failures[0]?.stepIndex).toBe(-1);
    expect(runScenario({ ...base, setup: { ...base.setup, inject: [{ when: {}, call: 0 }] } }).failures[0]?.message).toMatch(/call/);
  });
});
