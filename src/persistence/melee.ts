/**
 * Grand Melee's part of a snapshot's validation (CR 807): the turn markers against each other and
 * the game. Called by the Grand Melee module (src/grandMelee/module.ts: issue 33, a host without
 * it does not bundle this); without the module restoreGame refuses a snapshot with turn markers,
 * naming the import, so every snapshot that would break an invariant is refused either way.
 */
import type { PersistedFull, PersistedFullMarker } from './format.js';
import { markerCount } from '../rules/grandMelee.js';
import { SHARED_FIELDS } from '../grandMelee/coordinator.js';
import { GRAND_MELEE_TURN, invariantProblem, MARKER_INVARIANTS, type SnapshotInvariant } from './invariants.js';

/** The first problem of a snapshot with turn markers: the markers' invariants (invariants.ts), then {@link meleeProblem}. */
export function markersProblem(p: PersistedFull, check: (one: PersistedFull, extra?: readonly SnapshotInvariant[]) => string | null): string | null {
  return invariantProblem(p, MARKER_INVARIANTS) ?? meleeProblem(p, (one) => check(one, [GRAND_MELEE_TURN]));
}

/** The first problem of a persisted Grand Melee game; `check` is the consistency check of one turn. */
export function meleeProblem(p: PersistedFull, check: (one: PersistedFull) => string | null): string | null {
  const markers = p.markers as PersistedFullMarker[];
  const first = markers[0];
  if (first === undefined) return 'markers: a Grand Melee game needs at least one turn marker';
  if (first.state !== p.state || JSON.stringify(first.context) !== JSON.stringify(p.context)) return "state, context: must be turn marker 1's (markers[0])";
  if (markers.length > markerCount(first.context.seats.length)) return `markers: more than one turn marker per full four players (CR 807.4a)`;
  const running = new Set<string>();
  for (const [i, m] of markers.entries()) {
    const at = `markers[${i}]`;
    // Each marker's variant is 'grandMelee' (the game's invariants grandMeleeHasTurnMarkers and
    // settingsAgreeAcrossMarkers, and marker 1's context is the game's) and its removals from 0 to 64 (the schema).
    if (i > 0 && m.number <= (markers[i - 1] as PersistedFullMarker).number) return `${at}.number: turn markers are listed once each, in increasing number`;
    if (JSON.stringify(m.context.seats) !== JSON.stringify(first.context.seats)) return `${at}.context.seats: differs from turn marker ${first.number}'s`;
    for (const field of SHARED_FIELDS) {
      if (JSON.stringify(m.context[field]) !== JSON.stringify(first.context[field])) return `${at}.context.${field}: differs from turn marker ${first.number}'s (the game's fields are shared by every turn, CR 807.5)`;
    }
    if ((m.life === 'waiting') !== (m.state === 'turnMarkerPassed') && p.status === 'active') return `${at}.life: a waiting turn marker's turn is over (state turnMarkerPassed), and only then (CR 807.4c-d)`;
    const problem = check({ ...p, state: m.state, context: m.context });
    if (problem !== null) return `${at}: ${problem}`;
    if (m.life === 'takingTurn') {
      if (running.has(m.context.turnOwner)) return `${at}.context.turnOwner: ${m.context.turnOwner} takes two turns at once`;
      running.add(m.context.turnOwner);
    }
  }
  if (p.status === 'active' && running.size === 0) return 'markers: no turn marker is taking a turn';
  return null;
}

