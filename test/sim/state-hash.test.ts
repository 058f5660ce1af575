/**
 * Issue 34, CONTRACT v4 "Simulation": `stateHash(game)` is 16 hex characters (64 bits), equal
 * for games whose turn state is equal whatever route reached them (`version`, `seq` and history
 * left out), different for a one-field change; FNV-1a 64 computed in 32-bit halves agrees with
 * the same hash in BigInt.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type Game, type Persisted } from '../../src/index.js';
import { playout, stateHash } from '../../src/sim/index.js';
import { createCardGame, defineCards, restoreGame as restoreCardGame } from '../../src/cards/index.js';
import { fnvWord, hashedFieldsOfContext, hashOf, HASHED_FIELDS } from '../../src/sim/hash.js';
import { allModules } from '../../src/allModules.js';

const root = resolve(import.meta.dirname, '../..');

/** A 2-player game played `events` decisions from a seed. */
function played(seed: number, events: number): Game {
  const game = createGame({ players: ['A', 'B'], seed });
  playout(game, { seed, maxEvents: events, explore: 0.3 });
  return game;
}

/** The same value with the keys of every object in another order (JSON values only). */
function reordered(value: unknown, flip: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => reordered(v, !flip));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, reordered(v, !flip)] as const);
  return Object.fromEntries(flip ? entries.reverse() : entries);
}

/** FNV-1a 64 over 32-bit words, in BigInt: the reference of the halves' arithmetic. */
function fnvBig(words: number[]): bigint {
  let h = 0xcbf29ce484222325n;
  for (const w of words) h = ((h ^ BigInt(w >>> 0)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

describe('stateHash (issue 34)', () => {
  it('is 16 hex characters, and the same game hashes the same', () => {
    const game = played(1, 40);
    expect(stateHash(game)).toMatch(/^[0-9a-f]{16}$/);
    expect(stateHash(game)).toBe(stateHash(game));
    expect(stateHash(game.fork())).toBe(stateHash(game));
  });

  it('the halves compute FNV-1a 64 exactly (property, against BigInt)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), { maxLength: 40 }), (words) => {
        const H = hashOf.__state;
        H[0] = 0x84222325 | 0;
        H[1] = 0xcbf29ce4 | 0;
        for (const w of words) fnvWord(w | 0);
        expect((BigInt((H[1] as number) >>> 0) << 32n) | BigInt((H[0] as number) >>> 0)).toBe(fnvBig(words));
      }),
      { numRuns: 200 },
    );
  });

  it('is equal for games reached by different routes to the same state (property): versions, seq, restores and key order do not count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 120 }), fc.integer({ min: 1, max: 9 }), fc.boolean(), (seed, events, mana, flip) => {
        const game = played(seed, events);
        const hash = stateHash(game);
        // Another route: mana added and spent (two more versions, events emitted) reaches the same turn state.
        const detour = game.fork();
        const player = detour.view().players[0] as string;
        const before = detour.view().manaPool[player] as number;
        if (detour.send({ type: 'ADD_MANA', player, amount: mana }).ok && detour.send({ type: 'SPEND_MANA', player, amount: mana }).ok) {
          expect(detour.view().version).toBe(game.view().version + 2);
          expect(detour.view().manaPool[player]).toBe(before);
          expect(stateHash(detour)).toBe(hash);
        }
        // A restore from JSON whose objects list their keys in another order, with another version and seq.
        const saved = JSON.parse(JSON.stringify(game.persist())) as Persisted & { version: number; seq?: number };
        const restored = restoreGame(reordered({ ...saved, version: saved.version + 17, seq: (saved.seq ?? 0) + 5 }, flip) as Persisted);
        expect(stateHash(restored)).toBe(hash);
      }),
      { numRuns: 40 },
    );
  });

  it('differs for a one-field change (property)', () => {
    const changes: [string, (ctx: Record<string, unknown>) => void][] = [
      ['a hand size', (c) => void ((c.handSizes as Record<string, number>).A = ((c.handSizes as Record<string, number>).A ?? 7) + 1)],
      ['a mana pool', (c) => void ((c.manaPool as Record<string, number>).B = ((c.manaPool as Record<string, number>).B ?? 0) + 1)],
      ['the turn number', (c) => void (c.turn = (c.turn as number) + 2)],
      ['the generator', (c) => void (c.rng = ((c.rng as number) + 1) >>> 0)],
      ['the maximum hand size', (c) => void (c.maxHandSize = (c.maxHandSize as number) + 1)],
      ['lands played', (c) => void (c.landsPlayedBy = { ...(c.landsPlayedBy as object), A: 1 + ((c.landsPlayedBy as Record<string, number>).A ?? 0) })],
    ];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 120 }), fc.integer({ min: 0, max: changes.length - 1 }), (seed, events, which) => {
        const game = played(seed, events);
        if (game.view().gameOver !== null) return;
        const saved = JSON.parse(JSON.stringify(game.persist())) as Persisted;
        const [, change] = changes[which] as (typeof changes)[number];
        const context = saved.context as unknown as Record<string, unknown>;
        // The compact form leaves out defaults and writes some fields as lists: the full fields are put in before the change.
        const full = (game as unknown as { state: { context: Record<string, unknown> } }).state.context;
        for (const key of ['handSizes', 'manaPool', 'turn', 'rng', 'maxHandSize', 'landsPlayedBy']) context[key] = structuredClone(full[key]);
        change(context);
        let changed: Game;
        try {
          changed = restoreGame(saved);
        } catch {
          return; // a change the validation refuses (a hand size out of range) is no state to hash
        }
        expect(stateHash(changed)).not.toBe(stateHash(game));
      }),
      { numRuns: 60 },
    );
  });

  it('counts the state a route leaves, not the route: a game one pass further hashes differently', () => {
    const game = played(3, 10);
    const next = game.fork();
    playout(next, { maxEvents: 1, explore: 0 });
    expect(stateHash(next)).not.toBe(stateHash(game));
  });

  it('includes a card game\'s state (`cards()`), and is stable: a fixed game has a fixed hash in every process', () => {
    const game = createGame({ players: ['A', 'B'], seed: 1 });
    const state = (game as unknown as { state: unknown }).state;
    expect(hashOf(state, { hand: ['x'] })).not.toBe(hashOf(state, { hand: ['y'] }));
    expect(hashOf(state, { a: 1, b: 2 })).toBe(hashOf(state, { b: 2, a: 1 }));
    expect(stateHash({ state, cards: () => ({ hand: ['x'] }) })).toBe(hashOf(state, { hand: ['x'] }));
    // The hash of a new 2-player game, seed 1: a change of the hash function or of what it reads shows here (docs/simulation.md).
    expect(stateHash(game)).toBe(GOLDEN_NEW_GAME);
  });

  it("includes the cards' random position: equal cards that will draw differently hash differently (CONTRACT v4: the cards' state)", () => {
    const dice = defineCards<{ kept: number[] }>({
      name: 'dice@1',
      setup: () => ({ kept: [] }),
      actions: {
        // Rolls and looks, keeping nothing: only the stream moves.
        peek: (ctx) => void ctx.random.int(6),
        keep: (ctx) => void ctx.state.kept.push(ctx.random.int(6)),
      },
    });
    const game = createCardGame(dice, { players: ['A', 'B'], seed: 3 });
    const same = game.fork();
    expect(stateHash(same)).toBe(stateHash(game));
    expect(game.send({ type: 'CARD_ACTION', player: 'A', action: 'peek' }).ok).toBe(true);
    expect(game.cards()).toEqual(same.cards());
    expect(stateHash(game)).not.toBe(stateHash(same));
    // The difference is real: the next roll kept differs (the stream is at another place).
    const kept = [game, same].map((g) => (g.send({ type: 'CARD_ACTION', player: 'A', action: 'keep' }), g.cards().kept));
    expect(kept[0]).not.toEqual(kept[1]);
    // Restored, a card game hashes as it did.
    expect(stateHash(restoreCardGame(JSON.parse(JSON.stringify(game.persist())), { cards: dice }))).toBe(stateHash(game));
  });

  it("includes the decisions owed to the next checkpoint (without their seq): a game whose cards are still to be told of one is not in the other's state", () => {
    const told: unknown[] = [];
    const cards = defineCards({
      name: 'owed-hash@1',
      setup: () => ({}),
      checkpoint: (_view, pending) => void told.push(...pending.filter((e) => e.type === 'decided')),
      actions: { nothing: () => undefined },
    });
    const game = createCardGame(cards, { players: ['A', 'B'], seed: 3 });
    const same = game.fork();
    expect(game.send({ type: 'CARD_ACTION', player: 'B', action: 'nothing', data: 1 }).ok).toBe(true);
    expect(game.cards()).toEqual(same.cards());
    expect(stateHash(game)).not.toBe(stateHash(same));
    // The same decision owed is the same state; once the checkpoint is given it, none is owed.
    const again = same.fork();
    expect(again.send({ type: 'CARD_ACTION', player: 'B', action: 'nothing', data: 1 }).ok).toBe(true);
    expect(stateHash(again)).toBe(stateHash(game));
    for (const g of [game, same]) expect(g.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(stateHash(game)).toBe(stateHash(same));
    expect(stateHash(restoreCardGame(JSON.parse(JSON.stringify(again.persist())), { cards }))).toBe(stateHash(again));
  });

  it('includes an undo request awaiting answers and the requests made this turn (what may be sent differs), not the kept moments', () => {
    const game = createGame({ players: ['A', 'B'], undo: { mode: 'consent' }, use: allModules });
    expect(game.send({ type: 'CAST_SPELL', player: 'A', id: 's', speed: 'instant' }).ok).toBe(true);
    const before = game.fork();
    expect(game.send({ type: 'UNDO', player: 'A', to: 0 }).ok).toBe(true);
    expect(stateHash(game)).not.toBe(stateHash(before));
    const again = before.fork();
    expect(again.send({ type: 'UNDO', player: 'A', to: 0 }).ok).toBe(true);
    expect(stateHash(again)).toBe(stateHash(game));
    expect(stateHash(restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules }))).toBe(stateHash(game));
  });

  it('is the same in another process (a new V8 heap: no identity, order or per-process seed reaches the hash)', () => {
    const game = played(11, 60);
    const script = `import { createGame } from './src/index.ts'; import { playout, stateHash } from './src/sim/index.ts';
      const g = createGame({ players: ['A', 'B'], seed: 11 }); playout(g, { seed: 11, maxEvents: 60, explore: 0.3 }); console.log(stateHash(g));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(out.trim()).toBe(stateHash(game));
  });

  it('reads every field of the context but the per-send ones, by the sorted list it names them by', () => {
    expect(HASHED_FIELDS).toEqual(hashedFieldsOfContext());
    const state = (played(5, 30) as unknown as { state: { value: string; status: string; context: Record<string, unknown> } }).state;
    const base = hashOf(state);
    for (const key of HASHED_FIELDS) {
      expect(hashOf({ ...state, context: { ...state.context, [key]: '~changed~' } }), key).not.toBe(base);
    }
    for (const key of ['autoPasses', 'autoPassTurns', 'priorityFresh', 'endedInSend']) {
      expect(hashOf({ ...state, context: { ...state.context, [key]: 99 } }), key).toBe(base);
    }
  });

  it('refuses what is not a game', () => {
    expect(() => stateHash({})).toThrow(/stateHash/);
    expect(() => stateHash({ state: 3 })).toThrow(/stateHash/);
  });
});

/** Changed once: 'e2a18ed0f5be2d6f' until the context read `waitingToPhaseIn` (CR 702.26n), a field of every state. */
const GOLDEN_NEW_GAME = '500d34dcf4f3bdb6';
