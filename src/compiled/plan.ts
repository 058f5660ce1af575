/**
 * The charts' plans as the game runs them: the tables generated from the charts at build time
 * (plans.generated.ts), linked to the guard and action tables they name. No XState here.
 */
import { ACTION_EFFECTS, GUARDS } from '../../machines/turn.implementations.js';
import { MARKER_GUARDS } from '../../machines/grandMelee.guards.js';
import { linkPlan, unpackPlan, type Plan } from './link.js';
import { MARKER_PLAN, TURN_PLAN } from './plans.generated.js';

/** The turn chart (machines/turn.machine.ts), compiled. */
export const turnPlan: Plan = linkPlan(unpackPlan(TURN_PLAN), { guards: GUARDS, actions: ACTION_EFFECTS });

/** The turn markers' chart (machines/grandMelee.machine.ts), compiled. */
export const markerPlan: Plan = linkPlan(unpackPlan(MARKER_PLAN), { guards: MARKER_GUARDS, actions: {} });
