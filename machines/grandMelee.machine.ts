/**
 * Grand Melee's turn markers (CR 807.4): the coordinator's statechart, one actor per turn
 * marker. Each marker's turns are runs of the turn chart (turn.machine.ts), which stays the
 * only description of a turn: this chart says when a marker takes a turn, waits or is removed.
 *
 *   takingTurn   the marker's turn runs in its own run of the turn chart     (807.4b, 807.5)
 *   passing      the turn is over: the marker passes left, or is removed     (807.4c, 807.4g)
 *   waiting      a marker is within three seats to the holder's left         (807.4d)
 *   removed      designated for removal when players left                    (807.4e-g)
 *
 * Guards are named here and implemented in grandMelee.guards.ts as adapters over src/rules/grandMelee.ts.
 * No `invoke` or `after`: `xstate/graph` walks it as it walks the turn chart.
 */
import { setup } from 'xstate';
import { MARKER_GUARDS, type MarkerContext, type MarkerEvent } from './grandMelee.guards.js';

export type { MarkerContext, MarkerEvent, MarkerTable } from './grandMelee.guards.js';

export const markerSetup = setup({
  types: { context: {} as MarkerContext, events: {} as MarkerEvent, input: {} as { number: number } },
  guards: MARKER_GUARDS,
});

/** The statechart of one turn marker (CR 807.4). */
export const markerMachine = markerSetup.createMachine({
  id: 'turnMarker',
  context: ({ input }) => ({ number: input.number }),
  // CR 807.4b: all players with turn markers start their turns at the same time.
  initial: 'takingTurn',
  states: {
    takingTurn: { on: { TURN_OVER: 'passing' } },
    // CR 807.4c: after the turn the marker passes to the player on the left (the turn chart's turn order).
    passing: { always: [{ guard: 'isDesignatedForRemoval', target: 'removed' }, { target: 'waiting' }] },
    waiting: {
      on: {
        CHECK: [
          { guard: 'isDesignatedForRemoval', target: 'removed' },
          { guard: 'canMarkerBegin', target: 'takingTurn' },
        ],
      },
    },
    removed: { type: 'final' },
  },
});

/** The states of a turn marker. */
export type MarkerState = 'takingTurn' | 'passing' | 'waiting' | 'removed';
