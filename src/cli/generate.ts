/**
 * `mtg-turn-engine generate --out <dir>`: writes the model's paths as scenario files
 * (deterministic: the same bytes on every run).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateScenarios, scenarioText } from '../model/export.js';
import { MODEL_CONFIGS, type ModelConfig } from '../model/model.js';
import type { Command } from './main.js';

/** The configurations selected by --players and --rules (all four by default). */
export function selectConfigs(players: string | undefined, rules: string | undefined): ModelConfig[] {
  if (players !== undefined && players !== '2' && players !== '3') throw new Error(`--players must be 2 or 3; got '${players}'`);
  if (rules !== undefined && rules !== 'current' && rules !== 'classic') throw new Error(`--rules must be current or classic; got '${rules}'`);
  return MODEL_CONFIGS.filter((c) => (players === undefined || String(c.players) === players) && (rules === undefined || c.rules === rules));
}

export const generateCommand: Command = {
  summary: 'write model-based test paths of the statechart as scenario files',
  usage: 'generate --out <dir> [--players 2|3] [--rules current|classic] [--paths shortest|simple] [--max N]',
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        out: { type: 'string' },
        players: { type: 'string' },
        rules: { type: 'string' },
        paths: { type: 'string', default: 'shortest' },
        max: { type: 'string' },
      },
    });
    if (values.out === undefined) throw new Error('--out <dir> is required');
    if (values.paths !== 'shortest' && values.paths !== 'simple') throw new Error(`--paths must be shortest or simple; got '${values.paths}'`);
    const max = values.max === undefined ? undefined : Number(values.max);
    if (max !== undefined && (!Number.isInteger(max) || max < 1)) throw new Error(`--max must be a whole number of at least 1; got '${values.max}'`);
    const configs = selectConfigs(values.players, values.rules);
    const scenarios = generateScenarios({ configs, paths: values.paths, ...(max === undefined ? {} : { max }) });
    await mkdir(values.out, { recursive: true });
    for (const { file, scenario } of scenarios) await writeFile(join(values.out, file), scenarioText(scenario));
    console.log(`wrote ${scenarios.length} scenario(s) to ${values.out}`);
    return 0;
  },
};
