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

describe('the schedule before turn 1 (CR 103, CONTRACT TurnView.schedule)', () => {
  it('lists turn 1, the starting player\'s, first while the pregame runs, then the turns a running turn 1 shows', () => {
    for (const players of [['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']]) {
      const game = createGame({ players, pregame: true, seed: 7 });
      const chooser = game.view().awaiting?.player as string;
      const starting = players[1] as string;
      expect(game.send({ type: 'CHOOSE_STARTING_PLAYER', player: chooser, starting }).ok).toBe(true);
      const before = game.view().schedule.turns.map((t) => t.player);
      expect(before.length).toBeGreaterThanOrEqual(players.length + 1);
      for (let i = 0; i < 40 && game.view().phase === 'pregame'; i++) {
        const a = game.view().awaiting;
        if (a?.kind === 'mulligan') expect(game.send({ type: 'KEEP', player: a.player }).ok).toBe(true);
        else if (a?.kind === 'openingHandActions') expect(game.send({ type: 'OPENING_HAND_DONE', player: a.player }).ok).toBe(true);
        else throw new Error(`unexpected decision ${JSON.stringify(a)}`);
      }
      const view = game.view();
      expect(view.turn).toBe(1);
      expect(view.activePlayer).toBe(starting);
      expect(before[0]).toBe(starting);
      expect(before.slice(1)).toEqual(view.schedule.turns.map((t) => t.player));
    }
  });
});
