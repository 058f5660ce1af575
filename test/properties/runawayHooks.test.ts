/**
 * Runaway and broken hosts (CONTRACT.md hooks.checkpoint; CR 704.3, 514.3a): a checkpoint
 * hook that reports state-based actions forever, returns new triggers forever, throws or
 * returns junk makes each event that reaches it refused with HOOK_FAILED, the message naming
 * the cap or the fault; the game stays exactly as before that event and goes on once the
 * hook behaves. Listeners that throw do not break the engine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allModules } from '../../src/allModules.js';
import { MAX_CHECKPOINT_ROUNDS, MAX_CLEANUP_STEPS_PER_TURN } from '../../src/rules/limits.js';
import { createGame, type CheckpointResult, type Game, type TurnView } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';
import { parseHookResult } from '../../src/schemas.js';
import { fill, setupArb } from './harness.js';
import { assertProperty } from './seeds.js';
import { seededRandom } from '../../src/simulation.js';

type Mode = 'good' | 'sba' | 'triggers' | 'throw' | 'junk';
const EXPECTED: Record<Exclude<Mode, 'good'>, string> = { sba: 'HOOK_FAILED', triggers: 'HOOK_FAILED', throw: 'HOOK_FAILED', junk: 'HOOK_FAILED' };

/** A host whose checkpoint hook can be switched between behaving and each way of misbehaving. */
function switchableHost(junk: unknown = 42, thrown: unknown = new Error('the host crashed')) {
  const host = { mode: 'good' as Mode, calls: 0, serial: 0 };
  const checkpoint = (view: TurnView): CheckpointResult | undefined => {
    host.calls++;
    switch (host.mode) {
      case 'good':
        return undefined;
      case 'sba':
        return { stateBasedActions: true };
      case 'triggers':
        return { triggers: [{ id: `forever-${host.serial++}`, controller: view.players[0] as string }] };
      case 'throw':
        throw thrown;
      case 'junk':
        return junk as CheckpointResult;
    }
  };
  return { host, checkpoint };
}

/** Sends `event` and checks the outcome of a misbehaving hook: refused with `code` and nothing changed, or the hook was not reached. */
function sendWithBrokenHook(game: Game, host: { calls: number }, event: unknown, code: string): boolean {
  const view = JSON.stringify(game.view());
  const persisted = JSON.stringify(game.persist());
  const calls = host.calls;
  const result = game.send(event);
  if (host.calls === calls) return false;
  expect(result.ok, `${JSON.stringify(event)} reached the hook but was accepted`).toBe(false);
  if (!result.ok) {
    expect(result.error.code).toBe(code);
    expect(result.error.message.length).toBeGreaterThan(10);
  }
  expect(JSON.stringify(game.view())).toBe(view);
  expect(JSON.stringify(game.persist())).toBe(persisted);
  return true;
}

describe('checkpoint hooks that never stop reporting (CR 704.3)', () => {
  it.each(['sba', 'triggers'] as const)(`%s forever: HOOK_FAILED after ${MAX_CHECKPOINT_ROUNDS} checks, then the game goes on`, (mode) => {
    const { host, checkpoint } = switchableHost();
    const game = createGame({ players: ['A', 'B', 'C'], hooks: { checkpoint } });
    host.mode = mode;
    const before = host.calls;
    expect(sendWithBrokenHook(game, host, { type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED')).toBe(true);
    expect(host.calls - before).toBe(MAX_CHECKPOINT_ROUNDS);
    expect(sendWithBrokenHook(game, host, { type: 'CAST_SPELL', player: 'A', id: 's', speed: 'instant' }, 'HOOK_FAILED')).toBe(true);
    expect(sendWithBrokenHook(game, host, { type: 'TRIGGER', triggers: [{ id: 't', controller: 'B' }] }, 'HOOK_FAILED')).toBe(true);
    expect(sendWithBrokenHook(game, host, { type: 'CONCEDE', player: 'A' }, 'HOOK_FAILED')).toBe(true);
    // Events that do not reach the hook are not affected.
    expect(game.send({ type: 'ADD_MANA', player: 'B', amount: 1 })).toMatchObject({ ok: true });
    host.mode = 'good';
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ ok: true });
    expect(game.view().priority).toBe('B');
  });

  it(`state-based actions in every cleanup step: HOOK_FAILED when cleanup step ${MAX_CLEANUP_STEPS_PER_TURN} would give priority again, then the turn ends (CR 514.3a)`, () => {
    let cleanupChecks = 0;
    let runaway = true;
    const game = createGame({
      players: ['A', 'B'],
      hooks: {
        // Once in every cleanup step, something happens (CR 514.3a: priority, then another cleanup step).
        checkpoint: (_view, pending) => {
          if (!runaway || !pending.some((e) => e.type === 'stepBegan' && e.step === 'cleanup')) return undefined;
          cleanupChecks++;
          return { stateBasedActions: true };
        },
      },
    });
    let refused: { code: string } | null = null;
    for (let i = 0; i < 10_000 && refused === null; i++) {
      const before = JSON.stringify(game.persist());
      const result = game.send(plainestAnswer(game.view()));
      if (!result.ok) {
        refused = result.error;
        expect(JSON.stringify(game.persist())).toBe(before);
      }
    }
    expect(refused?.code).toBe('HOOK_FAILED');
    expect(cleanupChecks).toBeGreaterThanOrEqual(MAX_CLEANUP_STEPS_PER_TURN);
    expect(game.view().step).toBe('cleanup');
    runaway = false;
    expect(game.send(plainestAnswer(game.view()))).toMatchObject({ ok: true });
    while (game.view().turn === 1) expect(game.send(plainestAnswer(game.view())).ok).toBe(true);
    expect(game.view()).toMatchObject({ turn: 2, step: 'upkeep' });
  });
});

describe('checkpoint hooks that throw: HOOK_FAILED', () => {
  const thrown: [string, unknown][] = [
    ['an Error', new Error('boom')],
    ['a string', 'boom'],
    ['undefined', undefined],
    ['null', null],
    ['a symbol', Symbol('boom')],
    ['an object without a prototype', Object.create(null)],
    ['an object whose toString throws', { toString: () => { throw new Error('again'); } }],
    ['an Error whose message getter throws', Object.defineProperty(new Error(), 'message', { get: () => { throw new Error('again'); } })],
  ];
  it.each(thrown)('%s', (_name, value) => {
    const { host, checkpoint } = switchableHost(undefined, value);
    const game = createGame({ players: ['A', 'B'], hooks: { checkpoint } });
    host.mode = 'throw';
    expect(sendWithBrokenHook(game, host, { type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED')).toBe(true);
    host.mode = 'good';
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ ok: true });
  });

  it.each([
    ['HOOK_FAILED', () => { throw new Error('boom'); }],
    ['HOOK_FAILED', () => ({ stateBasedActions: true })],
    ['HOOK_FAILED', () => 42],
    ['HOOK_FAILED', () => ({ get triggers() { throw new Error('getter'); } })],
  ])('createGame throws %s when the hook misbehaves in the first check', (code, checkpoint) => {
    expect(() => createGame({ players: ['A', 'B'], hooks: { checkpoint: checkpoint as unknown as () => undefined } })).toThrow(expect.objectContaining({ code }));
  });
});

describe('checkpoint hooks that return junk: HOOK_FAILED', () => {
  it('any value that is not { triggers?, stateBasedActions? } or nothing', () => {
    const junk = fc.oneof(
      fc.jsonValue(),
      fc.record({ triggers: fc.jsonValue() }),
      fc.record({ stateBasedActions: fc.jsonValue() }),
      fc.record({ triggers: fc.array(fc.record({ id: fc.string(), controller: fc.constantFrom('A', 'Z', '', '__proto__') })) }),
    );
    assertProperty(
      fc.property(
        junk.filter((v) => {
          if (v === null || v === undefined) return false; // reports nothing
          const parsed = parseHookResult(v);
          return !parsed.ok || parsed.value.triggers.some((t) => t.controller !== 'A' && t.controller !== 'B');
        }),
        (value) => {
          const { host, checkpoint } = switchableHost(value);
          const game = createGame({ players: ['A', 'B'], hooks: { checkpoint } });
          host.mode = 'junk';
          expect(sendWithBrokenHook(game, host, { type: 'PASS_PRIORITY', player: 'A' }, 'HOOK_FAILED')).toBe(true);
          host.mode = 'good';
          expect(game.send({ type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ ok: true });
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('random games with a hook that breaks at a random moment', () => {
  it('every event that reaches the broken hook is refused with its code and changes nothing; the game then goes on', () => {
    assertProperty(
      fc.property(setupArb, fc.nat({ max: 300 }), fc.constantFrom<Exclude<Mode, 'good'>>('sba', 'triggers', 'throw', 'junk'), fc.nat(), (setup, warmup, mode, seed) => {
        const { host, checkpoint } = switchableHost({ triggers: 'junk' });
        const game = createGame({ ...setup, use: allModules, hooks: { checkpoint } });
        for (let i = 0; i < warmup; i++) expect(game.send(plainestAnswer(game.view())).ok).toBe(true);
        const random = seededRandom(seed);
        for (let i = 0; i < 30 && game.view().gameOver === null; i++) {
          const view = game.view();
          host.mode = random() < 0.5 ? mode : 'good';
          const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE' || random() < 0.05);
          const action = actions[Math.floor(random() * actions.length)];
          if (action === undefined) break;
          const event = fill(action, view, random, 10_000 + i);
          if (host.mode === 'good') expect(game.send(event).ok).toBe(true);
          else sendWithBrokenHook(game, host, event, EXPECTED[mode]);
          if (game.view().gameOver === null) expect(game.view().players).toContain(game.view().awaiting?.player);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('listeners that throw do not break the engine', () => {
  it.each([
    ['an Error', () => { throw new Error('listener'); }],
    ['a non-Error', () => { throw 'listener'; }],
    ['a listener that unsubscribes everything', null],
  ])('%s', (_name, thrower) => {
    const game = createGame({ players: ['A', 'B'] });
    const seen: string[] = [];
    const offs: (() => void)[] = [];
    offs.push(game.on('*', thrower ?? (() => offs.forEach((off) => off()))));
    offs.push(game.on('stepBegan', () => { throw new Error('typed listener'); }));
    game.on('*', (e) => seen.push(e.type));
    for (let i = 0; i < 40; i++) expect(game.send(plainestAnswer(game.view()))).toMatchObject({ ok: true });
    expect(seen).toContain('turnBegan');
    expect(seen.filter((t) => t === 'stepBegan').length).toBeGreaterThan(8);
    expect(game.view().turn).toBeGreaterThan(1);
  });
});

describe('the checkpoint hook and the game it belongs to (CR 117.5)', () => {
  it('runs before the starting player first receives priority in turn 1', () => {
    const seen: string[] = [];
    const game = createGame({
      players: ['A', 'B'],
      hooks: { checkpoint: (v) => (seen.push(`${v.turn}:${v.step}:${v.priority}`), seen.length === 1 ? { triggers: [{ id: 't0', controller: 'B' }] } : undefined) },
    });
    expect(seen[0]).toBe('1:upkeep:A');
    expect(game.view().stack).toEqual([{ id: 't0', controller: 'B', kind: 'trigger' }]);
  });

  it('a hook that calls send: the inner call is refused with REENTRANT and changes nothing, the outer event goes on', () => {
    let game: Game | null = null;
    const inner: unknown[] = [];
    let armed = false;
    game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: (view) => {
          if (!armed || game === null) return undefined;
          armed = false;
          inner.push(game.send({ type: 'ADD_MANA', player: 'A', amount: 2 }));
          inner.push(game.send({ type: 'PASS_PRIORITY', player: view.priority as string }));
          return undefined;
        },
      },
    });
    const emitted: string[] = [];
    game.on('*', (e) => emitted.push(e.type));
    armed = true;
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ ok: true });
    expect(inner).toEqual([
      { ok: false, error: expect.objectContaining({ code: 'REENTRANT' }) },
      { ok: false, error: expect.objectContaining({ code: 'REENTRANT' }) },
    ]);
    expect(game.view()).toMatchObject({ step: 'upkeep', priority: 'B', manaPool: { A: 0, B: 0 } });
    expect(emitted).toEqual([]);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'B' })).toMatchObject({ ok: true });
    expect(game.view()).toMatchObject({ step: 'main', priority: 'A' });
  });

  it('a listener that sends an event: accepted, and every listener sees the events in the order they happened', () => {
    const game = createGame({ players: ['A', 'B'] });
    const first: string[] = [];
    const second: string[] = [];
    let sent = false;
    game.on('*', (e) => {
      first.push(e.type === 'stepBegan' ? `stepBegan:${e.step}` : e.type);
      if (!sent && e.type === 'stepBegan' && e.step === 'draw') {
        sent = true;
        expect(game.send({ type: 'ADD_MANA', player: 'A', amount: 1 })).toMatchObject({ ok: true });
        expect(game.send({ type: 'PASS_PRIORITY', player: game.view().priority as string })).toMatchObject({ ok: true });
        expect(game.send({ type: 'PASS_PRIORITY', player: game.view().priority as string })).toMatchObject({ ok: true });
      }
    });
    game.on('*', (e) => second.push(e.type === 'stepBegan' ? `stepBegan:${e.step}` : e.type));
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    // Turn 1 of two players has no draw step (CR 103.8a): play into turn 2's draw step.
    for (let i = 0; i < 40 && !sent; i++) game.send(plainestAnswer(game.view()));
    expect(sent).toBe(true);
    expect(second).toEqual(first);
    const at = first.indexOf('stepBegan:draw');
    expect(first.slice(at, at + 4)).toEqual(['stepBegan:draw', 'draw', 'manaEmptied', 'stepBegan:main']);
  });
});
