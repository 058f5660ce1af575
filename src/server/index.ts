/**
 * `mtg-turn-engine/server` (CONTRACT v3, "Serving games"): the table server and the stores it
 * keeps its games in. Colyseus (`@colyseus/core`, `@colyseus/ws-transport`) and the stores'
 * database packages are optional peer dependencies: install the ones you use (the stores load
 * theirs when first used). The main entry never imports this module.
 */
export { createTableServer, MAX_BODY_BYTES } from './tableServer.js';
export type { CreatedGame, HttpRoutes, TableServer, TableServerOptions } from './tableServer.js';
export { INSPECT_PATH, inspectionRoutes, storedRecording } from './inspection.js';
export type { GameSummary, InspectionOptions } from './inspection.js';
export type { Cards } from './cards.js';
export type { MessageLimits } from './limits.js';
export * from './store/index.js';
