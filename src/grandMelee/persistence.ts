/**
 * Persisted Grand Melee games (CR 807.4): every turn marker with its statechart's state and
 * its turn, checked against each other (one game, several turns) before a game is restored.
 */
import type { Persisted, PersistedMarker } from '../persistence.js';
import { ErrorCode, TurnEngineError } from '../errors.js';
import type { RestoreOptions } from '../game.js';
import { turnPlan } from '../compiled/game.js';
import { markerCount } from '../rules/grandMelee.js';
import { SHARED_FIELDS, type Marker } from './coordinator.js';
import { GrandMeleeGame } from './game.js';

/** The first problem of a persisted Grand Melee game; `check` is the consistency check of one turn. */
export function meleeProblem(p: Persisted, check: (one: Persisted) => string | null): string | null {
  const markers = p.markers as PersistedMarker[];
  const first = markers[0];
  if (first === undefined) return 'markers: a Grand Melee game needs at least one turn marker';
  if (first.state !== p.state || JSON.stringify(first.context) !== JSON.stringify(p.context)) return "state, context: must be turn marker 1's (markers[0])";
  if (markers.length > markerCount(first.context.seats.length)) return `markers: more than one turn marker per full four players (CR 807.4a)`;
  const running = new Set<string>();
  for (const [i, m] of markers.entries()) {
    const at = `markers[${i}]`;
    if (m.context.variant !== 'grandMelee') return `${at}.context.variant: turn markers exist only in 'grandMelee' (CR 807.4)`;
    if (i > 0 && m.number <= (markers[i - 1] as PersistedMarker).number) return `${at}.number: turn markers are listed once each, in increasing number`;
    if (!Number.isSafeInteger(m.removals) || m.removals < 0 || m.removals > 64) return `${at}.removals: must be an integer from 0 to 64`;
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

/** Restores a validated Grand Melee game. */
export function restoreGrandMelee(p: Persisted, options: RestoreOptions): GrandMeleeGame {
  let shared: Partial<Record<(typeof SHARED_FIELDS)[number], unknown>> | null = null;
  const markers: Marker[] = (p.markers ?? []).map((m) => {
    const leaf = turnPlan.resolve(m.state);
    if (leaf === undefined) throw new TurnEngineError(ErrorCode.INVALID_SNAPSHOT, `markers: '${m.state}' is not a state of the turn machine`);
    const context = structuredClone(m.context);
    // The game's fields are one set of objects shared by every turn (checked equal above): the
    // coordinator tells the turn that changed them by identity, as in a game never persisted.
    if (shared === null) shared = Object.fromEntries(SHARED_FIELDS.map((k) => [k, context[k]]));
    else Object.assign(context, shared);
    return { number: m.number, life: m.life, removals: m.removals, turn: { value: leaf.path, context, status: p.status === 'done' || leaf.final ? 'done' : 'active' } };
  });
  return new GrandMeleeGame(markers, p.version, options);
}
