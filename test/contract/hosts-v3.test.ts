/**
 * Hosts v3 (issue 23, CONTRACT v3 "createGame", "Game", "TurnView", "Events"): every event once
 * (`seq`), a hook that commits or aborts (`hooks.settled`), `game.check`, the facts a host needs
 * in the view (`blocked`, `currentTurn`, `turnBegan.extra`) and Arena-style passing
 * (`hooks.autoPass`).
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type CheckpointResult, type EmittedEvent, type Game, type TurnView } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';

function playOn(game: Game, sends: number): EmittedEvent[] {
  const out: EmittedEvent[] = [];
  for (let i = 0; i < sends && game.view().gameOver === null; i++) {
    const r = game.send(plainestAnswer(game.view()) as unknown);
    expect(r.ok).toBe(true);
    if (r.ok) out.push(...r.events);
  }
  return out;
}

describe('seq: every emitted event exactly once (CONTRACT v3)', () => {
  it('numbers every event 1, 2, 3, ... for the life of the game; view().seq is the last one', () => {
    const heard: EmittedEvent[] = [];
    const game = createGame({ players: ['A', 'B', 'C'], listeners: { '*': (e) => heard.push(e) } });
    const returned = playOn(game, 200);
    expect(heard.map((e) => e.seq)).toEqual(heard.map((_, i) => i + 1));
    expect(returned.map((e) => e.seq)).toEqual(heard.slice(heard.length - returned.length).map((e) => e.seq));
    expect(game.view().seq).toBe(heard.length);
  });

  it("pending holds the same events, seq included, and events after a send's last checkpoint come again in the next call", () => {
    const seenInPending: EmittedEvent[] = [];
    const game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: (_view: TurnView, pending: EmittedEvent[]): CheckpointResult | undefined => {
          seenInPending.push(...pending);
          return undefined;
        },
      },
    });
    const heard: EmittedEvent[] = [];
    game.on('*', (e) => heard.push(e));
    playOn(game, 150);
    const bySeq = new Map(seenInPending.map((e) => [e.seq, e]));
    // Every event a listener heard that a later checkpoint saw, it saw equal, seq included.
    const seen = heard.filter((e) => bySeq.has(e.seq));
    expect(seen.length).toBeGreaterThan(100);
    for (const e of seen) expect(bySeq.get(e.seq)).toEqual(e);
    // Each seq reached the hook once at most.
    expect(new Set(seenInPending.map((e) => e.seq)).size).toBe(seenInPending.length);
  });

  it('is persisted and continued by restoreGame and by forks; a refused send consumes no numbers', () => {
    const game = createGame({ players: ['A', 'B'] });
    playOn(game, 30);
    const seq = game.view().seq;
    expect(game.persist().seq).toBe(seq);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'nobody' }).ok).toBe(false);
    expect(game.view().seq).toBe(seq);
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())));
    const fork = game.fork();
    for (const g of [restored, fork]) {
      const next = playOn(g, 5);
      expect(next[0]?.seq).toBe(seq + 1);
    }
  });
});

describe('hooks.settled (CONTRACT v3)', () => {
  it('is called once at the end of every send that called the checkpoint, with ok, version and seq', () => {
    const outcomes: { ok: boolean; version: number; seq: number }[] = [];
    let fail = false;
    const game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: () => {
          if (fail) throw new Error('the host broke');
          return undefined;
        },
        settled: (o) => outcomes.push(o),
      },
    });
    expect(outcomes).toEqual([{ ok: true, version: 0, seq: game.view().seq }]);
    outcomes.length = 0;
    // A pass that reaches a checkpoint.
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(outcomes).toEqual([{ ok: true, version: 1, seq: game.view().seq }]);
    // A setting never reaches a checkpoint: no call.
    outcomes.length = 0;
    expect(game.send({ type: 'SET_STOPS', player: 'A', stops: null }).ok).toBe(true);
    expect(outcomes).toEqual([]);
    // A refused send (the hook failed): ok false with the unchanged version and seq.
    fail = true;
    const before = game.view();
    const r = game.send({ type: 'PASS_PRIORITY', player: 'B' });
    expect(r).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    expect(outcomes).toEqual([{ ok: false, version: before.version, seq: before.seq }]);
  });

  it('a throw from it is ignored by the engine', () => {
    const game = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => undefined, settled: () => { throw new Error('host bug'); } } });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    } finally {
      console.error = original;
    }
    expect(errors.length).toBe(1);
  });

  it('must be a function', () => {
    expect(() => createGame({ players: ['A', 'B'], hooks: { settled: 3 as unknown as () => void } })).toThrow(/hooks\.settled/);
  });
});

describe('game.check(event) (CONTRACT v3)', () => {
  it("gives send's answer, changing nothing and calling no hook", () => {
    let calls = 0;
    const game = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => void calls++ } });
    const before = JSON.stringify(game.persist());
    const seen = calls;
    expect(game.check({ type: 'PASS_PRIORITY', player: 'A' })).toEqual({ ok: true });
    expect(game.check({ type: 'PASS_PRIORITY', player: 'B' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION' } });
    expect(game.check({ type: 'NOT_AN_EVENT' })).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
    expect(calls).toBe(seen);
    expect(JSON.stringify(game.persist())).toBe(before);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
  });

  it('may be asked from inside the checkpoint hook before it returns an event', () => {
    let game: Game | null = null;
    const answers: boolean[] = [];
    game = createGame({
      players: ['A', 'B'],
      hooks: {
        checkpoint: () => {
          if (game === null) return undefined;
          const extra = { type: 'ADD_MANA', player: 'A', amount: 1 } as const;
          const ok = game.check(extra).ok;
          answers.push(ok);
          return undefined;
        },
      },
    });
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((a) => a)).toBe(true);
  });
});

describe('what the view tells a host (CONTRACT v3)', () => {
  it('509.1h: a blocked attacker whose blockers all left combat stays blocked', () => {
    const game = createGame({ players: ['A', 'B'] });
    while (game.view().step !== 'declareAttackers') game.send(plainestAnswer(game.view()) as unknown);
    expect(game.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear#1', defender: 'B' }] }).ok).toBe(true);
    while (game.view().step !== 'declareBlockers') game.send(plainestAnswer(game.view()) as unknown);
    expect(game.view().combat?.attackers[0]).toMatchObject({ id: 'bear#1', blocked: false });
    expect(game.send({ type: 'DECLARE_BLOCKERS', player: 'B', blockers: [{ id: 'wall#2', attacker: 'bear#1' }] }).ok).toBe(true);
    expect(game.send({ type: 'REMOVE_FROM_COMBAT', id: 'wall#2' }).ok).toBe(true);
    expect(game.view().combat?.attackers[0]).toMatchObject({ id: 'bear#1', blocked: true, blockedBy: [] });
  });

  it('500.7: currentTurn and turnBegan say whether the turn is an extra turn, and which (Final Fortune)', () => {
    const game = createGame({ players: ['A', 'B'] });
    expect(game.view().currentTurn).toEqual({ player: 'A', extra: false });
    expect(game.send({ type: 'ADD_EXTRA_TURN', player: 'A', id: 'final-fortune#3' }).ok).toBe(true);
    const began: EmittedEvent[] = [];
    game.on('turnBegan', (e) => began.push(e));
    while (game.view().turn < 3) game.send(plainestAnswer(game.view()) as unknown);
    expect(began.map(({ seq: _seq, ...e }) => e)).toEqual([
      { type: 'turnBegan', turn: 2, activePlayer: 'A', extra: true, id: 'final-fortune#3' },
      { type: 'turnBegan', turn: 3, activePlayer: 'B', extra: false },
    ]);
    expect(game.view().currentTurn).toEqual({ player: 'B', extra: false });
  });

  it('currentTurn is null in the pregame', () => {
    expect(createGame({ players: ['A', 'B'], pregame: true }).view().currentTurn).toBeNull();
  });
});

describe('hooks.autoPass: Arena-style passing (CONTRACT v3)', () => {
  it("passes for the player it says true for, with objects on the stack too, emitted with reason 'host'", () => {
    const asked: string[] = [];
    const game = createGame({
      players: ['A', 'B'],
      hooks: { autoPass: (view, player) => (asked.push(`${view.step}:${player}`), player === 'B') },
    });
    const passes: EmittedEvent[] = [];
    game.on('autoPass', (e) => passes.push(e));
    // A casts: B has nothing meaningful to do, so B passes for themselves and the spell resolves.
    while (game.view().step !== 'main') game.send(plainestAnswer(game.view()) as unknown);
    expect(game.send({ type: 'CAST_SPELL', player: 'A', id: 'bolt#1', speed: 'instant' }).ok).toBe(true);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(passes.some((e) => e.type === 'autoPass' && e.player === 'B' && e.reason === 'host')).toBe(true);
    expect(game.view().stack).toEqual([]);
    expect(game.view().priority).toBe('A');
    expect(asked.some((a) => a.endsWith(':A'))).toBe(true);
  });

  it('nextStop uses it', () => {
    const game = createGame({ players: ['A', 'B'], hooks: { autoPass: (_view, player) => player === 'B' } });
    // B is never asked for priority: B is next asked for a declaration (blockers) or not at all in these turns.
    const next = game.nextStop('B');
    expect(next?.awaiting.kind).not.toBe('priority');
    const plain = createGame({ players: ['A', 'B'] }).nextStop('B');
    expect(plain?.awaiting.kind).toBe('priority');
  });

  it('must be a function', () => {
    expect(() => createGame({ players: ['A', 'B'], hooks: { autoPass: true as unknown as () => boolean } })).toThrow(/hooks\.autoPass/);
  });
});
