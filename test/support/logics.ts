/**
 * The reference turn logic for tests (issue 21): games on XState's own `transition`
 * (src/logic/xstate.ts), made by the same factories through their internal option.
 */
import { createGame, LOGIC, restoreGame } from '../../src/game/create.js';
import type { Game, GameOptions, RestoreOptions } from '../../src/game/types.js';
import { GameShell } from '../../src/game/shell.js';
import { singleLogic } from '../../src/logic/single.js';
import { xstateLogic } from '../../src/logic/xstate.js';
import type { CompiledState } from '../../src/compiled/runtime.js';
import type { TurnEvent } from '../../src/contract.js';
import { allModules } from '../../src/allModules.js';

/** A game on the compiled plan (every game but Grand Melee), with its state readable. */
export type CompiledGame = GameShell<CompiledState, TurnEvent>;

/** createGame on XState's own transition (same options, same errors, same game). */
export function createInterpreterGame(options: GameOptions): Game {
  return createGame({ use: allModules, ...options, [LOGIC]: xstateLogic } as GameOptions);
}

/** restoreGame on XState's own transition (same validation, same errors). */
export function restoreInterpreterGame(persisted: unknown, options: RestoreOptions = {}): Game {
  return restoreGame(persisted, { use: allModules, ...options, [LOGIC]: xstateLogic } as RestoreOptions);
}

/** createGame on the compiled plan, typed so that its state can be read. */
export function createCompiledGame(options: GameOptions): CompiledGame {
  return createGame({ use: allModules, ...options, [LOGIC]: singleLogic } as GameOptions) as CompiledGame;
}

/** restoreGame on the compiled plan, typed so that its state can be read. */
export function restoreCompiledGame(persisted: unknown, options: RestoreOptions = {}): CompiledGame {
  return restoreGame(persisted, { use: allModules, ...options, [LOGIC]: singleLogic } as RestoreOptions) as CompiledGame;
}

/** Whether a game runs on the compiled plan (not the reference, not Grand Melee's markers). */
export function isCompiled(game: Game): game is CompiledGame {
  return game instanceof GameShell && typeof (game.state as { value?: unknown }).value === 'string' && !('machine' in (game.state as object));
}
