/**
 * `mtg-turn-engine generate --out <dir>`: writes the model's covering paths as scenario files
 * (deterministic: the same bytes on every run).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateScenarios, scenarioText } from '../model/export.js';
import { MODEL_CONFIGS, type ModelConfig } from '../model/model.js';
import type { Command } from './command.js';

/** The configurations named by --config (a comma-separated list; all by default). */
export function selectConfigs(names: string | undefined): ModelConfig[] {
  if (names === undefined) return [...MODEL_CONFIGS];
  const wanted = names.split(',').map((n) => n.trim());
  const unknown = wanted.filter((n) => !MODEL_CONFIGS.some((c) => c.name === n));
  if (unknown.length > 0) throw new Error(`--config: unknown configuration '${unknown.join("', '")}'; the configurations are ${MODEL_CONFIGS.map((c) => c.name).join(', ')}`);
  return MODEL_CONFIGS.filter((c) => wanted.includes(c.name));
}

export const generateCommand: Command = {
  summary: 'write model-based test paths of the statechart as scenario files',
  usage: 'generate --out <dir> [--config NAME[,NAME...]] [--max N]',
  options: [
    '--out <dir>        where to write the files (required)',
    `--config <names>   configurations, comma-separated (default: all: ${MODEL_CONFIGS.map((c) => c.name).join(', ')})`,
    '--max <n>          at most n scenarios per configuration (default: the whole covering set)',
  ],
  async run(args) {
    const { values } = parseArgs({ args, options: { out: { type: 'string' }, config: { type: 'string' }, max: { type: 'string' } } });
    if (values.out === undefined) throw new Error('--out <dir> is required');
    const max = values.max === undefined ? undefined : Number(values.max);
    if (max !== undefined && (!Number.isInteger(max) || max < 1)) throw new Error(`--max must be a whole number of at least 1; got '${values.max}'`);
    const scenarios = generateScenarios({ configs: selectConfigs(values.config), ...(max === undefined ? {} : { max }) });
    await mkdir(values.out, { recursive: true });
    for (const { file, scenario } of scenarios) await writeFile(join(values.out, file), scenarioText(scenario));
    console.log(`wrote ${scenarios.length} scenario(s) to ${values.out}`);
    return 0;
  },
};
