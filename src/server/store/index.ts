/**
 * The stores of served games (CONTRACT v3, "Serving games"): one interface, three classes.
 * PGliteStore and PostgresStore load their database package (an optional peer dependency)
 * when first used, so importing this module needs neither.
 */
export type { GameInstant, GameStore, NewStoredGame, StoredGame, StoredSend, SendWrite, StoredSnapshot, WriteResult } from './types.js';
export { MemoryStore, KEEP_SNAPSHOT_EVERY } from './memory.js';
export { PGliteStore, type PGliteStoreOptions } from './pglite.js';
export { PostgresStore, type PostgresStoreOptions } from './postgres.js';
export { GameExistsError } from './checks.js';
export { MIGRATIONS, type Migration } from './schema.js';
