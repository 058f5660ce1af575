/**
 * `mtg-turn-engine scenarios <files or folders...>`: replays scenario files, one line per
 * scenario, then `N passed, M failed`; exits non-zero when any fails.
 */
import { parseArgs } from 'node:util';
import { collectScenarioFiles, runScenarioFile } from '../scenarios/files.js';
import type { Command } from './command.js';

export const scenariosCommand: Command = {
  summary: 'replay scenario files (JSON) and report each',
  usage: 'scenarios <files or folders...> [--quiet]',
  options: ['<files or folders>  scenario files (*.json), folders searched recursively', '--quiet             print only failures and the closing count (default: one line per scenario)'],
  async run(args) {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { quiet: { type: 'boolean', default: false } } });
    if (positionals.length === 0) throw new Error('name at least one scenario file or folder');
    const files = await collectScenarioFiles(positionals);
    let passed = 0;
    let failed = 0;
    for (const file of files) {
      const result = await runScenarioFile(file);
      if (result.ok) {
        passed++;
        if (!values.quiet) console.log(`ok    ${result.name}  (${file})`);
      } else {
        failed++;
        const f = result.failures[0];
        console.log(`FAIL  ${result.name}  (${file})  step ${f?.stepIndex}: ${f?.message}`);
      }
    }
    console.log(`${passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  },
};
