/**
 * A tiny DSL for flow tests: one small game per test, read like the rules.
 *
 *   const t = play({ players: ['A', 'B'] });
 *   t.passUntil({ step: 'declareAttackers' });
 *   t.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [] });
 *   t.refused({ type: 'PLAY_LAND', player: 'B' }, 'ILLEGAL_ACTION', '305.3');
 */
import { expect } from 'vitest';
import { createGame } from '../../src/game/create.js';
import { type Game, type GameOptions } from '../../src/game/types.js';
import type { EmittedEvent, TurnView } from '../../src/contract.js';
import { mismatch } from '../../src/scenarios/match.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';

export interface Play {
  game: Game;
  view(): TurnView;
  /** Everything emitted since the game was created (or since `clearEmitted`). */
  emitted: EmittedEvent[];
  /** The emitted events of the given types. */
  emittedOf(...types: EmittedEvent['type'][]): EmittedEvent[];
  clearEmitted(): void;
  send(event: unknown): void;
  /** Each player passes priority in turn. */
  pass(...players: string[]): void;
  /** Answers what is awaited with the plainest input until the view matches. */
  passUntil(pattern: Partial<Record<keyof TurnView, unknown>>, max?: number): void;
  /** The event is refused with that code (and rule), and the game is byte-identical afterwards. */
  refused(event: unknown, code: string, rule?: string): void;
  expectView(pattern: Partial<Record<keyof TurnView, unknown>>): void;
}

export function play(options: GameOptions): Play {
  const game = createGame(options);
  const t: Play = {
    game,
    view: () => game.view(),
    emitted: [],
    emittedOf: (...types) => t.emitted.filter((e) => types.includes(e.type)),
    clearEmitted: () => {
      t.emitted.length = 0;
    },
    send(event) {
      const result = game.send(event);
      expect(result, `send ${JSON.stringify(event)}`).toMatchObject({ ok: true });
    },
    pass(...players) {
      for (const player of players) t.send({ type: 'PASS_PRIORITY', player });
    },
    passUntil(pattern, max = 500) {
      for (let i = 0; mismatch(pattern, game.view()) !== null; i++) {
        if (i >= max) throw new Error(`passUntil ${JSON.stringify(pattern)} not reached: ${JSON.stringify(game.view())}`);
        t.send(plainestAnswer(game.view()));
      }
    },
    refused(event, code, rule) {
      const view = JSON.stringify(game.view());
      const persisted = JSON.stringify(game.persist());
      const result = game.send(event);
      expect(result.ok, `send ${JSON.stringify(event)} should be refused`).toBe(false);
      if (!result.ok) {
        expect(result.error.code).toBe(code);
        if (rule !== undefined) expect(result.error.rule).toBe(rule);
        expect(result.error.message.length).toBeGreaterThan(10);
      }
      expect(JSON.stringify(game.view())).toBe(view);
      expect(JSON.stringify(game.persist())).toBe(persisted);
    },
    expectView(pattern) {
      expect(mismatch(pattern, game.view())).toBeNull();
    },
  };
  // The events as the rules describe them: `seq` (CONTRACT v3) is the contract's, tested in test/contract.
  game.on('*', ({ seq: _seq, ...e }) => t.emitted.push(e as EmittedEvent));
  return t;
}
