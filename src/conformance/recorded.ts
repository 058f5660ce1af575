/**
 * The recorded corpus (scenarios/recorded/, issue 26): a fixed set of seeded games of every
 * setup, each played by the deterministic host of recordedHost.ts with `record: true` and
 * exported with `recordingToScenario`. Its expectations keep the view fields of the features
 * the game plays (its setup, what it sends and injects, the events it expects), so that each
 * file is tagged by `scenarioFeatures` with what the game exercises. `recordedCorpus()` is what
 * `scripts/generate-recorded-corpus.ts` writes (`npm run generate:recorded`); the same bytes
 * every time.
 */
import type { Scenario, ScenarioStep } from '../scenarios/schema.js';
import { recordingToScenario } from '../recording/scenario.js';
import { scenarioFeatures, viewFieldFeature, type Feature } from './features.js';
import { RECORDED_GAMES } from './recordedGames.js';
import { playRecordedGame, type RecordedGameSpec } from './recordedHost.js';

/** The folder of the recorded corpus, under the package's scenarios/. */
export const RECORDED_FOLDER = 'recorded';

/** One file of the recorded corpus. */
export interface RecordedFile {
  /** The file's name in scenarios/recorded/. */
  file: string;
  scenario: Scenario;
  /** The file's text, as written. */
  text: string;
}

/**
 * The expectations of `scenario` without the view fields of features it does not otherwise need
 * (its setup, its sends and injects, the events it expects emitted): a two-player game that
 * never sets stops is not tagged `stops` for matching `stops: { A: null, B: null }`.
 */
export function narrowExpectations(scenario: Scenario): Scenario {
  const played = new Set<Feature>(scenarioFeatures({ ...scenario, steps: scenario.steps.filter((s) => !('expect' in s)) }));
  const steps = scenario.steps.map((step): ScenarioStep => {
    if (!('expect' in step)) return step;
    const kept = Object.entries(step.expect).filter(([field]) => {
      const feature = viewFieldFeature(field);
      return feature === undefined || played.has(feature);
    });
    return { ...step, expect: Object.fromEntries(kept) };
  });
  return { ...scenario, steps };
}

/** The scenario of one game of the corpus. */
export function recordedScenario(spec: RecordedGameSpec): Scenario {
  const made = recordingToScenario(playRecordedGame(spec), { name: `recorded: ${spec.name}` });
  const hook = spec.hook === undefined || spec.hook.length === 0 ? 'no checkpoint hook' : `a checkpoint hook reporting ${spec.hook.join(' and ')}`;
  const scenario: Scenario = {
    ...made,
    description: `${made.description} Played by the deterministic host of the recorded corpus (npm run generate:recorded): ${spec.turns} turns, ${hook}, host events: ${(spec.host ?? ['triggers', 'mana']).join(', ')}.`,
  };
  return spec.fullView === true ? scenario : narrowExpectations(scenario);
}

/**
 * A scenario's text as the corpus writes it: the name, description and setup's fields one a
 * line, then each `inject` entry and each step on a line of its own (so that a difference shows
 * as the step it is in).
 */
export function recordedText(scenario: Scenario): string {
  const line = (v: unknown) => JSON.stringify(v);
  const list = (items: readonly unknown[], indent: string) => (items.length === 0 ? '[]' : `[\n${items.map((i) => `${indent}  ${line(i)}`).join(',\n')}\n${indent}]`);
  const setup = Object.entries(scenario.setup).map(([k, v]) => `    ${line(k)}: ${Array.isArray(v) && (k === 'inject' || k === 'autoPass') ? list(v, '    ') : line(v)}`);
  const head = Object.entries(scenario)
    .filter(([k]) => k !== 'setup' && k !== 'steps')
    .map(([k, v]) => `  ${line(k)}: ${line(v)}`);
  return `{\n${[...head, `  "setup": {\n${setup.join(',\n')}\n  }`, `  "steps": ${list(scenario.steps, '  ')}`].join(',\n')}\n}\n`;
}

/** Every file of the recorded corpus, in order: `<nn>-<slug>.json`. */
export function recordedCorpus(games: readonly RecordedGameSpec[] = RECORDED_GAMES): RecordedFile[] {
  return games.map((spec, i) => {
    const scenario = recordedScenario(spec);
    return { file: `${String(i + 1).padStart(2, '0')}-${spec.slug}.json`, scenario, text: recordedText(scenario) };
  });
}
