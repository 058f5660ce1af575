/** Skip effects with shared team turns: an effect that makes any player of a team skip makes the team skip (CR 805.8). */
import { describe, expect, it } from 'vitest';
import type { EmittedEvent } from '../../src/index.js';
import { play } from '../support/dsl.js';

const teams2hg = { players: ['A1', 'A2', 'B1', 'B2'], variant: 'twoHeadedGiant' as const, teams: [{ id: 'TA', players: ['A1', 'A2'] }, { id: 'TB', players: ['B1', 'B2'] }] };

const archenemy = { players: ['E', 'H1', 'H2'], variant: 'archenemy' as const, teams: [{ id: 'arch', players: ['E'] }, { id: 'heroes', players: ['H1', 'H2'] }] };

/** The events of the second team's first turn (turn 2) with a skip effect on `named`. */
function teamTurnWith(what: 'draw' | 'combat' | 'untap' | 'turn', named: string, setup: typeof teams2hg | typeof archenemy = teams2hg) {
  const t = play(setup);
  t.send({ type: 'ADD_EFFECT', id: 'skip', effect: { kind: 'skip', what, players: [named] } });
  t.passUntil({ turn: 2, phase: 'postcombatMain' });
  const events = t.emitted.slice(t.emitted.findIndex((e) => e.type === 'turnBegan' && e.turn === 2)) as EmittedEvent[];
  return {
    t,
    active: t.game.view().activePlayer,
    steps: events.flatMap((e) => (e.type === 'stepBegan' ? [e.step] : [])),
    draws: events.flatMap((e) => (e.type === 'draw' ? [e.player] : [])),
    untaps: events.flatMap((e) => (e.type === 'untap' ? [e.player] : [])),
  };
}

describe('skip effects go to the team (CR 805.8)', () => {
  it("805.8: a 'skip draw steps' effect naming the team's second player makes the team skip its draw step", () => {
    for (const named of ['B1', 'B2']) {
      const turn = teamTurnWith('draw', named);
      expect(turn.steps).not.toContain('draw');
      expect(turn.draws).toEqual([]);
    }
  });

  it("805.8: a 'skip combat phases' effect naming a teammate skips the team's combat phase", () => {
    const turn = teamTurnWith('combat', 'B2');
    expect(turn.steps).not.toContain('beginningOfCombat');
    expect(turn.steps).not.toContain('declareAttackers');
  });

  it("805.8, 614.10: a 'skip your turns' effect naming a teammate passes over the team's turns, and the schedule shows it", () => {
    const t = play(teams2hg);
    t.send({ type: 'ADD_EFFECT', id: 'skip', effect: { kind: 'skip', what: 'turn', players: ['B2'] } });
    expect(t.game.view().schedule.turns[0]).toEqual({ player: 'B1', extra: false, skipped: true });
    t.passUntil({ turn: 2 });
    expect(t.game.view().activePlayer).toBe('A1');
  });

  it("805.8: the other team is not affected, and an effect naming a player who left does nothing (800.4a)", () => {
    expect(teamTurnWith('draw', 'A2').draws).toEqual(['B1', 'B2']);
    // In Archenemy a hero who leaves leaves alone (904); the heroes play on.
    const t = play(archenemy);
    t.send({ type: 'ADD_EFFECT', id: 'skip', effect: { kind: 'skip', what: 'draw', players: ['H2'] } });
    t.send({ type: 'CONCEDE', player: 'H2' });
    t.passUntil({ turn: 2, phase: 'precombatMain' });
    const turn2 = t.emitted.slice(t.emitted.findIndex((e) => e.type === 'turnBegan' && e.turn === 2));
    expect(turn2.flatMap((e) => (e.type === 'draw' ? [e.player] : []))).toEqual(['H1']);
  });

  it("805.8, 904.2: an Archenemy hero's 'skip untap steps' effect makes the heroes' team skip its untap step", () => {
    const turn = teamTurnWith('untap', 'H2', archenemy);
    expect(turn.active).toBe('H1');
    expect(turn.untaps).toEqual([]);
    expect(turn.steps).not.toContain('untap');
  });

  it("805.8: a skip effect on extra turns naming a teammate skips the team's extra turn", () => {
    const t = play(teams2hg);
    t.send({ type: 'ADD_EFFECT', id: 'skip', effect: { kind: 'skip', what: 'extraTurn', players: ['A2'] } });
    t.send({ type: 'ADD_EXTRA_TURN', player: 'A1' });
    expect(t.game.view().schedule.turns[0]).toMatchObject({ player: 'A1', extra: true, skipped: true });
    t.passUntil({ turn: 2 });
    expect(t.game.view().activePlayer).toBe('B1');
  });
});

describe("what lasts until a teammate's next turn, in the schedule (CR 805.2, 611.2b)", () => {
  it("611.2b, 805.2: an effect lasting until a team's second player's next turn ends, in the schedule, as that team's turn begins", () => {
    const t = play(teams2hg);
    // A1's team skips its turns until B2's next turn: turn 2 is B2's team's, so A1's team takes turn 3.
    t.send({ type: 'ADD_EFFECT', id: 'stall', effect: { kind: 'skip', what: 'turn', players: ['A1'] }, duration: 'untilYourNextTurn', controller: 'B2' });
    expect(t.view().schedule.turns.slice(0, 2)).toEqual([
      { player: 'B1', extra: false, skipped: false },
      { player: 'A1', extra: false, skipped: false },
    ]);
    t.passUntil({ turn: 3 });
    expect(t.view().activePlayer).toBe('A1');
  });
});
