/**
 * The guards of the turn markers' statechart (grandMelee.machine.ts), free of XState: adapters
 * over src/rules/grandMelee.ts that `setup()` and the compiled plan both use.
 */
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

type GuardArgs = { context: MarkerContext; event: MarkerEvent };

export const MARKER_GUARDS = {
  // CR 807.4g: a marker designated for removal is removed rather than passed (at once when its player is not taking a turn).
  isDesignatedForRemoval: ({ context, event }: GuardArgs) => removalsOf(event.table, context.number) > 0,
  // CR 807.4d: no turn marker in the three seats to the holder's left.
  canMarkerBegin: ({ context, event }: GuardArgs) => canMarkerBegin(event.table, event.table.markers, context.number),
};
