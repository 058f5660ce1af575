/**
 * Issue 21, point 8: resolving N objects costs O(N). A game pops in place the stacks it owns
 * (src/game/ownedStacks.ts); nobody can see it: forks, `game.state`, the XState actor, a hook
 * that reads the game in the middle of a step and a step that fails all see what they saw
 * when every resolution copied the rest of the stack.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createGame, type CheckpointHook, type Game, type TurnEvent } from '../../src/index.js';
import { actorOf } from '../../src/xstate.js';
import { OwnedStacks } from '../../src/game/ownedStacks.js';
import type { StackObject } from '../../src/contract.js';
import { fullForm } from '../support/persisted.js';

const PASS_A: TurnEvent = { type: 'PASS_PRIORITY', player: 'A' };
const PASS_B: TurnEvent = { type: 'PASS_PRIORITY', player: 'B' };

const triggers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: `t${from + i}`, controller: (from + i) % 2 === 0 ? 'A' : 'B' }));

/** A 2-player game whose first checks put `n` triggers on the stack (1,000 a check at most); `then` is the hook afterwards. */
function burst(n: number, then: CheckpointHook = () => undefined): Game {
  let reported = 0;
  return createGame({
    players: ['A', 'B'],
    hooks: {
      checkpoint: (view, pending) => {
        if (reported >= n) return then(view, pending);
        const round = triggers(Math.min(1000, n - reported), reported);
        reported += round.length;
        return { triggers: round };
      },
    },
  });
}

/** Resolves the top object: both players pass. */
function resolve(game: Game): void {
  expect(game.send(PASS_A).ok).toBe(true);
  expect(game.send(PASS_B).ok).toBe(true);
}

const ids = (game: Game) => game.view().stack.map((o) => o.id);

describe('resolving N objects copies O(N) stack entries, not O(N^2) (issue 21, point 8)', () => {
  const slice = Array.prototype.slice;
  afterEach(() => {
    Array.prototype.slice = slice;
  });

  it('2,000 resolutions of a stack of 2,000 triggers copy fewer than 3 entries each on average', () => {
    const game = burst(2000);
    let copied = 0;
    // Counts the entries copied out of long arrays (the stack) by slice, the copy a resolution makes.
    Array.prototype.slice = function (this: unknown[], ...args: [number?, number?]) {
      const out = slice.apply(this, args);
      if (this.length >= 100) copied += out.length;
      return out;
    };
    for (let i = 0; i < 2000; i++) resolve(game);
    Array.prototype.slice = slice;
    expect(game.view().stack).toEqual([]);
    expect(copied).toBeLessThan(3 * 2000);
  });
});

describe('OwnedStacks: pops in place only what the game owns, during a step', () => {
  const stack = (n: number): StackObject[] => triggers(n).map((t) => ({ ...t, kind: 'trigger' }));

  it('outside a step, or for an array it does not own, a pop is a copy', () => {
    const owned = new OwnedStacks();
    const a = stack(3);
    const b = owned.pop(a);
    expect(b).not.toBe(a);
    expect(a).toHaveLength(3);
    owned.open();
    const c = owned.pop(a);
    expect(c).not.toBe(a);
    expect(a).toHaveLength(3);
    // The copy is the game's own: the next pop takes its top in place.
    expect(owned.pop(c)).toBe(c);
    expect(c).toHaveLength(1);
    owned.close(false);
    expect(owned.pop(c)).not.toBe(c);
  });

  it('a failed step puts back what it popped; a read sees the objects put back for its length; forget owns nothing', () => {
    const owned = new OwnedStacks();
    owned.open();
    const a = owned.pop(stack(5));
    owned.pop(a);
    owned.pop(a);
    expect(a.map((o) => o.id)).toEqual(['t0', 't1']);
    expect(owned.read(() => a.map((o) => o.id))).toEqual(['t0', 't1', 't2', 't3']);
    expect(a.map((o) => o.id)).toEqual(['t0', 't1']);
    owned.close(true);
    expect(a.map((o) => o.id)).toEqual(['t0', 't1', 't2', 't3']);
    owned.open();
    owned.forget();
    expect(owned.pop(a)).not.toBe(a);
    owned.close(false);
  });
});

describe('what others hold of a game never changes when it resolves (issue 21, point 8)', () => {
  it('a fork and its game resolve their own stacks', () => {
    const game = burst(50);
    for (let i = 0; i < 10; i++) resolve(game);
    const fork = game.fork();
    const at = ids(game);
    for (let i = 0; i < 5; i++) resolve(game);
    expect(ids(fork)).toEqual(at);
    for (let i = 0; i < 7; i++) resolve(fork);
    expect(ids(game)).toEqual(at.slice(0, -5));
    expect(ids(fork)).toEqual(at.slice(0, -7));
  });

  it('a state read from game.state keeps its stack', () => {
    const game = burst(30);
    for (let i = 0; i < 3; i++) resolve(game);
    const state = (game as unknown as { state: { context: { stack: StackObject[] } } }).state;
    const at = state.context.stack.map((o) => o.id);
    for (let i = 0; i < 5; i++) resolve(game);
    expect(state.context.stack.map((o) => o.id)).toEqual(at);
    expect(ids(game)).toEqual(at.slice(0, -5));
  });

  it("the XState actor's snapshots keep their stacks", () => {
    const game = burst(30);
    for (let i = 0; i < 3; i++) resolve(game);
    const actor = actorOf(game);
    const snapshots = [actor.getSnapshot()];
    for (let i = 0; i < 4; i++) {
      resolve(game);
      snapshots.push(actor.getSnapshot());
    }
    expect(snapshots.map((s) => s.context.stack.length)).toEqual([27, 26, 25, 24, 23]);
    expect(ids(game)).toEqual(snapshots[4]?.context.stack.map((o) => o.id));
  });

  it('a hook that reads the game in the middle of a step sees it as it was before the send, and a fork it makes keeps that', () => {
    const seen: { view: string[]; persisted: string[]; state: string[] }[] = [];
    const forks: Game[] = [];
    let game: Game | null = null;
    let reading = true;
    const reader: CheckpointHook = () => {
      // The forks have this hook too: only the game's own checks read it.
      if (game === null || !reading) return undefined;
      const state = (game as unknown as { state: { context: { stack: StackObject[] } } }).state;
      seen.push({ view: ids(game), persisted: fullForm(game.persist()).context.stack.map((o) => o.id), state: state.context.stack.map((o) => o.id) });
      forks.push(game.fork());
      void game.legalActions();
      void game.nextStop();
      return undefined;
    };
    game = burst(20, reader);
    for (let i = 0; i < 4; i++) resolve(game);
    const before = ids(game);
    seen.length = 0;
    forks.length = 0;
    expect(game.send(PASS_A).ok).toBe(true);
    const afterPass = ids(game);
    seen.length = 0;
    forks.length = 0;
    // B's pass resolves the top object, then A receives priority: the hook runs after the object left the stack.
    expect(game.send(PASS_B).ok).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(s).toEqual({ view: afterPass, persisted: afterPass, state: afterPass });
    expect(afterPass).toEqual(before);
    expect(ids(game)).toEqual(before.slice(0, -1));
    reading = false;
    for (const fork of forks) {
      expect(ids(fork)).toEqual(before);
      fork.send(PASS_B);
      expect(ids(fork)).toEqual(before.slice(0, -1));
    }
    resolve(game);
    expect(ids(game)).toEqual(before.slice(0, -2));
  });

  it('a send refused by the hook after the top object was popped leaves the game as it was', () => {
    let fail = false;
    const game = burst(20, () => (fail ? { triggers: [{ id: 't0', controller: 'A' }] } : undefined));
    for (let i = 0; i < 4; i++) resolve(game);
    expect(game.send(PASS_A).ok).toBe(true);
    const before = game.persist();
    fail = true;
    // The resolution pops the top object, then the check reports a trigger whose id is on the stack: HOOK_FAILED.
    const refused = game.send(PASS_B);
    expect(refused.ok === false && refused.error.code).toBe('HOOK_FAILED');
    expect(game.persist()).toEqual(before);
    fail = false;
    expect(game.send(PASS_B).ok).toBe(true);
    expect(game.view().stack.map((o) => o.id)).toEqual(fullForm(before).context.stack.slice(0, -1).map((o) => o.id));
  });
});

describe('OwnedStacks remembers the latest 16 arrays it made (one stack per turn marker of Grand Melee, CR 807.4a)', () => {
  const stack = (n: number, from = 0): StackObject[] => triggers(n, from).map((t) => ({ ...t, kind: 'trigger' }));

  it('pops in place each of 16 stacks resolved in turn; the 17th made forgets the oldest, which is copied from then on', () => {
    const owned = new OwnedStacks();
    owned.open();
    const stacks = Array.from({ length: 16 }, (_, i) => owned.pop(stack(4, 10 * i)));
    // Resolved in turn (the markers' stacks of a Grand Melee game): every one is the game's own.
    for (const s of stacks) expect(owned.pop(s)).toBe(s);
    const newest = owned.pop(stack(4, 500));
    const oldest = stacks[0] as StackObject[];
    const copy = owned.pop(oldest);
    expect(copy).not.toBe(oldest);
    expect(oldest.map((o) => o.id)).toEqual(['t0', 't1']);
    expect(copy.map((o) => o.id)).toEqual(['t0']);
    expect(owned.pop(newest)).toBe(newest);
    owned.close(false);
  });
});
