/**
 * `game.nextStop(player?)` (CONTRACT "Stops and auto-pass", issue 13): where the game will next
 * ask a player, answering everything before it the plainest way, applying stops, yields and the
 * loop guard, calling no hook and changing nothing; checked against playing the game on.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type Game } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';

/** Plays the plainest answers until `player` (or anyone) is asked; where that happens. */
function playUntilAsked(game: Game, player?: string) {
  for (let i = 0; i < 2_000; i++) {
    const v = game.view();
    if (v.gameOver !== null) return null;
    if (v.awaiting !== null && (player === undefined || v.awaiting.player === player || v.decidedBy[v.awaiting.player] === player) && i > 0) {
      return { turn: v.turn, activePlayer: v.activePlayer, phase: v.phase, step: v.step, awaiting: v.awaiting };
    }
    const answer = plainestAnswer(v);
    if (answer === null) return null;
    expect(game.send(answer as unknown).ok).toBe(true);
  }
  return null;
}

describe('nextStop (CONTRACT "Stops and auto-pass")', () => {
  it('is never the decision awaited now: it answers that first, so it names a later one (v3)', () => {
    const game = createGame({ players: ['A', 'B'] });
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
    // A passes, B passes, the draw step of turn 1 is skipped (103.8a): A is next asked in the main phase.
    expect(game.nextStop('A')).toMatchObject({ turn: 1, phase: 'precombatMain', step: 'main', awaiting: { kind: 'priority', player: 'A' } });
    expect(game.nextStop()).toMatchObject({ turn: 1, phase: 'beginning', step: 'upkeep', awaiting: { kind: 'priority', player: 'B' } });
  });

  it("with stops, skips what the player's stops pass by, and agrees with playing the game on", () => {
    const game = createGame({ players: ['A', 'B'] });
    game.send({ type: 'SET_STOPS', player: 'B', stops: [{ step: 'end', turn: 'others' }, { step: 'main', turn: 'own' }] });
    const predicted = game.nextStop('B');
    expect(predicted).toMatchObject({ turn: 1, activePlayer: 'A', phase: 'ending', step: 'end', awaiting: { kind: 'priority', player: 'B' } });
    const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())));
    expect(playUntilAsked(copy, 'B')).toEqual(predicted);
  });

  it('changes nothing and calls no hook', () => {
    let calls = 0;
    const game = createGame({ players: ['A', 'B', 'C'], hooks: { checkpoint: () => void calls++ } });
    const before = JSON.stringify(game.persist());
    const version = game.view().version;
    const seen = calls;
    game.nextStop('C');
    game.nextStop();
    expect(calls).toBe(seen);
    expect(JSON.stringify(game.persist())).toBe(before);
    expect(game.view().version).toBe(version);
  });

  it('a yield until end of turn passes the rest of the turn by; the next stop is the next turn', () => {
    const game = createGame({ players: ['A', 'B'] });
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    game.send({ type: 'YIELD', player: 'B', until: 'endOfTurn' });
    game.send({ type: 'SET_STOPS', player: 'B', stops: [{ step: 'upkeep', turn: 'any' }, { step: 'main', turn: 'any' }] });
    const predicted = game.nextStop('B');
    expect(predicted?.turn).toBe(2);
    const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())));
    expect(playUntilAsked(copy, 'B')).toEqual(predicted);
  });

  it("723.5: a controlled player's priorities follow their controller's stops (control begins with their next turn)", () => {
    const game = createGame({ players: ['A', 'B'] });
    game.send({ type: 'CONTROL_PLAYER', controller: 'A', player: 'B' });
    game.send({ type: 'SET_STOPS', player: 'A', stops: [{ step: 'main', turn: 'any' }] });
    // Turn 1 is A's own: B still decides for B, with no stops, so B is asked in A's upkeep.
    expect(game.nextStop('B')).toMatchObject({ turn: 1, step: 'upkeep', awaiting: { player: 'B' } });
    // In B's turn A decides for B, with A's stops: B is first asked in the main phase.
    const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())));
    while (copy.view().turn === 1) expect(copy.send(plainestAnswer(copy.view()) as unknown).ok).toBe(true);
    expect(copy.view()).toMatchObject({ turn: 2, activePlayer: 'B', step: 'main', decidedBy: { B: 'A' }, awaiting: { kind: 'priority', player: 'B' } });
  });

  it('is null for a player not in the game and once the game is over', () => {
    const game = createGame({ players: ['A', 'B', 'C'] });
    game.send({ type: 'CONCEDE', player: 'C' });
    expect(game.nextStop('C')).toBeNull();
    game.send({ type: 'CONCEDE', player: 'B' });
    expect(game.nextStop('A')).toBeNull();
    expect(game.nextStop()).toBeNull();
  });

  it('persists stops: a restored game stops in the same place', () => {
    const game = createGame({ players: ['A', 'B'] });
    game.send({ type: 'SET_STOPS', player: 'B', stops: [{ step: 'declareBlockers', turn: 'others' }] });
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())));
    expect(restored.view().stops).toEqual(game.view().stops);
    expect(restored.nextStop('B')).toEqual(game.nextStop('B'));
  });
});

describe('yields until end of turn (CONTRACT "Stops and auto-pass")', () => {
  it('724.1d: a yield until end of turn ends with the turn when the end step never comes (END_TURN)', () => {
    const game = createGame({ players: ['A', 'B'] });
    expect(game.send({ type: 'YIELD', player: 'B', until: 'endOfTurn' }).ok).toBe(true);
    const result = game.send({ type: 'END_TURN' });
    expect(result.ok && result.events.filter((e) => e.type === 'autoPass')).toEqual([]);
    expect(game.view()).toMatchObject({ turn: 2, step: 'upkeep', priority: 'B' });
  });

  it('614.10: with the end step skipped, the yield ends as the cleanup step begins: the player is asked on their own turn', () => {
    const game = createGame({ players: ['A', 'B'] });
    game.send({ type: 'SKIP_NEXT', player: 'A', what: 'end' });
    game.send({ type: 'YIELD', player: 'B', until: 'endOfTurn' });
    for (let i = 0; i < 100 && !(game.view().turn === 2 && game.view().priority === 'B'); i++) {
      game.send(plainestAnswer(game.view()));
    }
    expect(game.view()).toMatchObject({ turn: 2, step: 'upkeep', priority: 'B' });
  });
});
