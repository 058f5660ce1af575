/**
 * `mtg-turn-engine/sim` (issue 34, CONTRACT v4 "Simulation"; docs/simulation.md): playouts,
 * state hashes and simulations over worker threads. `game.fork({ seed })` (the Game itself)
 * gives a fork a new random stream. Node only (`simulate` uses worker threads).
 */
export { playout, matchesPartial, type BotRandom, type CardBot, type CardBotSource, type Policy, type PolicyContext, type PlayoutOptions, type PlayoutResult, type PlayoutStop, type Until } from './playout.js';
export { stateHash } from './hash.js';
export { createSimulator, simulate, type SimulateOptions, type SimulationProgress, type SimulationResults, type Simulator, type SimulatorOptions } from './simulate.js';
export { gameSeed, type GameSetup, type ModuleRef, type SetupFunction, type SimulatedGame } from './task.js';
export type { ForkOptions, Game } from '../game/types.js';
export type { LegalAction } from '../legal.js';
