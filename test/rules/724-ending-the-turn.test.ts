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

describe('ending the turn during combat, era by era (classic 509.1a-b; CR 724.1c-d)', () => {
  /** The combat as the first checkpoint of END_TURN (its check of state-based actions) shows it, with a bear attacking and a wall blocking it. */
  function combatAtTheCheck(rules: 'current' | 'm10' | 'classic', end: 'END_TURN' | 'END_COMBAT') {
    let watching = false;
    const seen: (TurnView['combat'] | undefined)[] = [];
    const game = createGame({ players: ['A', 'B'], rules, hooks: { checkpoint: (v) => void (watching && seen.push(v.combat)) } });
    for (let i = 0; i < 50 && game.view().awaiting?.kind !== 'declareAttackers'; i++) game.send(plainestAnswer(game.view()));
    game.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear', defender: 'B' }] });
    for (let i = 0; i < 10 && game.view().awaiting?.kind !== 'declareBlockers'; i++) game.send(plainestAnswer(game.view()));
    game.send({ type: 'DECLARE_BLOCKERS', player: 'B', blockers: [{ id: 'wall', attacker: 'bear' }] });
    watching = true;
    expect(game.send({ type: end }).ok).toBe(true);
    return { check: seen[0], after: game.view() };
  }
  const ids = (combat: TurnView['combat'] | undefined) => ({ attackers: combat?.attackers.map((a) => a.id), blockers: combat?.blockers.map((b) => b.id) });

  it("509.1a-b ('classic', May 2009): the attacking and blocking creatures leave combat with the stack, before the check of state-based effects", () => {
    const { check, after } = combatAtTheCheck('classic', 'END_TURN');
    expect(ids(check)).toEqual({ attackers: [], blockers: [] });
    expect(after).toMatchObject({ turn: 2, combat: null });
  });

  it("724.1c-d ('current', and 'm10' as its last text said, 721.1c-d of July 2024): they are still in combat at the check, and leave it as the step ends", () => {
    for (const rules of ['current', 'm10'] as const) {
      const { check, after } = combatAtTheCheck(rules, 'END_TURN');
      expect(ids(check), rules).toEqual({ attackers: ['bear'], blockers: ['wall'] });
      expect(after, rules).toMatchObject({ turn: 2, combat: null });
    }
  });

  it("724.2c-d: ending the combat phase checks state-based actions before the creatures leave combat, in every era ('classic' had no such rule)", () => {
    for (const rules of ['current', 'm10', 'classic'] as const) expect(ids(combatAtTheCheck(rules, 'END_COMBAT').check), rules).toEqual({ attackers: ['bear'], blockers: ['wall'] });
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
