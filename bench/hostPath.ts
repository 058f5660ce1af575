/**
 * The host's path (issue 21, point 8): the figures `npm run bench` takes beside its workloads.
 *
 * - A burst of triggers: a checkpoint hook reports N triggered abilities in the first check of
 *   a 2-player game (1,000 a round, the most one result may list, until all N are on the stack),
 *   then the players pass until all N have resolved (2N sends, N more checks).
 *   Linear work makes 10,000 cost 10 times 1,000; work that is quadratic in the stack, 100.
 * - 64 players: the same quiet events per event as a free-for-all and as Grand Melee (16 turn
 *   markers), and what `createGame` costs for each.
 */
import { createGame, type Game, type GameOptions, type TurnEvent } from './engine.js';
import { stat, timePerCall, type Clock, type Stat } from './measure.js';
import { players64, type Workload } from './workloads.js';

/** The two hooks a burst is timed with: one that declares no parameter, and one that takes the view and the pending events. */
export type BurstHook = 'noParameters' | 'viewAndPending';

/** Plays a burst of `n` triggers; returns the game at its end. */
export function playBurst(n: number, kind: BurstHook, triggers = burstTriggers(n)): Game {
  let calls = 0;
  const report = () => (calls < triggers.length ? { triggers: triggers[calls++] as { id: string; controller: string }[] } : undefined);
  // The second hook takes the view and the pending events (and reads a number of each).
  const checkpoint: NonNullable<GameOptions['hooks']>['checkpoint'] = kind === 'noParameters' ? () => report() : (view, pending) => (view.turn < 0 || pending.length < 0 ? undefined : report());
  const game = createGame({ players: ['A', 'B'], hooks: { checkpoint } });
  for (let i = 0; i < n; i++) {
    game.send(PASS_A);
    game.send(PASS_B);
  }
  return game;
}

const PASS_A: TurnEvent = { type: 'PASS_PRIORITY', player: 'A' };
const PASS_B: TurnEvent = { type: 'PASS_PRIORITY', player: 'B' };

/** The triggers of a burst, in the rounds the hook reports them: 1,000 at most each (MAX_LIST_LENGTH). */
function burstTriggers(n: number) {
  const all = Array.from({ length: n }, (_, i) => ({ id: `t${i}`, controller: i % 2 === 0 ? 'A' : 'B' }));
  return Array.from({ length: Math.ceil(n / 1000) }, (_, r) => all.slice(r * 1000, (r + 1) * 1000));
}

/** Checks that a burst resolves every trigger and nothing else happens (not timed). */
export function checkBurst(n: number, kind: BurstHook): void {
  const game = playBurst(n, kind);
  const v = game.view();
  if (v.stack.length !== 0 || v.turn !== 1 || v.step !== 'upkeep' || v.priority !== 'A') {
    throw new Error(`a burst of ${n} triggers ends on turn ${v.turn}, ${v.step}, with ${v.stack.length} objects on the stack and priority to ${v.priority}`);
  }
}

/** Milliseconds per burst of `n` triggers (median of `runs`). */
export function timeBurst(n: number, kind: BurstHook, runs: number, minMs: number, clock: Clock): Stat {
  const triggers = burstTriggers(n);
  timePerCall(() => playBurst(n, kind, triggers), minMs, clock);
  return stat(Array.from({ length: runs }, () => timePerCall(() => playBurst(n, kind, triggers), minMs, clock)));
}

/** Plays a 64-player workload. */
function play(w: Workload): void {
  const game = createGame({ players: w.players, ...(w.variant === undefined ? {} : { variant: w.variant }) });
  for (const e of w.events) game.send(e);
}

/** The 64-player figures: µs per event of each workload, and µs per createGame. */
export function time64(runs: number, minMs: number, clock: Clock) {
  const { freeForAll, grandMelee } = players64();
  const perEvent = (w: Workload) => {
    timePerCall(() => play(w), minMs, clock);
    return Array.from({ length: runs }, () => (timePerCall(() => play(w), minMs, clock) / w.events.length) * 1000);
  };
  const ffa = perEvent(freeForAll);
  const melee = perEvent(grandMelee);
  const create = (variant?: GameOptions['variant']) => {
    const make = () => void createGame({ players: freeForAll.players, ...(variant === undefined ? {} : { variant }) });
    timePerCall(make, minMs / 2, clock);
    return stat(Array.from({ length: runs }, () => timePerCall(make, minMs / 2, clock) * 1000));
  };
  return {
    events: { freeForAll: freeForAll.events.length, grandMelee: grandMelee.events.length },
    freeForAllMicrosPerEvent: stat(ffa),
    grandMeleeMicrosPerEvent: stat(melee),
    /** Grand Melee's time per event divided by the free-for-all's, run by run. */
    grandMeleeVsFreeForAll: stat(melee.map((m, r) => m / (ffa[r] as number))),
    createGameMicros: { freeForAll: create(), grandMelee: create('grandMelee') },
  };
}
