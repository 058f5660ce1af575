/**
 * The scenario format: a language-neutral JSON file that any engine can replay
 * (CONTRACT.md, "Scenarios"). The JSON Schema published for other languages is generated
 * from this zod schema with `z.toJSONSchema`.
 */
import { z } from 'zod';
import { ErrorCode } from '../errors.js';

const ViewPattern = z.record(z.string(), z.unknown()).describe('fields of the TurnView; objects match partially, arrays element by element');

export const InjectionSchema = z
  .object({
    when: ViewPattern,
    triggers: z.array(z.object({ id: z.string().min(1), controller: z.string().min(1) })).optional(),
    stateBasedActions: z.boolean().optional(),
    events: z.array(z.object({ type: z.string() }).catchall(z.unknown())).optional().describe('host events the checkpoint returns'),
  })
  .describe('fires once, at the first checkpoint whose view matches `when`; the checkpoint returns its triggers, stateBasedActions and events');

export const ScenarioSetupSchema = z.object({
  players: z.array(z.string()),
  startingPlayer: z.string().optional(),
  rules: z.enum(['current', 'm10', 'classic']).optional(),
  maxHandSize: z.number().optional(),
  handSize: z.number().optional(),
  attack: z.enum(['all', 'chooseOne', 'left', 'right']).optional(),
  orderTriggers: z.enum(['host', 'players']).optional(),
  pregame: z.boolean().optional(),
  seed: z.number().optional(),
  teams: z.array(z.object({ id: z.string(), players: z.array(z.string()) })).optional(),
  variant: z.enum(['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee']).optional(),
  rangeOfInfluence: z.number().optional(),
  inject: z.array(InjectionSchema).optional(),
});

export const SendStepSchema = z.strictObject({
  send: z.unknown().describe('the event; it must be accepted, or refused with `reject`'),
  reject: z.enum(Object.values(ErrorCode) as [string, ...string[]]).optional(),
});
export const ExpectStepSchema = z.strictObject({ expect: ViewPattern });
export const PassUntilStepSchema = z.strictObject({
  passUntil: ViewPattern,
  max: z.number().int().positive().optional().describe('most actions before failing (default 500)'),
});
export const ExpectEmittedStepSchema = z.strictObject({
  expectEmitted: z.array(z.object({ type: z.string() }).catchall(z.unknown())),
});

export const ScenarioStepSchema = z.union([SendStepSchema, ExpectStepSchema, PassUntilStepSchema, ExpectEmittedStepSchema]);

export const ScenarioSchema = z
  .object({
    name: z.string().min(1),
    rules: z.array(z.string()).optional().describe('the Comprehensive Rules numbers the scenario checks'),
    description: z.string().optional(),
    setup: ScenarioSetupSchema,
    steps: z.array(ScenarioStepSchema),
  })
  .describe('mtg-turn-engine conformance scenario');

/** A scenario file. */
export type Scenario = z.infer<typeof ScenarioSchema>;
/** One step of a scenario. */
export type ScenarioStep = z.infer<typeof ScenarioStepSchema>;

/** A failed step: its index in `steps` (-1 for the file or its setup) and what went wrong. */
export interface ScenarioFailure {
  stepIndex: number;
  message: string;
}

/** The result of `runScenario`. */
export interface ScenarioResult {
  ok: boolean;
  failures: ScenarioFailure[];
}

/** The JSON Schema of the scenario format, for engines in other languages. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://github.com/mtg-turn-engine/mtg-turn-engine/schema/scenario.schema.json',
    title: 'mtg-turn-engine scenario',
    ...z.toJSONSchema(ScenarioSchema, { target: 'draft-2020-12', unrepresentable: 'any' }),
  };
}
