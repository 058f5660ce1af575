/**
 * Every snapshot the engine writes restores (CONTRACT "restoreGame": every restored game can
 * continue to its end; issue 33, the Grand Melee restore fault): after every accepted send of a
 * game played from a snapshot, `persist()` restores, persists the same and shows the same view
 * (snapshotPool.ts `roundTrip`). The snapshots played from:
 *
 * - every snapshot of the pool (every variant and moment, clocks and seats included);
 * - hostile but accepted ones: the pool's Grand Melee snapshots with `extraTurns` tampered (100
 *   entries: one player's, and every player's in turn), and random mutations of any field that
 *   restoreGame accepts;
 * - games at a table (CONTRACT v4): undo in both modes, with requests left pending, clocks, seats
 *   that drop, and `at` on every event.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, type Game, type GameOptions, type TurnEvent } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { allModules } from '../../src/allModules.js';
import { fill, hostEvent, sharesTurns } from './harness.js';
import type { Path } from './hostile.js';
import { assertProperty } from './seeds.js';
import { applied, mutablePaths, mutationOf, MUTATION_KINDS, occurrences } from './snapshotMutations.js';
import { restoredOrRefused, roundTrip, snapshotPool, type PoolEntry } from './snapshotPool.js';

type Random = () => number;

/**
 * Plays `length` random events (decisions the game lists, host events now and then, an UNDO
 * when one is listed), saving and restoring the game after every accepted send. Returns the
 * number of round trips; throws (PlayFailure) on the first snapshot of its own the engine refuses.
 */
function playSaving(start: Game, r: Random, length: number, at?: () => number): number {
  let game = roundTrip(start, 'as restored');
  let trips = 1;
  for (let i = 0; i < length && game.view().gameOver === null; i++) {
    const view = game.view();
    const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE' || r() < 0.03);
    let event: TurnEvent;
    if (r() < 0.15 || actions.length === 0) event = hostEvent(view, r, 2000 + i) as TurnEvent;
    else {
      const undo = actions.find((a) => a.type === 'UNDO');
      const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
      const action = undo !== undefined && r() < 0.2 ? undo : pass !== undefined && r() < 0.6 ? pass : (actions[Math.floor(r() * actions.length)] as (typeof actions)[number]);
      event = fill(action, view, r, 2000 + i, view.teams !== null && sharesTurns({ players: view.players, variant: undefined, teams: view.teams } as unknown as GameOptions));
    }
    const timed = at === undefined ? event : ({ ...event, at: at() } as TurnEvent);
    if (!game.send(timed).ok) continue;
    game = roundTrip(game, `after ${JSON.stringify(timed).slice(0, 120)} (event ${i})`);
    trips++;
  }
  return trips;
}

describe('every snapshot the engine writes restores (issue 33)', () => {
  const pool = snapshotPool(120);

  it('played from every snapshot of the pool, saved and restored after every send', () => {
    let trips = 0;
    for (const [k, entry] of pool.entries()) {
      const restored = restoredOrRefused(structuredClone(entry.snapshot));
      if ('refused' in restored) throw new Error(`${entry.name}: the pool's own snapshot is refused: ${restored.refused}`);
      trips += playSaving(restored.game, seededRandom(k + 1), restored.game.view().turns === undefined ? 12 : 6);
    }
    expect(trips).toBeGreaterThan(pool.length * 3);
  });

  it("Grand Melee with extraTurns tampered (100 entries): refused, or every snapshot it then writes restores", () => {
    const melee = pool.filter((e) => e.snapshot.markers !== undefined && e.snapshot.status === 'active');
    expect(melee.length).toBeGreaterThan(3);
    let played = 0;
    for (const [k, entry] of melee.entries()) {
      for (const spread of [false, true]) {
        const s = structuredClone(entry.snapshot);
        const players = s.context.players;
        const tampered = Array.from({ length: 100 }, (_, i) => ({ player: players[spread ? i % players.length : 0] as string }));
        s.context.extraTurns = tampered;
        for (const m of s.markers ?? []) m.context.extraTurns = tampered;
        const restored = restoredOrRefused(s);
        if ('refused' in restored) continue;
        playSaving(restored.game, seededRandom(100 + k), 30);
        played++;
      }
    }
    expect(played).toBeGreaterThan(0);
  });

  it('a random mutation restoreGame accepts: every snapshot the game then writes restores', () => {
    const fields = occurrences(pool);
    let accepted = 0;
    assertProperty(
      fc.property(fc.nat(pool.length - 1), fc.nat(), fc.constantFrom(...MUTATION_KINDS), fc.nat(), (entry, pathIndex, kind, k) => {
        const paths = mutablePaths((pool[entry] as PoolEntry).snapshot);
        const mutation = mutationOf(pool, { entry, path: paths[pathIndex % paths.length] as Path }, kind, k, fields);
        if (mutation === null) return;
        const restored = restoredOrRefused(applied((pool[entry] as PoolEntry).snapshot, mutation));
        if ('refused' in restored) return;
        accepted++;
        playSaving(restored.game, seededRandom(k), 8);
      }),
      { numRuns: 150 },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it('games at a table (undo in both modes, requests pending, clocks, seats away): saved and restored after every send', () => {
    let trips = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const r = seededRandom(seed * 31);
      const players = seed % 3 === 0 ? ['A', 'B', 'C'] : ['A', 'B'];
      const options: GameOptions = {
        use: allModules,
        players,
        seed,
        undo: { mode: seed % 2 === 0 ? 'own' : 'consent', ...(seed % 4 === 1 ? { answerMs: 3000 } : {}) },
        ...(seed % 3 !== 2 ? { clock: { initialMs: 60_000, delayMs: 500, onTimeout: seed % 2 === 0 ? 'pass' : 'lose' } } : {}),
        ...(seed % 4 === 3 ? { away: { graceMs: 4000, then: 'concede' } } : {}),
      };
      const game = createGame(options);
      let now = 0;
      // Some sends far apart: requests expire, clocks run, away graces end.
      trips += playSaving(game, r, 60, () => (now += r() < 0.1 ? 5000 : 400));
    }
    expect(trips).toBeGreaterThan(200);
  });
});
