/**
 * Seats that drop (CONTRACT v3, "Playing between people", the `away` option and SET_SEAT_STATUS;
 * issue 24 point 4), sentence by sentence: each `then`, the grace period, `view().seats`,
 * `nextDeadline`, teams, and an away player's clock.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type AwayOptions, type EmittedEvent, type Game, type GameOptions, type SeatEvent } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';

function away(then: AwayOptions['then'], options: Partial<GameOptions> = {}): Game {
  return createGame({ use: allModules, players: ['A', 'B'], ...options, away: { graceMs: 10_000, then } });
}

function ok(game: Game, event: unknown): EmittedEvent[] {
  const result = game.send(event);
  expect(result, JSON.stringify(event)).toMatchObject({ ok: true });
  return result.ok ? result.events : [];
}

const autoPasses = (events: readonly EmittedEvent[]) => events.filter((e) => e.type === 'autoPass');

describe('seats that drop (CONTRACT v3, "Playing between people")', () => {
  it('view().seats is null without the away option until a SET_SEAT_STATUS; then, and with the option, every seat', () => {
    const plain = createGame({ use: allModules, players: ['A', 'B'] });
    expect(plain.view().seats).toBeNull();
    ok(plain, { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 500 });
    expect(plain.view().seats).toEqual({ A: { status: 'connected', since: 0 }, B: { status: 'away', since: 500 } });
    // Without the away option nothing happens for an away player: the game waits.
    ok(plain, { type: 'PASS_PRIORITY', player: 'A', at: 1_000_000 });
    expect(plain.view().awaiting).toEqual({ kind: 'priority', player: 'B' });
    expect(away('wait').view().seats).toEqual({ A: { status: 'connected', since: 0 }, B: { status: 'connected', since: 0 } });
  });

  it('SET_SEAT_STATUS sets a status since its at; the same status again keeps since', () => {
    const game = away('wait');
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 1000 });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 4000 });
    expect(game.view().seats?.A).toEqual({ status: 'away', since: 1000 });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'connected', at: 5000 });
    expect(game.view().seats?.A).toEqual({ status: 'connected', since: 5000 });
  });

  it("'wait': after the grace period the game waits for the away player", () => {
    const game = away('wait');
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 0 });
    expect(game.nextDeadline()).toBeNull();
    const events = ok(game, { type: 'TICK', at: 60_000 });
    expect(events).toEqual([]);
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
  });

  it("'pass': once away graceMs, their decision awaited is answered with the plainest answer (autoPass reason 'away'), at once with TICK", () => {
    const game = away('pass');
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 0 });
    expect(game.nextDeadline()).toEqual({ player: 'A', at: 10_000 });
    expect(autoPasses(ok(game, { type: 'TICK', at: 9999 }))).toEqual([]);
    const events = ok(game, { type: 'TICK', at: 10_000 });
    expect(autoPasses(events)).toEqual([expect.objectContaining({ player: 'A', turn: 1, step: 'upkeep', reason: 'away' })]);
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'B' });
  });

  it("'pass': a player away past the grace is answered for at their next decision, in the send that brings it", () => {
    const game = away('pass');
    ok(game, { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 0 });
    // B is not deciding: nothing to time out.
    expect(game.nextDeadline()).toBeNull();
    const events = ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 30_000 });
    // A passed; B's priority was answered for B (reason 'away'): the upkeep ended.
    expect(autoPasses(events)).toEqual([expect.objectContaining({ player: 'B', step: 'upkeep', reason: 'away' })]);
    expect(game.view()).toMatchObject({ step: 'main', priority: 'A' });
    // Back, B is asked again.
    ok(game, { type: 'SET_SEAT_STATUS', player: 'B', status: 'connected', at: 31_000 });
    ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 32_000 });
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'B' });
  });

  it('a seat back before its grace ends is never answered for', () => {
    const game = away('pass');
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 0 });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'connected', at: 9000 });
    expect(game.nextDeadline()).toBeNull();
    expect(autoPasses(ok(game, { type: 'TICK', at: 100_000 }))).toEqual([]);
    expect(game.view().awaiting?.player).toBe('A');
  });

  it("'concede': once away graceMs, at their next decision they leave the game (reason 'away')", () => {
    const game = away('concede', { players: ['A', 'B', 'C'] });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 0 });
    const events = ok(game, { type: 'TICK', at: 12_000 });
    expect(events).toContainEqual(expect.objectContaining({ type: 'playerLeft', player: 'A', reason: 'away' }));
    expect(game.view().players).toEqual(['B', 'C']);
    expect(game.view().gameOver).toBeNull();
  });

  it("'concede' (issue 33): a TICK after the grace concedes an away player whose decision is not awaited, at once", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], away: { graceMs: 5000, then: 'concede' } });
    ok(game, { type: 'TICK', at: 0 });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 1000 });
    expect(game.view().priority).toBe('A');
    // nextDeadline names B at the end of the grace (1000 + 5000), though A holds priority.
    expect(game.nextDeadline()).toEqual({ player: 'B', at: 6000 });
    expect(ok(game, { type: 'TICK', at: 5999 })).toEqual([]);
    const events = ok(game, { type: 'TICK', at: 6000 });
    expect(events).toEqual([expect.objectContaining({ type: 'playerLeft', player: 'B', reason: 'away' })]);
    expect(game.view().players).toEqual(['A', 'C']);
    expect(game.nextDeadline()).toBeNull();
  });

  it("'concede': any send past the grace concedes the away player first, as a step of its own (CONTRACT v4, time-outs are facts of time)", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], away: { graceMs: 5000, then: 'concede' } });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'C', status: 'away', at: 1000 });
    const version = game.view().version;
    const events = ok(game, { type: 'PASS_PRIORITY', player: 'A', at: 7000 });
    // The send's events: the time-out's first, then its own event's (none: B receives priority).
    expect(events).toEqual([expect.objectContaining({ type: 'playerLeft', player: 'C', reason: 'away' })]);
    expect(game.view().version).toBe(version + 2);
    expect(game.view().players).toEqual(['A', 'B']);
  });

  it("nextDeadline with 'pass' names an away player's grace only for a decision of theirs awaited; with 'wait' never", () => {
    const pass = createGame({ use: allModules, players: ['A', 'B'], away: { graceMs: 5000, then: 'pass' } });
    ok(pass, { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 1000 });
    expect(pass.nextDeadline()).toBeNull();
    ok(pass, { type: 'PASS_PRIORITY', player: 'A', at: 2000 });
    expect(pass.nextDeadline()).toEqual({ player: 'B', at: 6000 });
    const wait = createGame({ use: allModules, players: ['A', 'B'], away: { graceMs: 5000, then: 'wait' } });
    ok(wait, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 1000 });
    expect(wait.nextDeadline()).toBeNull();
  });

  it("an away player's clock keeps running unless the host pauses it; the grace ends either way", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], clock: { initialMs: 60_000, onTimeout: 'lose' }, away: { graceMs: 20_000, then: 'pass' } });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 0 });
    ok(game, { type: 'TICK', at: 5000 });
    expect(game.view().clocks?.A?.msLeft).toBe(55_000);
    ok(game, { type: 'PAUSE_CLOCKS', at: 5000 });
    expect(game.nextDeadline()).toEqual({ player: 'A', at: 20_000 });
    const events = ok(game, { type: 'TICK', at: 25_000 });
    expect(autoPasses(events)).toEqual([expect.objectContaining({ player: 'A', reason: 'away' })]);
    expect(game.view().clocks?.A?.msLeft).toBe(55_000);
  });

  it('in shared team turns a team decision is answered for the team only when every member who may make it is away (CR 805.5)', () => {
    const game = away('pass', { players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 0 });
    expect(autoPasses(ok(game, { type: 'TICK', at: 50_000 }))).toEqual([]);
    expect(game.view().awaiting?.player).toBe('A');
    ok(game, { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 50_000 });
    expect(game.nextDeadline()).toEqual({ player: 'A', at: 60_000 });
    expect(autoPasses(ok(game, { type: 'TICK', at: 60_000 }))).toEqual([expect.objectContaining({ player: 'A', reason: 'away' })]);
  });

  it("another seat receives an automatic pass made for an away player without its reason (private seats)", () => {
    const game = away('pass');
    const toB: SeatEvent[] = [];
    const toA: SeatEvent[] = [];
    game.on('autoPass', (e) => toB.push(e), { seat: 'B' });
    game.on('autoPass', (e) => toA.push(e), { seat: 'A' });
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 0 });
    ok(game, { type: 'TICK', at: 10_000 });
    expect(toA).toEqual([expect.objectContaining({ player: 'A', reason: 'away' })]);
    expect(toB.length).toBe(1);
    expect('reason' in (toB[0] as object)).toBe(false);
  });

  it('seats are persisted and restored', () => {
    const game = away('pass');
    ok(game, { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 100 });
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(restored.view()).toEqual(game.view());
    expect(restored.nextDeadline()).toEqual({ player: 'A', at: 10_100 });
    ok(game, { type: 'TICK', at: 10_100 });
    ok(restored, { type: 'TICK', at: 10_100 });
    expect(restored.persist()).toEqual(game.persist());
  });

  it('bad input: SET_SEAT_STATUS needs at and a status (INVALID_EVENT), a player still in the game (ILLEGAL_ACTION 800.4a); bad away options are INVALID_OPTIONS', () => {
    const game = away('pass', { players: ['A', 'B', 'C'] });
    ok(game, { type: 'CONCEDE', player: 'C' });
    const cases: [unknown, string, string][] = [
      [{ type: 'SET_SEAT_STATUS', player: 'A', status: 'away' }, 'INVALID_EVENT', 'event.at'],
      [{ type: 'SET_SEAT_STATUS', player: 'A', status: 'gone', at: 1 }, 'INVALID_EVENT', 'event.status'],
      [{ type: 'SET_SEAT_STATUS', player: 'Z', status: 'away', at: 1 }, 'INVALID_EVENT', 'event.player'],
      [{ type: 'SET_SEAT_STATUS', player: 'C', status: 'away', at: 1 }, 'ILLEGAL_ACTION', 'C has left the game'],
    ];
    const before = JSON.stringify(game.persist());
    for (const [event, code, text] of cases) {
      const result = game.send(event);
      expect(result, JSON.stringify(event)).toMatchObject({ ok: false, error: { code } });
      if (!result.ok) expect(result.error.message).toContain(text);
    }
    expect(JSON.stringify(game.persist())).toBe(before);
    for (const [bad, field] of [
      [{ graceMs: -1, then: 'pass' }, 'options.away.graceMs'],
      [{ graceMs: 10, then: 'kick' }, 'options.away.then'],
      [{ then: 'wait' }, 'options.away.graceMs'],
    ] as const) {
      expect(() => createGame({ use: allModules, players: ['A', 'B'], away: bad } as unknown as GameOptions)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining(field) }));
    }
  });
});
