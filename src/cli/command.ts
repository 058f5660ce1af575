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

// C0 and C1 controls (ESC starts a terminal's escape sequences, 0x9B is CSI) and the bidirectional overrides.
const UNPRINTABLE = /[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * Text from a file (a scenario's name, a path, a message quoting them) made safe to print:
 * control characters are written as escapes (`\x1b`, `\u202e`), so a file cannot move the
 * cursor, recolour or retitle the terminal, or reorder what is printed (issue 22).
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.codePointAt(0) as number;
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
