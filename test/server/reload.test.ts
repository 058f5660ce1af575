/**
 * CONTRACT v3, "Serving games": a served game comes back from its store as it was: restored from
 * the latest kept snapshot (one every 256 versions) and the stored sends after it, the recorded
 * answers of the hooks standing in for them (the hooks are not called). Its `persist()`, `seq`
 * and events equal the original's; the events after any seq can be had again from an older
 * snapshot.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type EmittedEvent, type Game, type GameHooks, type LegalAction } from '../../src/index.js';
import { LAST_INPUT } from '../../src/recording/recorder.js';
import { rebuild, storedEventsAfter } from '../../src/server/reload.js';
import { MemoryStore } from '../../src/server/index.js';
import { plainest } from './harness.js';

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
    const written = await store.appendSend(gameId, before, 'me', Date.now(), { send: { version: after.version, seq: after.seq, event: input.event, results: input.results ?? [], at: null }, snapshot: game.persist(), hostState: null, finished: after.gameOver !== null });
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
    expect((await store.snapshots('g')).map((s) => s.version)).toEqual([0, 256]);
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
    // The events since the kept snapshot of version 256, as the original emitted them.
    const kept = (await store.snapshots('g'))[1]?.seq as number;
    expect(replayed.events).toEqual(events.filter((e) => (e.seq as number) > kept));
    expect(replayed.events.length).toBeGreaterThan(0);

    // Events after a seq older than the kept snapshot: replayed from the older one.
    const old = events[10] as EmittedEvent;
    const again = await storedEventsAfter(store, 'g', old.seq as number, 300, had);
    expect(again).toEqual(events.filter((e) => (e.seq as number) > (old.seq as number)));
    // The rebuilt game plays on live, recording from here.
    live.on = true;
    const next = replayed.game.legalActions().find((a) => a.type !== 'CONCEDE') as LegalAction;
    expect(() => replayed.game.send(plainest(next))).not.toThrow();
  });
});
