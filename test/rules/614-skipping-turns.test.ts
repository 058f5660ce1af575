/** Skipping turns for a long while (CR 614.10, 500.11) and the draw of turns with nothing in them (104.4b). */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';

const skipTurns = (id: string, player: string) => ({ type: 'ADD_EFFECT', id, effect: { kind: 'skip', what: 'turn', players: [player] } });
const order = (t: ReturnType<typeof play>) => t.view().schedule.turns.map((x) => `${x.player}${x.skipped ? '-' : ''}`);

describe('skipping turns for a long while (CR 614.10, 500.11)', () => {
  it('614.10: a player whose turns an effect skips never takes one while a finite run of skips goes on elsewhere (two players)', () => {
    const t = play({ players: ['A', 'B'] });
    t.send(skipTurns('a', 'A'));
    for (let i = 0; i < 5; i++) t.send({ type: 'SKIP_NEXT', player: 'B', what: 'turn' });
    expect(order(t)).toEqual(['B-', 'A-', 'B-', 'A-', 'B-', 'A-', 'B-', 'A-', 'B-', 'A-', 'B', 'A-', 'B', 'A-', 'B']);
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'B' });
  });

  it('614.10: with two players skipped by effects, the third takes the turn once its five skips are used up', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send(skipTurns('a', 'A'));
    t.send(skipTurns('b', 'B'));
    for (let i = 0; i < 5; i++) t.send({ type: 'SKIP_NEXT', player: 'C', what: 'turn' });
    t.passUntil({ turn: 2 });
    t.expectView({ activePlayer: 'C' });
  });

  it('104.4b: turns with every phase skipped are no draw while another player\'s skipped turns run out; that player then takes a turn', () => {
    const t = play({ players: ['A', 'B'] });
    for (const phase of ['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending']) t.send({ type: 'ADD_EFFECT', id: `skip-${phase}`, effect: { kind: 'skip', what: phase, players: ['A'] } });
    for (let i = 0; i < 6; i++) t.send({ type: 'SKIP_NEXT', player: 'B', what: 'turn' });
    t.passUntil({ activePlayer: 'B' });
    t.expectView({ gameOver: null, phase: 'beginning', step: 'upkeep' });
  });

  it('104.4b: turns with every phase skipped for everyone, with nothing left to use up, end in a draw (an extra turn only delays it)', () => {
    const t = play({ players: ['A', 'B'] });
    t.send({ type: 'ADD_EXTRA_TURN', player: 'B' });
    for (const phase of ['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending']) t.send({ type: 'ADD_EFFECT', id: `skip-${phase}`, effect: { kind: 'skip', what: phase } });
    for (let i = 0; i < 10 && t.view().gameOver === null; i++) t.game.send({ type: 'PASS_PRIORITY', player: t.view().priority ?? 'A' });
    expect(t.view().gameOver).toMatchObject({ winners: [], draw: true });
    expect(t.view().turn).toBe(6);
  });

  it('104.4b: every turn of every player skipped for ever (an effect skipping turns on everyone) is a loop: the game is a draw when the turn would end, no turn taken', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'ADD_EFFECT', id: 'no-turns', effect: { kind: 'skip', what: 'turn' } });
    t.send({ type: 'ADD_EXTRA_TURN', player: 'B' }); // an extra turn is a turn: skipped too
    for (let i = 0; i < 60 && t.view().gameOver === null; i++) t.game.send(plainestAnswer(t.view()));
    expect(t.view().gameOver).toMatchObject({ winners: [], draw: true });
    expect(t.view().turn).toBe(1);
  });

  it('614.10: with a skip of every turn on all but one player, that player takes every turn (no draw)', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'ADD_EFFECT', id: 'no-turns', effect: { kind: 'skip', what: 'turn', players: ['A', 'B'] } });
    t.passUntil({ turn: 3 });
    t.expectView({ activePlayer: 'C', gameOver: null });
  });
});

