/**
 * The recorded corpus (scenarios/recorded/, issue 26): a fixed set of seeded games of every
 * setup, each played by the deterministic host of recordedHost.ts with `record: true` and
 * exported with `recordingToScenario`. Its expectations keep the view fields of the features
 * the game plays (its setup, what it sends and injects, the events it expects), so that each
 * file is tagged by `scenarioFeatures` with what the game exercises, and only what the contract
 * fixes for them (fields it does not name, lengths it leaves open). `recordedCorpus()` is what
 * `scripts/generate-recorded-corpus.ts` writes (`npm run generate:recorded`); the same bytes
 * every time.
 */
import type { Scenario } from '../scenarios/schema.js';
import { recordingToScenario } from '../recording/scenario.js';
import { contractExpectations, narrowExpectations } from '../recording/portable.js';
import { RECORDED_GAMES } from './recordedGames.js';
import { playRecordedGame, type RecordedGameSpec } from './recordedHost.js';

export { contractExpectations, narrowExpectations };

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

/** The scenario of one game of the corpus. */
export function recordedScenario(spec: RecordedGameSpec): Scenario {
  const made = recordingToScenario(playRecordedGame(spec), { name: `recorded: ${spec.name}` });
  const hook = spec.hook === undefined || spec.hook.length === 0 ? 'no checkpoint hook' : `a checkpoint hook reporting ${spec.hook.join(' and ')}`;
  const scenario: Scenario = {
    ...made,
    description: `${made.description} Played by the deterministic host of the recorded corpus (npm run generate:recorded): ${spec.turns} turns, ${hook}, host events: ${(spec.host ?? ['triggers', 'mana']).join(', ')}.`,
  };
  return contractExpectations(spec.fullView === true ? scenario : narrowExpectations(scenario));
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
