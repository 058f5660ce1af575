/**
 * `concreteEvent` (src/simulation.ts), the random host of the server's bots, the command line's
 * live games and the recorded conformance hosts: in Grand Melee an action a player may take in
 * several turns names its turn marker (CR 807.4), and the event made from it keeps that marker and
 * is filled from that marker's turn (807.5: its own decision, stack and combat), so a host driving
 * random legal actions has none refused.
 */
import { describe, expect, it } from 'vitest';
import { createGame } from '../../src/index.js';
import { grandMelee } from '../../src/variants.js';
import { concreteEvent, seededRandom } from '../../src/simulation.js';

describe('concreteEvent keeps the turn marker of a Grand Melee action (CR 807.4)', () => {
  it('plays 600 random legal actions of a 10-player Grand Melee game without a refusal', () => {
    const game = createGame({ players: Array.from({ length: 10 }, (_, i) => `P${i}`), variant: 'grandMelee', seed: 7, use: [grandMelee] });
    const random = seededRandom(3);
    let marked = 0;
    for (let i = 0; i < 600 && game.view().gameOver === null; i++) {
      const legal = game.legalActions().filter((a) => a.type !== 'CONCEDE');
      const action = legal[Math.floor(random() * legal.length)]!;
      const event = concreteEvent(action, game.view(), random, i);
      if ('turnMarker' in action) {
        marked++;
        expect(event.turnMarker).toBe(action.turnMarker);
      }
      const result = game.send(event as unknown);
      expect(result.ok ? null : result.error, `${JSON.stringify(event)}`).toBeNull();
    }
    expect(marked).toBeGreaterThan(0);
  });

  it('fills a choice from the decision of the action\'s own turn marker, not the first turn\'s (CR 807.5)', () => {
    const game = createGame({ players: Array.from({ length: 10 }, (_, i) => `P${i}`), variant: 'grandMelee', seed: 7, use: [grandMelee] });
    const random = seededRandom(3);
    // Players pass most of the time, so that both turns reach combat and its choices.
    const filled = new Map<string, number>();
    for (let i = 0; i < 4000 && game.view().gameOver === null; i++) {
      const legal = game.legalActions().filter((a) => a.type !== 'CONCEDE');
      const passes = legal.filter((a) => a.type === 'PASS_PRIORITY');
      const action = passes.length > 0 && random() < 0.75 ? passes[0]! : legal[Math.floor(random() * legal.length)]!;
      const event = concreteEvent(action, game.view(), random, i);
      const marker = (action as { turnMarker?: number }).turnMarker;
      if (marker !== undefined && marker !== 1 && action.choose.length > 0) filled.set(action.type, (filled.get(action.type) ?? 0) + 1);
      const result = game.send(event as unknown);
      expect(result.ok ? null : result.error, `${JSON.stringify(event)}`).toBeNull();
    }
    // The second turn marker's own choices were made (a defender among them: 807.4 with 803's attack left and right).
    expect(filled.get('CHOOSE_DEFENDER') ?? 0).toBeGreaterThan(0);
  });
});
