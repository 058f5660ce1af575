/**
 * `mtg-turn-engine scenarios <files or folders...>`: replays scenario files, one line per
 * scenario, then `N passed, M failed`; exits non-zero when any fails. A path that cannot be
 * run (missing, not a regular file, too large, not JSON, a folder that cannot be searched)
 * fails on its own line and the others still run (issue 22); names are printed with their
 * control characters escaped.
 */
import { parseArgs } from 'node:util';
import { findScenarioPaths, runScenarioPath } from '../scenarios/files.js';
import { printable, type Command } from './command.js';

export const scenariosCommand: Command = {
  summary: 'replay scenario files (JSON) and report each',
  usage: 'scenarios <files or folders...> [--quiet]',
  options: ['<files or folders>  scenario files (*.json), folders searched recursively', '--quiet             print only failures and the closing count (default: one line per scenario)'],
  async run(args) {
    const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { quiet: { type: 'boolean', default: false } } });
    if (positionals.length === 0) throw new Error('name at least one scenario file or folder');
    let passed = 0;
    let failed = 0;
    for (const found of await findScenarioPaths(positionals)) {
      const result = await runScenarioPath(found);
      const where = `${printable(result.name)}  (${printable(result.file)})`;
      if (result.ok) {
        passed++;
        if (!values.quiet) console.log(`ok    ${where}`);
      } else {
        failed++;
        const f = result.failures[0];
        console.log(`FAIL  ${where}  step ${f?.stepIndex}: ${printable(f?.message ?? '')}`);
      }
    }
    console.log(`${passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  },
};
