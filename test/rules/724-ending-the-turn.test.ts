/** Ending the turn and the combat phase, in the order of CR 724.1 and 724.2. */
import { describe, expect, it } from 'vitest';
import { createGame, type EmittedEvent, type TurnView } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';

/** A game whose checkpoint records what it sees; played plainly until `until` holds. */
function recorded(rules: 'current' | 'classic', until: (v: TurnView) => boolean) {
  const checks: { step: string; priority: string | null; manaA: number; pending: string[] }[] = [];
  const game = createGame({ players: ['A', 'B'], rules, hooks: { checkpoint: (v, pending) => void checks.push({ step: v.step, priority: v.priority, manaA: v.manaPool.A ?? 0, pending: pending.map((e) => e.type) }) } });
  for (let i = 0; i < 200 && !until(game.view()); i++) game.send(plainestAnswer(game.view()));
  return { game, checks };
}

const types = (events: readonly EmittedEvent[]) => events.map((e) => e.type);

describe('ending the turn (CR 724.1)', () => {
  it('724.1b-d: the stack is exiled and state-based actions checked before the step ends, so before the mana pools empty (500.5)', () => {
    const { game, checks } = recorded('current', (v) => v.step === 'main');
    game.send({ type: 'ADD_MANA', player: 'A', amount: 2 });
    game.send({ type: 'CAST_SPELL', player: 'A', id: 's1', speed: 'sorcery' });
    checks.length = 0;
    const result = game.send({ type: 'END_TURN' });
    if (!result.ok) throw new Error(result.error.message);
    const events = types(result.events);
    expect(events.indexOf('removedFromStack')).toBeLessThan(events.indexOf('manaEmptied'));
    expect(events.indexOf('manaEmptied')).toBeLessThan(events.indexOf('stepBegan'));
    // The check of 724.1c: nobody holds priority, the stack is gone, the mana still there.
    expect(checks[0]).toEqual({ step: 'main', priority: null, manaA: 2, pending: ['removedFromStack'] });
  });

  it("724.1d, 'classic': mana burns as the phase ends, after the check of state-based actions", () => {
    const { game, checks } = recorded('classic', (v) => v.step === 'main');
    game.send({ type: 'ADD_MANA', player: 'A', amount: 1 });
    checks.length = 0;
    const result = game.send({ type: 'END_TURN' });
    if (!result.ok) throw new Error(result.error.message);
    expect(checks[0]?.manaA).toBe(1);
    expect(types(result.events).slice(0, 3)).toEqual(['manaEmptied', 'manaBurn', 'stepBegan']);
  });

  it('724.1d: a combat ends after the check, with its creatures and its until-end-of-combat effects', () => {
    const { game, checks } = recorded('current', (v) => v.step === 'declareAttackers' && v.awaiting?.kind === 'declareAttackers');
    game.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear', defender: 'B' }] });
    game.send({ type: 'ADD_EFFECT', id: 'combat-only', effect: { kind: 'keepMana' }, duration: 'endOfCombat' });
    checks.length = 0;
    const result = game.send({ type: 'END_TURN' });
    if (!result.ok) throw new Error(result.error.message);
    expect(checks[0]?.step).toBe('declareAttackers');
    expect(types(result.events).slice(0, 2)).toEqual(['effectEnded', 'stepBegan']);
    expect(game.view()).toMatchObject({ turn: 2, combat: null });
  });
});

describe("ending the turn in the 'classic' era (509.1, May 2009: no rule drops the triggers waiting)", () => {
  it('a trigger waiting as the turn ends goes on the stack in the cleanup step, where the active player gets priority (314.3); today it ceases to exist (724.1a)', () => {
    for (const rules of ['classic', 'current'] as const) {
      const game = createGame({ players: ['A', 'B'], rules });
      for (let i = 0; i < 50 && game.view().awaiting?.kind !== 'declareAttackers'; i++) game.send(plainestAnswer(game.view()));
      game.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear', defender: 'B' }] });
      for (let i = 0; i < 10 && game.view().awaiting?.kind !== 'declareBlockers'; i++) game.send(plainestAnswer(game.view()));
      // Blockers are awaited: nobody holds priority, and a trigger waits.
      expect(game.send({ type: 'TRIGGER', triggers: [{ id: 'w', controller: 'B' }] }).ok).toBe(true);
      expect(game.send({ type: 'END_TURN' }).ok).toBe(true);
      if (rules === 'classic') expect(game.view()).toMatchObject({ turn: 1, step: 'cleanup', priority: 'A', stack: [{ id: 'w', controller: 'B', kind: 'trigger' }] });
      else expect(game.view()).toMatchObject({ turn: 2, stack: [] });
    }
  });
});

describe('ending the combat phase (CR 724.2)', () => {
  it('724.2b-d: the stack is exiled and state-based actions checked before the step and the phase end and the mana empties', () => {
    const { game, checks } = recorded('current', (v) => v.step === 'beginningOfCombat');
    game.send({ type: 'ADD_MANA', player: 'A', amount: 2 });
    game.send({ type: 'CAST_SPELL', player: 'A', id: 's1', speed: 'instant' });
    checks.length = 0;
    const result = game.send({ type: 'END_COMBAT' });
    if (!result.ok) throw new Error(result.error.message);
    const events = types(result.events);
    expect(events.indexOf('removedFromStack')).toBeLessThan(events.indexOf('manaEmptied'));
    expect(checks[0]).toMatchObject({ step: 'beginningOfCombat', priority: null, manaA: 2 });
    expect(game.view()).toMatchObject({ phase: 'postcombatMain', combat: null, manaPool: { A: 0, B: 0 } });
  });
});
