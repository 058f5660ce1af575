/**
 * Chess clocks (CONTRACT v3, "Playing between people", the `clock` option; issue 24 point 2),
 * sentence by sentence: each rule of charging (whom, the delay, the increment, pausing, the
 * controlled player, the team, Grand Melee's turn markers), the time-outs, `nextDeadline`, and a
 * restore mid-decision. The property over random games is test/properties/clocks.property.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { createGame, recordingToScenario, replayGame, restoreGame, runScenario, type ClockOptions, type Game, type GameOptions, type TurnEvent } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';
import { mismatch } from '../../src/scenarios/match.js';
import { allModules } from '../../src/allModules.js';

const CLOCK: ClockOptions = { initialMs: 60_000, onTimeout: 'lose' };

/** A persisted game's time as JSON, for mutations (any field may be set to anything). */
interface TimedSnapshot {
  time: { at: unknown; seats?: unknown; clock: { ms: Record<string, unknown>; flagged: unknown; onTimeout: unknown; running: Record<string, { delayMsLeft: unknown; decision: unknown }> } };
}

function clocked(clock: Partial<ClockOptions> = {}, options: Partial<GameOptions> = {}): Game {
  return createGame({ use: allModules, players: ['A', 'B'], ...options, clock: { ...CLOCK, ...clock } });
}

/** Every player's clock time left. */
const left = (game: Game) => Object.fromEntries(Object.entries(game.view().clocks ?? {}).map(([p, c]) => [p, c.msLeft]));

function ok(game: Game, event: unknown): void {
  const result = game.send(event);
  expect(result, JSON.stringify(event)).toMatchObject({ ok: true });
}

/** Answers what is awaited with the plainest input (no `at`: no time passes) until the view matches. */
function passUntil(game: Game, pattern: Record<string, unknown>): void {
  for (let i = 0; mismatch(pattern, game.view()) !== null; i++) {
    if (i > 500) throw new Error(`not reached: ${JSON.stringify(pattern)}`);
    ok(game, plainestAnswer(game.view()));
  }
}

describe('clocks (CONTRACT v3, "Playing between people")', () => {
  it('view().clocks is null without the clock option, and a game without it persists no time', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    ok(game, { type: 'PASS_PRIORITY', player: 'A' });
    expect(game.view().clocks).toBeNull();
    expect(game.nextDeadline()).toBeNull();
    expect('time' in game.persist()).toBe(false);
  });

  it('clocks start at the first event that carries at: before it nothing is charged, nothing runs, no deadline', () => {
    const game = clocked({ incrementMs: 1000 });
    expect(game.view().clocks?.A).toEqual({ msLeft: 60_000, running: false, flagged: false, delayMsLeft: 0, at: null });
    ok(game, { type: 'PASS_PRIORITY', player: 'A' });
    // No increment either: the clocks have not started.
    expect(left(game)).toEqual({ A: 60_000, B: 60_000 });
    expect(game.nextDeadline()).toBeNull();
    ok(game, { type: 'TICK', at: 5000 });
    expect(left(game)).toEqual({ A: 60_000, B: 60_000 });
    expect(game.view().clocks?.B).toMatchObject({ running: true, at: 5000 });
  });

  it('the time between two events that carry at is charged to the player holding priority', () => {
    const game = clocked();
    ok(game, { type: 'TICK', at: 1000 });
    ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 4000 });
    expect(left(game)).toEqual({ A: 57_000, B: 60_000 });
    ok(game, { type: 'PASS_PRIORITY', player: 'B', at: 4500 });
    expect(left(game)).toEqual({ A: 57_000, B: 59_500 });
  });

  it('an event without at charges nothing', () => {
    const game = clocked();
    ok(game, { type: 'TICK', at: 1000 });
    ok(game, { type: 'PASS_PRIORITY', player: 'A' });
    ok(game, { type: 'TICK', at: 3000 });
    // B was awaited from 1000 (A passed without a time: at 1000, as the game knows), charged 2000.
    expect(left(game)).toEqual({ A: 60_000, B: 58_000 });
  });

  it('the time is charged to the player awaited for a decision other than priority (the defending player declaring blockers)', () => {
    const game = clocked();
    passUntil(game, { step: 'declareAttackers' });
    ok(game, { type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear', defender: 'B' }] });
    passUntil(game, { awaiting: { kind: 'declareBlockers' } });
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'DECLARE_BLOCKERS', player: 'B', blockers: [], at: 7000 });
    expect(left(game)).toEqual({ A: 60_000, B: 53_000 });
  });

  it("under CR 723 a controlled player's decisions are charged to their controller's clock", () => {
    const game = clocked({ incrementMs: 100 });
    ok(game, { type: 'CONTROL_PLAYER', controller: 'A', player: 'B' });
    passUntil(game, { turn: 2, step: 'upkeep', priority: 'B' });
    expect(game.view().decidedBy.B).toBe('A');
    ok(game, { type: 'TICK', at: 0 });
    expect(game.view().clocks?.A?.running).toBe(true);
    expect(game.view().clocks?.B?.running).toBe(false);
    expect(game.nextDeadline()).toEqual({ player: 'A', at: 60_000 });
    ok(game, { type: 'PASS_PRIORITY', player: 'B', by: 'A', at: 2000 });
    // A made B's decision: charged 2000, gained the increment.
    expect(left(game)).toEqual({ A: 58_100, B: 60_000 });
  });

  it('in shared team turns the team holding priority is charged: one clock per team, shown under each member (CR 805.5)', () => {
    const game = clocked({ incrementMs: 500 }, { players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] });
    ok(game, { type: 'TICK', at: 0 });
    expect(game.view().clocks?.B).toEqual(game.view().clocks?.A);
    // B passes for the team (805.5): the team's clock is charged and gains the increment.
    ok(game, { type: 'PASS_PRIORITY', player: 'B', at: 3000 });
    expect(left(game)).toEqual({ A: 57_500, B: 57_500, C: 60_000, D: 60_000 });
    expect(game.view().clocks?.C?.running).toBe(true);
    expect(game.view().clocks?.D).toEqual(game.view().clocks?.C);
  });

  it("in Grand Melee each turn marker's decider is charged: two clocks run at once (CR 807.5)", () => {
    const players = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
    const game = clocked({}, { players, variant: 'grandMelee' });
    const deciders = (game.view().turns ?? []).map((t) => t.awaiting?.player);
    expect(deciders.length).toBe(2);
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'TICK', at: 4000 });
    const clocks = game.view().clocks ?? {};
    for (const p of players) expect(clocks[p]?.msLeft, p).toBe(deciders.includes(p) ? 56_000 : 60_000);
    expect(players.filter((p) => clocks[p]?.running)).toEqual(deciders);
  });

  it('each decision first uses up delayMs, which is not charged; a host event between does not give the delay again', () => {
    const game = clocked({ delayMs: 2000 });
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'TICK', at: 1500 });
    expect(game.view().clocks?.A).toMatchObject({ msLeft: 60_000, delayMsLeft: 500 });
    ok(game, { type: 'ADD_MANA', player: 'A', amount: 1, at: 1600 });
    expect(game.view().clocks?.A).toMatchObject({ msLeft: 60_000, delayMsLeft: 400 });
    // 1400 ms more: the 400 left of the delay, then 1000 charged.
    ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 3000 });
    expect(left(game)).toEqual({ A: 59_000, B: 60_000 });
    // B's decision has its own delay.
    expect(game.view().clocks?.B).toMatchObject({ delayMsLeft: 2000, running: true });
    expect(game.nextDeadline()).toEqual({ player: 'B', at: 3000 + 2000 + 60_000 });
  });

  it('a player who completes a decision gains incrementMs (a new decision of theirs gets a new delay)', () => {
    const game = clocked({ incrementMs: 500, delayMs: 100 });
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'CAST_SPELL', player: 'A', id: 'shock', speed: 'instant', at: 1100 });
    // A cast and holds priority again (117.3c): charged 1000, +500, a fresh delay.
    expect(game.view().clocks?.A).toMatchObject({ msLeft: 59_500, delayMsLeft: 100, running: true });
  });

  it('PAUSE_CLOCKS and RESUME_CLOCKS stop and restart every clock', () => {
    const game = clocked();
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'PAUSE_CLOCKS', at: 1000 });
    expect(game.view().clocks?.A?.running).toBe(false);
    expect(game.nextDeadline()).toBeNull();
    ok(game, { type: 'TICK', at: 50_000 });
    ok(game, { type: 'RESUME_CLOCKS', at: 90_000 });
    expect(left(game)).toEqual({ A: 59_000, B: 60_000 });
    ok(game, { type: 'TICK', at: 91_000 });
    expect(left(game)).toEqual({ A: 58_000, B: 60_000 });
    expect(game.nextDeadline()).toEqual({ player: 'A', at: 91_000 + 58_000 });
  });

  it("with onTimeout 'lose' a player whose clock reaches 0 loses (reason 'time'), and the game ends with the last", () => {
    const game = clocked({ initialMs: 5000 });
    const events: unknown[] = [];
    game.on('*', (e) => events.push(e));
    ok(game, { type: 'TICK', at: 0 });
    expect(game.nextDeadline()).toEqual({ player: 'A', at: 5000 });
    ok(game, { type: 'TICK', at: 9000 });
    expect(events).toMatchObject([{ type: 'playerLeft', player: 'A', reason: 'time' }, { type: 'gameOver', winners: ['B'] }]);
    expect(game.view().gameOver?.reasons).toEqual({ A: 'time' });
    expect(game.view().clocks?.A).toMatchObject({ msLeft: 0, flagged: true, running: false });
    expect(game.nextDeadline()).toBeNull();
  });

  it('a clock runs out at its own instant: a late TICK gives the same game as a punctual one (the next player is charged from then)', () => {
    const make = () => clocked({ initialMs: 5000 }, { players: ['A', 'B', 'C'] });
    const punctual = make();
    ok(punctual, { type: 'TICK', at: 0 });
    ok(punctual, { type: 'TICK', at: 5000 });
    ok(punctual, { type: 'TICK', at: 7000 });
    const late = make();
    ok(late, { type: 'TICK', at: 0 });
    ok(late, { type: 'TICK', at: 7000 });
    // A left at 5000; B, who then received priority, was charged from 5000.
    expect(left(late)).toEqual({ A: 0, B: 3000, C: 5000 });
    expect(left(late)).toEqual(left(punctual));
    expect(late.view().priority).toBe('B');
  });

  it("with onTimeout 'pass' the player's decisions are answered with the plainest answers from then on (autoPass reason 'time')", () => {
    const game = clocked({ initialMs: 5000, onTimeout: 'pass' });
    const passes: unknown[] = [];
    game.on('autoPass', (e) => passes.push(e));
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'TICK', at: 6000 });
    expect(passes).toEqual([expect.objectContaining({ type: 'autoPass', player: 'A', turn: 1, step: 'upkeep', reason: 'time' })]);
    expect(game.view()).toMatchObject({ priority: 'B', clocks: { A: { msLeft: 0, flagged: true } } });
    // From then on: B passes, and A's every decision (priority, attackers) is answered at once.
    for (let i = 0; i < 12 && game.view().awaiting?.player === 'B'; i++) ok(game, { ...(plainestAnswer(game.view()) as object), at: 6000 + i });
    expect(passes.length).toBeGreaterThan(3);
    expect(game.view().awaiting?.player).not.toBe('A');
    expect(passes).toContainEqual(expect.objectContaining({ player: 'A', step: 'declareAttackers', reason: 'time' }));
  });

  it("never wedges: with every clock run out ('pass'), each send plays at most as many turns as there are players", () => {
    const game = clocked({ initialMs: 1000, onTimeout: 'pass' });
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'TICK', at: 10_000 });
    const turn = game.view().turn;
    expect(game.view().clocks).toMatchObject({ A: { flagged: true }, B: { flagged: true } });
    expect(turn).toBeGreaterThan(1);
    expect(turn).toBeLessThanOrEqual(1 + 2 + 1);
    ok(game, { type: 'TICK', at: 10_001 });
    expect(game.view().turn).toBeGreaterThan(turn);
    expect(game.legalActions().length).toBeGreaterThan(0);
  });

  it('nextDeadline: the next time-out on the host clock (at + delay left + time left), and whose; null without clocks', () => {
    expect(createGame({ use: allModules, players: ['A', 'B'] }).nextDeadline()).toBeNull();
    const game = clocked({ delayMs: 300 });
    expect(game.nextDeadline()).toBeNull();
    ok(game, { type: 'TICK', at: 10_000 });
    expect(game.nextDeadline()).toEqual({ player: 'A', at: 10_000 + 300 + 60_000 });
    ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 20_000 });
    expect(game.nextDeadline()).toEqual({ player: 'B', at: 20_000 + 300 + 60_000 });
  });

  it('restored mid-decision, a game neither loses nor gains a millisecond', () => {
    const game = clocked({ delayMs: 1000, incrementMs: 250 });
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 2000 });
    ok(game, { type: 'TICK', at: 2600 });
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(restored.view()).toEqual(game.view());
    expect(restored.nextDeadline()).toEqual(game.nextDeadline());
    const rest: TurnEvent[] = [
      { type: 'PASS_PRIORITY', player: 'B', at: 5000 },
      { type: 'TICK', at: 9000 },
      { type: 'PASS_PRIORITY', player: 'A', at: 9100 },
    ];
    for (const e of rest) {
      ok(game, e);
      ok(restored, e);
    }
    expect(restored.view()).toEqual(game.view());
    expect(restored.persist()).toEqual(game.persist());
    // B's decision went on with what was left of its delay (400 of 1000) after the restore.
    expect(left(game).B).toBe(60_000 - (5000 - 2600 - 400) + 250);
  });

  it('an at that is not a finite number is INVALID_EVENT naming event.at; an earlier one is ILLEGAL_ACTION; nothing changes', () => {
    const game = clocked();
    ok(game, { type: 'TICK', at: 5000 });
    const before = JSON.stringify(game.persist());
    for (const at of [Number.NaN, Infinity, '5000', null]) {
      const result = game.send({ type: 'PASS_PRIORITY', player: 'A', at } as unknown);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
      if (!result.ok) expect(result.error.message).toContain('event.at');
    }
    const earlier = game.send({ type: 'PASS_PRIORITY', player: 'A', at: 4999 });
    expect(earlier).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION' } });
    if (!earlier.ok) expect(earlier.error.message).toContain('event.at');
    const noAt = game.send({ type: 'TICK' } as unknown);
    expect(noAt).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
    if (!noAt.ok) expect(noAt.error.message).toContain('event.at');
    expect(JSON.stringify(game.persist())).toBe(before);
  });

  it('CONTRACT v4, time-outs are facts of time: a send past a deadline commits the time-outs first, as a step of their own; its own refused event then carries their events', () => {
    const settled: unknown[] = [];
    const game = clocked({ initialMs: 5000 }, { players: ['A', 'B', 'C'], hooks: { checkpoint: () => undefined, settled: (o) => settled.push(o) } });
    const heard: unknown[] = [];
    game.on('*', (e) => heard.push(e));
    ok(game, { type: 'TICK', at: 0 });
    settled.length = 0;
    const version = game.view().version;
    const late = game.send({ type: 'PASS_PRIORITY', player: 'A', at: 6000 });
    expect(late).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION' }, events: [{ type: 'playerLeft', player: 'A', reason: 'time' }] });
    // The time-out is committed (version + 1, listeners told); the refused event changed nothing more.
    expect(game.view().version).toBe(version + 1);
    expect(game.view().players).toEqual(['B', 'C']);
    expect(heard).toMatchObject([{ type: 'playerLeft', player: 'A', reason: 'time' }]);
    expect(game.view().clocks?.B?.msLeft).toBe(4000);
    // hooks.settled is called for the time-outs' step (B received priority: the checkpoint ran) as for any send.
    expect(settled).toEqual([{ ok: true, version: version + 1, seq: game.view().seq }]);
    // B, charged from A's deadline, may act at 6000.
    ok(game, { type: 'PASS_PRIORITY', player: 'B', at: 6000 });
    expect(game.view().version).toBe(version + 2);
  });

  it('CONTRACT v4: once the last opponent ran out of time the game is over in the view, and a late send is refused GAME_OVER with the time-out events', () => {
    const game = clocked({ initialMs: 5000 });
    ok(game, { type: 'TICK', at: 0 });
    const result = game.send({ type: 'PASS_PRIORITY', player: 'A', at: 9000 });
    expect(result).toMatchObject({ ok: false, error: { code: 'GAME_OVER' }, events: [{ type: 'playerLeft', player: 'A', reason: 'time' }, { type: 'gameOver', winners: ['B'] }] });
    expect(game.view().gameOver).toMatchObject({ winners: ['B'], reasons: { A: 'time' } });
    // Every later send is refused GAME_OVER, with nothing more committed (no deadline is left).
    const version = game.view().version;
    expect(game.send({ type: 'PASS_PRIORITY', player: 'B', at: 10_000 })).toMatchObject({ ok: false, error: { code: 'GAME_OVER' } });
    expect(game.send({ type: 'PASS_PRIORITY', player: 'B', at: 10_000 })).not.toHaveProperty('events');
    expect(game.view().version).toBe(version);
  });

  it('a send before every deadline is one step; an event accepted after the time-outs is a second', () => {
    const game = clocked({ initialMs: 5000 }, { players: ['A', 'B', 'C'] });
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'ADD_MANA', player: 'B', amount: 1, at: 4000 });
    expect(game.view().version).toBe(2);
    const result = game.send({ type: 'ADD_MANA', player: 'B', amount: 1, at: 7000 });
    // The send's events: the time-out's first (A left), then its own event's (none).
    expect(result).toEqual({ ok: true, events: [expect.objectContaining({ type: 'playerLeft', player: 'A', reason: 'time' })] });
    expect(game.view().version).toBe(4);
    expect(game.view().players).toEqual(['B', 'C']);
    expect(game.view().manaPool.B).toBe(2);
  });

  it('bad clock options throw INVALID_OPTIONS naming the field', () => {
    const bad: [unknown, string][] = [
      [{ initialMs: 0, onTimeout: 'lose' }, 'options.clock.initialMs'],
      [{ initialMs: 1.5, onTimeout: 'lose' }, 'options.clock.initialMs'],
      [{ initialMs: 1000, incrementMs: -1, onTimeout: 'lose' }, 'options.clock.incrementMs'],
      [{ initialMs: 1000, delayMs: Infinity, onTimeout: 'lose' }, 'options.clock.delayMs'],
      [{ initialMs: 1000, onTimeout: 'flag' }, 'options.clock.onTimeout'],
      [{ initialMs: 1000 }, 'options.clock.onTimeout'],
      ['fast', 'options.clock'],
    ];
    for (const [clock, field] of bad) {
      expect(() => createGame({ use: allModules, players: ['A', 'B'], clock } as unknown as GameOptions), JSON.stringify(clock)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(field) }));
    }
  });

  it('a snapshot whose clocks contradict each other or the game is INVALID_SNAPSHOT', () => {
    const game = clocked({ delayMs: 100 });
    ok(game, { type: 'TICK', at: 1000 });
    ok(game, { type: 'TICK', at: 2000 });
    const base = JSON.stringify(game.persist());
    const mutations: [(p: TimedSnapshot) => void, string][] = [
      [(p) => (p.time.clock.ms.A = -1), 'time.clock.ms'],
      [(p) => (p.time.clock.ms.A = 0), 'time.clock.ms.A'],
      [(p) => (p.time.clock.flagged = ['B']), 'time.clock.ms.B'],
      [(p) => delete p.time.clock.ms.B, 'time.clock.ms'],
      [(p) => (p.time.clock.running = { B: { delayMsLeft: 100, decision: '0/1/upkeep/priority/B' } }), 'time.clock.running'],
      [(p) => ((p.time.clock.running.A as { delayMsLeft: unknown }).delayMsLeft = 5000), 'time.clock.running.A.delayMsLeft'],
      [(p) => ((p.time.clock.running.A as { decision: unknown }).decision = '0/1/draw/priority/A'), 'time.clock.running.A.decision'],
      [(p) => (p.time.at = null), 'time.clock'],
      [(p) => (p.time.seats = { A: { status: 'away', since: 3000 } }), 'time.seats.A.since'],
      [(p) => (p.time.seats = { Z: { status: 'away', since: 1000 } }), 'time.seats'],
      [(p) => (p.time.clock.onTimeout = 'later'), 'time.clock.onTimeout'],
    ];
    for (const [mutate, field] of mutations) {
      const p = JSON.parse(base) as TimedSnapshot;
      mutate(p);
      expect(() => restoreGame(p, { use: allModules }), field).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringContaining(field) }));
    }
    const lost = JSON.parse(base) as TimedSnapshot;
    lost.time.clock.ms.B = 0;
    lost.time.clock.flagged = ['B'];
    expect(() => restoreGame(lost, { use: allModules })).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringContaining("'lose', but B is still in the game") }));
  });

  it('a recorded game with at on its events replays to the same views, deadlines and persisted game', () => {
    const game = clocked({ initialMs: 20_000, incrementMs: 1000, delayMs: 500, onTimeout: 'pass' }, { record: true });
    let at = 0;
    for (let i = 0; i < 40 && game.view().gameOver === null; i++) {
      at += 700 + ((i * 997) % 3000);
      ok(game, i % 7 === 3 ? { type: 'TICK', at } : { ...(plainestAnswer(game.view()) as object), at });
    }
    const replayed = replayGame(game.recording(), { use: allModules });
    expect(replayed.view()).toEqual(game.view());
    expect(replayed.nextDeadline()).toEqual(game.nextDeadline());
    expect(replayed.persist()).toEqual(game.persist());
    // And as a scenario (its setup keeps the clock), which passes on this engine.
    const scenario = recordingToScenario(game.recording());
    expect(scenario.setup).toMatchObject({ clock: { initialMs: 20_000, onTimeout: 'pass' } });
    expect(runScenario(scenario)).toEqual({ ok: true, failures: [] });
  });

  it('TICK, PAUSE_CLOCKS, RESUME_CLOCKS and SET_SEAT_STATUS are host events: never listed by legalActions, never returned by a checkpoint', () => {
    const game = clocked();
    ok(game, { type: 'TICK', at: 1 });
    const types = new Set(game.legalActions().map((a) => a.type));
    for (const t of ['TICK', 'PAUSE_CLOCKS', 'RESUME_CLOCKS', 'SET_SEAT_STATUS']) expect(types.has(t as never)).toBe(false);
    const hooked = createGame({ use: allModules, players: ['A', 'B'], clock: CLOCK, hooks: { checkpoint: (view) => (view.priority === 'B' ? { events: [{ type: 'TICK', at: 5 }] } : undefined) } });
    const result = hooked.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED' } });
    if (!result.ok) expect(result.error.message).toContain('TICK');
  });

  it('game.check answers as send would, time included, and changes nothing', () => {
    const game = clocked({ initialMs: 5000 }, { players: ['A', 'B', 'C'] });
    ok(game, { type: 'TICK', at: 0 });
    const before = JSON.stringify(game.persist());
    expect(game.check({ type: 'PASS_PRIORITY', player: 'A', at: 4000 })).toEqual({ ok: true });
    expect(game.check({ type: 'PASS_PRIORITY', player: 'A', at: 6000 })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION' } });
    expect(game.check({ type: 'TICK', at: 6000 })).toEqual({ ok: true });
    expect(JSON.stringify(game.persist())).toBe(before);
  });

  it('a fork keeps the clocks and goes on on its own', () => {
    const game = clocked();
    ok(game, { type: 'TICK', at: 0 });
    const fork = game.fork();
    ok(fork, { type: 'TICK', at: 1000 });
    expect(left(fork).A).toBe(59_000);
    expect(left(game).A).toBe(60_000);
  });

  it('the engine owns no timer and reads no clock but at: Date.now, performance.now and setTimeout are never called', () => {
    const spies = [vi.spyOn(Date, 'now'), vi.spyOn(performance, 'now'), vi.spyOn(globalThis, 'setTimeout'), vi.spyOn(globalThis, 'setInterval')];
    try {
      const game = createGame({ use: allModules, players: ['A', 'B', 'C'], seed: 1, clock: { initialMs: 5000, incrementMs: 100, delayMs: 50, onTimeout: 'pass' }, away: { graceMs: 1000, then: 'concede' } });
      ok(game, { type: 'TICK', at: 0 });
      ok(game, { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 10 });
      ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 3000 });
      ok(game, { type: 'TICK', at: 60_000 });
      game.nextDeadline();
      restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules }).nextDeadline();
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
