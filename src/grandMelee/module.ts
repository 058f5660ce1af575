/**
 * CONTRACT v4: Grand Melee as a module a host passes (`import { grandMelee } from
 * 'mtg-turn-engine/variants'`, then `use: [grandMelee]`): the turn logic of turn markers
 * (src/logic/grandMelee.ts) and the check of a snapshot's turn markers (src/persistence/melee.ts).
 */
import type { TurnLogic } from '../game/logic.js';
import type { VariantModule } from '../game/module.js';
import { grandMeleeLogic } from '../logic/grandMelee.js';
import { markersProblem } from '../persistence/melee.js';

/** Grand Melee (CR 807): pass it in `use` to play `variant: 'grandMelee'` or restore such a game. */
export const grandMelee: VariantModule = {
  module: 'grandMelee',
  logic: grandMeleeLogic as TurnLogic<unknown, unknown>,
  snapshotProblem: markersProblem,
};
