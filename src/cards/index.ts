/**
 * mtg-turn-engine/cards (CONTRACT v4, "Card games"): a card game is the engine plus the host's
 * cards, given once as a definition that runs the same way in-process, on the table server, in
 * tests and in replays. Named re-exports only.
 */
export { defineCards, createCardGame, restoreGame, replayGame } from './game.js';
export { botWorlds } from './bots.js';
export { MAX_STATE_BYTES } from './partData.js';
export type { CardWorlds } from './bots.js';
export type { PersistedCards } from './partData.js';
export type { CardRecording } from './recording.js';
export type { CardGame, CardGameOptions, CardReplayOptions, CardRestoreOptions, Cards, ReplayedCardGame } from './types.js';
export type { BotWorlds, PlanningBot, CardActionEvent, CardAnswer, CardContext, CardRandom, CardRefusal, CardsDefinition, DecidedEvent, HostEvent, Refusal } from '../contract.js';
export type { CheckpointResult, EmittedEvent, PlayerId, SeatOptions, TurnEvent, TurnView } from '../contract.js';
export type { SendResult } from '../game/types.js';
