/**
 * Day and night (CR 731.2): the check of the untap step, with single players and with shared
 * team turns (731.2a-b: "no player from the previous turn's active team", "any player ... two or more").
 */
import { describe, expect, it } from 'vitest';
import { dayNightChange, dayNightSpellCount } from '../../src/rules/dayNight.js';

const teams = [
  { id: 'a', players: ['A1', 'A2'] },
  { id: 'b', players: ['B1', 'B2'] },
];
const twoHeaded = { teams, variant: 'twoHeadedGiant' as const, players: ['A1', 'A2', 'B1', 'B2'] };

describe('day and night (CR 731.2)', () => {
  it('731.2b: night becomes day only when one player of the active team cast two or more spells', () => {
    const oneEach = dayNightSpellCount({ ...twoHeaded, spellsCast: { A1: 1, A2: 1, B1: 3, B2: 0 } }, 'A1');
    expect(dayNightChange({ dayNight: 'night', previousTurnSpells: oneEach })).toBeNull();
    const twoByOne = dayNightSpellCount({ ...twoHeaded, spellsCast: { A1: 0, A2: 2, B1: 0, B2: 0 } }, 'A1');
    expect(dayNightChange({ dayNight: 'night', previousTurnSpells: twoByOne })).toBe('day');
  });

  it('731.2a: day becomes night only when no player of the active team cast a spell', () => {
    const teammate = dayNightSpellCount({ ...twoHeaded, spellsCast: { A1: 0, A2: 1, B1: 0, B2: 0 } }, 'A1');
    expect(dayNightChange({ dayNight: 'day', previousTurnSpells: teammate })).toBeNull();
    const nobody = dayNightSpellCount({ ...twoHeaded, spellsCast: { A1: 0, A2: 0, B1: 5, B2: 5 } }, 'A1');
    expect(dayNightChange({ dayNight: 'day', previousTurnSpells: nobody })).toBe('night');
  });

  it('without shared team turns only the active player counts, even when they left the game (731.2)', () => {
    const ffa = { teams: null, variant: 'freeForAll' as const, players: ['B', 'C'] };
    expect(dayNightSpellCount({ ...ffa, spellsCast: { A: 2, B: 0, C: 0 } }, 'A')).toBe(2);
    expect(dayNightSpellCount({ ...ffa, spellsCast: { B: 1, C: 4 } }, 'B')).toBe(1);
  });

  it('731.2c: with neither designation there is no check', () => {
    expect(dayNightChange({ dayNight: null, previousTurnSpells: 0 })).toBeNull();
    expect(dayNightChange({ dayNight: null, previousTurnSpells: 3 })).toBeNull();
  });
});

describe('day and night when the active player leaves during their turn (CR 731.2b, 800.4i, 800.4j)', () => {
  it('800.4i: the spells a departed active player cast in their turn still count at the next untap step', async () => {
    const { play } = await import('../support/dsl.js');
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'SET_DAY_NIGHT', value: 'night' });
    t.passUntil({ step: 'main' });
    for (const id of ['s1', 's2']) {
      t.send({ type: 'CAST_SPELL', player: 'A', id, speed: 'sorcery' });
      t.passUntil({ stack: [] });
    }
    t.send({ type: 'CONCEDE', player: 'A' });
    t.clearEmitted();
    t.passUntil({ turn: 2 });
    expect(t.emittedOf('dayNight')).toEqual([{ type: 'dayNight', value: 'day' }]);
    // A new turn counts only the players in the game.
    expect(t.view().spellsCast).toEqual({ B: 0, C: 0 });
  });
});
