/**
 * Host integration (issue 10): the seams a host builds on. The checkpoint sees what happened
 * since it last ran; the hook can report host events; createGame's own events reach the
 * `listeners` option; one actor for the life of the game, whose subscribers never error and
 * whose direct sends get every check; re-entrant sends are refused; UIs get `subscribe`,
 * `getSnapshot` and `version`.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGame as createDefault, ErrorCode, replayGame, type CheckpointResult, type EmittedEvent, type Game, type GameOptions, type TurnView } from '../../src/index.js';
import { actorOf } from '../../src/xstate.js';
import { createInterpreterGame } from '../support/logics.js';
import { allModules } from '../../src/allModules.js';

const pass = (player: string) => ({ type: 'PASS_PRIORITY', player }) as const;

// Games on the compiled runtime, the same with their XState actor made at once (actorOf with
// an inspection observer), and on the reference logic (XState's own transition): all keep every point.
const runtimes: [string, (options: GameOptions) => Game][] = [
  ['compiled runtime', createDefault],
  ['compiled runtime with its actor inspected', (options) => {
    const game = createDefault(options);
    actorOf(game, { inspect: () => undefined });
    return game;
  }],
  ['reference logic on XState', createInterpreterGame],
];

describe.each(runtimes)('%s', (_name, createGame) => {

describe('checkpoint hook (CR 117.5, 704.3): what the host must carry out first', () => {
  it('receives every event emitted since the previous call, in order: turn 1 untap before the upkeep check', () => {
    const calls: { step: string; pending: string[] }[] = [];
    createGame({ players: ['A', 'B'], hooks: { checkpoint: (view, pending) => void calls.push({ step: view.step, pending: pending.map((e) => e.type) }) } });
    expect(calls[0]).toEqual({ step: 'upkeep', pending: ['turnBegan', 'stepBegan', 'phasing', 'untap', 'stepBegan'] });
  });

  it('sees the resolution before the next check, so the host resolves the spell first (CR 608, 117.5)', () => {
    const seen: string[][] = [];
    const game = createGame({ players: ['A', 'B'], hooks: { checkpoint: (_v, pending) => void seen.push(pending.map((e) => e.type)) } });
    game.send({ type: 'CAST_SPELL', player: 'A', id: 'shock', speed: 'instant' });
    game.send(pass('A'));
    seen.length = 0;
    game.send(pass('B'));
    expect(seen[0]).toEqual(['resolve']);
  });

  it('may return host events, applied as if sent then; the view it saw had the version before the send', () => {
    const versions: number[] = [];
    let once = true;
    const game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: (view) => {
          versions.push(view.version);
          if (view.step === 'main' && once) {
            once = false;
            return { events: [{ type: 'ADD_MANA', player: 'A', amount: 2 }, { type: 'ADD_EXTRA_TURN', player: 'A', id: 'time-walk' }] };
          }
          return undefined;
        },
      },
    });
    game.send(pass('A'));
    game.send(pass('B'));
    expect(game.view()).toMatchObject({ step: 'main', manaPool: { A: 2 }, version: 2 });
    expect(game.view().schedule.turns[0]).toEqual({ player: 'A', extra: true, id: 'time-walk', skipped: false });
    expect(versions.at(-1)).toBe(1);
  });

  it('an event the hook returns that would be refused fails the whole send with HOOK_FAILED and changes nothing', () => {
    const game = createGame({
      players: ['A', 'B'],
      hooks: { checkpoint: (view) => (view.step === 'main' ? { events: [{ type: 'SPEND_MANA', player: 'A', amount: 5 }] } : undefined) },
    });
    game.send(pass('A'));
    const before = JSON.stringify(game.persist());
    const r = game.send(pass('B'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ code: ErrorCode.HOOK_FAILED, message: expect.stringContaining('SPEND_MANA') });
    expect(JSON.stringify(game.persist())).toBe(before);
  });

  it('triggers the hook reports whose ids are already on the stack, or twice in its result, fail the send with HOOK_FAILED (CR 405.1: ids on the stack are unique)', () => {
    const reports: CheckpointResult[] = [
      { triggers: [{ id: 'bolt', controller: 'B' }] },
      { triggers: [{ id: 't', controller: 'A' }, { id: 't', controller: 'B' }] },
      { triggers: [{ id: 't', controller: 'A' }], events: [{ type: 'TRIGGER', triggers: [{ id: 't', controller: 'B' }] }] },
    ];
    for (const report of reports) {
      let fire = false;
      const game = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => (fire ? ((fire = false), report) : undefined) } });
      game.send({ type: 'CAST_SPELL', player: 'A', id: 'bolt', speed: 'instant' });
      const before = JSON.stringify(game.persist());
      fire = true;
      const r = game.send(pass('A'));
      expect(r, JSON.stringify(report)).toMatchObject({ ok: false, error: { code: ErrorCode.HOOK_FAILED, message: expect.stringContaining('already on the stack') } });
      expect(JSON.stringify(game.persist())).toBe(before);
    }
  });

  it('ending the turn from the hook drops the rest of its result (CR 724.1)', () => {
    let fired = false;
    const game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: (view) => {
          if (view.step !== 'beginningOfCombat' || fired) return undefined;
          fired = true;
          return { events: [{ type: 'END_TURN' }, { type: 'ADD_MANA', player: 'A', amount: 3 }] };
        },
      },
    });
    game.send(pass('A'));
    game.send(pass('B'));
    game.send(pass('A'));
    const r = game.send(pass('B'));
    expect(r.ok).toBe(true);
    const steps = r.ok ? r.events.filter((e) => e.type === 'stepBegan').map((e) => (e as { step: string }).step) : [];
    expect(steps).toEqual(['beginningOfCombat', 'cleanup', 'untap', 'upkeep']);
    expect(game.view()).toMatchObject({ turn: 2, manaPool: { A: 0 } });
  });

  it('a hook that calls send gets REENTRANT; the outer send goes on', () => {
    let inner: unknown;
    const holder: { game?: Game } = {};
    const game = createGame({ players: ['A', 'B'] });
    const hooked = (holder.game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: () => {
          inner ??= holder.game?.send(pass('A'));
        },
      },
    }));
    expect(inner).toBeUndefined(); // createGame had not returned: nothing to call yet
    inner = undefined;
    expect(hooked.send(pass('A')).ok).toBe(true);
    expect(hooked.view().priority).toBe('B');
    expect(inner).toMatchObject({ ok: false, error: { code: ErrorCode.REENTRANT } });
    expect(game.view().version).toBe(0);
  });

  it('a send refused REENTRANT from a hook leaves the outer send whole: one settled call for it, its recorded answers, a replay', () => {
    const settled: unknown[] = [];
    const holder: { game?: Game; inner?: unknown } = {};
    const game = (holder.game = createGame({
      players: ['A', 'B'],
      record: true,
      hooks: {
        checkpoint: (view) => {
          if (view.priority !== 'B' || holder.inner !== undefined) return undefined;
          holder.inner = holder.game?.send({ type: 'ADD_MANA', player: 'A', amount: 1 });
          return { triggers: [{ id: 't', controller: 'B' }] };
        },
        autoPass: () => {
          // CONTRACT: autoPass must not call send; if it does, the refusal changes nothing either.
          holder.game?.send(pass('A'));
          return false;
        },
        settled: (outcome) => settled.push(outcome),
      },
    }));
    settled.length = 0;
    expect(game.send(pass('A')).ok).toBe(true);
    expect(holder.inner).toMatchObject({ ok: false, error: { code: ErrorCode.REENTRANT } });
    expect(settled).toEqual([{ ok: true, version: 1, seq: game.view().seq }]);
    expect(game.view()).toMatchObject({ priority: 'B', stack: [{ id: 't' }], manaPool: { A: 0 } });
    // Replayed on the compiled runtime (the reference logic asks autoPass at other moments: its recording is its own).
    if (createGame !== createInterpreterGame) expect(replayGame(game.recording(), { use: allModules }).view()).toEqual(game.view());
  });
});

describe('send, listeners and the version', () => {
  it('send returns the events it emitted; listeners given to createGame see createGame’s own events', () => {
    const seen: EmittedEvent[] = [];
    const game = createGame({ players: ['A', 'B'], listeners: { '*': (e) => seen.push(e) } });
    expect(seen.map((e) => e.type)).toEqual(['turnBegan', 'stepBegan', 'phasing', 'untap', 'stepBegan']);
    const r = game.send(pass('A'));
    expect(r).toEqual({ ok: true, events: [] });
    const r2 = game.send(pass('B'));
    // CR 103.8a: the starting player of a two-player game skips the first draw step.
    expect(r2.ok && r2.events.map((e) => e.type)).toEqual(['stepBegan', 'loreCounters', 'visitAttractions']);
    expect(game.view().version).toBe(2);
  });

  it('a refusal changes nothing and emits nothing; the version stays', () => {
    const listener = vi.fn();
    const game = createGame({ players: ['A', 'B'] });
    game.on('*', listener);
    const r = game.send(pass('B'));
    expect(r).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '117.3d' } });
    expect(listener).not.toHaveBeenCalled();
    expect(game.view().version).toBe(0);
  });
});

describe('UI snapshots: subscribe, getSnapshot', () => {
  it('getSnapshot is the same frozen object until an accepted event; subscribers run once per accepted event', () => {
    const game = createGame({ players: ['A', 'B'] });
    const first = game.getSnapshot();
    expect(game.getSnapshot()).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.manaPool)).toBe(true);
    const sub = vi.fn();
    const unsubscribe = game.subscribe(sub);
    game.send(pass('B'));
    expect(sub).not.toHaveBeenCalled();
    expect(game.getSnapshot()).toBe(first);
    game.send(pass('A'));
    expect(sub).toHaveBeenCalledTimes(1);
    expect(game.getSnapshot()).not.toBe(first);
    unsubscribe();
    game.send(pass('B'));
    expect(sub).toHaveBeenCalledTimes(1);
  });

  it('subscribe and getSnapshot work unbound, as useSyncExternalStore calls them, and are the same functions at every read', () => {
    const game = createGame({ players: ['A', 'B'] });
    const { subscribe, getSnapshot } = game;
    expect(game.subscribe).toBe(subscribe);
    expect(game.getSnapshot).toBe(getSnapshot);
    const sub = vi.fn();
    const unsubscribe = subscribe(sub);
    expect(getSnapshot()).toBe(game.getSnapshot());
    game.send(pass('A'));
    expect(sub).toHaveBeenCalledTimes(1);
    expect(getSnapshot().priority).toBe('B');
    expect(getSnapshot({ seat: 'A' })).toBe(game.getSnapshot({ seat: 'A' }));
    unsubscribe();
    // Another game's are its own.
    const other = createGame({ players: ['A', 'B'] });
    expect(other.getSnapshot).not.toBe(getSnapshot);
    expect(other.getSnapshot().priority).toBe('A');
  });

  it('view() is a fresh object: mutating it changes nothing', () => {
    const game = createGame({ players: ['A', 'B'] });
    const v: TurnView = game.view();
    v.players.push('Z');
    v.manaPool.A = 99;
    expect(game.view().players).toEqual(['A', 'B']);
    expect(game.view().manaPool.A).toBe(0);
  });
});

describe('the actor: one for the life of the game', () => {
  it('stays the same object and its subscribers never get an error, even when a hook throws', async () => {
    let explode = false;
    const game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: () => {
          if (explode) throw new Error('boom');
        },
      },
    });
    const actor = actorOf(game);
    const error = vi.fn();
    const next = vi.fn();
    actor.subscribe({ next, error });
    // A subscriber without an error callback (as `useSelector` subscribes): an actor error would be thrown at Node.
    actor.subscribe(() => undefined);
    explode = true;
    const r = game.send(pass('A'));
    explode = false;
    expect(r.ok).toBe(false);
    expect(actorOf(game)).toBe(actor);
    expect(error).not.toHaveBeenCalled();
    expect(actor.getSnapshot().status).toBe('active');
    expect(game.send(pass('A')).ok).toBe(true);
    // Direct sends whose hook throws are refused the same way, nothing thrown later either.
    explode = true;
    actor.send(pass('B'));
    explode = false;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(error).not.toHaveBeenCalled();
    expect(actor.getSnapshot().status).toBe('active');
  });

  it('events sent to the actor directly get the checks of game.send', async () => {
    const game = createGame({ players: ['A', 'B'] });
    const before = JSON.stringify(game.persist());
    actorOf(game).send({ type: 'PASS_PRIORITY', player: 'B' });
    actorOf(game).send({ type: 'NOT_AN_EVENT' } as never);
    actorOf(game).send({ type: 'ADD_MANA', player: 'A', amount: -3 } as never);
    expect(JSON.stringify(game.persist())).toBe(before);
    const sub = vi.fn();
    game.subscribe(sub);
    actorOf(game).send({ type: 'PASS_PRIORITY', player: 'A' });
    await Promise.resolve();
    expect(game.view()).toMatchObject({ priority: 'B', version: 1 });
    expect(sub).toHaveBeenCalledTimes(1);
  });

  it('an event sent to the actor from inside the hook is refused as REENTRANT: it changes nothing, then or later', async () => {
    const holder: { game?: Game } = {};
    let sent = false;
    const game = (holder.game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: (view) => {
          if (holder.game === undefined || view.step !== 'main' || sent) return;
          sent = true;
          actorOf(holder.game).send({ type: 'ADD_MANA', player: 'A', amount: 5 });
        },
      },
    }));
    void actorOf(game);
    game.send(pass('A'));
    const r = game.send(pass('B'));
    await Promise.resolve();
    expect(sent).toBe(true);
    expect(r.ok && r.events.map((e) => e.type)).toEqual(['stepBegan', 'loreCounters', 'visitAttractions']);
    expect(game.view()).toMatchObject({ step: 'main', priority: 'A', manaPool: { A: 0 }, version: 2 });
  });

  it('a send from an actor subscriber (it runs while the actor processes the event) is REENTRANT and changes nothing', async () => {
    for (const via of ['game', 'actor'] as const) {
      const game = createGame({ players: ['A', 'B'] });
      const inner: unknown[] = [];
      actorOf(game).subscribe(() => {
        if (inner.length > 0) return;
        const event = pass('A');
        inner.push(via === 'game' ? game.send(event) : (actorOf(game).send(event), 'sent'));
      });
      const r = game.send(pass('A'));
      await Promise.resolve();
      expect(r.ok).toBe(true);
      if (via === 'game') expect(inner[0]).toMatchObject({ ok: false, error: { code: ErrorCode.REENTRANT } });
      expect(game.view()).toMatchObject({ step: 'upkeep', priority: 'B', version: 1 });
    }
  });
});
});
