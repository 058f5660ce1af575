/** Mana pools as they empty, by era (CR 500.5; classic 300.3 mana burn and 507.4). */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';

describe('mana burn in the classic era (classic 300.3, 507.4)', () => {
  it('300.3: mana lost as a phase ends burns its owner', () => {
    const t = play({ players: ['A', 'B'], rules: 'classic' });
    t.send({ type: 'ADD_MANA', player: 'B', amount: 2 });
    t.passUntil({ phase: 'precombatMain' });
    expect(t.emittedOf('manaEmptied', 'manaBurn')).toEqual([
      { type: 'manaEmptied', player: 'B', amount: 2 },
      { type: 'manaBurn', player: 'B', amount: 2 },
    ]);
  });

  it('507.4: no mana burn for a player while another player controls their turn; the mana is still lost, and the controller still burns', () => {
    const t = play({ players: ['A', 'B'], rules: 'classic' });
    t.send({ type: 'CONTROL_PLAYER', controller: 'A', player: 'B' });
    t.passUntil({ turn: 2, step: 'upkeep' });
    t.expectView({ decidedBy: { A: 'A', B: 'A' } });
    t.clearEmitted();
    t.send({ type: 'ADD_MANA', player: 'B', amount: 2 });
    t.send({ type: 'ADD_MANA', player: 'A', amount: 1 });
    t.passUntil({ phase: 'precombatMain' });
    expect(t.emittedOf('manaEmptied', 'manaBurn')).toEqual([
      { type: 'manaEmptied', player: 'A', amount: 1 },
      { type: 'manaBurn', player: 'A', amount: 1 },
      { type: 'manaEmptied', player: 'B', amount: 2 },
    ]);
  });
});

describe('mana emptying as steps and phases end (CR 500.5)', () => {
  it("500.5: mana an 'until end of combat' effect kept through the end of combat step empties as the combat phase ends, after the effect ended", () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'endOfCombat' });
    t.send({ type: 'ADD_EFFECT', id: 'keep', effect: { kind: 'keepMana' }, duration: 'endOfCombat' });
    t.send({ type: 'ADD_MANA', player: 'A', amount: 3 });
    t.clearEmitted();
    t.pass('A', 'B');
    expect(t.emittedOf('effectEnded', 'manaEmptied')).toEqual([
      { type: 'effectEnded', id: 'keep' },
      { type: 'manaEmptied', player: 'A', amount: 3 },
    ]);
    t.expectView({ phase: 'postcombatMain', manaPool: { A: 0, B: 0 } });
  });

  it('500.5: an effect that keeps mana until end of turn keeps it through every step and phase of the turn', () => {
    const t = play({ players: ['A', 'B'] });
    t.send({ type: 'ADD_EFFECT', id: 'keep', effect: { kind: 'keepMana' }, duration: 'endOfTurn' });
    t.send({ type: 'ADD_MANA', player: 'A', amount: 2 });
    t.passUntil({ step: 'end' });
    t.expectView({ manaPool: { A: 2, B: 0 } });
    t.passUntil({ turn: 2 });
    t.expectView({ manaPool: { A: 0, B: 0 } });
  });
});
