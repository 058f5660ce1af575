/**
 * Model-based testing (the statechart generates its own tests, xstate/graph), one configuration
 * at a time: each configuration's file (2p-current.test.ts, ...) calls `describeModel` with its
 * name, so the configurations run in parallel. For each:
 * - coverage: every state node and transition of the machine the configuration can reach is
 *   covered, and what it declares unreachable (each declaration naming its rule) it cannot reach;
 * - generated tests: every shortest path of the model (the leaves of its breadth-first tree,
 *   which take every edge of it) runs against a live createGame, the view after each event
 *   checked against the model's prediction, and the refused events at its end too;
 * - export: the shipped scenarios/generated/ is what `generate` writes now, byte for byte (written
 *   by another run, so this also shows the export writes the same bytes on every run).
 * What holds for the configurations together, the markers and the scenario schema: chart.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGame } from '../../../src/game/create.js';
import { serializeState } from '../../../src/model/abstraction.js';
import { computeCoverage, leafPaths, skipsTaken, summarize, uncovered, wronglyUnreachable, type CoverageResult } from '../../../src/model/coverage.js';
import { coveringScenarios, predict, refusedEvents, scenarioText } from '../../../src/model/export.js';
import { MODEL_CONFIGS, configName, isMarkerConfig, unreachableWhy } from '../../../src/model/model.js';
import { initialState, step } from '../../../src/compiled/runtime.js';
import { turnPlan } from '../../../src/compiled/plan.js';
import { initialContext } from '../../../machines/turn.effects.js';
import { toInput } from '../../../src/game/create.js';
import { freshSendContext } from '../../../src/gate.js';
import { viewOf } from '../../../src/view.js';
import { actorOf } from '../../../src/xstate.js';

const GENERATED = 'scenarios/generated';

/** The model-based tests of one configuration of MODEL_CONFIGS, by its name. */
export function describeModel(name: string): void {
  const config = MODEL_CONFIGS.find((c) => configName(c) === name);
  if (config === undefined) throw new Error(`no model configuration '${name}' (MODEL_CONFIGS: ${MODEL_CONFIGS.map(configName).join(', ')})`);
  // Walked once (by the first test that asks), then shared by the others.
  let walked: CoverageResult | undefined;
  const coverage = (): CoverageResult => (walked ??= computeCoverage(config));
  describe(`model of the turn, ${name}`, () => {
    it('covers every state node and every transition of the statechart it can reach', () => {
      const r = coverage();
      expect(uncovered(r)).toEqual([]);
      const s = summarize(r);
      expect(s.states.covered).toBe(s.states.total);
      expect(s.transitions.covered).toBe(s.transitions.total);
      // The whole model walked: 13-29 s alone on 2 cores, more while other work shares them.
    });

    it('reports the skips its paths took, each by its guard and rule (508.8 hasNoAttackers, 510.4 hasNoFirstStrike, 614.10 isSkippedByEffect, ...)', () => {
      const r = coverage();
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
      const r = coverage();
      expect(wronglyUnreachable(r)).toEqual([]);
      for (const [id, why] of Object.entries(config.unreachable)) expect(why, id).toMatch(/CR \d{3}|\d{3}\.\d/);
    });

    it('replays every shortest path on a live game, as the model predicts', () => {
      const r = coverage();
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
    });

    it(`ships its covering scenarios in ${GENERATED}/ (regenerate with: npx mtg-turn-engine generate --out ${GENERATED})`, () => {
      const generated = coveringScenarios(coverage());
      const prefix = `${configName(config)}-`;
      const shipped = readdirSync(GENERATED).filter((f) => f.startsWith(prefix)).sort();
      expect(shipped).toEqual(generated.map((g) => g.file).sort());
      for (const g of generated) expect(readFileSync(join(GENERATED, g.file), 'utf8'), g.file).toBe(scenarioText(g.scenario));
    });
  });
}
