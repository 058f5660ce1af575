/** Pure rules: turn order, APNAP and the turn schedule (CR 101.4, 500.7, 500.8, 614.10, 800.4k). */
import { describe, expect, it } from 'vitest';
import { apnapOrder, nextTurn, skipsFirstDraw } from '../../src/rules/turnOrder.js';
import { addExtraCombat, nextPhase, stepSkip } from '../../src/rules/schedule.js';
import { creaturesDealingDamage, hasFirstStrikeCombatant } from '../../src/rules/combat.js';

const table = { seats: ['A', 'B', 'C', 'D'], players: ['A', 'B', 'C', 'D'] };

describe('turn order (CR 101.4, 800.4)', () => {
  it('101.4: APNAP starts with the active player and goes round the table', () => {
    expect(apnapOrder({ ...table, turnOwner: 'C' })).toEqual(['C', 'D', 'A', 'B']);
  });
  it('800.4j: without the departed active player, APNAP starts with the next seat', () => {
    expect(apnapOrder({ seats: table.seats, players: ['A', 'B', 'D'], turnOwner: 'C' })).toEqual(['D', 'A', 'B']);
  });
  it('103.8a, 103.8c: only the starting player of a two-player game skips the first draw', () => {
    expect(skipsFirstDraw({ turn: 1, seats: ['A', 'B'], activePlayer: 'A', startingPlayer: 'A' })).toBe(true);
    expect(skipsFirstDraw({ turn: 1, seats: ['A', 'B', 'C'], activePlayer: 'A', startingPlayer: 'A' })).toBe(false);
    expect(skipsFirstDraw({ turn: 2, seats: ['A', 'B'], activePlayer: 'B', startingPlayer: 'A' })).toBe(false);
  });
});

describe('the next turn (CR 500.7, 614.10, 800.4k)', () => {
  const base = { ...table, extraTurns: [] as string[], rotation: 'A', skips: {} };
  it('goes to the next player in turn order', () => {
    expect(nextTurn(base)).toMatchObject({ player: 'B', extra: false, rotation: 'B' });
  });
  it('500.7: the most recently created extra turn comes first, and the rotation waits', () => {
    expect(nextTurn({ ...base, extraTurns: ['C', 'D'] })).toMatchObject({ player: 'D', extra: true, rotation: 'A', extraTurns: ['C'] });
  });
  it('614.10: a skipped turn is consumed and the next player takes it', () => {
    expect(nextTurn({ ...base, skips: { B: { turn: 2 } } })).toMatchObject({ player: 'C', skippedTurns: ['B'], skips: { B: { turn: 1 } } });
  });
  it('800.4k: a departed player never begins a turn', () => {
    expect(nextTurn({ ...base, players: ['A', 'C', 'D'], extraTurns: ['B'] })).toMatchObject({ player: 'C' });
  });
});

describe('the phases of a turn (CR 500.1, 500.8)', () => {
  it('500.8: phases added after the same phase occur most recent first', () => {
    const first = addExtraCombat([], true);
    expect(addExtraCombat(first, false)).toEqual(['combat', 'combat', 'main']);
    expect(nextPhase({ extraPhases: ['combat'], regularPhases: 2 })).toBe('combat');
    expect(nextPhase({ extraPhases: [], regularPhases: 5 })).toBeNull();
  });
  it('614.10: a pending skip passes over the step once; a skipped combat phase passes over all its steps', () => {
    const ctx = { turn: 3, seats: ['A', 'B'], startingPlayer: 'A', activePlayer: 'A', skipping: null, skips: { A: { draw: 1, combat: 1 } } };
    expect(stepSkip(ctx, 'beginning', 'draw')).toMatchObject({ record: { step: 'draw', rule: '614.10' }, skips: { A: { combat: 1 } } });
    const combat = stepSkip(ctx, 'combat', 'beginningOfCombat');
    expect(combat?.record).toEqual({ phase: 'combat', rule: '614.10' });
    expect(stepSkip({ ...ctx, skipping: combat?.record ?? null }, 'combat', 'declareAttackers')?.record).toBe(combat?.record);
    expect(stepSkip(ctx, 'beginning', 'upkeep')).toBeNull();
  });
});

describe('combat damage (CR 510.1, 510.4, 800.4e)', () => {
  const combat = {
    attackers: [
      { id: 'ds', defender: 'B', doubleStrike: true },
      { id: 'fs', defender: 'B', firstStrike: true },
      { id: 'plain', defender: 'C' },
    ],
    blockers: [{ id: 'wall', attacker: 'fs', player: 'B' }],
    declaredBy: ['B', 'C'],
    firstStrikeStep: false,
  };
  it('510.4: first strikers and double strikers deal damage first; then the rest and double strikers', () => {
    expect(hasFirstStrikeCombatant({ combat })).toBe(true);
    expect(creaturesDealingDamage({ combat, players: ['A', 'B', 'C'] }, true)).toEqual(['ds', 'fs']);
    expect(creaturesDealingDamage({ combat: { ...combat, firstStrikeStep: true }, players: ['A', 'B', 'C'] }, false)).toEqual(['ds', 'plain', 'wall']);
  });
  it('800.4e: an attacker whose defending player left deals no damage', () => {
    expect(creaturesDealingDamage({ combat, players: ['A', 'B'] }, false)).toEqual(['ds', 'fs', 'wall']);
  });
});
