/**
 * `mtg-turn-engine schema`: prints the JSON Schema of the scenario format (from the zod
 * schema, `z.toJSONSchema`), as shipped in schema/scenario.schema.json.
 */
import { scenarioJsonSchema } from '../scenarios/schema.js';
import type { Command } from './command.js';

/** The schema file's text: two-space JSON and a final newline. */
export function scenarioSchemaText(): string {
  return `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
}

export const schemaCommand: Command = {
  summary: 'print the JSON Schema of the scenario format',
  usage: 'schema',
  options: ['(none) the schema is written to standard output'],
  async run(args) {
    if (args.length > 0) throw new Error(`schema takes no arguments; got '${args.join(' ')}'`);
    process.stdout.write(scenarioSchemaText());
    return 0;
  },
};
