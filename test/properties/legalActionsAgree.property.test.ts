/**
 * `legalActions` never lists a decision that `send` refuses (CONTRACT "Game"; issue 22, point 7),
 * in random states reached with hands of any size: hand sizes at and near MAX_AMOUNT (reported
 * with HAND_SIZE, grown by draws, which count a hand up to MAX_AMOUNT: CR 504.1, DISCARD's bound),
 * maximum hand sizes of 0, effects that set and change them. Each listed decision, its choices
 * filled, is accepted by a fork of the game.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allModules } from '../../src/allModules.js';
import { createGame, type TurnEvent } from '../../src/index.js';
import { MAX_AMOUNT } from '../../src/schemas.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, hostEvent, setupArb, sharesTurns } from './harness.js';
import { assertProperty } from './seeds.js';

const SIZES = [0, 7, MAX_AMOUNT - 1, MAX_AMOUNT];

describe('legalActions and send agree whatever the hand sizes (CR 514.1)', () => {
  it('every listed decision is accepted once its choices are filled, with hands of up to MAX_AMOUNT cards', () => {
    let checked = 0;
    let bigDiscards = 0;
    assertProperty(
      fc.property(setupArb, fc.constantFrom(...SIZES), fc.constantFrom(0, 7), fc.integer({ min: 0, max: 120 }), (setup, handSize, maxHandSize, length) => {
        const game = createGame({ ...setup, handSize, maxHandSize, use: allModules });
        const r = seededRandom(setup.seed + 11);
        for (let i = 0; i < length && game.view().gameOver === null; i++) {
          const view = game.view();
          for (const action of game.legalActions()) {
            const event = fill(action, view, r, 10_000 + i, sharesTurns(setup));
            const result = game.fork().send(event);
            expect(result.ok ? 'accepted' : result.error.message, `${JSON.stringify(event)} was listed`).toBe('accepted');
            if (event.type === 'DISCARD' && event.count >= MAX_AMOUNT - 10) bigDiscards++;
            checked++;
          }
          const roll = r();
          const p = view.players[Math.floor(r() * view.players.length)] as string;
          const event: TurnEvent =
            roll < 0.1
              ? { type: 'HAND_SIZE', player: p, size: SIZES[Math.floor(r() * SIZES.length)] as number }
              : roll < 0.15
                ? { type: 'ADD_EFFECT', id: `m${i}`, effect: { kind: 'maxHandSize', ...(r() < 0.5 ? { set: 0 } : { change: -3 }) }, duration: 'endOfTurn' }
                : roll < 0.25
                  ? hostEvent(view, r, i)
                  : (() => {
                      const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
                      const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
                      const action = pass !== undefined && r() < 0.7 ? pass : actions[Math.floor(r() * actions.length)];
                      return action === undefined ? { type: 'END_TURN' } : fill(action, view, r, i, sharesTurns(setup));
                    })();
          game.send(event);
        }
      }),
      { numRuns: 60 },
    );
    expect(checked).toBeGreaterThan(500);
    // Discards of (nearly) MAX_AMOUNT cards, DISCARD's bound, were among those listed and accepted.
    expect(bigDiscards).toBeGreaterThan(0);
  });
});
