/**
 * `concreteEvent` (src/simulation.ts), the random host of the server's bots, the command line's
 * live games and the recorded conformance hosts: in Grand Melee an action a player may take in
 * several turns names its turn marker (CR 807.4), and the event made from it keeps that marker,
 * so a host driving random legal actions has none refused.
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
});
