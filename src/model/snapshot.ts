/**
 * The model's states (the turn machine's snapshots) and which events a state accepts: what the
 * model (model.ts) and its events (events.ts) both read.
 */
import type { SnapshotFrom } from 'xstate';
import type { turnMachine } from '../../machines/turn.machine.js';
import { violationOf } from '../events/index.js';
import type { MachineEvent } from '../state.js';
import { awaitingOf } from '../view.js';

/** The turn machine's snapshot type. */
export type TurnSnapshot = SnapshotFrom<typeof turnMachine>;

/**
 * Whether `game.send` would accept the event in this snapshot. The model builds well-formed
 * events naming players of the game, so of the gate (src/gate.ts) only the game being over and
 * the legality table can refuse them; generated scenarios replay through the whole gate.
 */
export function accepts(snapshot: TurnSnapshot, event: MachineEvent): boolean {
  // CR 807.4c-d: the coordinator's own event, where a Grand Melee turn is over.
  if (event.type === 'BEGIN_MARKER_TURN') return snapshot.status === 'active' && snapshot.value === 'turnMarkerPassed' && snapshot.context.result === null;
  return snapshot.status === 'active' && snapshot.context.result === null && violationOf(snapshot.context, awaitingOf(snapshot), event) === null;
}

