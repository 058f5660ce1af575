/**
 * Model-based testing, what holds beyond one configuration (each configuration's own tests:
 * modelSuite.ts):
 * - the configurations together cover every state node and transition of the chart: each
 *   configuration's tests show it covers exactly what it does not declare unreachable, so the
 *   chart is covered when no element is declared unreachable by every configuration;
 * - the turn markers of Grand Melee (CR 807.4) are covered, observed on live games;
 * - schema: schema/scenario.schema.json is the zod schema's JSON Schema, and validates every
 *   shipped scenario through a JSON Schema validator (ajv), not through zod.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { scenarioSchemaText } from '../../../src/cli/schema.js';
import { machineElements } from '../../../src/model/coverage.js';
import { MODEL_CONFIGS, unreachableWhy } from '../../../src/model/model.js';
import { markerCoverage } from '../../../src/model/markers.js';
import { collectScenarioFiles } from '../../../src/scenarios/files.js';

describe('the turn markers of Grand Melee (CR 807.4)', () => {
  it('cover every state node and every transition of the markers statechart, observed on live games', () => {
    const r = markerCoverage();
    expect(r.states.filter((s) => !s.covered).map((s) => s.id)).toEqual([]);
    expect(r.transitions.filter((t) => !t.covered).map((t) => t.id)).toEqual([]);
    expect(r.transitions.length).toBe(5);
  });
});

describe('the configurations together', () => {
  it('cover every state node and every transition of the chart: none is declared unreachable by all of them', () => {
    const elements = machineElements();
    const ids = [...elements.stateNodes.map((id) => `#${id}`), ...elements.transitions.map((t) => t.id)];
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((id) => MODEL_CONFIGS.every((config) => unreachableWhy(config, id) !== undefined))).toEqual([]);
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
