/**
 * CONTRACT v3, "Serving games": one timer per process drives `{ type: 'TICK', at }` from each
 * owned game's `nextDeadline()`: every game that is due is ticked once, at the earliest deadline
 * of them all; a game without a deadline, or removed, is not.
 */
import { describe, expect, it } from 'vitest';
import type { OwnedGame } from '../../src/server/owned.js';
import { DeadlineTimer } from '../../src/server/timers.js';
import { deadlineOf, seatStatusEvent, tickEvent } from '../../src/server/hostEvents.js';
import { createGame } from '../../src/index.js';

/** A stand-in for an owned game: its deadline, and the TICK events it was sent. */
function fakeGame(deadline: number | null) {
  const ticks: unknown[] = [];
  const game = {
    deadline,
    ticks,
    tick(make: (at: number) => unknown) {
      game.deadline = null;
      ticks.push(make(Date.now()));
      return Promise.resolve({ ok: true, events: [] });
    },
  };
  return game;
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('the process timer of deadlines', () => {
  it('ticks every game that is due, once, and no other', async () => {
    const timer = new DeadlineTimer();
    const due1 = fakeGame(Date.now() - 5);
    const due2 = fakeGame(Date.now() - 1);
    const later = fakeGame(Date.now() + 60_000);
    const none = fakeGame(null);
    for (const g of [due1, due2, later, none]) timer.changed(g as unknown as OwnedGame);
    await flush();
    expect(due1.ticks).toEqual([{ type: 'TICK', at: expect.any(Number) }]);
    expect(due2.ticks).toHaveLength(1);
    expect(later.ticks).toEqual([]);
    expect(none.ticks).toEqual([]);
    // A game whose deadline comes, then is removed before it, is not ticked.
    later.deadline = Date.now() + 10;
    timer.changed(later as unknown as OwnedGame);
    timer.remove(later as unknown as OwnedGame);
    await flush();
    expect(later.ticks).toEqual([]);
    timer.close();
  });

  it('reads nextDeadline() when the engine has it (null otherwise), and builds the server\'s host events', () => {
    // No clock and no away policy: no deadline (whether or not the engine has nextDeadline yet).
    const game = createGame({ players: ['A', 'B'] });
    expect(deadlineOf(game)).toBeNull();
    const withDeadline = Object.assign(Object.create(game) as object, { nextDeadline: () => ({ player: 'A', at: 1234 }) });
    expect(deadlineOf(withDeadline as unknown as typeof game)).toBe(1234);
    expect(tickEvent(5)).toEqual({ type: 'TICK', at: 5 });
    expect(seatStatusEvent('A', 'away', 6)).toEqual({ type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 6 });
  });
});
