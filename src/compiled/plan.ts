/**
 * The charts' plans as the game runs them: the tables generated from the charts at build time
 * (plans.generated.ts), linked to the guard and action tables they name. No XState here.
 */
import { ACTION_EFFECTS, GUARDS } from '../../machines/turn.implementations.js';
import { MARKER_GUARDS } from '../../machines/grandMelee.guards.js';
import { linkPlan, type Plan } from './link.js';
import { MARKER_PLAN, TURN_PLAN } from './plans.generated.js';

const TURN_IMPLEMENTATIONS = { guards: GUARDS, actions: ACTION_EFFECTS };
const MARKER_IMPLEMENTATIONS = { guards: MARKER_GUARDS, actions: {} };

/** The turn chart (machines/turn.machine.ts), compiled. */
export const turnPlan: Plan = linkPlan(TURN_PLAN, TURN_IMPLEMENTATIONS);

/** The turn markers' chart (machines/grandMelee.machine.ts), compiled. */
export const markerPlan: Plan = /* @__PURE__ */ linkPlan(MARKER_PLAN, MARKER_IMPLEMENTATIONS);
