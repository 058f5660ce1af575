/**
 * Every module of the engine (CONTRACT v4): what the table server, the command line, the
 * conformance kit, the scenario runner and the inspector pass, so that every game they make or
 * restore may use any feature. Not for a browser host that counts its bytes: it imports them all.
 */
import type { GameModule } from './game/module.js';
import { table } from './table/module.js';
import { grandMelee } from './grandMelee/module.js';

export { table, grandMelee };

/** The table and Grand Melee. */
export const allModules: readonly GameModule[] = [table, grandMelee];
