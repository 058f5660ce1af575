/**
 * `[NEXT_STOPS](players)` (src/nextStop.ts `nextStopsOver`, issue 31 point 6): the table server
 * asks every seat's `nextStop` at each send from one look ahead. The answers are the same as one
 * `nextStop(player)` each, over random games of 2 to 4 players, with stops, yields, a player
 * controlled by another (CR 723), shared team turns, a table (undo, clocks) and `hooks.autoPass`.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type GameOptions, type Game, type LegalAction } from '../../src/index.js';
import { NEXT_STOPS, type NextStop } from '../../src/nextStop.js';
import { concreteEvent, seededRandom } from '../../src/simulation.js';
import { allModules } from '../../src/allModules.js';

const stopsOf = (game: Game, players: readonly string[]) => (game as unknown as { [NEXT_STOPS]: (p: readonly string[]) => Record<string, NextStop | null> })[NEXT_STOPS](players);

/** Plays `sends` random legal actions, comparing the two at every step (and for a player not in the game). */
function compare(options: GameOptions, seed: number, sends: number): number {
  const game = createGame(options);
  const random = seededRandom(seed);
  const players = [...game.getSnapshot().players, 'nobody'];
  let compared = 0;
  for (let i = 0; i < sends && game.getSnapshot().gameOver === null; i++) {
    const one = Object.fromEntries(players.map((p) => [p, game.nextStop(p)]));
    expect(stopsOf(game, players)).toEqual(one);
    expect(stopsOf(game, [...players].reverse())).toEqual(one);
    compared++;
    const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
    if (actions.length === 0) break;
    const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
    const action = pass !== undefined && random() < 0.7 ? pass : (actions[Math.floor(random() * actions.length)] as LegalAction);
    game.send(concreteEvent(action, game.getSnapshot(), random, i) as never);
  }
  return compared;
}

describe('nextStop of several players from one look ahead', () => {
  it('equals one nextStop per player: 2 and 4 players, free-for-all', () => {
    for (let seed = 1; seed <= 6; seed++) expect(compare({ players: seed % 2 === 0 ? ['A', 'B'] : ['A', 'B', 'C', 'D'], seed }, seed, 120)).toBeGreaterThan(10);
  });

  it('equals one nextStop per player: shared team turns, a table with clocks, stops set and a player controlled by another (723)', () => {
    const teams = [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }];
    expect(compare({ players: ['A', 'B', 'C', 'D'], teams, variant: 'twoHeadedGiant', seed: 3 } as GameOptions, 3, 120)).toBeGreaterThan(10);
    // Every module (the table server's games): undo, shortcuts, clocks, seats.
    expect(compare({ use: allModules, players: ['A', 'B'], seed: 4, clock: { initialMs: 600_000, onTimeout: 'lose' } } as unknown as GameOptions, 4, 120)).toBeGreaterThan(10);
    const stops = { players: ['A', 'B', 'C'], seed: 5, } as GameOptions;
    const game = createGame(stops);
    expect(game.send({ type: 'SET_STOPS', player: 'A', stops: [{ step: 'upkeep', turn: 'any' }] } as never).ok).toBe(true);
    expect(game.send({ type: 'CONTROL_PLAYER', controller: 'A', player: 'B' } as never).ok).toBe(true);
    const players = ['A', 'B', 'C'];
    for (let i = 0; i < 40; i++) {
      expect(stopsOf(game, players)).toEqual(Object.fromEntries(players.map((p) => [p, game.nextStop(p)])));
      const pass = game.legalActions().find((a) => a.type === 'PASS_PRIORITY');
      if (pass === undefined) break;
      game.send({ type: 'PASS_PRIORITY', player: pass.player, ...((pass as { by?: string }).by !== undefined ? { by: (pass as { by?: string }).by } : {}) } as never);
    }
  });

  it('equals one nextStop per player when hooks.autoPass decides', () => {
    let calls = 0;
    const autoPass = (_view: unknown, player: string) => {
      calls++;
      return player === 'B';
    };
    expect(compare({ players: ['A', 'B', 'C'], seed: 8, hooks: { autoPass } } as unknown as GameOptions, 8, 80)).toBeGreaterThan(10);
    expect(calls).toBeGreaterThan(0);
  });
});
