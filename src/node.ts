/**
 * `mtg-turn-engine/node`: the helpers that need Node (files and folders of scenarios).
 * Everything of the main entry is re-exported, so a Node host can import from here alone.
 */
export * from './index.js';
export { runScenarioFile, runScenarioFolder, collectScenarioFiles } from './scenarios/files.js';
export type { FolderResult } from './scenarios/files.js';
export type { RunOptions } from './scenarios/runner.js';
