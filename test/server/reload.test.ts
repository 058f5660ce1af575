/**
 * CONTRACT v3, "Serving games": a served game comes back from its store as it was: restored from
 * the latest kept snapshot (one every 16 versions: a reload replays at most 15 sends) and the stored sends after it, the recorded
 * answers of the hooks standing in for them (the hooks are not called). Its `persist()`, `seq`
 * and events equal the original's; the events after any seq can be had again from an older
 * snapshot.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type EmittedEvent, type Game, type GameHooks, type LegalAction } from '../../src/index.js';
import { LAST_INPUT } from '../../src/recording/recorder.js';
import { rebuild, storedEventsAfter } from '../../src/server/reload.js';
import { MemoryStore } from '../../src/server/index.js';
import { KEEP_SNAPSHOT_EVERY } from '../../src/server/store/index.js';
import { join, plainest, playUntil, startServer } from './harness.js';

/** A hook with answers that matter: a trigger in every upkeep, the first time it is asked there. */
function triggeringHooks(): GameHooks {
  const fired = new Set<number>();
  return {
    checkpoint: (view) => {
      if (view.step !== 'upkeep' || fired.has(view.turn) || view.activePlayer === null) return undefined;
      fired.add(view.turn);
      return { triggers: [{ id: `upkeep-${view.turn}`, controller: view.activePlayer }] };
    },
  };
}

/** Plays the plainest game for `sends` sends, writing each to the store as the server does; returns every event. */
async function playStored(store: MemoryStore, gameId: string, game: Game, sends: number): Promise<EmittedEvent[]> {
  const events: EmittedEvent[] = [];
  for (let i = 0; i < sends; i++) {
    const view = game.getSnapshot();
    const action = game.legalActions().find((a) => a.type !== 'CONCEDE') as LegalAction;
    const before = view.version;
    const result = game.send(plainest(action));
    if (!result.ok) throw new Error(result.error.message);
    events.push(...result.events);
    const input = (game as unknown as { [LAST_INPUT](): { event: unknown; results?: unknown[] } })[LAST_INPUT]();
    const after = game.getSnapshot();
    // As the owner writes: every send journaled, a full snapshot every KEEP_SNAPSHOT_EVERY versions.
    const send = { version: after.version, seq: after.seq, event: input.event, results: input.results ?? [], at: null };
    const written = await store.appendSend(gameId, before, 'me', Date.now(), after.version % KEEP_SNAPSHOT_EVERY === 0 ? { send, snapshot: game.persist(), hostState: null, finished: after.gameOver !== null } : { send, hostState: null, finished: after.gameOver !== null });
    if (!written.ok) throw new Error(written.reason);
  }
  return events;
}

describe('a served game back from its store', () => {
  it('is rebuilt from the latest kept snapshot and the sends after it, without calling the hooks, as it was', async () => {
    const store = new MemoryStore();
    const game = createGame({ players: ['A', 'B'], seed: 3, record: true, hooks: triggeringHooks() });
    await store.createGame({ gameId: 'g', setup: game.recording().options, snapshot: game.persist(), version: 0, seq: game.getSnapshot().seq, hostState: null, tokenHashes: {}, createdAt: 1 });
    await store.acquireLease('g', 'me', Date.now(), 60_000);
    const events = await playStored(store, 'g', game, 300);
    expect((await store.snapshots('g')).map((s) => s.version)).toEqual(Array.from({ length: 19 }, (_, i) => 16 * i));
    // The triggers came from the hook: the recorded answers matter.
    expect(events.some((e) => e.type === 'resolve')).toBe(true);

    // The hooks of the replayed game: called only once it plays on live (a replay reads the recorded answers).
    const had = { checkpoint: true, autoPass: false };
    const live = { on: false };
    const hooks: GameHooks = {
      checkpoint: () => {
        if (!live.on) throw new Error('a replay does not call the hooks');
        return undefined;
      },
    };
    const stored = await store.loadGame('g');
    const replayed = await rebuild(store, stored!, had, { hooks, record: true });
    expect(replayed.game.persist()).toEqual(game.persist());
    // The events since the kept snapshot of version 288 (12 sends replayed: at most 15), as the original emitted them.
    const kept = (await store.snapshots('g')).at(-1)?.seq as number;
    expect(replayed.events).toEqual(events.filter((e) => (e.seq as number) > kept));
    expect(replayed.events.length).toBeGreaterThan(0);
    expect((await store.sends('g', 288)).length).toBeLessThanOrEqual(15);

    // Events after a seq older than the kept snapshot: replayed from the older one.
    const old = events[10] as EmittedEvent;
    const again = await storedEventsAfter(store, 'g', old.seq as number, 300, had);
    expect(again).toEqual(events.filter((e) => (e.seq as number) > (old.seq as number)));
    // The rebuilt game plays on live, recording from here.
    live.on = true;
    const next = replayed.game.legalActions().find((a) => a.type !== 'CONCEDE') as LegalAction;
    expect(() => replayed.game.send(plainest(next))).not.toThrow();
  });

  it('as served: the owner writes a full snapshot every 16 versions and journals every send; a new server reloads it as it was (replaying at most 15)', async () => {
    const store = new MemoryStore();
    let { server, url } = await startServer({ store, cards: { saveState: () => null, loadState: () => undefined } });
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 9 });
    const tables = [await join(url, { gameId, seat: 'A', token: tokens.A as string }), await join(url, { gameId, seat: 'B', token: tokens.B as string })];
    await playUntil(tables, (v) => v.version >= 37);
    const before = tables[0]!.getSnapshot();
    await Promise.all(tables.map((t) => t.close()));
    await server.close();
    // The seats were marked away as the tables left: those are sends too.
    const stored = (await store.loadGame(gameId))!;
    expect(stored.version).toBeGreaterThanOrEqual(before.version);
    const kept = (await store.snapshots(gameId)).map((s) => s.version);
    expect(kept).toEqual(Array.from({ length: Math.floor(stored.version / 16) + 1 }, (_, i) => 16 * i));
    // The game's row holds the latest kept snapshot; the sends after it are journaled.
    expect((stored.snapshot as { version: number }).version).toBe(kept.at(-1));
    expect((await store.sends(gameId, kept.at(-1))).length).toBe(stored.version - (kept.at(-1) as number));
    expect(stored.version - (kept.at(-1) as number)).toBeLessThanOrEqual(15);
    // A new server over the same store: the game as it was.
    ({ server, url } = await startServer({ store, cards: { saveState: () => null, loadState: () => undefined } }));
    try {
      const again = await join(url, { gameId, seat: 'A', token: tokens.A as string });
      const view = again.getSnapshot();
      expect(view.version).toBeGreaterThanOrEqual(stored.version);
      expect(view.seq).toBeGreaterThanOrEqual(stored.seq);
      const { version: _v, seq: _s, seats: _seats, ...rest } = before;
      expect(view).toMatchObject(rest);
      await again.close();
    } finally {
      await server.close();
    }
  });
});
