/** Pure rules: turn order, APNAP, skips and combat damage (CR 101.4, 103.8, 500.7, 508.8, 510.4, 614.10, 800.4). */
import { describe, expect, it } from 'vitest';
import type { CombatState, StepEntry } from '../../src/state.js';
import { apnapOrder, nextTurn } from '../../src/rules/turnOrder.js';
import { skipsFirstDraw, stepSkipRule } from '../../src/rules/schedule.js';
import { combatAttacker, creaturesDealingDamage, hasFirstStrikeCombatant, newCombat, withBlockers } from '../../src/rules/combat.js';

const table = { seats: ['A', 'B', 'C', 'D'], players: ['A', 'B', 'C', 'D'] };

describe('turn order (CR 101.4, 800.4)', () => {
  it('101.4: APNAP starts with the active player and goes round the table', () => {
    expect(apnapOrder({ ...table, turnOwner: 'C' })).toEqual(['C', 'D', 'A', 'B']);
  });
  it('800.4j: without the departed active player, APNAP starts with the next seat', () => {
    expect(apnapOrder({ seats: table.seats, players: ['A', 'B', 'D'], turnOwner: 'C' })).toEqual(['D', 'A', 'B']);
  });
  it('103.8a, 103.8b, 103.8c: only the starting player (team) of a two-player (Two-Headed Giant) game skips the first draw', () => {
    const base = { turn: 1, activePlayer: 'A', startingPlayer: 'A', variant: 'freeForAll' as const };
    expect(skipsFirstDraw({ ...base, seats: ['A', 'B'] })).toBe(true);
    expect(skipsFirstDraw({ ...base, seats: ['A', 'B', 'C'] })).toBe(false);
    expect(skipsFirstDraw({ ...base, seats: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant' })).toBe(true);
    expect(skipsFirstDraw({ ...base, turn: 2, seats: ['A', 'B'], activePlayer: 'B' })).toBe(false);
  });
});

describe('the next turn (CR 500.7, 614.10, 800.4k)', () => {
  const base = { ...table, extraTurns: [] as { player: string }[], rotation: 'A', skips: {}, effects: [] };
  it('goes to the next player in turn order', () => {
    expect(nextTurn(base)).toMatchObject({ player: 'B', extra: false, rotation: 'B' });
  });
  it('500.7: the most recently created extra turn comes first, and the rotation waits', () => {
    expect(nextTurn({ ...base, extraTurns: [{ player: 'C' }, { player: 'D' }] })).toMatchObject({ player: 'D', extra: true, rotation: 'A', extraTurns: [{ player: 'C' }] });
  });
  it('614.10: a skipped turn is consumed and the next player takes it', () => {
    const next = nextTurn({ ...base, skips: { B: { turn: 2 } } });
    expect(next).toMatchObject({ player: 'C', skips: { B: { turn: 1 } } });
    expect(next.skipped.map((t) => t.player)).toEqual(['B']);
  });
  it('614.10: a skip effect on turns passes every turn of that player over, and is not used up', () => {
    const effects = [{ id: 'e', effect: { kind: 'skip' as const, what: 'turn' as const, players: ['B'] }, duration: 'untilRemoved' as const, since: 1 }];
    expect(nextTurn({ ...base, effects })).toMatchObject({ player: 'C' });
  });
  it('800.4k: a departed player never begins a turn', () => {
    expect(nextTurn({ ...base, players: ['A', 'C', 'D'], extraTurns: [{ player: 'B' }] })).toMatchObject({ player: 'C' });
  });
});

describe('steps passed over (CR 103.8a, 508.8, 510.4, 614.10)', () => {
  const ctx = { activePlayer: 'A', effects: [], turn: 3, seats: ['A', 'B'], startingPlayer: 'A', combat: null, phase: 'beginning' as const, variant: 'freeForAll' as const };
  const entry = (step: StepEntry['step']): StepEntry => ({ step });
  it('614.10: a pending skip passes over the step once, using it up', () => {
    const counts = { A: { draw: 1 } };
    expect(stepSkipRule(ctx, 'beginning', entry('draw'), counts)).toBe('614.10');
    expect(stepSkipRule(ctx, 'beginning', entry('draw'), counts)).toBeNull();
    expect(stepSkipRule(ctx, 'beginning', entry('upkeep'), counts)).toBeNull();
  });
  it('508.8: without attackers the declare blockers and damage steps are passed over', () => {
    const combat: CombatState = { ...newCombat(), attacksDeclared: true };
    expect(stepSkipRule({ ...ctx, phase: 'combat', combat }, 'combat', entry('declareBlockers'), {})).toBe('508.8');
    expect(stepSkipRule({ ...ctx, phase: 'combat', combat }, 'combat', entry('combatDamage'), {})).toBe('508.8');
  });
  it('510.4: no first-strike damage step without first or double strike in combat', () => {
    const combat: CombatState = { ...newCombat(), attacksDeclared: true, declared: true, attackers: [combatAttacker({ id: 'bear', defender: 'B' })] };
    expect(stepSkipRule({ ...ctx, phase: 'combat', combat }, 'combat', entry('firstStrikeDamage'), {})).toBe('510.4');
    expect(stepSkipRule({ ...ctx, phase: 'combat', combat }, 'combat', entry('combatDamage'), {})).toBeNull();
  });
});

describe('combat damage (CR 510.1, 510.4, 800.4e)', () => {
  const attackers = [combatAttacker({ id: 'ds', defender: 'B', doubleStrike: true }), combatAttacker({ id: 'fs', defender: 'B', firstStrike: true }), combatAttacker({ id: 'plain', defender: 'C' })];
  const combat = withBlockers({ ...newCombat(), attacksDeclared: true, declared: true, attackers }, 'B', [{ id: 'wall', attacker: 'fs' }]);
  it('510.4: first strikers and double strikers deal damage first; then the rest and double strikers', () => {
    expect(hasFirstStrikeCombatant({ combat })).toBe(true);
    expect(creaturesDealingDamage({ combat, players: ['A', 'B', 'C'] }, true)).toEqual(['ds', 'fs']);
    const after = { ...combat, firstStrikeStep: true, attackers: combat.attackers.map((a) => ({ ...a, dealtFirst: a.id !== 'plain' })) };
    expect(creaturesDealingDamage({ combat: after, players: ['A', 'B', 'C'] }, false)).toEqual(['ds', 'plain', 'wall']);
  });
  it('800.4e: an attacker whose defending player left deals no damage', () => {
    expect(creaturesDealingDamage({ combat, players: ['A', 'B'] }, false)).toEqual(['ds', 'fs', 'wall']);
  });
});
