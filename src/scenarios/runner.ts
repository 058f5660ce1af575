/**
 * The scenario runner: replays a scenario file against a live game (CONTRACT.md, "Scenarios").
 * The steps' meaning is in play.ts; this is its driver for a local Game, synchronous.
 */
import { createGame, restoreGame } from '../game/create.js';
import { allModules } from '../allModules.js';
import { type Game, type GameOptions } from '../game/types.js';
import type { CheckpointResult, TurnView } from '../contract.js';
import { playScenario, type GameRequest, type ScenarioAutoPass, type ScenarioCheckpoint } from './play.js';
import type { ScenarioResult } from './schema.js';

export { DEFAULT_PASS_UNTIL_MAX, SCENARIO_LIMITS, plainestAnswer } from './play.js';

/** Options of {@link runScenario}. */
export interface RunOptions {
  /** Persist the game and restore it from JSON before this step index (tests that persistence keeps the future). */
  restoreBefore?: number;
}

/** Replays one scenario. Invalid files and setups, and files over `SCENARIO_LIMITS`, fail at step -1. */
export function runScenario(scenario: unknown, options: RunOptions = {}): ScenarioResult {
  const play = playScenario(scenario, options);
  let game: Game | null = null;
  let hooks: { checkpoint?: (view: TurnView) => CheckpointResult | undefined; autoPass?: ScenarioAutoPass } = {};
  const answer = (request: GameRequest): unknown => {
    if (request.op === 'create') {
      hooks = request.checkpoint === null ? {} : { checkpoint: request.checkpoint as ScenarioCheckpoint };
      // CONTRACT v3: hooks.autoPass, when the scenario gives its answers (setup.autoPass).
      if (request.autoPass !== undefined && request.autoPass !== null) hooks.autoPass = request.autoPass;
      try {
        game = createGame({ ...(request.options as unknown as GameOptions), hooks, use: allModules });
        return { error: null };
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    }
    const g = game as Game | null;
    if (g === null) throw new Error(`the scenario asked '${request.op}' before creating the game`);
    switch (request.op) {
      case 'send':
        return g.send(request.event);
      case 'view':
        return g.view();
      case 'persist':
        return g.persist();
      case 'restore':
        game = restoreGame(request.persisted, { hooks, use: allModules });
        return null;
      case 'nextStop':
        return g.nextStop(request.player);
    }
  };
  let next = play.next();
  while (next.done !== true) next = play.next(answer(next.value));
  return next.value;
}
