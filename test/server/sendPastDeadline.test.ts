/**
 * CONTRACT v4, "Time-outs are facts of time" and "Serving games": a send applied at or past a
 * clock's deadline before the server's own TICK (queued behind a slow store write) first commits
 * the time-outs due, as a step of its own: the server writes that step (as the TICK it would have
 * sent) and delivers it to every seat, then applies the send (or refuses it GAME_OVER); a server
 * started again on the store loads the same game.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Table } from '../../src/client/index.js';
import { MemoryStore, type SendWrite, type TableServer, type WriteResult } from '../../src/server/index.js';
import { OwnedGame } from '../../src/server/owned.js';
import { join, settle, startServer, until } from './harness.js';

/** A MemoryStore whose next write of a game waits until the test lets it go (a busy database). */
class HeldStore extends MemoryStore {
  #held: { gameId: string; started: (write: SendWrite) => void; release: Promise<void> } | null = null;

  /** Holds the next write of `gameId`: `started` resolves with it when it reaches the store; `release()` lets it through. */
  hold(gameId: string): { started: Promise<SendWrite>; release: () => void } {
    let release!: () => void;
    let started!: (write: SendWrite) => void;
    const begun = new Promise<SendWrite>((resolve) => (started = resolve));
    this.#held = { gameId, started, release: new Promise<void>((resolve) => (release = resolve)) };
    return { started: begun, release };
  }

  override async appendSend(gameId: string, expectedVersion: number, owner: string, now: number, write: SendWrite): Promise<WriteResult> {
    const held = this.#held;
    if (held?.gameId === gameId) {
      this.#held = null;
      held.started(write);
      await held.release;
    }
    return super.appendSend(gameId, expectedVersion, owner, now, write);
  }
}

/** How long a wait for what must come is given before the test fails (it never passes by it). */
const STUCK_MS = 20_000;

/** Resolves once `test` holds, looked at every few ms (a condition, not a guess at how long it takes). */
async function when(test: () => boolean, what: string): Promise<void> {
  const end = Date.now() + STUCK_MS;
  while (!test()) {
    if (Date.now() > end) throw new Error(`not within ${STUCK_MS} ms: ${what}`);
    await settle(5);
  }
}

/** `promise`, or a failure naming `what` when it does not come. */
function coming<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const stuck = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${STUCK_MS} ms: ${what}`)), STUCK_MS)));
  return Promise.race([promise, stuck]).finally(() => clearTimeout(timer));
}

const INITIAL_MS = 300;

let server: TableServer | null = null;
const tables: Table[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(tables.splice(0).map((t) => t.close()));
  await server?.close();
  server = null;
});

/**
 * A game with clocks where A passes priority (B's clock starts: its deadline is that send's `at` +
 * INITIAL_MS) with the write held, and A's setting is queued behind it; the write is let go once
 * B's deadline has passed (the server's TICK, armed only after that write, comes after A's send).
 * The next write (the time-out's) is held until the timer's own TICK is queued behind the setting.
 */
async function sendPastDeadline(onTimeout: 'lose' | 'pass') {
  const store = new HeldStore();
  const started = await startServer({ store });
  server = started.server;
  const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 1, clock: { initialMs: INITIAL_MS, onTimeout } });
  const a = await join(started.url, { gameId, seat: 'A', token: tokens.A as string });
  const b = await join(started.url, { gameId, seat: 'B', token: tokens.B as string });
  tables.push(a, b);
  const submits = vi.spyOn(OwnedGame.prototype, 'submit');
  const ticks = vi.spyOn(OwnedGame.prototype, 'tick');
  const held = store.hold(gameId);
  const passed = a.send({ type: 'PASS_PRIORITY', player: 'A' });
  const first = await coming(held.started, 'the pass is written');
  const queued = submits.mock.calls.length;
  const setting = a.send({ type: 'SET_STOPS', player: 'A', stops: [] });
  await when(() => submits.mock.calls.length > queued, "A's setting is queued"); // behind the write
  const deadline = (first.send.at as number) + INITIAL_MS; // a new game's clock is the server's wall clock
  await when(() => Date.now() > deadline, "B's deadline passes");
  const next = store.hold(gameId);
  held.release();
  expect((await passed).ok).toBe(true);
  const timeOut = await coming(next.started, 'the time-out is written');
  await when(() => ticks.mock.calls.length > 0, "the timer's TICK is queued"); // behind the setting
  next.release();
  const timerTick = ticks.mock.results[0]!.value as ReturnType<OwnedGame['tick']>;
  return { store, gameId, a, b, passedVersion: first.send.version, setting, timeOut, timerTick };
}

describe('a send past a deadline (CONTRACT v4, "Time-outs are facts of time")', () => {
  it("writes and delivers the time-out before the send ('lose': the send is refused GAME_OVER), and a restart loads the same game", async () => {
    const { store, gameId, a, b, passedVersion, setting, timeOut, timerTick } = await sendPastDeadline('lose');
    expect(timeOut.send).toMatchObject({ version: passedVersion + 1, event: { type: 'TICK' } });
    const answer = await setting;
    expect(answer).toMatchObject({ ok: false, error: { code: 'GAME_OVER' } });
    // Both seats are told, without another send: B lost on time.
    const seen = await Promise.all([a, b].map((t) => until(t, (v) => v.gameOver !== null, 10_000)));
    for (const view of seen) expect(view).toMatchObject({ version: passedVersion + 1, gameOver: { winners: ['A'], reasons: { B: 'time' } } });
    // The timer's TICK, queued behind the setting, finds nothing due (no step of its own).
    expect(await timerTick).toEqual({ ok: true, events: [] });
    // Written as the server's TICK (one step), the game finished.
    const stored = await store.loadGame(gameId);
    expect(stored).toMatchObject({ version: passedVersion + 1, finished: true });
    const sends = await store.sends(gameId, passedVersion);
    expect(sends.map((s) => [s.version, (s.event as { type: string }).type])).toEqual([[passedVersion + 1, 'TICK']]);
    // A server started again on the store loads the same game.
    await Promise.all(tables.splice(0).map((t) => t.close()));
    await server?.close();
    const again = await startServer({ store });
    server = again.server;
    const watcher = await join(again.url, { gameId, spectator: true });
    tables.push(watcher);
    expect(watcher.getSnapshot()).toMatchObject({ version: passedVersion + 1, gameOver: seen[1]!.gameOver });
  });

  it("writes and delivers the time-out, then accepts the send ('pass')", async () => {
    const { store, gameId, a, b, passedVersion, setting, timerTick } = await sendPastDeadline('pass');
    const answer = await setting;
    expect(answer.ok).toBe(true);
    // B's priority passed on time: both seats have the step and the setting after it.
    const seen = await Promise.all([a, b].map((t) => until(t, (v) => v.version === passedVersion + 2, 10_000)));
    for (const view of seen) expect(view).toMatchObject({ gameOver: null, clocks: { B: { msLeft: 0 } } });
    expect(seen[0]!.clocks).toEqual(seen[1]!.clocks);
    // The timer's TICK, queued behind the setting, finds nothing due (no step of its own).
    expect(await timerTick).toEqual({ ok: true, events: [] });
    const stored = await store.loadGame(gameId);
    expect(stored?.version).toBe(passedVersion + 2);
    const sends = await store.sends(gameId, passedVersion);
    expect(sends.map((s) => [s.version, (s.event as { type: string }).type])).toEqual([
      [passedVersion + 1, 'TICK'],
      [passedVersion + 2, 'SET_STOPS'],
    ]);
  });
});
