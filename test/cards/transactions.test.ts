/**
 * CONTRACT v4, "Card games": a send is one transaction over the turn and the cards' state S
 * (refusals by `decide`, by the engine after `decide` changed S, a checkpoint that throws after
 * changing S: S deep-equal to before), CARD_ACTION, `data`, `decided`, `ctx.random`, the 1 MiB
 * limit, `check`, forks, undo and the snapshots of card games.
 */
import { describe, expect, it } from 'vitest';
import { allModules } from '../../src/allModules.js';
import { createCardGame, defineCards, replayGame, restoreGame } from '../../src/cards/index.js';
import type { CardRecording, DecidedEvent } from '../../src/cards/index.js';
import { createGame, restoreGame as restoreEngineGame, replayGame as replayEngineGame, type Game } from '../../src/index.js';
import type { EmittedEvent, SeatEvent } from '../../src/contract.js';

interface S {
  n: number;
  log: string[];
  boom: boolean;
  draws: number[];
  blob?: string;
}

const counter = defineCards<S>({
  name: 'counter@1',
  setup: ({ random }) => ({ n: 0, log: [], boom: false, draws: [random.int(1000)] }),
  decide(event, ctx) {
    ctx.state.n++;
    ctx.state.log.push(event.type);
    const data = ctx.data as { refuse?: boolean; spend?: number; throws?: boolean } | undefined;
    if (data?.throws === true) throw new Error('decide broke');
    if (data?.refuse === true) return { refuse: 'the cards say no', rule: 'test.1' };
    if (data?.spend !== undefined) return [{ type: 'SPEND_MANA', player: ctx.player as string, amount: data.spend }];
    return undefined;
  },
  checkpoint(_view, _pending, ctx) {
    if (ctx.state.boom) {
      ctx.state.n += 100;
      ctx.state.log.push('checkpoint');
      throw new Error('the checkpoint broke');
    }
  },
  actions: {
    arm: (ctx) => void (ctx.state.boom = true),
    mana: (ctx) => [{ type: 'ADD_MANA', player: ctx.player as string, amount: 1 }],
    draw: (ctx) => void ctx.state.draws.push(ctx.random.int(1000)),
    grow: (ctx) => void (ctx.state.blob = 'x'.repeat(1024 * 1024)),
    note: (ctx) => void ctx.state.log.push(`note:${String(ctx.data)}`),
  },
  seatView: (state, seat) => ({ seat, n: state.n }),
  publicData: (event) => (event.type === 'CAST_SPELL' ? { cast: true } : undefined),
});

/** Plays on with the plainest answers (no attackers, the discard due) until `done` holds of the view. */
function playUntil(game: Game, done: (v: ReturnType<Game['view']>) => boolean): void {
  for (let i = 0; i < 200 && !done(game.view()); i++) {
    const a = game.view().awaiting;
    if (a?.kind === 'discard') game.send({ type: 'DISCARD', player: a.player, count: a.count });
    else if (a?.kind === 'declareAttackers') game.send({ type: 'DECLARE_ATTACKERS', player: a.player, attackers: [] });
    else game.send({ type: 'PASS_PRIORITY', player: a?.player as string });
  }
}

const players = ['alice', 'bob'];

describe('a send is one transaction over the turn and the cards (CONTRACT v4)', () => {
  it('a refusal by decide leaves S deep-equal to before (and the same object), ILLEGAL_ACTION with its rule', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const before = game.cards();
    const copy = structuredClone(before);
    const out = game.send({ type: 'PASS_PRIORITY', player: 'alice', data: { refuse: true } } as never);
    expect(out).toEqual({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: 'test.1', message: 'the cards say no' } });
    expect(game.cards()).toBe(before);
    expect(game.cards()).toEqual(copy);
    expect(game.view().version).toBe(0);
  });

  it('a refusal by the engine after decide changed S (a host event it returned) leaves S as it was', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const copy = structuredClone(game.cards());
    const out = game.send({ type: 'PASS_PRIORITY', player: 'alice', data: { spend: 3 } } as never);
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error.code).toBe('ILLEGAL_ACTION');
      expect(out.error.message).toMatch(/SPEND_MANA returned by the cards' decide/);
    }
    expect(game.cards()).toEqual(copy);
    expect(game.view().version).toBe(0);
  });

  it('a decide that throws is HOOK_FAILED naming it, and S is unchanged', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const copy = structuredClone(game.cards());
    const out = game.send({ type: 'PASS_PRIORITY', player: 'alice', data: { throws: true } } as never);
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatchObject({ code: 'HOOK_FAILED', message: expect.stringMatching(/decide threw: .*decide broke/) });
    expect(game.cards()).toEqual(copy);
  });

  it('a checkpoint that throws after changing S makes the send HOOK_FAILED and S deep-equal to before', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    expect(game.send({ type: 'CARD_ACTION', player: 'alice', action: 'arm' }).ok).toBe(true);
    const copy = structuredClone(game.cards());
    const view = game.view();
    const out = game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error).toMatchObject({ code: 'HOOK_FAILED', message: expect.stringMatching(/the checkpoint broke/) });
    expect(game.cards()).toEqual(copy);
    expect(game.view()).toEqual(view);
  });

  it('an accepted decision commits what decide changed, with the turn', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const out = game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(out.ok).toBe(true);
    expect(game.cards()).toMatchObject({ n: 1, log: ['PASS_PRIORITY'] });
    expect(Object.isFrozen(game.cards())).toBe(true);
    expect(game.cards()).toBe(game.cards());
  });
});

describe('CARD_ACTION and data (CONTRACT v4, "Card actions", "Decisions carry card data")', () => {
  it('routes CARD_ACTION to actions: host events applied, one version each, never awaited', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    // bob holds no priority: a card action checks none.
    const out = game.send({ type: 'CARD_ACTION', player: 'bob', action: 'mana' });
    expect(out.ok).toBe(true);
    expect(game.view().manaPool.bob).toBe(1);
    expect(game.send({ type: 'CARD_ACTION', player: 'bob', action: 'note', data: 'hi' }).ok).toBe(true);
    expect(game.view().version).toBe(2);
    expect(game.cards().log).toEqual(['note:hi']);
    expect(game.legalActions().some((a) => (a.type as string) === 'CARD_ACTION')).toBe(false);
  });

  it('refuses an unknown action naming it, a stranger, and another seat sending with by', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const unknown = game.send({ type: 'CARD_ACTION', player: 'alice', action: 'fly' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', message: expect.stringContaining("'fly'") } });
    expect(game.send({ type: 'CARD_ACTION', player: 'zed', action: 'mana' })).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
    expect(game.send({ type: 'CARD_ACTION', player: 'alice', action: 'mana', by: 'bob' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '723.5' } });
    expect(game.view().version).toBe(0);
  });

  it('a game without cards refuses CARD_ACTION with INVALID_EVENT "needs a card game"', () => {
    const game = createGame({ players });
    expect(game.send({ type: 'CARD_ACTION', player: 'alice', action: 'mana' } as never)).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT', message: expect.stringContaining('needs a card game') } });
  });

  it('data over 4,096 UTF-8 bytes of JSON is INVALID_EVENT, in a card game and in any game', () => {
    const big = { text: 'é'.repeat(2100) };
    const game = createCardGame(counter, { players, seed: 1 });
    expect(game.send({ type: 'PASS_PRIORITY', player: 'alice', data: big } as never)).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT', message: expect.stringContaining('4096') } });
    expect(game.send({ type: 'CARD_ACTION', player: 'alice', action: 'note', data: big })).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
    expect(createGame({ players }).send({ type: 'PASS_PRIORITY', player: 'alice', data: big } as never)).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
    expect(createGame({ players }).send({ type: 'PASS_PRIORITY', player: 'alice', data: { small: 1 } } as never).ok).toBe(true);
  });

  it('emits decided first, with seq, whole to the deciding seat and the host, with publicData to the others', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const host: EmittedEvent[] = [];
    const bob: SeatEvent[] = [];
    const alice: SeatEvent[] = [];
    const spectator: SeatEvent[] = [];
    game.on('*', (e) => void host.push(e));
    game.on('*', (e) => void bob.push(e), { seat: 'bob' });
    game.on('*', (e) => void alice.push(e), { seat: 'alice' });
    game.on('*', (e) => void spectator.push(e), { spectator: true });
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    game.send({ type: 'PASS_PRIORITY', player: 'bob' });
    // alice in her draw step... to her main phase, then a spell with data.
    while (game.view().step !== 'main') game.send({ type: 'PASS_PRIORITY', player: game.view().priority as string });
    host.length = bob.length = alice.length = spectator.length = 0;
    const seq = game.view().seq;
    const out = game.send({ type: 'CAST_SPELL', player: 'alice', id: 's1', speed: 'sorcery', data: { card: 'secret' } } as never);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.events[0]).toEqual({ type: 'decided', event: { type: 'CAST_SPELL', player: 'alice', id: 's1', speed: 'sorcery', data: { card: 'secret' } }, seq: seq + 1 });
    expect(out.events.map((e) => e.seq)).toEqual(out.events.map((_, i) => seq + 1 + i));
    expect(host[0]).toEqual(out.events[0]);
    expect(alice[0]).toEqual(out.events[0]);
    expect((bob[0] as { event: DecidedEvent }).event.data).toEqual({ cast: true });
    expect((spectator[0] as { event: DecidedEvent }).event.data).toEqual({ cast: true });
    // A decision without data emits no decided event.
    const pass = game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(pass.ok && pass.events.some((e) => e.type === 'decided')).toBe(false);
  });

  it("under another player's control the controller is the deciding seat: they see the decision's data whole, the controlled player publicData (CR 723.5; without `by`, as the host sent it)", () => {
    const game = createCardGame(counter, { players, seed: 1 });
    expect(game.send({ type: 'CONTROL_PLAYER', controller: 'bob', player: 'alice' }).ok).toBe(true);
    playUntil(game, (v) => v.turn === 3 && v.step === 'main');
    expect(game.view().decidedBy.alice).toBe('bob');
    const bob: SeatEvent[] = [];
    const alice: SeatEvent[] = [];
    game.on('decided', (e) => void bob.push(e), { seat: 'bob' });
    game.on('decided', (e) => void alice.push(e), { seat: 'alice' });
    expect(game.send({ type: 'CAST_SPELL', player: 'alice', id: 's1', speed: 'sorcery', data: { card: 'secret' } } as never).ok).toBe(true);
    expect((bob[0] as { event: DecidedEvent }).event.data).toEqual({ card: 'secret' });
    expect((alice[0] as { event: DecidedEvent }).event.data).toEqual({ cast: true });
    // A card action for the controlled player, likewise.
    expect(game.send({ type: 'CARD_ACTION', player: 'alice', action: 'note', data: 'plan' }).ok).toBe(true);
    expect((bob[1] as { event: DecidedEvent }).event.data).toBe('plan');
    expect((alice[1] as { event: DecidedEvent }).event.data).toBeUndefined();
  });

  it("a refused decision of a controlled player leaves no mark: the next decided event, another player's, is whole to its own decider only", () => {
    const cards = defineCards({
      name: 'refused-control@1',
      setup: () => ({}),
      actions: { no: () => ({ refuse: 'no' }), ok: () => undefined },
      publicData: () => 'public',
    });
    const game = createCardGame(cards, { players: ['A', 'B', 'C'], seed: 1 });
    expect(game.send({ type: 'CONTROL_PLAYER', controller: 'A', player: 'B' }).ok).toBe(true);
    playUntil(game, (v) => v.activePlayer === 'B');
    const seen: Record<string, unknown[]> = { A: [], C: [] };
    for (const seat of ['A', 'C']) game.on('decided', (e) => void seen[seat]?.push(e.event.data), { seat });
    // B's action, decided by A (no `by`), is refused: its seq is given again to the next decision.
    expect(game.send({ type: 'CARD_ACTION', player: 'B', action: 'no', data: 'b' }).ok).toBe(false);
    expect(game.send({ type: 'CARD_ACTION', player: 'C', action: 'ok', data: 'c' }).ok).toBe(true);
    expect(seen).toEqual({ A: ['public'], C: ['c'] });
  });

  it("a CARD_ACTION sent with `by` is its decider's to undo, as a decision with `by` is (CR 723.5)", () => {
    const game = createCardGame(counter, { players, seed: 1, undo: { mode: 'own', maxPerTurn: null }, use: allModules });
    expect(game.send({ type: 'CONTROL_PLAYER', controller: 'alice', player: 'bob' }).ok).toBe(true);
    playUntil(game, (v) => v.activePlayer === 'bob' && v.priority === 'bob');
    const before = game.view().version;
    expect(game.send({ type: 'CARD_ACTION', player: 'bob', by: 'alice', action: 'note', data: 'x' }).ok).toBe(true);
    expect(game.view().undo?.alice?.to).toBe(before);
    expect(game.view().undo?.bob?.to).toBeNull();
  });

  it('a concession is a player decision: with data it emits decided first (CR 104.3a: decide is not asked, nothing stops it)', () => {
    const three = ['alice', 'bob', 'carol'];
    const game = createCardGame(counter, { players: three, seed: 1, record: true });
    const bob: SeatEvent[] = [];
    game.on('*', (e) => void bob.push(e), { seat: 'bob' });
    const n = game.cards().n;
    const seq = game.view().seq;
    const out = game.send({ type: 'CONCEDE', player: 'carol', data: { refuse: true, note: 'gg' } } as never);
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.events.map((e) => e.type)).toEqual(['decided', 'playerLeft']);
    expect(out.events[0]).toEqual({ type: 'decided', event: { type: 'CONCEDE', player: 'carol', data: { refuse: true, note: 'gg' } }, seq: seq + 1 });
    // Other seats see it without the data (publicData gives nothing for a concession).
    expect(bob[0]).toEqual({ type: 'decided', event: { type: 'CONCEDE', player: 'carol' }, seq: seq + 1 });
    // decide was not asked (it counts every decision it sees, and would have refused this one).
    expect(game.cards().n).toBe(n);
    expect(game.view().players).toEqual(['alice', 'bob']);
    expect(replayGame(game.recording(), { cards: counter }).view()).toEqual(game.view());
  });
});

describe('randomness, size, check, fork, undo and snapshots of card games (CONTRACT v4)', () => {
  it('ctx.random draws from the seed; its position is persisted; fork({ seed }) draws anew', () => {
    const a = createCardGame(counter, { players, seed: 7 });
    const b = createCardGame(counter, { players, seed: 7 });
    expect(a.cards().draws).toEqual(b.cards().draws);
    a.send({ type: 'CARD_ACTION', player: 'alice', action: 'draw' });
    const restored = restoreGame(JSON.parse(JSON.stringify(a.persist())), { cards: counter });
    const fork = a.fork();
    const reseeded = a.fork({ seed: 99 });
    for (const g of [a, restored, fork, reseeded]) g.send({ type: 'CARD_ACTION', player: 'alice', action: 'draw' });
    expect(restored.cards()).toEqual(a.cards());
    expect(fork.cards()).toEqual(a.cards());
    expect(reseeded.cards().draws.at(-1)).not.toBe(a.cards().draws.at(-1));
    expect(createCardGame(counter, { players, seed: 8 }).cards().draws).not.toEqual(a.cards().draws.slice(0, 1));
  });

  it('refuses a send that leaves S not JSON (HOOK_FAILED naming the key): what JSON would drop or change never stays in S', () => {
    const odd = defineCards<{ a: unknown[]; [k: string]: unknown }>({
      name: 'odd@1',
      setup: () => ({ a: [] }),
      actions: {
        fn: (ctx) => void (ctx.state.f = () => 1),
        hole: (ctx) => void ctx.state.a.push(undefined),
        nan: (ctx) => void (ctx.state.x = Number.NaN),
        infinite: (ctx) => void (ctx.state.x = -Infinity),
        date: (ctx) => void (ctx.state.d = new Date(0)),
        map: (ctx) => void (ctx.state.m = new Map()),
        fine: (ctx) => void (ctx.state.ok = { n: 1, list: [null, 'x', true] }),
      },
    });
    const cases: [string, RegExp][] = [
      ['fn', /the value at 'f' is a function/],
      ['hole', /the value at '0' is undefined in a list/],
      ['nan', /the value at 'x' is NaN/],
      ['infinite', /the value at 'x' is -Infinity/],
      ['date', /the value at 'd' is Date, not a plain object or list/],
      ['map', /the value at 'm' is Map, not a plain object or list/],
    ];
    for (const [action, message] of cases) {
      const game = createCardGame(odd, { players, seed: 1 });
      const out = game.send({ type: 'CARD_ACTION', player: 'alice', action });
      expect(out, action).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED', message: expect.stringMatching(/^the cards' state is not JSON: /) } });
      expect((out as { error: { message: string } }).error.message, action).toMatch(message);
      expect(game.cards(), action).toEqual({ a: [] });
      expect(game.view().version, action).toBe(0);
    }
    const game = createCardGame(odd, { players, seed: 1 });
    expect(game.send({ type: 'CARD_ACTION', player: 'alice', action: 'fine' }).ok).toBe(true);
    expect(restoreGame(JSON.parse(JSON.stringify(game.persist())), { cards: odd }).cards()).toEqual(game.cards());
    const badSetup = defineCards({ name: 'bad@1', setup: () => ({ when: new Date(0) }) });
    expect(() => createCardGame(badSetup, { players })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/the value at 'when' is Date/) }));
  });

  it('refuses a send that leaves S over 1 MiB (HOOK_FAILED naming the size); a setup over 1 MiB throws INVALID_OPTIONS', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const out = game.send({ type: 'CARD_ACTION', player: 'alice', action: 'grow' });
    expect(out).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED', message: expect.stringMatching(/\d+ bytes of JSON, more than the 1048576/) } });
    expect(game.cards().blob).toBeUndefined();
    const huge = defineCards({ name: 'huge@1', setup: () => ({ blob: 'x'.repeat(1024 * 1024 + 1) }) });
    expect(() => createCardGame(huge, { players })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('1 MiB') }));
  });

  it("check answers as send would, the cards' verdict included, and changes nothing", () => {
    const game = createCardGame(counter, { players, seed: 1 });
    const before = game.cards();
    expect(game.check({ type: 'PASS_PRIORITY', player: 'alice', data: { refuse: true } })).toMatchObject({ ok: false, error: { rule: 'test.1' } });
    expect(game.check({ type: 'PASS_PRIORITY', player: 'alice' })).toEqual({ ok: true });
    expect(game.check({ type: 'CARD_ACTION', player: 'alice', action: 'fly' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION' } });
    expect(game.cards()).toBe(before);
    expect(game.view().version).toBe(0);
  });

  it('an accepted undo returns S to what it was at version `to`; a send that drew is a barrier', () => {
    const game = createCardGame(counter, { players, seed: 1, undo: { mode: 'own' }, use: allModules });
    game.send({ type: 'CARD_ACTION', player: 'alice', action: 'note', data: 'one' });
    const at1 = game.cards();
    game.send({ type: 'CARD_ACTION', player: 'alice', action: 'note', data: 'two' });
    expect(game.cards().log).toEqual(['note:one', 'note:two']);
    expect(game.send({ type: 'UNDO', player: 'alice', to: 1 }).ok).toBe(true);
    expect(game.cards()).toEqual(at1);
    // The undo's own version names that state too: the cards come back to it from a later note.
    const undoneAt = game.view().version;
    game.send({ type: 'CARD_ACTION', player: 'alice', action: 'note', data: 'again' });
    expect(game.send({ type: 'UNDO', player: 'alice', to: undoneAt }).ok).toBe(true);
    expect(game.cards()).toEqual(at1);
    // A draw from ctx.random: no undo goes back past it.
    game.send({ type: 'CARD_ACTION', player: 'alice', action: 'draw' });
    const drawn = game.view().version;
    // Nothing before the draw can be undone now (CONTRACT v4: `to` is null when nothing can).
    expect(game.view().undo?.alice?.to).toBeNull();
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { cards: counter, use: allModules });
    restored.send({ type: 'CARD_ACTION', player: 'alice', action: 'note', data: 'three' });
    expect(restored.send({ type: 'UNDO', player: 'alice', to: drawn }).ok).toBe(true);
    expect(restored.cards()).toEqual(game.cards());
  });

  it("an undo returns what was owed to the next checkpoint too: an undone action's `decided` reaches no checkpoint (CONTRACT v4: the cards' state comes back)", () => {
    const seen: unknown[] = [];
    const cards = defineCards({
      name: 'owed-undo@1',
      setup: () => ({}),
      checkpoint: (_view, pending) => {
        for (const e of pending) if (e.type === 'decided') seen.push(e.event);
      },
      actions: { nothing: () => undefined },
    });
    const game = createCardGame(cards, { players, seed: 1, undo: { mode: 'own' }, use: allModules });
    const before = game.view().version;
    expect(game.send({ type: 'CARD_ACTION', player: 'bob', action: 'nothing', data: 'kept' }).ok).toBe(true);
    const kept = game.view().version;
    expect(game.send({ type: 'CARD_ACTION', player: 'bob', action: 'nothing', data: 'undone' }).ok).toBe(true);
    // Persisted and restored, the version undo returns to remembers what was owed then.
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { cards, use: allModules });
    for (const g of [game, restored]) {
      expect(g.send({ type: 'UNDO', player: 'bob', to: kept }).ok).toBe(true);
      expect(g.send({ type: 'PASS_PRIORITY', player: 'alice' }).ok).toBe(true);
    }
    expect(seen).toEqual([0, 1].map(() => ({ type: 'CARD_ACTION', player: 'bob', action: 'nothing', data: 'kept' })));
    expect(before).toBeLessThan(kept);
  });

  it("a fork with a new seed draws its cards from the new stream after an undo too", () => {
    const game = createCardGame(counter, { players, seed: 1, undo: { mode: 'own' }, use: allModules });
    const start = game.view().version;
    game.send({ type: 'CARD_ACTION', player: 'alice', action: 'note', data: 'one' });
    const fork = game.fork({ seed: 9 });
    const other = game.fork({ seed: 9 });
    expect(fork.send({ type: 'UNDO', player: 'alice', to: start }).ok).toBe(true);
    fork.send({ type: 'CARD_ACTION', player: 'alice', action: 'draw' });
    other.send({ type: 'CARD_ACTION', player: 'alice', action: 'draw' });
    game.send({ type: 'UNDO', player: 'alice', to: start });
    game.send({ type: 'CARD_ACTION', player: 'alice', action: 'draw' });
    expect(fork.cards().draws).toEqual(other.cards().draws);
    expect(fork.cards().draws).not.toEqual(game.cards().draws);
  });

  it("refuses a card game's snapshot and recording to the main entry, and to cards of another name, naming them", () => {
    const game = createCardGame(counter, { players, seed: 1, record: true });
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    const saved = JSON.parse(JSON.stringify(game.persist())) as unknown;
    expect(() => restoreEngineGame(saved)).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringContaining("'mtg-turn-engine/cards'") }));
    expect(() => replayEngineGame(game.recording())).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringContaining("'mtg-turn-engine/cards'") }));
    const other = defineCards({ name: 'other@2', setup: () => ({}) });
    expect(() => restoreGame(saved, { cards: other })).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringMatching(/'counter@1'.*'other@2'/) }));
    expect(() => replayGame(game.recording(), { cards: other })).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringMatching(/'counter@1'.*'other@2'/) }));
    expect(() => restoreGame(createGame({ players }).persist(), { cards: counter })).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT' }));
    const replayed = replayGame(game.recording() as unknown as CardRecording, { cards: counter });
    expect(replayed.cards()).toEqual(game.cards());
  });

  it('seatView is what a seat sees (null without one); cards() of the host is deeply frozen', () => {
    const game = createCardGame(counter, { players, seed: 1 });
    expect(game.cards({ seat: 'bob' })).toEqual({ seat: 'bob', n: 0 });
    expect(game.cards({ spectator: true })).toEqual({ seat: null, n: 0 });
    expect(() => game.cards({ seat: 'zed' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    const bare = createCardGame(defineCards({ name: 'bare@1', setup: () => ({ hidden: [1] }) }), { players });
    expect(bare.cards({ seat: 'alice' })).toBeNull();
    expect(Object.isFrozen((bare.cards() as { hidden: number[] }).hidden)).toBe(true);
  });
});

describe('a send refused REENTRANT from inside a checkpoint (CONTRACT v4, "Card games": one transaction)', () => {
  it("leaves the outer send's changes to the cards' state standing when the outer send is accepted", () => {
    const holder: { game?: ReturnType<typeof createCardGame<{ marks: string[] }>>; inner?: unknown } = {};
    const cards = defineCards<{ marks: string[] }>({
      name: 'reentrant@1',
      setup: () => ({ marks: [] }),
      checkpoint(view, _pending, ctx) {
        if (view.version !== 0 || view.priority !== 'B' || holder.inner !== undefined) return undefined;
        ctx.state.marks.push('before');
        holder.inner = holder.game?.send({ type: 'ADD_MANA', player: 'A', amount: 1 });
        ctx.state.marks.push('after');
        return { triggers: [{ id: 'T', controller: 'B' }] };
      },
    });
    const game = (holder.game = createCardGame(cards, { players: ['A', 'B'] }));
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(holder.inner).toMatchObject({ ok: false, error: { code: 'REENTRANT' } });
    expect(game.cards()).toEqual({ marks: ['before', 'after'] });
    expect(game.view().stack).toEqual([{ id: 'T', controller: 'B', kind: 'trigger' }]);
  });
});

describe("a decision's data that is not JSON (CONTRACT v4: send never throws)", () => {
  it('is refused INVALID_EVENT by send and check, naming the field', () => {
    const game = createCardGame(counter, { players: ['A', 'B'] });
    for (const data of [() => 1, Symbol('x')]) {
      const event: unknown = { type: 'PASS_PRIORITY', player: 'A', data };
      expect(game.check(event)).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT', message: expect.stringMatching(/PASS_PRIORITY\.data: must be JSON/) } });
      expect(game.send(event)).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
    }
    expect(game.view().version).toBe(0);
  });
});

