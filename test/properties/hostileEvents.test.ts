/**
 * Events from untrusted clients (CONTRACT.md "Game": send never throws, for any input): values
 * that are not JSON, getters and proxies that throw, cycles, huge lists and strings. Each is
 * refused with INVALID_EVENT and a short message, changes nothing and pollutes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createGame } from '../../src/index.js';
import { prototypeProblem } from './hostile.js';

const thrower = () => {
  throw new Error('trap');
};
const cyclic: Record<string, unknown> = { type: 'PASS_PRIORITY' };
cyclic.player = cyclic;
const TEN_MB = 'x'.repeat(10 * 1024 * 1024);

const hostile: [string, () => unknown][] = [
  ['a proxy that throws on every trap', () => new Proxy({}, { get: thrower, has: thrower, ownKeys: thrower, getOwnPropertyDescriptor: thrower })],
  ['a getter of type that throws', () => Object.defineProperty({}, 'type', { enumerable: true, get: thrower })],
  ['a getter of player that throws', () => Object.defineProperty({ type: 'PASS_PRIORITY' }, 'player', { enumerable: true, get: thrower })],
  ['a type whose toString and toJSON throw', () => ({ type: { toString: thrower, toJSON: thrower } })],
  ['a player whose toString throws', () => ({ type: 'PASS_PRIORITY', player: { toString: thrower } })],
  ['a cycle', () => cyclic],
  ['1,000,000 attackers', () => ({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: Array.from({ length: 1_000_000 }, (_, i) => ({ id: `a${i}`, defender: 'B' })) })],
  ['1,000,000 triggers', () => ({ type: 'TRIGGER', triggers: Array.from({ length: 1_000_000 }, (_, i) => ({ id: `t${i}`, controller: 'B' })) })],
  ['a 10 MB player id', () => ({ type: 'PASS_PRIORITY', player: TEN_MB })],
  ['a 10 MB type', () => ({ type: TEN_MB })],
  ['a 10 MB object id', () => ({ type: 'CAST_SPELL', player: 'A', id: TEN_MB, speed: 'instant' })],
  ['deeply nested junk', () => ({ type: 'TRIGGER', triggers: JSON.parse(`${'['.repeat(5000)}${']'.repeat(5000)}`) })],
  ['a symbol', () => Symbol('event')],
  ['a bigint', () => 10n],
  ['a function', () => () => ({ type: 'PASS_PRIORITY', player: 'A' })],
  ['an array', () => ['PASS_PRIORITY', 'A']],
  ['NaN as an amount', () => ({ type: 'ADD_MANA', player: 'A', amount: Number.NaN })],
  ['a __proto__ player', () => JSON.parse('{"type": "PASS_PRIORITY", "player": "__proto__"}')],
  ['a reserved player id', () => ({ type: 'CONCEDE', player: 'hasOwnProperty' })],
];

describe('send: hostile events are refused with INVALID_EVENT and change nothing', () => {
  it.each(hostile)('%s', (_name, make) => {
    const game = createGame({ players: ['A', 'B'] });
    const view = JSON.stringify(game.view());
    const persisted = JSON.stringify(game.persist());
    const result = game.send(make());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('INVALID_EVENT');
      expect(result.error.message.length).toBeGreaterThan(5);
      expect(result.error.message.length).toBeLessThan(1000);
    }
    expect(JSON.stringify(game.view())).toBe(view);
    expect(JSON.stringify(game.persist())).toBe(persisted);
    expect(prototypeProblem()).toBeNull();
  });

  it('well-formed events in unusual objects are read like plain ones', () => {
    const game = createGame({ players: ['A', 'B'] });
    expect(game.send(Object.assign(Object.create(null), { type: 'PASS_PRIORITY', player: 'A' }))).toMatchObject({ ok: true });
    const Pass = class {
      type = 'PASS_PRIORITY';
      player = 'B';
    };
    expect(game.send(new Pass() as unknown)).toMatchObject({ ok: true });
    expect(game.view().step).not.toBe('upkeep');
  });
});
