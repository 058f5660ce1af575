/** persist() and restoreGame(): the same view and the same future. */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame } from '../../src/game/create.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';
import { simulate } from '../../src/simulation.js';

describe('persistence', () => {
  it('a JSON round trip restores the same view', () => {
    const { game } = simulate({ players: 3, turns: 2, seed: 7 });
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())));
    expect(restored.view()).toEqual(game.view());
    expect(restored.persist()).toEqual(game.persist());
  });

  it('a restored game has the same future', () => {
    const a = createGame({ players: ['A', 'B'], rules: 'classic' });
    a.send({ type: 'ADD_MANA', player: 'A', amount: 2 });
    const b = restoreGame(JSON.parse(JSON.stringify(a.persist())));
    for (let i = 0; i < 60; i++) {
      const event = plainestAnswer(a.view());
      expect(a.send(event)).toEqual(b.send(event));
      expect(b.view()).toEqual(a.view());
    }
  });

  it('a finished game restores as finished', () => {
    const a = createGame({ players: ['A', 'B'] });
    a.send({ type: 'CONCEDE', player: 'A' });
    const b = restoreGame(JSON.parse(JSON.stringify(a.persist())));
    expect(b.view().gameOver).toMatchObject({ winners: ['B'], draw: false });
    const r = b.send({ type: 'PASS_PRIORITY', player: 'B' });
    expect(r.ok === false && r.error.code).toBe('GAME_OVER');
  });

  it('hooks are passed again on restore', () => {
    const a = createGame({ players: ['A', 'B'] });
    let calls = 0;
    const b = restoreGame(a.persist(), { hooks: { checkpoint: () => void calls++ } });
    b.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(calls).toBe(1);
  });

  it('view() is a fresh object each time', () => {
    const a = createGame({ players: ['A', 'B'] });
    const v = a.view();
    v.stack.push({ id: 'x', controller: 'A', kind: 'spell' });
    v.manaPool.A = 99;
    expect(a.view().stack).toEqual([]);
    expect(a.view().manaPool.A).toBe(0);
  });
});
