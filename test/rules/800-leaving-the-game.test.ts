/** Effects timed to the turn of a player who has left (CR 800.4m). */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';
import { play } from '../support/dsl.js';

const untilUpkeepOf = (ofPlayer: string) => ({ type: 'ADD_EFFECT', id: 'u', effect: { kind: 'landPlays', change: 1, players: ['A'] }, duration: { untilStep: 'upkeep', ofPlayer }, controller: 'A' });
const effectIds = (t: ReturnType<typeof play>) => t.view().effects.map((e) => e.id);

describe('effects timed to the turn of a player who left (CR 800.4m)', () => {
  it('800.4m: an effect until a departed player\'s next upkeep lasts until their turn would have begun, then ends', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send(untilUpkeepOf('B'));
    t.send({ type: 'CONCEDE', player: 'B' });
    // Neither at once ...
    expect(effectIds(t)).toEqual(['u']);
    t.clearEmitted();
    // ... nor for ever: B's turn would have begun after A's; C's turn takes its place.
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'C' });
    expect(effectIds(t)).toEqual([]);
    expect(t.emittedOf('effectEnded')).toEqual([{ type: 'effectEnded', id: 'u' }]);
  });

  it('800.4m: a player who leaves during their own turn: the effect lasts until their next turn would have begun, a whole round later', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'B' });
    t.send(untilUpkeepOf('B'));
    t.send({ type: 'CONCEDE', player: 'B' });
    t.passUntil({ turn: 3 });
    t.expectView({ activePlayer: 'C' });
    expect(effectIds(t)).toEqual(['u']);
    t.passUntil({ turn: 4 });
    t.expectView({ activePlayer: 'A' });
    expect(effectIds(t)).toEqual(['u']);
    // After A's turn, B's would have begun: C's takes its place.
    t.passUntil({ turn: 5 });
    t.expectView({ activePlayer: 'C' });
    expect(effectIds(t)).toEqual([]);
  });

  it("800.4m, 500.7: an extra turn taken meanwhile does not stand for the departed player's turn", () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send(untilUpkeepOf('B'));
    t.send({ type: 'ADD_EXTRA_TURN', player: 'A' });
    t.send({ type: 'CONCEDE', player: 'B' });
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'A' });
    expect(effectIds(t)).toEqual(['u']);
    t.passUntil({ turn: 3 });
    t.expectView({ activePlayer: 'C' });
    expect(effectIds(t)).toEqual([]);
  });

  it("800.4m: when every other turn is skipped and the rotation comes round to the same player, the departed player's turn was passed over", () => {
    // B: "C skips their turns until my next turn". B leaves; then C skips turns by a pending skip too.
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'ADD_EFFECT', id: 'hold', effect: { kind: 'maxHandSize', set: 2, players: ['A'] }, duration: 'untilYourNextTurn', controller: 'B' });
    t.send({ type: 'SKIP_NEXT', player: 'C', what: 'turn' });
    t.send({ type: 'CONCEDE', player: 'B' });
    // After A's turn 1, B's would have begun (and C's is skipped): A takes turn 2, and the effect has ended.
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'A' });
    expect(effectIds(t)).toEqual([]);
  });

  it("800.4m: an effect that ends at a departed player's next turn no longer skips the turns after it", () => {
    // B: "C skips their turns until my next turn". B leaves during A's turn 1: B's turn would have begun next, so C takes turn 2.
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'ADD_EFFECT', id: 'skipC', effect: { kind: 'skip', what: 'turn', players: ['C'] }, duration: 'untilYourNextTurn', controller: 'B' });
    t.send({ type: 'CONCEDE', player: 'B' });
    expect(t.view().schedule.turns.map((turn) => turn.player)).toEqual(['C', 'A', 'C']);
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'C' });
    expect(effectIds(t)).toEqual([]);
  });

  it("800.4k, 800.4m: a departed player's pending extra turn is the turn that would have begun: the effect ends there", () => {
    // C has an extra turn coming after A's turn 1, and an effect lasting until C's next upkeep; C leaves.
    const t = play({ players: ['A', 'B', 'C', 'D'] });
    t.send({ type: 'ADD_EXTRA_TURN', player: 'C' });
    t.send(untilUpkeepOf('C'));
    t.send({ type: 'CONCEDE', player: 'C' });
    expect(effectIds(t)).toEqual(['u']);
    // The extra turn stays in a snapshot, which restores.
    const saved = JSON.parse(JSON.stringify(t.game.persist()));
    expect(saved.context.extraTurns).toEqual([{ player: 'C' }]);
    expect(restoreGame(saved).view()).toEqual(t.view());
    // C's extra turn would have begun after A's: it doesn't (800.4k), and the effect ends there; B takes turn 2.
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'B' });
    expect(effectIds(t)).toEqual([]);
    expect(t.view().schedule.turns.map((turn) => turn.player)).toEqual(['D', 'A', 'B', 'D']);
  });

  it("800.4k, 800.4m: a departed player's extra turn after the departed turn's place in the order ends the effect when it would have begun", () => {
    // B's turn 2; C's extra turn is to come after it; C leaves during B's turn.
    const t = play({ players: ['A', 'B', 'C', 'D'] });
    t.passUntil({ turn: 2 });
    t.send({ type: 'ADD_EXTRA_TURN', player: 'C' });
    t.send(untilUpkeepOf('C'));
    t.send({ type: 'CONCEDE', player: 'C' });
    expect(t.view().schedule.turns.map((turn) => turn.player)).toEqual(['D', 'A', 'B', 'D']);
    t.passUntil({ turn: 3 });
    t.expectView({ activePlayer: 'D' });
    expect(effectIds(t)).toEqual([]);
  });

  it("800.4m, 805.4: with shared team turns a departed player's next turn is their team's, not the other team's turn that goes past their seat", () => {
    // Archenemy: the heroes H1, H2, H3 share their turns. H2, in the heroes' turn 2, makes an effect last until their next turn, and leaves.
    const game = createGame({ players: ['X', 'H1', 'H2', 'H3'], variant: 'archenemy', teams: [{ id: 'boss', players: ['X'] }, { id: 'heroes', players: ['H1', 'H2', 'H3'] }] });
    const until = (turn: number) => {
      for (let i = 0; i < 200 && !(game.view().turn === turn && game.view().step === 'upkeep'); i++) game.send(plainestAnswer(game.view()));
      return game.view();
    };
    expect(until(2)).toMatchObject({ activeTeam: 'heroes' });
    expect(game.send({ type: 'ADD_EFFECT', id: 'u', effect: { kind: 'maxHandSize', set: 3, players: ['X'] }, duration: 'untilYourNextTurn', controller: 'H2' }).ok).toBe(true);
    expect(game.send({ type: 'CONCEDE', player: 'H2' }).ok).toBe(true);
    // The boss's turn 3 goes past H2's seat; it is not H2's turn: the effect lasts ...
    expect(until(3)).toMatchObject({ activePlayer: 'X', effects: [{ id: 'u' }] });
    // ... until the heroes' next turn, which would have been H2's, begins.
    expect(until(4)).toMatchObject({ activeTeam: 'heroes', effects: [] });
  });
});
