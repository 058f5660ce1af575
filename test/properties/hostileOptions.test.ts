/**
 * Hostile options (issue 22, point 2): a getter that throws, a Proxy whose traps throw, a getter
 * that answers differently at each read. createGame and restoreGame throw INVALID_OPTIONS naming
 * the option (CONTRACT "createGame": bad options throw a TurnEngineError with code
 * INVALID_OPTIONS), never the host's own exception, and read each option once: the game is made
 * with the answer of that one read.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, TurnEngineError } from '../../src/index.js';
import { prototypeProblem } from './hostile.js';

const thrower = () => {
  throw new Error('trap');
};
const everyTrap = { get: thrower, has: thrower, ownKeys: thrower, getOwnPropertyDescriptor: thrower, getPrototypeOf: thrower };

/** What a factory threw: the TurnEngineError's code and message (anything else fails). */
function thrown(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (err) {
    expect(err, String(err)).toBeInstanceOf(TurnEngineError);
    return { code: (err as TurnEngineError).code, message: (err as TurnEngineError).message };
  }
  throw new Error('expected a TurnEngineError');
}

/** `base` with `key` read through a getter. */
const withGetter = (base: object, key: string, get: () => unknown) => Object.defineProperty({ ...base }, key, { enumerable: true, configurable: true, get });

const GAME_OPTIONS = ['players', 'startingPlayer', 'rules', 'maxHandSize', 'handSize', 'attack', 'orderTriggers', 'pregame', 'variant', 'teams', 'rangeOfInfluence', 'seed', 'hooks', 'listeners', 'inspect'];
const BASE = { players: ['A', 'B'] };

describe('createGame: hostile options are INVALID_OPTIONS naming the option', () => {
  it.each(GAME_OPTIONS)('a getter of %s that throws', (key) => {
    expect(thrown(() => createGame(withGetter(BASE, key, thrower) as never))).toEqual({ code: 'INVALID_OPTIONS', message: `options.${key}: could not be read (trap)` });
  });

  it('a Proxy whose every trap throws', () => {
    expect(thrown(() => createGame(new Proxy({}, everyTrap) as never))).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('could not be read (trap)') as unknown });
  });

  it.each([
    ['the players', { players: new Proxy(['A', 'B'], everyTrap) }, 'options.players'],
    ['a player', { players: ['A', Object.defineProperty({}, 'length', { get: thrower })] }, 'options.players[1]'],
    ['a team', { players: ['A', 'B', 'C', 'D'], teams: [new Proxy({ id: 't', players: ['A', 'B'] }, everyTrap), { id: 'u', players: ['C', 'D'] }] }, 'options.teams[0]'],
    ['the hooks', { ...BASE, hooks: new Proxy({}, everyTrap) }, 'options.hooks.checkpoint'],
    ['the listeners', { ...BASE, listeners: new Proxy({}, everyTrap) }, 'options.listeners'],
  ])('a Proxy of %s whose every trap throws', (_name, options, field) => {
    const error = thrown(() => createGame(options as never));
    expect(error.code).toBe('INVALID_OPTIONS');
    expect(error.message).toContain(field);
  });

  it('a revoked Proxy as the options or as a list', () => {
    const revoked = () => {
      const { proxy, revoke } = Proxy.revocable([], {});
      revoke();
      return proxy;
    };
    expect(thrown(() => createGame(revoked() as never)).code).toBe('INVALID_OPTIONS');
    expect(thrown(() => createGame({ players: revoked() } as never))).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.players') as unknown });
  });

  it('each option is read once, and the game is made with what that read answered', () => {
    const reads = new Map<string, number>();
    const answers: Record<string, unknown[]> = {
      players: [['A', 'B', 'C'], ['X']],
      startingPlayer: ['B', 'nobody'],
      rules: ['m10', 'modern'],
      maxHandSize: [5, -1],
      handSize: [9, 1.5],
      attack: ['left', 'sideways'],
      seed: [7, 'seven'],
      hooks: [{ checkpoint: () => undefined }, { checkpoint: 5 }],
      listeners: [{ '*': () => undefined }, { '*': 'not a function' }],
    };
    const options = {};
    for (const [key, values] of Object.entries(answers)) {
      Object.defineProperty(options, key, {
        enumerable: true,
        get: () => {
          const n = reads.get(key) ?? 0;
          reads.set(key, n + 1);
          return values[Math.min(n, values.length - 1)];
        },
      });
    }
    const game = createGame(options as never);
    for (const key of Object.keys(answers)) expect(reads.get(key), key).toBe(1);
    const view = game.view();
    expect(view.players).toEqual(['A', 'B', 'C']);
    expect(view.activePlayer).toBe('B');
    expect(view.rules).toBe('m10');
    expect(view.handSizes).toEqual({ A: 9, B: 9, C: 9 });
    expect(view.maxHandSize).toEqual({ A: 5, B: 5, C: 5 });
  });

  it('a list whose length answers differently at each read is read once: its entries are those of that one length', () => {
    let lengthReads = 0;
    const players = new Proxy(['A', 'B', 'C'], { get: (t, k, r) => (k === 'length' ? (lengthReads++ === 0 ? 2 : 10_000_000) : Reflect.get(t, k, r)) });
    const game = createGame({ players } as never);
    expect(lengthReads).toBe(1);
    expect(game.view().players).toEqual(['A', 'B']);
  });

  it('nothing pollutes Object.prototype', () => {
    // An own key '__proto__' (as JSON.parse makes it) is an option createGame does not know: named, never applied.
    expect(() => createGame(JSON.parse('{"players": ["A", "B"], "__proto__": {"polluted": 1}}') as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: 'options.__proto__: is not an option of createGame' }));
    expect(prototypeProblem()).toBeNull();
  });
});

describe('restoreGame: hostile options are INVALID_OPTIONS naming the option', () => {
  const saved = () => JSON.parse(JSON.stringify(createGame({ players: ['A', 'B'] }).persist())) as unknown;

  it.each(['hooks', 'listeners', 'inspect'])('a getter of %s that throws', (key) => {
    expect(thrown(() => restoreGame(saved(), withGetter({}, key, thrower) as never))).toEqual({ code: 'INVALID_OPTIONS', message: `options.${key}: could not be read (trap)` });
  });

  it('a Proxy whose every trap throws', () => {
    expect(thrown(() => restoreGame(saved(), new Proxy({}, everyTrap) as never)).code).toBe('INVALID_OPTIONS');
  });

  it('hooks read once: a getter that answers a hook, then junk, gives a game with the hook', () => {
    let reads = 0;
    let calls = 0;
    const hooks = Object.defineProperty({}, 'checkpoint', {
      enumerable: true,
      get: () => (reads++ === 0 ? () => void calls++ : 'junk'),
    });
    const game = restoreGame(saved(), { hooks } as never);
    expect(reads).toBe(1);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(calls).toBeGreaterThan(0);
  });
});
