/**
 * Model-based testing: the statechart generates its own tests (xstate/graph).
 * - coverage: every state node and transition of the machine that a configuration can reach
 *   is covered (2 players in each of the three eras, 3 players with a defender to choose in
 *   Planechase, Two-Headed Giant), what it cannot reach says why, and together the
 *   configurations cover the whole chart;
 * - generated tests: every shortest path of the model (the leaves of its breadth-first
 *   tree, which take every edge of it) runs against a live createGame, the view after each
 *   event checked against the model's prediction, and the refused events at its end too;
 * - export: the shipped scenarios/generated/ is what `generate` writes now (not stale),
 *   and the same bytes on every run;
 * - schema: schema/scenario.schema.json is the zod schema's JSON Schema, and validates
 *   every shipped scenario through a JSON Schema validator (ajv), not through zod.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { createGame } from '../../src/game/create.js';
import { scenarioSchemaText } from '../../src/cli/schema.js';
import { serializeState } from '../../src/model/abstraction.js';
import { computeCoverage, leafPaths, skipsTaken, summarize, uncovered, wronglyUnreachable, type CoverageResult } from '../../src/model/coverage.js';
import { coveringScenarios, predict, refusedEvents, scenarioText } from '../../src/model/export.js';
import { MODEL_CONFIGS, configName, isMarkerConfig, unreachableWhy, type ModelConfig } from '../../src/model/model.js';
import { markerCoverage } from '../../src/model/markers.js';
import { initialState, step } from '../../src/compiled/runtime.js';
import { turnPlan } from '../../src/compiled/plan.js';
import { initialContext } from '../../machines/turn.effects.js';
import { toInput } from '../../src/game/create.js';
import { freshSendContext } from '../../src/gate.js';
import { collectScenarioFiles } from '../../src/scenarios/files.js';
import { viewOf } from '../../src/view.js';
import { actorOf } from '../../src/xstate.js';

const results = new Map<string, CoverageResult>();
function coverage(config: ModelConfig): CoverageResult {
  const name = configName(config);
  let r = results.get(name);
  if (r === undefined) results.set(name, (r = computeCoverage(config)));
  return r;
}

const GENERATED = 'scenarios/generated';

describe.each(MODEL_CONFIGS.map((c) => [configName(c), c] as const))('model of the turn, %s', (_name, config) => {
  it('covers every state node and every transition of the statechart it can reach', () => {
    const r = coverage(config);
    expect(uncovered(r)).toEqual([]);
    const s = summarize(r);
    expect(s.states.covered).toBe(s.states.total);
    expect(s.transitions.covered).toBe(s.transitions.total);
    // The whole model walked: 13-29 s alone on 2 cores, more while other work shares them.
  }, 120_000);

  it('reports the skips its paths took, each by its guard and rule (508.8 hasNoAttackers, 510.4 hasNoFirstStrike, 614.10 isSkippedByEffect, ...)', () => {
    const r = coverage(config);
    const skips = skipsTaken(r);
    const reachable = skips.filter((k) => unreachableWhy(config, k.id) === undefined);
    expect(reachable.filter((k) => k.path === null).map((k) => k.id)).toEqual([]);
    for (const k of skips.filter((x) => x.state.endsWith('.nextStep'))) expect(k.rule, k.id).toMatch(/^\d{3}\.\d+[a-z]?$/);
    const taken = summarize(r).skips;
    for (const skip of ['combat.nextStep: hasNoAttackers (508.8)', 'combat.nextStep: hasNoFirstStrike (510.4)', 'ending.nextStep: isSkippedByEffect (614.10)', 'beginning.nextStep: isOtherStepOfAddedPhase (500.10)']) {
      expect(taken, skip).toContain(skip);
    }
    const twoPlayers = config.options.players.length === 2 || config.options.variant === 'twoHeadedGiant';
    expect(taken.includes('beginning.nextStep: isFirstDrawSkipped (103.8a)'), 'CR 103.8a').toBe(twoPlayers);
  });

  it('cannot reach what it declares unreachable, and each declaration names its rule', () => {
    const r = coverage(config);
    expect(wronglyUnreachable(r)).toEqual([]);
    for (const [id, why] of Object.entries(config.unreachable)) expect(why, id).toMatch(/CR \d{3}|\d{3}\.\d/);
  });

  it('replays every shortest path on a live game, as the model predicts', () => {
    const r = coverage(config);
    const paths = leafPaths(r);
    expect(paths.length).toBeGreaterThan(0);
    if (isMarkerConfig(config)) {
      // CR 807.4c: a Grand Melee turn marker's run of the chart, replayed on the compiled runtime the game runs it on
      // (the coordinator's BEGIN_MARKER_TURN is no host event; the markers themselves are the next describe's).
      for (const path of paths) {
        let state = initialState(turnPlan, toInput(config.options), initialContext).state;
        path.events.forEach((event, i) => {
          state = step(turnPlan, { ...state, context: freshSendContext(state.context) }, event).state;
          expect(serializeState(state), `${JSON.stringify(event)} (event ${i + 1} of the path to ${path.keys[path.keys.length - 1]})`).toBe(path.keys[i]);
        });
      }
      return;
    }
    for (const path of paths) {
      const predicted = predict(config, path.events);
      const game = createGame(config.options);
      path.events.forEach((event, i) => {
        if (event.type === 'BEGIN_MARKER_TURN') return expect.fail(`the coordinator's own event in a path of ${configName(config)}, which has no turn markers`);
        const result = game.send(event);
        const where = `${JSON.stringify(event)} (event ${i + 1} of the path to ${path.keys[path.keys.length - 1]})`;
        if (!result.ok) expect.fail(`${where} was refused: ${result.error.message}`);
        const key = serializeState(actorOf(game).getSnapshot());
        if (key !== path.keys[i]) expect.fail(`${where}: the game is in model state ${key}, the model predicts ${path.keys[i]}`);
        const view = JSON.stringify(game.view());
        const predictedView = JSON.stringify(viewOf(predicted[i]!, game.view().version, game.view().seq));
        if (view !== predictedView) expect(JSON.parse(view), where).toEqual(JSON.parse(predictedView));
      });
      // What the model offers here but the rules refuse is refused, and changes nothing.
      const last = actorOf(game).getSnapshot();
      for (const { send, reject } of refusedEvents(last)) {
        const before = JSON.stringify(game.persist());
        const result = game.send(send);
        const code = result.ok ? 'accepted' : result.error.code;
        if (code !== reject) expect.fail(`${JSON.stringify(send)} at the end of the path to ${path.keys[path.keys.length - 1]}: ${code}, expected ${reject}`);
        if (JSON.stringify(game.persist()) !== before) expect.fail(`${JSON.stringify(send)} was refused but changed the game`);
      }
    }
  }, 120_000);

  it(`ships its covering scenarios in ${GENERATED}/ (regenerate with: npx mtg-turn-engine generate --out ${GENERATED})`, () => {
    const generated = coveringScenarios(coverage(config));
    const prefix = `${configName(config)}-`;
    const shipped = readdirSync(GENERATED).filter((f) => f.startsWith(prefix)).sort();
    expect(shipped).toEqual(generated.map((g) => g.file).sort());
    for (const g of generated) expect(readFileSync(join(GENERATED, g.file), 'utf8'), g.file).toBe(scenarioText(g.scenario));
  });
});

describe('the turn markers of Grand Melee (CR 807.4)', () => {
  it('cover every state node and every transition of the markers statechart, observed on live games', () => {
    const r = markerCoverage();
    expect(r.states.filter((s) => !s.covered).map((s) => s.id)).toEqual([]);
    expect(r.transitions.filter((t) => !t.covered).map((t) => t.id)).toEqual([]);
    expect(r.transitions.length).toBe(5);
  });
});

describe('the configurations together', () => {
  it('cover every state node and every transition of the chart', () => {
    const all = MODEL_CONFIGS.map(coverage);
    const first = all[0]!;
    const states = first.stateNodes.map((n) => n.id).filter((id) => all.every((r) => r.stateNodes.find((n) => n.id === id)?.path === null));
    const transitions = first.transitions.map((t) => t.id).filter((id) => all.every((r) => r.transitions.find((t) => t.id === id)?.path === null));
    expect([...states, ...transitions]).toEqual([]);
  });
});

describe('scenario export', () => {
  it('writes the same bytes on every run', () => {
    const config = MODEL_CONFIGS.find((c) => c.name === '2p-classic') as ModelConfig;
    // The first walk is the one the model's tests above made (cached); the second is made anew.
    const first = coveringScenarios(coverage(config)).map((g) => [g.file, scenarioText(g.scenario)]);
    const second = coveringScenarios(computeCoverage(config)).map((g) => [g.file, scenarioText(g.scenario)]);
    expect(second).toEqual(first);
  });
});

describe('scenario JSON Schema', () => {
  const schema = JSON.parse(readFileSync('schema/scenario.schema.json', 'utf8')) as Record<string, unknown>;

  it('is the JSON Schema of the zod scenario schema (npx mtg-turn-engine schema > schema/scenario.schema.json)', () => {
    expect(readFileSync('schema/scenario.schema.json', 'utf8')).toBe(scenarioSchemaText());
  });

  it('validates every shipped scenario with ajv, and rejects a malformed one', async () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    const files = await collectScenarioFiles(['scenarios']);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const ok = validate(JSON.parse(readFileSync(file, 'utf8')));
      expect(ok, `${file}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }
    expect(validate({ name: 'no setup', steps: [] })).toBe(false);
    expect(validate({ name: 'bad step', setup: { players: ['A', 'B'] }, steps: [{ wait: 1 }] })).toBe(false);
  });
});
