/**
 * `mtg-turn-engine/server` (CONTRACT v3, "Serving games"): the table server and the stores it
 * keeps its games in. Colyseus (`@colyseus/core`, `@colyseus/ws-transport`) and the stores'
 * drivers are optional peer dependencies: install them to use this entry. The main entry never
 * imports it.
 */
export { createTableServer, MAX_BODY_BYTES } from './tableServer.js';
export type { CreatedGame, TableServer, TableServerOptions } from './tableServer.js';
export type { Cards } from './cards.js';
export type { MessageLimits } from './room.js';
export { MemoryStore } from './store/memory.js';
export { GameExistsError } from './store/checks.js';
export type { GameStore, NewStoredGame, SendWrite, StoredGame, StoredSend, StoredSnapshot, WriteResult } from './store/types.js';
