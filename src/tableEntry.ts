/**
 * `mtg-turn-engine/table` (CONTRACT v4, "Package"): the table's features as a module a host
 * passes: `createGame({ ..., use: [table] })`, `restoreGame(saved, { use: [table] })`.
 * Undo, tournament shortcuts (CR 732), chess clocks and seats that drop (CONTRACT v3, "Playing
 * between people"). Browser-safe.
 */
export { table } from './table/module.js';
export type { TableModule, GameModule } from './game/module.js';
export type { TimeState } from './table/time.js';
export type { ClockState, RunningClock } from './table/clocks.js';
export type { SeatRecord, Seats } from './table/away.js';
