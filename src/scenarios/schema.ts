/**
 * The scenario format: a language-neutral JSON file that any engine can replay
 * (CONTRACT.md, "Scenarios"). The JSON Schema published for other languages is generated
 * from this zod schema with `z.toJSONSchema`.
 */
import * as z from 'zod/mini';
import { ErrorCode } from '../errors.js';

// zod/mini keeps the main entry's browser bundle small; descriptions go into the JSON Schema.
const looseEvent = () => z.catchall(z.object({ type: z.string() }), z.unknown());
const ViewPattern = z.record(z.string(), z.unknown()).check(z.describe('fields of the TurnView; objects match partially, arrays element by element'));

export const InjectionSchema = z
  .object({
    when: ViewPattern,
    triggers: z.optional(
      z.array(
        z.object({
          id: z.string().check(z.minLength(1)),
          controller: z.string().check(z.minLength(1)),
          turnMarker: z.optional(z.int().check(z.gte(1))).check(z.describe('Grand Melee: the turn marker the trigger names (CR 807.5b), as the hook returned it')),
        }),
      ),
    ),
    stateBasedActions: z.optional(z.boolean()),
    events: z.optional(z.array(looseEvent())).check(z.describe('host events the checkpoint returns')),
    call: z
      .optional(z.int().check(z.gte(1)))
      .check(z.describe("fires only at this checkpoint call (1 for the game's first, createGame's own included), if the view there matches `when`; a view that does not match fails the scenario (recordingToScenario writes it: checkpoints with equal views stay apart)")),
  })
  .check(z.describe('fires once, at the first checkpoint whose view matches `when` (with `call`, at that call); the checkpoint returns its triggers, stateBasedActions and events'));

export const AutoPassSchema = z
  .object({
    when: ViewPattern,
    player: z.string().check(z.minLength(1)),
  })
  .check(z.describe("hooks.autoPass answers true for `player` whenever the view it is shown matches `when` (false otherwise)"));

export const ScenarioSetupSchema = z.object({
  players: z.array(z.string()),
  startingPlayer: z.optional(z.string()),
  rules: z.optional(z.enum(['current', 'm10', 'classic'])),
  maxHandSize: z.optional(z.number()),
  handSize: z.optional(z.number()),
  attack: z.optional(z.enum(['all', 'chooseOne', 'left', 'right'])),
  orderTriggers: z.optional(z.enum(['host', 'players'])),
  pregame: z.optional(z.boolean()),
  seed: z.optional(z.number()),
  teams: z.optional(z.array(z.object({ id: z.string(), players: z.array(z.string()) }))),
  variant: z.optional(z.enum(['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee'])),
  rangeOfInfluence: z.optional(z.number()),
  undo: z.optional(z.object({ mode: z.enum(['none', 'own', 'consent']), maxPerTurn: z.optional(z.nullable(z.number())), answerMs: z.optional(z.number()) })).check(z.describe('CONTRACT v3: undo with a policy (v4: maxPerTurn 3 by default, null for none; answerMs)')),
  // CONTRACT v3, "Playing between people": createGame checks them (INVALID_OPTIONS fails the setup).
  clock: z.optional(z.unknown()),
  away: z.optional(z.unknown()),
  inject: z.optional(z.array(InjectionSchema)).check(z.describe('with it (even empty), the game has a checkpoint hook, answering from these entries')),
  autoPass: z.optional(z.array(AutoPassSchema)).check(z.describe('with it, the game has hooks.autoPass (CONTRACT v3), answering from these entries')),
});

export const SendStepSchema = z.strictObject({
  send: z.unknown().check(z.describe('the event; it must be accepted, or refused with `reject`')),
  reject: z.optional(z.enum(Object.values(ErrorCode) as [string, ...string[]])),
});
export const ExpectStepSchema = z.strictObject({ expect: ViewPattern });
/** The most actions a `passUntil` may allow (CONTRACT.md, "Scenarios": at most 100,000). */
export const MAX_PASS_UNTIL = 100_000;

export const PassUntilStepSchema = z.strictObject({
  passUntil: ViewPattern,
  max: z.optional(z.int().check(z.gte(1), z.lte(MAX_PASS_UNTIL))).check(z.describe('most actions before failing (default 500, at most 100,000)')),
});
export const ExpectEmittedStepSchema = z.strictObject({
  expectEmitted: z.array(looseEvent()),
});

export const ExpectNextStopStepSchema = z.strictObject({
  expectNextStop: z.nullable(ViewPattern).check(z.describe("game.nextStop(player): fields of { turn, activePlayer, phase, step, awaiting }, matched as `expect` does, or null")),
  player: z.optional(z.string()).check(z.describe('whose next stop (default: anyone)')),
});
export const RestoreStepSchema = z.strictObject({
  restore: z.literal(true).check(z.describe('persist the game, send it through JSON and restore it; the steps after it play on the restored game')),
});

export const ScenarioStepSchema = z.union([SendStepSchema, ExpectStepSchema, PassUntilStepSchema, ExpectEmittedStepSchema, ExpectNextStopStepSchema, RestoreStepSchema]);

export const ScenarioSchema = z
  .object({
    name: z.string().check(z.minLength(1)),
    rules: z.optional(z.array(z.string())).check(z.describe('the Comprehensive Rules numbers the scenario checks')),
    description: z.optional(z.string()),
    setup: ScenarioSetupSchema,
    steps: z.array(ScenarioStepSchema),
  })
  .check(z.describe('mtg-turn-engine conformance scenario'));

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
