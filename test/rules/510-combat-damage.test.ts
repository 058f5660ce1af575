/** The two combat damage steps of a combat with first strike (CR 510.4, 702.7c, 509.1h, 510.1c). */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';

/** Turn 1 of a 2-player game at the declare blockers step: A's first-striker attacks B and B's wall blocks it. */
function blockedFirstStriker() {
  const t = play({ players: ['A', 'B'] });
  t.passUntil({ step: 'declareAttackers' });
  t.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'striker', defender: 'B', firstStrike: true }] });
  t.passUntil({ step: 'declareBlockers' });
  t.send({ type: 'DECLARE_BLOCKERS', player: 'B', blockers: [{ id: 'wall', attacker: 'striker' }] });
  return t;
}

const damageSteps = (t: ReturnType<typeof play>) => t.emittedOf('combatDamage').map((e) => (e.type === 'combatDamage' ? { first: e.first, creatures: e.creatures } : null));

describe('first and second combat damage steps (CR 510.4)', () => {
  it('510.4: a creature with first strike as the first step began deals no damage in the second, even when it dealt none in the first (its blocker left, 509.1h, 510.1c)', () => {
    const t = blockedFirstStriker();
    t.send({ type: 'REMOVE_FROM_COMBAT', id: 'wall' });
    t.passUntil({ step: 'firstStrikeDamage' });
    // A creature without first strike enters the battlefield blocking it during the first step (509.4).
    t.send({ type: 'ADD_BLOCKER', id: 'saproling', attacker: 'striker' });
    t.passUntil({ step: 'endOfCombat' });
    expect(damageSteps(t)).toEqual([
      { first: true, creatures: [] },
      { first: false, creatures: ['saproling'] },
    ]);
  });

  it('702.7c: first strike given after the first step began does not stop a creature dealing damage in the second step', () => {
    const t = blockedFirstStriker();
    t.passUntil({ step: 'firstStrikeDamage' });
    t.send({ type: 'SET_COMBAT_ABILITIES', id: 'wall', firstStrike: true });
    t.passUntil({ step: 'endOfCombat' });
    expect(damageSteps(t)).toEqual([
      { first: true, creatures: ['striker'] },
      { first: false, creatures: ['wall'] },
    ]);
  });

  it('510.4, 702.4c: a creature that has double strike deals damage in both steps; one that lost first strike does not deal it again', () => {
    const t = blockedFirstStriker();
    t.passUntil({ step: 'firstStrikeDamage' });
    t.send({ type: 'SET_COMBAT_ABILITIES', id: 'striker', firstStrike: false });
    t.passUntil({ step: 'endOfCombat' });
    expect(damageSteps(t)).toEqual([
      { first: true, creatures: ['striker'] },
      { first: false, creatures: ['wall'] },
    ]);
  });
});

describe('combat damage when a hero of a team that plays on leaves (CR 800.4e, 510.1c-d, Archenemy 904)', () => {
  const archenemy = () => play({ players: ['E', 'H1', 'H2'], variant: 'archenemy', teams: [{ id: 'arch', players: ['E'] }, { id: 'heroes', players: ['H1', 'H2'] }] });

  it("800.4e, 510.1c-d: a blocked attacker whose defending player left still deals its damage to its blocker, and the blocker to it; an unblocked one deals none", () => {
    const t = archenemy();
    t.passUntil({ step: 'declareAttackers' });
    t.send({ type: 'DECLARE_ATTACKERS', player: 'E', attackers: [{ id: 'X', defender: 'H1' }, { id: 'Z', defender: 'H2' }, { id: 'W', defender: 'H1' }] });
    t.passUntil({ step: 'declareBlockers' });
    t.send({ type: 'DECLARE_BLOCKERS', player: 'H2', blockers: [{ id: 'Y', attacker: 'X' }] });
    t.send({ type: 'CONCEDE', player: 'H1' });
    t.clearEmitted();
    t.passUntil({ step: 'endOfCombat' });
    const dealt = t.emittedOf('combatDamage').flatMap((e) => (e.type === 'combatDamage' ? e.creatures : []));
    expect([...dealt].sort()).toEqual(['X', 'Y', 'Z']);
  });

  it('800.4a: a hero who leaves takes no teammate\'s blocker out of combat, whoever declared the team\'s blocks (the host removes the leaver\'s own creatures)', () => {
    for (const declarer of ['H1', 'H2']) {
      const t = archenemy();
      t.passUntil({ step: 'declareAttackers' });
      t.send({ type: 'DECLARE_ATTACKERS', player: 'E', attackers: [{ id: 'X', defender: 'H1' }, { id: 'Z', defender: 'H2' }] });
      t.passUntil({ step: 'declareBlockers' });
      t.send({ type: 'DECLARE_BLOCKERS', player: declarer, blockers: [{ id: 'Y1', attacker: 'X' }, { id: 'Y2', attacker: 'Z' }] });
      t.send({ type: 'CONCEDE', player: 'H2' });
      expect(t.view().combat?.blockers.map((b) => b.id), declarer).toEqual(['Y1', 'Y2']);
    }
  });
});
