/**
 * Issue 21, point 8, "The host's path is the fast path": what a checkpoint costs a hook, counted
 * in operations rather than timed (the times are the bench's, bench/hostPath.ts).
 *
 * - A hook declared without parameters is called without the view and the pending copy; any
 *   other hook gets both, as before (argumentsSeen reads the hook's source once).
 * - A check that reports nothing reads nothing of the stack: resolving N triggers does not
 *   look through the stack at every check (it did twice: the ids set, and the hook's view).
 */
import { describe, expect, it } from 'vitest';
import { initialContext } from '../../machines/turn.effects.js';
import { runCheckpoint } from '../../machines/checkpoint.js';
import { createGame, type CheckpointHook, type TurnEvent } from '../../src/index.js';
import { argumentsSeen, hookRuntime } from '../../src/hookAdapter.js';
import { toInput } from '../../src/game/create.js';
import { violationOf } from '../../src/events/index.js';
import { buildView } from '../../src/view.js';
import type { StackObject } from '../../src/contract.js';
import type { TurnContext } from '../../src/state.js';

/** A stack of `n` objects that counts the reads of its entries. */
function countedStack(n: number): { stack: StackObject[]; reads: () => number } {
  let reads = 0;
  const entries: StackObject[] = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, controller: i % 2 === 0 ? 'A' : 'B', kind: 'trigger' }));
  const stack = new Proxy(entries, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return { stack, reads: () => reads };
}

/** A 2-player context in turn 1's upkeep with `n` triggers on the stack (entries counted). */
function withStack(n: number): { ctx: TurnContext; reads: () => number } {
  const { stack, reads } = countedStack(n);
  const ctx: TurnContext = { ...initialContext(toInput({ players: ['A', 'B'], seed: 1 })), stack };
  return { ctx, reads };
}

describe('argumentsSeen: which of its arguments a checkpoint hook can read (issue 21, point 8)', () => {
  const hooks: [string, unknown, 0 | 1 | 2][] = [
    ['an arrow without parameters', () => undefined, 0],
    ['an async arrow without parameters', async () => undefined, 0],
    ['an arrow without parameters that names `arguments` (not its own)', function outer() {
      return () => arguments.length;
    }(), 0],
    ['an arrow with the view', (view: unknown) => view, 1],
    ['an arrow with one parameter and no parentheses', (v: unknown) => v, 1],
    ['an arrow with both', (view: unknown, pending: unknown) => [view, pending], 2],
    ['a rest parameter', (...args: unknown[]) => args, 2],
    ['a default value', (view: unknown = null) => view, 2],
    ['a destructured view', ({ turn }: { turn: number }) => turn, 2],
    ['a function without parameters', function () {
      return undefined;
    }, 0],
    ['a function without parameters that reads `arguments`', function () {
      return arguments.length > 0 ? undefined : undefined;
    }, 2],
    ['a function with one parameter that reads `arguments`', function (view: unknown) {
      // eslint-disable-next-line prefer-rest-params -- what this hook is about
      return arguments[1] === view ? undefined : undefined;
    }, 2],
    ['a function that calls eval', function () {
      return eval('undefined');
    }, 2],
    ['a method without parameters', { checkpoint() {
      return undefined;
    } }.checkpoint, 0],
    ['a method with the view', { checkpoint(view: unknown) {
      return view;
    } }.checkpoint, 1],
    ['a bound function', function () {
      return undefined;
    }.bind(null), 2],
    ['a built-in function', Object, 2],
    ['a proxy of a function', new Proxy(() => undefined, {}), 2],
  ];
  it.each(hooks)('%s', (_name, hook, seen) => {
    expect(argumentsSeen(hook as CheckpointHook)).toBe(seen);
  });

  it('a hook that can read its arguments gets the view and the pending events; one that cannot is called with none', () => {
    const counts: number[] = [];
    const reading = createGame({ players: ['A', 'B'], hooks: { checkpoint: function () {
      counts.push(arguments.length);
      return undefined;
    } } });
    reading.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(counts.length).toBeGreaterThan(0);
    expect(new Set(counts)).toEqual(new Set([2]));
    let calls = 0;
    const quiet = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => void calls++ } });
    quiet.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(calls).toBe(counts.length);
  });
});

describe('a check that reports nothing reads nothing of the stack (issue 21, point 8: resolving N triggers is linear)', () => {
  it('stackIdViolation: a TRIGGER event with no trigger in the game looks through no list', () => {
    const { ctx, reads } = withStack(1000);
    expect(violationOf(ctx, null, { type: 'TRIGGER', triggers: [{ id: 'x', controller: 'nobody' }] } as TurnEvent)).toBeNull();
    expect(reads()).toBe(0);
  });

  it('runCheckpoint with a hook that declares no parameter and reports nothing: no stack entry read, whatever the size of the stack', () => {
    for (const n of [10, 1000]) {
      const { ctx, reads } = withStack(n);
      const out = runCheckpoint(ctx, hookRuntime(() => undefined, () => 0), { about: 'A' });
      expect(out).toEqual({ patch: { pending: [] }, emit: [], activity: false });
      expect(reads()).toBe(0);
    }
  });

  it('a hook that takes the view is shown the whole stack (a copy of every entry at each check)', () => {
    const { ctx, reads } = withStack(1000);
    let shown = 0;
    runCheckpoint(ctx, hookRuntime((view) => void (shown = view.stack.length), () => 0), { about: 'A' });
    expect(shown).toBe(1000);
    expect(reads()).toBe(1000);
  });

  it('1,000 triggers reported in one checkpoint go on the stack and resolve, one check each', () => {
    let calls = 0;
    const triggers = Array.from({ length: 1000 }, (_, i) => ({ id: `t${i}`, controller: i % 2 === 0 ? 'A' : 'B' }));
    const game = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => (calls++ === 0 ? { triggers } : undefined) } });
    expect(game.view().stack).toHaveLength(1000);
    const before = calls;
    for (let i = 0; i < 1000; i++) {
      game.send({ type: 'PASS_PRIORITY', player: 'A' });
      game.send({ type: 'PASS_PRIORITY', player: 'B' });
    }
    expect(game.view()).toMatchObject({ turn: 1, step: 'upkeep', priority: 'A', stack: [] });
    // One check as B receives priority after each pass of A, one as A receives it after each resolution.
    expect(calls - before).toBe(2000);
  });
});

describe("the hook's view is built from what is remembered, and is still a fresh copy (issue 21, point 8)", () => {
  it('two views of the same fields share no object, and changing one changes neither the other nor the next', () => {
    const base = initialContext(toInput({ players: ['A', 'B', 'C'], seed: 1 }));
    const ctx: TurnContext = { ...base, stops: { ...base.stops, B: [{ step: 'upkeep', turn: 'own' }] } as TurnContext['stops'] };
    const first = buildView(ctx, { kind: 'priority', player: 'A' }, 1);
    const second = buildView(ctx, { kind: 'priority', player: 'A' }, 1);
    expect(second).toEqual(first);
    const objects = (v: unknown, out: object[] = []): object[] => {
      if (typeof v === 'object' && v !== null) {
        out.push(v);
        for (const x of Object.values(v)) objects(x, out);
      }
      return out;
    };
    const seen = new Set(objects(first));
    expect(objects(second).filter((o) => seen.has(o))).toEqual([]);
    const json = JSON.stringify(second);
    first.manaPool.A = 99;
    first.stops.B?.push({ step: 'end', turn: 'any' });
    first.schedule.turns.pop();
    (first.schedule.turns[0] as { player: string }).player = 'Z';
    expect(JSON.stringify(second)).toBe(json);
    expect(JSON.stringify(buildView(ctx, { kind: 'priority', player: 'A' }, 1))).toBe(json);
  });

  it("effects and what is awaited are copied as JSON would copy them (-0, NaN, undefined, nested lists, a '__proto__' key)", () => {
    const odd = JSON.parse('{"kind":"skip","what":"upkeep","players":["A"],"__proto__":{"x":1}}') as Record<string, unknown>;
    Object.assign(odd, { n: -0, m: Number.NaN, u: undefined, deep: [[1, undefined, { v: Infinity }]] });
    const ctx: TurnContext = { ...initialContext(toInput({ players: ['A', 'B'], seed: 1 })), effects: [{ id: 'e', effect: odd as never, duration: 'endOfTurn' as never, since: 1 }] };
    const awaiting = { kind: 'discard' as const, player: 'A', count: 2, extra: [undefined, -0] } as never;
    const view = buildView(ctx, awaiting, 1);
    const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
    expect(view.effects[0]?.effect).toStrictEqual(viaJson(odd));
    expect(Object.prototype.hasOwnProperty.call(view.effects[0]?.effect, '__proto__')).toBe(true);
    expect(view.awaiting).toStrictEqual(viaJson(awaiting));
    expect(Object.is((view.effects[0]?.effect as unknown as { n: number }).n, 0)).toBe(true);
  });
});
