/**
 * A served card game back from its store (CONTRACT v4, "Served card games"; v3 "Serving games"):
 * the cards' `restoreGame` from the latest kept snapshot (S and the random position are in it),
 * then every stored send after it sent again. The definition runs again and draws the same
 * numbers from the same position, so the game, S, its `seq` and the events are the original's.
 */
import type { EmittedEvent } from '../contract.js';
import type { Game } from '../game/types.js';
import type { ServedCards } from './cardGames.js';
import { CorruptGameError, keptSnapshot, type Replayed } from './reload.js';
import type { GameStore, StoredGame, StoredSend, StoredSnapshot } from './store/types.js';

/** Restores `snapshot` and sends `sends` again. Throws {@link CorruptGameError} when the snapshot does not restore or a send is refused. */
export function replayCardSends(gameId: string, snapshot: StoredSnapshot, sends: readonly StoredSend[], cards: ServedCards): Replayed {
  let game: Game;
  try {
    game = cards.restore(snapshot.snapshot);
  } catch (err) {
    throw new CorruptGameError(gameId, `the snapshot of version ${snapshot.version} does not restore (${err instanceof Error ? err.message : String(err)})`);
  }
  const events: EmittedEvent[] = [];
  let lastAt: number | null = null;
  for (const send of sends) {
    const result = game.send(send.event as never);
    if (!result.ok) throw new CorruptGameError(gameId, `the stored send of version ${send.version} does not replay (${result.error.code}: ${result.error.message})`);
    for (const e of result.events) events.push(e);
    if (send.at !== null) lastAt = send.at;
  }
  return { game, events, lastAt };
}

/** A stored card game as it is now, checked to reach the stored version and seq. Throws {@link CorruptGameError} otherwise. */
export async function rebuildCardGame(store: GameStore, stored: StoredGame, cards: ServedCards): Promise<Replayed> {
  // One row: every kept snapshot of a long card game is a long read (each holds the cards' history).
  const base = await keptSnapshot(store, stored.gameId, { version: stored.version, seq: stored.seq });
  if (base === undefined) throw new CorruptGameError(stored.gameId, `no kept snapshot at or before version ${stored.version}`);
  const sends = (await store.sends(stored.gameId, base.version)).filter((s) => s.version <= stored.version);
  const replayed = replayCardSends(stored.gameId, base, sends, cards);
  const view = replayed.game.getSnapshot();
  if (view.version !== stored.version || view.seq !== stored.seq) {
    throw new CorruptGameError(stored.gameId, `the stored sends reach version ${view.version} and seq ${view.seq}; the store says version ${stored.version} and seq ${stored.seq}`);
  }
  return replayed;
}
