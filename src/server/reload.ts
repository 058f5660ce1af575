/**
 * A served game back from its store (CONTRACT v3, "Serving games"): `restoreGame` from the
 * latest kept snapshot, then every stored send after it applied again with the recorded answers
 * of the hooks standing in for them (src/recording: the tape and its recorded answers, as
 * `replayGame` does), so the game, its `seq` and the events it emitted are the original's. The
 * events come back too: a client that rejoins receives those it missed.
 */
import type { EmittedEvent } from '../contract.js';
import { restoreGame } from '../game/create.js';
import { allModules } from '../allModules.js';
import type { Game, RestoreOptions } from '../game/types.js';
import { RecordedAnswers } from '../recording/replay.js';
import { newTape, TAPE } from '../recording/tape.js';
import type { GameStore, StoredGame, StoredSend, StoredSnapshot } from './store/types.js';

/** A stored game that does not replay (a store written by another engine, or damaged): the message says where. */
export class CorruptGameError extends Error {
  constructor(gameId: string, message: string) {
    super(`game '${gameId}': ${message}`);
    this.name = 'CorruptGameError';
  }
}

/** A game replayed from a snapshot. */
export interface Replayed {
  game: Game;
  /** The events the sends emitted, in order (`seq` after the snapshot's). */
  events: EmittedEvent[];
  /** The latest `at` of the sends, or null. */
  lastAt: number | null;
}

/**
 * Restores `snapshot` and applies `sends` again, the recorded answers standing in for the hooks
 * (`had`: which hooks the game had); the game then plays on with `options` (its own hooks, which
 * a replay does not call when they are the cards' with `live.on` false). Throws
 * {@link CorruptGameError} when a send is refused or the answers do not fit.
 */
export function replaySends(gameId: string, snapshot: StoredSnapshot, sends: readonly StoredSend[], had: { checkpoint: boolean; autoPass: boolean }, options: RestoreOptions = {}): Replayed {
  const source = new RecordedAnswers(had);
  const tape = newTape(source);
  const withTape = { ...options, use: allModules, [TAPE]: tape };
  let game: Game;
  try {
    game = restoreGame(snapshot.snapshot, withTape);
  } catch (err) {
    throw new CorruptGameError(gameId, `the snapshot of version ${snapshot.version} does not restore (${err instanceof Error ? err.message : String(err)})`);
  }
  const events: EmittedEvent[] = [];
  let lastAt: number | null = null;
  for (const [i, send] of sends.entries()) {
    try {
      source.begin(i + 1, { results: send.results });
      const result = game.send(send.event as unknown);
      if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
      source.end();
      for (const e of result.events) events.push(e);
    } catch (err) {
      throw new CorruptGameError(gameId, `the stored send of version ${send.version} does not replay (${err instanceof Error ? err.message : String(err)})`);
    }
    if (send.at !== null) lastAt = send.at;
  }
  // The replay is over: the game plays on live.
  tape.source = null;
  return { game, events, lastAt };
}

/** The latest kept snapshot at or before `version` (by `seq`: at or before `seq`), or undefined. */
export function keptBefore(snapshots: readonly StoredSnapshot[], limit: { version?: number; seq?: number }): StoredSnapshot | undefined {
  let found: StoredSnapshot | undefined;
  for (const s of snapshots) if ((limit.version === undefined || s.version <= limit.version) && (limit.seq === undefined || s.seq <= limit.seq)) found = s;
  return found;
}

/** The latest kept snapshot at or before `at` ({@link keptBefore}): one row read when the store can read one (`snapshotBefore`), else every kept snapshot. */
export async function keptSnapshot(store: GameStore, gameId: string, at: { version: number; seq: number }): Promise<StoredSnapshot | undefined> {
  if (store.snapshotBefore !== undefined) return (await store.snapshotBefore(gameId, at)) ?? undefined;
  return keptBefore(await store.snapshots(gameId), at);
}

/**
 * A stored game as it is now: from its latest kept snapshot and the sends after it, checked to
 * reach the stored version and seq. Throws {@link CorruptGameError} otherwise.
 */
export async function rebuild(store: GameStore, stored: StoredGame, had: { checkpoint: boolean; autoPass: boolean }, options: RestoreOptions): Promise<Replayed> {
  const base = keptBefore(await store.snapshots(stored.gameId), { version: stored.version });
  if (base === undefined) throw new CorruptGameError(stored.gameId, `no kept snapshot at or before version ${stored.version}`);
  const sends = (await store.sends(stored.gameId, base.version)).filter((s) => s.version <= stored.version);
  const replayed = replaySends(stored.gameId, base, sends, had, options);
  const view = replayed.game.getSnapshot();
  if (view.version !== stored.version || view.seq !== stored.seq) {
    throw new CorruptGameError(stored.gameId, `the stored sends reach version ${view.version} and seq ${view.seq}; the store says version ${stored.version} and seq ${stored.seq}`);
  }
  return replayed;
}

/**
 * The events after `lastSeq` up to version `upTo`, replayed from the store (for a client that
 * rejoins after more than the server keeps in memory), or null when no kept snapshot is old
 * enough. The replay calls no hook.
 */
export async function storedEventsAfter(store: GameStore, gameId: string, lastSeq: number, upTo: number, had: { checkpoint: boolean; autoPass: boolean }): Promise<EmittedEvent[] | null> {
  const base = keptBefore(await store.snapshots(gameId), { version: upTo, seq: lastSeq });
  if (base === undefined) return null;
  const sends = (await store.sends(gameId, base.version)).filter((s) => s.version <= upTo);
  return replaySends(gameId, base, sends, had).events.filter((e) => (e.seq ?? 0) > lastSeq);
}
