/** The defending player chosen in the beginning of combat step (CR 506.2a, 507.1), and what a skipped step leaves (614.10a). */
import { describe, expect, it } from 'vitest';
import { play } from '../support/dsl.js';

/** A three-player game at A's declare attackers step, the beginning of combat step skipped (SKIP_NEXT, 614.10). */
function skippedBeginningOfCombat(attack: 'chooseOne' | 'left') {
  const t = play({ players: ['A', 'B', 'C'], attack });
  t.passUntil({ step: 'main' });
  t.send({ type: 'SKIP_NEXT', player: 'A', what: 'beginningOfCombat' });
  t.passUntil({ step: 'declareAttackers' });
  return t;
}

describe('the defending player (CR 506.2a, 507.1)', () => {
  it("506.2a, 507.1, 614.10a: with one defending player chosen, a skipped beginning of combat step chooses nobody, and nobody can be attacked", () => {
    const t = skippedBeginningOfCombat('chooseOne');
    expect(t.emittedOf('stepBegan').map((e) => (e as { step: string }).step)).not.toContain('beginningOfCombat');
    t.expectView({ awaiting: { kind: 'declareAttackers', player: 'A', defenders: [] } });
    t.refused({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'x', defender: 'B' }, { id: 'y', defender: 'C' }] }, 'ILLEGAL_ACTION', '506.2');
    t.refused({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'x', defender: 'B' }] }, 'ILLEGAL_ACTION', '506.2');
    t.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [] });
    expect(t.view().step).toBe('declareAttackers');
  });

  it('803.1a: attack left is no choice: with the step skipped the opponent on the left may still be attacked', () => {
    const t = skippedBeginningOfCombat('left');
    t.expectView({ awaiting: { kind: 'declareAttackers', player: 'A', defenders: ['B'] } });
    t.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'x', defender: 'B' }] });
  });

  it('507.1, 614.10a: the choice is made for each combat: an additional combat phase whose beginning step is skipped has no defending player', () => {
    const t = play({ players: ['A', 'B', 'C'], attack: 'chooseOne' });
    t.passUntil({ step: 'beginningOfCombat' });
    t.send({ type: 'CHOOSE_DEFENDER', player: 'A', defender: 'C' });
    t.send({ type: 'ADD_EXTRA_COMBAT', followedByMain: false });
    // Given once the step has begun, the skip waits for the next beginning of combat step (614.10).
    t.send({ type: 'SKIP_NEXT', player: 'A', what: 'beginningOfCombat' });
    t.passUntil({ step: 'declareAttackers' });
    t.expectView({ awaiting: { kind: 'declareAttackers', defenders: ['C'] } });
    t.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'x', defender: 'C' }] });
    t.passUntil({ step: 'endOfCombat' });
    t.passUntil({ step: 'declareAttackers' });
    t.expectView({ phase: 'combat', awaiting: { kind: 'declareAttackers', defenders: [] } });
  });

});
