/**
 * A persisted game in the full form (format 2: every field written), for tests that read or
 * change a snapshot's fields one by one: `game.persist()` writes the compact form (format 3,
 * src/persistence/compact.ts), whose fields at their defaults are left out. Both forms restore.
 */
import type { Game } from '../../src/index.js';
import { expandPersisted } from '../../src/persistence/compact.js';
import { upgraded, type PersistedFull } from '../../src/persistence/format.js';

/** A persisted game (either form or an earlier one, after a JSON round trip) in the full form, as the validation reads it. */
export function fullForm(persisted: unknown): PersistedFull {
  const plain: unknown = JSON.parse(JSON.stringify(persisted));
  const full = expandPersisted(plain);
  return (full === plain ? upgraded(plain) : full) as PersistedFull;
}

/** The game's `persist()` in the full form, as it comes back from JSON. */
export function fullSnapshot(game: Game): PersistedFull {
  return fullForm(game.persist());
}
