/**
 * CONTRACT v4, "What a seat sees": a property (fast-check) of the example card game: at every
 * version of random games, no seatView of a seat contains a card of the other seat's hand or of
 * any library, and a spectator's contains no hand or library card at all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ExampleState } from '../../examples/cards/definition.js';
import { playGame } from './play.js';

/** The ids of the cards `seat` may not see: the other seats' hands and every library. */
function hidden(state: ExampleState, seat: string | null): string[] {
  const ids: string[] = [];
  for (const [player, side] of Object.entries(state.sides)) {
    ids.push(...side.library);
    if (player !== seat) ids.push(...side.hand);
  }
  return ids;
}

describe("no seat sees the other seat's hand or library (issue 32)", () => {
  it('holds at every version of random games, for each seat and a spectator', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 20, max: 160 }), (seed, sends) => {
        let checked = 0;
        playGame(seed, {
          maxSends: sends,
          onSend: (game) => {
            const state = game.cards();
            for (const seat of ['alice', 'bob', null]) {
              const seen = JSON.stringify(game.cards(seat === null ? { spectator: true } : { seat }));
              for (const id of hidden(state, seat)) expect(seen.includes(`"${id}"`), `${seat ?? 'a spectator'} sees ${id}`).toBe(false);
              // The seat's own hand is there: the check looks where a card would be.
              if (seat !== null) for (const id of state.sides[seat]?.hand ?? []) expect(seen.includes(`"${id}"`)).toBe(true);
            }
            checked++;
          },
        });
        expect(checked).toBeGreaterThan(0);
      }),
      { numRuns: 15, seed: 32 },
    );
  });
});
