/** Bad input at every boundary: options, events, hooks and snapshots. */
import { describe, expect, it, vi } from 'vitest';
import { createGame, restoreGame } from '../../src/game/create.js';
import { TurnEngineError } from '../../src/errors.js';
import { play } from '../support/dsl.js';

function thrown(fn: () => unknown): TurnEngineError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(TurnEngineError);
    expect(err).toBeInstanceOf(Error);
    return err as TurnEngineError;
  }
  throw new Error('expected a TurnEngineError');
}

describe('createGame options', () => {
  it.each([
    [{ players: ['A'] }, 'options.players'],
    [{ players: ['A', 'A'] }, 'options.players[1]'],
    [{ players: ['A', ''] }, 'options.players[1]'],
    [{ players: Array.from({ length: 65 }, (_, i) => `P${i}`) }, 'options.players'],
    [{ players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant' }, 'options.teams'],
    [{ players: ['A', 'B'], startingPlayer: 'C' }, 'options.startingPlayer'],
    [{ players: ['A', 'B'], rules: 'modern' }, 'options.rules'],
    [{ players: ['A', 'B'], maxHandSize: -1 }, 'options.maxHandSize'],
    [{ players: ['A', 'B'], handSize: 1.5 }, 'options.handSize'],
    [{ players: ['A', 'constructor'] }, 'options.players[1]'],
    [{ players: ['A', 'B'], hooks: { checkpoint: 5 } }, 'options.hooks.checkpoint'],
    // A misspelt option is named, not dropped for its default.
    [{ players: ['A', 'B'], hook: { checkpoint: () => undefined } }, 'options.hook: is not an option of createGame'],
    [{ players: ['A', 'B'], maxHandsize: 3 }, 'options.maxHandsize: is not an option of createGame'],
  ])('%j is refused naming %s', (options, field) => {
    const err = thrown(() => createGame(options as never));
    expect(err.code).toBe('INVALID_OPTIONS');
    expect(err.message).toContain(field);
  });

  it('refuses a missing options object', () => {
    expect(thrown(() => createGame(undefined as never)).code).toBe('INVALID_OPTIONS');
  });
});

describe('restoreGame and fork options: checked as createGame checks its own', () => {
  const saved = () => createGame({ players: ['A', 'B'] }).persist();
  it.each([
    [{ hook: { checkpoint: () => undefined } }, 'options.hook: is not an option of restoreGame'],
    [{ players: ['A', 'B'] }, 'options.players: is not an option of restoreGame'],
    [{ seed: 4 }, 'options.seed: is not an option of restoreGame'],
    [{ hooks: { checkpoint: 5 } }, 'options.hooks.checkpoint: must be a function'],
    [{ listeners: { '*': 'log' } }, "options.listeners.*: must be a function"],
  ])('restoreGame(saved, %j) is refused naming %s', (options, message) => {
    const err = thrown(() => restoreGame(saved(), options as never));
    expect(err.code).toBe('INVALID_OPTIONS');
    expect(err.message).toContain(message);
  });

  it.each([
    [{ sed: 4 }, 'options.sed: is not an option of fork'],
    [{ hooks: { checkpoint: 5 } }, 'options.hooks.checkpoint: must be a function'],
    [{ listeners: { turnBegan: null } }, 'options.listeners.turnBegan: must be a function'],
    [{ seed: Number.NaN }, 'options.seed: must be a finite number'],
  ])('fork(%j) is refused naming %s, and the game goes on', (options, message) => {
    const game = createGame({ players: ['A', 'B'] });
    const err = thrown(() => game.fork(options as never));
    expect(err.code).toBe('INVALID_OPTIONS');
    expect(err.message).toContain(message);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
  });

  it('a fork with good options plays with them: its hook is called, its listener hears', () => {
    const game = createGame({ players: ['A', 'B'] });
    let checked = 0;
    const heard: string[] = [];
    const fork = game.fork({ seed: 7, hooks: { checkpoint: () => void checked++ }, listeners: { stepBegan: (e) => heard.push(e.type) } });
    expect(fork.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(fork.send({ type: 'PASS_PRIORITY', player: 'B' }).ok).toBe(true);
    expect(checked).toBeGreaterThan(0);
    expect(heard).toContain('stepBegan');
  });
});

describe('send never throws, and a refusal changes nothing', () => {
  const junk: unknown[] = [null, undefined, 0, 'PASS', [], {}, { type: 1 }, { type: 'PASS_PRIORITY', player: 7 }, { type: 'DECLARE_ATTACKERS', player: 'A', attackers: 'all' }, { type: 'DISCARD', player: 'A', count: 0 }];
  it.each(junk)('%j is INVALID_EVENT', (event) => {
    const t = play({ players: ['A', 'B'] });
    t.refused(event, 'INVALID_EVENT');
  });

  it('names the field that is wrong', () => {
    const t = play({ players: ['A', 'B'] });
    const r = t.game.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'x' }] } as unknown);
    expect(r.ok === false && r.error.message).toContain('attackers[0].defender');
  });
});

describe('runaway and broken hooks', () => {
  it('704.3: a hook that reports state-based actions forever is HOOK_FAILED naming the cap; the game is unchanged and goes on', () => {
    let broken = false;
    const t = play({ players: ['A', 'B'], hooks: { checkpoint: () => (broken ? { stateBasedActions: true } : undefined) } });
    broken = true;
    t.refused({ type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED');
    expect(t.emitted).toEqual([]);
    broken = false;
    t.pass('A');
    t.expectView({ priority: 'B' });
  });

  it('a hook that throws or returns junk gives HOOK_FAILED', () => {
    let result: () => unknown = () => undefined;
    const t = play({ players: ['A', 'B'], hooks: { checkpoint: () => result() as never } });
    result = () => {
      throw new Error('boom');
    };
    t.refused({ type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED');
    result = () => ({ triggers: 'many' });
    t.refused({ type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED');
    result = () => ({ triggers: [{ id: 't', controller: 'nobody' }] });
    t.refused({ type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED');
    // A misspelt key is not a CheckpointResult: its triggers would be lost without a word.
    result = () => ({ trigger: [{ id: 't', controller: 'A' }] });
    t.refused({ type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED');
    result = () => undefined;
    t.pass('A');
  });

  it.each([
    [{ type: 'PASS_PRIORITY', player: 'B' }],
    // CR 104.3a: conceding is the player's own choice; the host's cards make a player lose with LOSE.
    [{ type: 'CONCEDE', player: 'B' }],
  ])("a checkpoint's events are host events: %j, a player's own, is HOOK_FAILED naming it, and nothing changes", (event) => {
    let events: unknown[] = [];
    const game = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => (events.length > 0 ? { events: events.splice(0) } : undefined) as never } });
    const before = game.persist();
    events = [event];
    const r = game.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('HOOK_FAILED');
    expect(r.error.message).toContain(`result.events[0]: ${event.type} is a player decision, not a host event`);
    expect(game.persist()).toEqual(before);
  });

  it("a checkpoint may apply a player's settings (SET_STOPS, YIELD) and a LOSE", () => {
    let events: unknown[] = [];
    const game = createGame({ players: ['A', 'B', 'C'], hooks: { checkpoint: () => (events.length > 0 ? { events: events.splice(0) } : undefined) as never } });
    events = [{ type: 'SET_STOPS', player: 'B', stops: null }, { type: 'YIELD', player: 'C', until: 'endOfTurn' }, { type: 'LOSE', player: 'C' }];
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(game.view().players).not.toContain('C');
  });

  it('514.3a: a cleanup step that repeats forever is HOOK_FAILED naming MAX_CLEANUP_STEPS_PER_TURN', () => {
    // Something happens once in every cleanup step (CR 514.3a: priority, then another cleanup step).
    const t = play({ players: ['A', 'B'], hooks: { checkpoint: (_v, pending) => (pending.some((e) => e.type === 'stepBegan' && e.step === 'cleanup') ? { stateBasedActions: true } : undefined) } });
    t.passUntil({ step: 'end' });
    let result = t.game.send({ type: 'PASS_PRIORITY', player: t.view().priority as string });
    for (let i = 0; i < 1000 && result.ok; i++) result = t.game.send({ type: 'PASS_PRIORITY', player: t.view().priority as string });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('HOOK_FAILED');
    expect(!result.ok && result.error.message).toContain('MAX_CLEANUP_STEPS_PER_TURN');
    expect(t.view().step).toBe('cleanup');
  });

  it('a throwing listener does not break the engine or the other listeners', () => {
    const t = play({ players: ['A', 'B'] });
    t.game.on('stepBegan', () => {
      throw new Error('listener bug');
    });
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      t.pass('A', 'B');
      expect(t.emittedOf('stepBegan').length).toBe(1);
      // Reported, as a throwing hooks.settled is: never dropped without a word.
      expect(reported).toHaveBeenCalledTimes(1);
      expect(String(reported.mock.calls[0]?.[0])).toMatch(/a listener of 'stepBegan' threw on 'stepBegan' \(seq \d+; ignored\): .*listener bug/);
    } finally {
      reported.mockRestore();
    }
  });
});

describe('restoreGame refuses what is not a persisted game', () => {
  const good = () => JSON.parse(JSON.stringify(createGame({ players: ['A', 'B'] }).persist()));
  type Persisted = Record<string, Record<string, unknown>>;
  const cases: [string, (p: Persisted) => unknown][] = [
    ['null', () => null],
    ['a string', () => 'game'],
    ['a wrong engine tag', (p) => ({ ...p, engine: 'other' })],
    ['an unknown state', (p) => ({ ...p, state: 'combat.lunch' })],
    ['a stack controller not in the game', (p) => ({ ...p, context: { ...p.context, stack: [{ id: 's', controller: 'Z', kind: 'spell' }] } })],
    ['a negative turn', (p) => ({ ...p, context: { ...p.context, turn: -1 } })],
    ['a turn at Number.MAX_SAFE_INTEGER', (p) => ({ ...p, context: { ...p.context, turn: Number.MAX_SAFE_INTEGER } })],
    ['a turn of 2^31 (over 2^31 - 1)', (p) => ({ ...p, context: { ...p.context, turn: 2 ** 31 } })],
    ['an active player who left the game', (p) => ({ ...p, context: { ...p.context, activePlayer: 'Z' } })],
    ['a step of another phase', (p) => ({ ...p, context: { ...p.context, step: 'cleanup' } })],
    ['a __proto__ key', (p) => JSON.parse(JSON.stringify(p).replace('"context":{', '"context":{"manaPool":{"__proto__":{"polluted":1}},'))],
    ['deeply nested junk', (p) => {
      let deep: unknown = 1;
      for (let i = 0; i < 10_000; i++) deep = [deep];
      return { ...p, context: { ...p.context, extra: deep } };
    }],
    ['a huge string', (p) => ({ ...p, state: 'x'.repeat(10_000_000) })],
    ['a stack of a million entries', (p) => ({ ...p, context: { ...p.context, stack: Array.from({ length: 1_000_000 }, () => ({ id: 's', controller: 'A', kind: 'spell' })) } })],
  ];
  it.each(cases)('%s', (_, corrupt) => {
    const err = thrown(() => restoreGame(corrupt(good())));
    expect(err.code).toBe('INVALID_SNAPSHOT');
    expect(err.message.length).toBeGreaterThan(5);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
