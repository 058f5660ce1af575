/**
 * `mtg-turn-engine/variants` (CONTRACT v4, "Package"): the variants that are modules a host
 * passes: `createGame({ players, variant: 'grandMelee', use: [grandMelee] })`,
 * `restoreGame(saved, { use: [grandMelee] })`. Browser-safe.
 */
export { grandMelee } from './grandMelee/module.js';
export type { VariantModule, GameModule } from './game/module.js';
