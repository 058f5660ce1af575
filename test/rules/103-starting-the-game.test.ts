/** The start of the game: mulligans (CR 103.5, 800.6). */
import { describe, expect, it } from 'vitest';
import { createGame } from '../../src/index.js';

/** Player A mulligans as often as allowed (the others keep); how many, and what A then bottoms. */
function mulliganAway(players: string[]) {
  const game = createGame({ players, pregame: true, seed: 1 });
  const chooser = game.view().awaiting?.player as string;
  expect(game.send({ type: 'CHOOSE_STARTING_PLAYER', player: chooser, starting: 'A' }).ok).toBe(true);
  let taken = 0;
  let refusal: string | null = null;
  for (let i = 0; i < 30; i++) {
    const a = game.view().awaiting;
    if (a?.kind !== 'mulligan') break;
    if (a.player !== 'A') {
      game.send({ type: 'KEEP', player: a.player });
      continue;
    }
    const listed = game.legalActions('A').some((x) => x.type === 'MULLIGAN');
    const r = game.send({ type: 'MULLIGAN', player: 'A' });
    // legalActions offers a mulligan exactly when one is accepted.
    expect(listed).toBe(r.ok);
    if (!r.ok) {
      refusal = r.error.rule ?? null;
      break;
    }
    taken++;
  }
  game.send({ type: 'KEEP', player: 'A' });
  return { taken, refusal, awaiting: game.view().awaiting };
}

describe('mulligans (CR 103.5, 800.6)', () => {
  it('103.5: in a two-player game a player may mulligan until they would keep no card', () => {
    expect(mulliganAway(['A', 'B'])).toEqual({ taken: 7, refusal: '103.5', awaiting: { kind: 'bottom', player: 'A', count: 7 } });
  });

  it("800.6: in a multiplayer game the free first mulligan does not count toward the number a player may take", () => {
    expect(mulliganAway(['A', 'B', 'C'])).toEqual({ taken: 8, refusal: '103.5', awaiting: { kind: 'bottom', player: 'A', count: 7 } });
  });
});
