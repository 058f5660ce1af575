/**
 * `mtg-turn-engine <command> [options]`: the command table. Each command lives in its own
 * file and returns the process exit code.
 */
import { conformanceCommand } from './conformance.js';
import { coverageCommand } from './coverage.js';
import { generateCommand } from './generate.js';
import { scenariosCommand } from './scenarios.js';
import { schemaCommand } from './schema.js';
import { simulateCommand } from './simulate.js';
import { replayCommand } from './replay.js';
import { serveCommand } from './serve.js';
import { commandHelp, wantsHelp, type Command } from './command.js';

export const COMMANDS: Record<string, Command> = {
  simulate: simulateCommand,
  replay: replayCommand,
  scenarios: scenariosCommand,
  generate: generateCommand,
  coverage: coverageCommand,
  schema: schemaCommand,
  conformance: conformanceCommand,
  serve: serveCommand,
};

function help(): string {
  const lines = ['usage: mtg-turn-engine <command> [options]', '', 'commands:'];
  for (const [name, c] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(11)} ${c.summary}`, `              ${c.usage}`);
  lines.push('', "'mtg-turn-engine <command> --help' lists a command's options and their defaults.");
  return lines.join('\n');
}

/** Runs the command line; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(help());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    console.error(`unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    console.log(commandHelp(name, command));
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    console.error(`mtg-turn-engine ${name}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  }
}
