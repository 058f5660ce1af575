/**
 * Clocks and seats over random games (CONTRACT v3, "Playing between people"; issue 24 points 2
 * and 4): random setups of every variant with random clock and away options, random `at` gaps,
 * the players' legal decisions, host events, TICK, PAUSE_CLOCKS / RESUME_CLOCKS, seats dropping
 * and returning, restores. After every send: no clock is negative; every clock was charged
 * exactly the time that passed while it ran, less its decision's delay, plus its increments
 * (computed here from the views before and after, not by the engine's code); no game is stuck;
 * a restore loses and gains nothing. And TICKs sent at any moments between events change nothing
 * but `version` and `seq`: each time-out takes effect at its own instant.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type Game, type GameOptions, type TurnEvent, type TurnView } from '../../src/index.js';
import { DECISIONS } from '../../src/events/index.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, hostEvent, setupArb, sharesTurns } from './harness.js';
import { assertProperty } from './seeds.js';
import { allModules } from '../../src/allModules.js';

type Random = () => number;

const optionsArb = fc.record({
  setup: setupArb,
  initialMs: fc.constantFrom(3000, 20_000, 120_000),
  incrementMs: fc.constantFrom(0, 0, 500, 2000),
  delayMs: fc.constantFrom(0, 0, 300, 1500),
  onTimeout: fc.constantFrom('lose' as const, 'pass' as const),
  away: fc.constantFrom(undefined, 'wait' as const, 'pass' as const, 'concede' as const),
  graceMs: fc.constantFrom(0, 5000, 30_000),
});

type TimedOptions = GameOptions & { seed: number };

function optionsOf(o: typeof optionsArb extends fc.Arbitrary<infer T> ? T : never): TimedOptions {
  return {
    ...o.setup,
    clock: { initialMs: o.initialMs, incrementMs: o.incrementMs, delayMs: o.delayMs, onTimeout: o.onTimeout },
    ...(o.away === undefined ? {} : { away: { graceMs: o.graceMs, then: o.away } }),
  };
}

/** A gap of the host's clock between two events: mostly short, sometimes long enough for a clock to run out. */
function gap(r: Random): number {
  const x = r();
  return x < 0.15 ? 0 : x < 0.85 ? Math.floor(r() * 4000) : Math.floor(r() * 90_000);
}

/** The next random event: a legal decision, a host event, a table event; with `at` most of the time. */
function nextEvent(game: Game, options: TimedOptions, r: Random, i: number, at: number, always = false): TurnEvent {
  const view = game.view();
  const roll = r();
  const timed = <E extends object>(e: E) => (always || r() < 0.85 ? { ...e, at } : e) as unknown as TurnEvent;
  if (roll < 0.1) return { type: 'TICK', at };
  if (roll < 0.14) return { type: r() < 0.5 ? 'PAUSE_CLOCKS' : 'RESUME_CLOCKS', at };
  if (roll < 0.22) return { type: 'SET_SEAT_STATUS', player: view.players[Math.floor(r() * view.players.length)] as string, status: r() < 0.6 ? 'away' : 'connected', at };
  if (roll < 0.32) return timed(hostEvent(view, r, i));
  const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
  const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
  const action = pass !== undefined && r() < 0.6 ? pass : actions[Math.floor(r() * actions.length)];
  return action === undefined ? { type: 'TICK', at } : timed(fill(action, view, r, i, sharesTurns(options)));
}

/** Whether two seats share one clock (a team with shared team turns, CR 805.5). */
function sameClock(options: TimedOptions, a: string, b: string): boolean {
  if (a === b) return true;
  if (!sharesTurns(options)) return false;
  return options.teams?.some((t) => t.players.includes(a) && t.players.includes(b)) === true;
}

/** The deciders of what the view awaits (every running Grand Melee turn's). */
function awaitedDeciders(view: TurnView): string[] {
  const awaited = view.turns === undefined ? [view.awaiting] : view.turns.map((t) => t.awaiting);
  return awaited.flatMap((a) => (a === null ? [] : [view.decidedBy[a.player] ?? a.player]));
}

/** Whether a send made time-outs happen (answers for players out of time or away, players who left for it, clocks run out). */
function timedOut(events: readonly EmittedEvent[], before: TurnView, after: TurnView): boolean {
  if (events.some((e) => (e.type === 'autoPass' && (e.reason === 'time' || e.reason === 'away')) || (e.type === 'playerLeft' && (e.reason === 'time' || e.reason === 'away')))) return true;
  return Object.keys(after.clocks ?? {}).some((p) => after.clocks?.[p]?.flagged !== before.clocks?.[p]?.flagged);
}

/**
 * The clocks after a send, from the view before it alone: each running clock charged the time
 * that passed less its delay left (down to 0), each clock of the player who made the decision
 * sent (when it ran) plus the increment. Holds for every send in which nothing timed out.
 */
function expectedClocks(options: TimedOptions, before: TurnView, event: TurnEvent, accepted: boolean): Record<string, number> {
  const clocks = before.clocks ?? {};
  const out: Record<string, number> = {};
  const clock = options.clock as NonNullable<GameOptions['clock']>;
  const at = (event as { at?: number }).at;
  const last = Object.values(clocks)[0]?.at ?? null;
  const elapsed = at === undefined || last === null || !accepted ? 0 : at - last;
  const started = last !== null || at !== undefined;
  const made = event as { player?: string; by?: string };
  const decider = accepted && DECISIONS.has(event.type) && made.player !== undefined ? (made.by ?? before.decidedBy[made.player] ?? made.player) : null;
  const awaited = awaitedDeciders(before);
  for (const [p, c] of Object.entries(clocks)) {
    let ms = c.msLeft;
    if (c.running) ms = Math.max(0, ms - Math.max(0, elapsed - c.delayMsLeft));
    if (decider !== null && started && !c.flagged && (clock.incrementMs ?? 0) > 0 && sameClock(options, p, decider) && awaited.some((d) => sameClock(options, d, decider))) ms += clock.incrementMs ?? 0;
    out[p] = ms;
  }
  return out;
}

describe('clocks and seats over random games (CONTRACT v3, "Playing between people")', () => {
  it('no clock is ever negative; each is charged exactly the time that passed while it ran, less the delay, plus its increments; no game is stuck; a restore changes nothing', () => {
    let exact = 0;
    let timeOuts = 0;
    assertProperty(
      fc.property(optionsArb, (o) => {
        const options = optionsOf(o);
        let game = createGame({ use: allModules, ...options });
        const r = seededRandom(options.seed + 24);
        let at = 1_000_000;
        for (let i = 0; i < 90 && game.view().gameOver === null; i++) {
          if (r() < 0.05) {
            const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
            expect(restored.view()).toEqual(game.view());
            expect(restored.nextDeadline()).toEqual(game.nextDeadline());
            game = restored;
          }
          at += gap(r);
          const before = game.view();
          const event = nextEvent(game, options, r, i, at);
          const persisted = JSON.stringify(game.persist());
          const ticked = game.fork();
          const result = game.send(event);
          const after = game.view();
          // CONTRACT v4: a refused send changes nothing but the time-outs it committed first (then it carries their events): what a TICK at its `at` does.
          if (!result.ok && result.events === undefined) expect(JSON.stringify(game.persist()), `a refused ${event.type} changed nothing`).toBe(persisted);
          if (!result.ok && result.events !== undefined) {
            expect(ticked.send({ type: 'TICK', at: (event as { at: number }).at })).toEqual({ ok: true, events: result.events });
            expect(JSON.stringify(game.persist()), `a refused ${event.type} committed its time-outs alone`).toBe(JSON.stringify(ticked.persist()));
          }
          for (const [p, c] of Object.entries(after.clocks ?? {})) {
            expect(Number.isFinite(c.msLeft) && c.msLeft >= 0, `${p}'s clock ${c.msLeft}`).toBe(true);
            expect(c.flagged).toBe(c.msLeft === 0);
            expect(c.delayMsLeft).toBeGreaterThanOrEqual(0);
          }
          if ((result.ok || result.events !== undefined) && timedOut(result.events ?? [], before, after)) timeOuts++;
          else {
            const left = Object.fromEntries(Object.entries(after.clocks ?? {}).map(([p, c]) => [p, c.msLeft]));
            expect(left, `${JSON.stringify(event)} after ${JSON.stringify(before.clocks)}`).toEqual(expectedClocks(options, before, event, result.ok));
            exact++;
          }
          // Never stuck: the game awaits someone who has a decision to make, and a deadline is never in the past.
          if (after.gameOver === null) {
            expect(after.awaiting).not.toBeNull();
            expect(game.legalActions().length).toBeGreaterThan(0);
          }
          const deadline = game.nextDeadline();
          const now = Object.values(after.clocks ?? {})[0]?.at ?? null;
          if (deadline !== null && now !== null) expect(deadline.at).toBeGreaterThanOrEqual(now);
        }
      }),
      { numRuns: 40 },
    );
    // (v4: a send past a deadline commits its time-outs first and counts as a time-out, not as an exact charge.)
    expect(exact).toBeGreaterThan(900);
    expect(timeOuts).toBeGreaterThan(20);
  });

  it('TICKs sent at any moments between the events change nothing but version and seq: each time-out takes effect at its own instant', () => {
    let compared = 0;
    assertProperty(
      fc.property(optionsArb, fc.nat(), (o, salt) => {
        // Answers made for players ('pass') stop at the loop guard of each send, which TICKs would move: 'lose', 'wait' and 'concede' here.
        const options = optionsOf({ ...o, onTimeout: 'lose', away: o.away === 'pass' ? 'concede' : o.away });
        const plain = createGame({ use: allModules, ...options });
        const ticked = createGame({ use: allModules, ...options });
        const r = seededRandom(options.seed + salt);
        const t = seededRandom(salt);
        // The clocks start at the first event that carries `at`: both games start them together.
        let at = 0;
        plain.send({ type: 'TICK', at });
        ticked.send({ type: 'TICK', at });
        for (let i = 0; i < 60 && plain.view().gameOver === null; i++) {
          const from = at;
          at += gap(r);
          for (let k = 0; k < 2; k++) if (t() < 0.4) ticked.send({ type: 'TICK', at: from + Math.floor(t() * (at - from)) });
          // Every event carries `at` here (one without it takes no time: the TICKs would have told the game more).
          const event = nextEvent(plain, options, r, i, at, true);
          const a = plain.send(event);
          const b = ticked.send(event);
          // The same verdict, but where a TICK sent before already ended the game on time: then GAME_OVER, and the event ended it here too.
          const same = b.ok === a.ok || (!b.ok && b.error.code === 'GAME_OVER' && plain.view().gameOver !== null);
          expect(same, `${JSON.stringify(event)}: ${JSON.stringify(a)} / ${JSON.stringify(b)}`).toBe(true);
        }
        at += 1;
        if (plain.view().gameOver === null) plain.send({ type: 'TICK', at });
        if (ticked.view().gameOver === null) ticked.send({ type: 'TICK', at });
        // The same game but for version and seq, and for the last `at` each saw when the game ended (refused events carry none).
        const comparable = (game: Game) => {
          const { version: _v, seq: _s, ...view } = game.view();
          const clocks = Object.fromEntries(Object.entries(view.clocks ?? {}).map(([p, c]) => [p, view.gameOver === null ? c : { ...c, at: null }]));
          return { ...view, clocks };
        };
        expect(comparable(ticked)).toEqual(comparable(plain));
        expect(ticked.nextDeadline()).toEqual(plain.nextDeadline());
        compared++;
      }),
      { numRuns: 40 },
    );
    expect(compared).toBeGreaterThanOrEqual(40);
  });

  it('legalActions stays exact in games with clocks and seats: every listed decision is accepted (with no time passing), and every accepted decision was listed', () => {
    let checked = 0;
    assertProperty(
      fc.property(optionsArb, (o) => {
        const options = optionsOf(o);
        const game = createGame({ use: allModules, ...options });
        const r = seededRandom(options.seed + 7);
        let at = 0;
        for (let i = 0; i < 50 && game.view().gameOver === null; i++) {
          at += gap(r);
          game.send(nextEvent(game, options, r, i, at));
          const view = game.view();
          const now = Object.values(view.clocks ?? {})[0]?.at ?? null;
          const stamp = (e: TurnEvent): TurnEvent => (now === null ? e : { ...e, at: now });
          const listed = game.legalActions();
          for (const action of listed) {
            const event = stamp(fill(action, view, r, 10_000 + i, sharesTurns(options)));
            const result = game.fork().send(event);
            expect(result.ok ? 'accepted' : result.error.message, `${JSON.stringify(event)} was listed`).toBe('accepted');
            checked++;
          }
          // The other way: a pass or the plainest answer from anyone, accepted only if listed.
          for (const player of view.players) {
            for (const type of ['PASS_PRIORITY', 'KEEP', 'OPENING_HAND_DONE', 'DECLARE_BLOCKERS'] as const) {
              const event = stamp((type === 'DECLARE_BLOCKERS' ? { type, player, blockers: [] } : { type, player }) as TurnEvent);
              if (game.fork().send(event).ok) expect(listed.some((a) => a.type === type && a.player === player), `${JSON.stringify(event)} was accepted`).toBe(true);
            }
          }
        }
      }),
      { numRuns: 20 },
    );
    expect(checked).toBeGreaterThan(300);
  });
});
