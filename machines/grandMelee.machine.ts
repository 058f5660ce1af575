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
 * Guards are named here and implemented in `markerSetup` as adapters over src/rules/grandMelee.ts.
 * No `invoke` or `after`: `xstate/graph` walks it as it walks the turn chart. No actions either:
 * the coordinator remembers its answers by state, event and what the guards say
 * (src/grandMelee/coordinator.ts markerStepper).
 */
import { setup } from 'xstate';
import type { PlayerId } from '../src/contract.js';
import { canMarkerBegin, type MarkerSeat } from '../src/rules/grandMelee.js';

/** Where every marker is, as the guards see it (sent with each event). */
export interface MarkerTable {
  /** The seating: every seat, and the players still in the game. */
  seats: PlayerId[];
  players: PlayerId[];
  markers: (MarkerSeat & { removals: number })[];
}

/** The events of a marker's statechart. */
export type MarkerEvent = { type: 'TURN_OVER'; table: MarkerTable } | { type: 'CHECK'; table: MarkerTable };

/** A marker's context: its number (CR 807.4b). */
export interface MarkerContext {
  number: number;
}

const removalsOf = (table: MarkerTable, number: number) => table.markers.find((m) => m.number === number)?.removals ?? 0;

export const markerSetup = setup({
  types: { context: {} as MarkerContext, events: {} as MarkerEvent, input: {} as { number: number } },
  guards: {
    // CR 807.4g: a marker designated for removal is removed rather than passed (at once when its player is not taking a turn).
    isDesignatedForRemoval: ({ context, event }) => removalsOf(event.table, context.number) > 0,
    // CR 807.4d: no turn marker in the three seats to the holder's left.
    canMarkerBegin: ({ context, event }) => canMarkerBegin(event.table, event.table.markers, context.number),
  },
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
