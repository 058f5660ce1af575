/** A command of the command line: its one-line summary, its usage, and how to run it. */
export interface Command {
  summary: string;
  usage: string;
  /** The options with their defaults, one per line (printed by `<command> --help`). */
  options: string[];
  run(args: string[]): Promise<number>;
}

/** Whether the arguments ask for a command's help. */
export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** A command's help text: usage, summary and options. */
export function commandHelp(name: string, command: Command): string {
  return [`usage: mtg-turn-engine ${command.usage}`, '', command.summary, '', 'options:', ...command.options.map((o) => `  ${o}`)].join('\n');
}
