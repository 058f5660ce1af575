/**
 * Issue 24 acceptance, "Playing between people" (CONTRACT v3): a seeded soak of 1,000 games with
 * chess clocks, undo in both modes ('own' and 'consent'), seats dropping and returning under
 * every away policy, shortcuts (CR 732), pauses, TICKs and restores, with random `at` gaps.
 * After every accepted send:
 * - no game is stuck: it is over, or some player decision is legal;
 * - no clock is negative; while one clock runs and no time-out falls in the gap, it is charged
 *   exactly the gap less what was left of its decision's delay (the charge, computed here from
 *   the views alone, not by the engine's code), less increments it earned;
 * - a persist/restore round trip loses and gains nothing (the same view, clocks included);
 * - every accepted undo (`undone { toVersion }`) shows the view of that version again, but for
 *   what must go on (version, seq, the clocks' time spent, the undo requests counted, the seats);
 * - no seat's view or events hold another seat's private fields (src/seats.ts PRIVATE_FIELDS).
 * `SOAK_GAMES` sets the number of games: 150 in `npm test`, the acceptance's 1,000 in
 * `npm run test:long` (test/support/scale.ts).
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type Game, type GameOptions, type TurnEvent, type TurnView } from '../../src/index.js';
import { PRIVATE_FIELDS } from '../../src/seats.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, hostEvent, sharesTurns } from './harness.js';
import { byCount } from '../support/scale.js';
import { allModules } from '../../src/allModules.js';

type Random = () => number;
const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;

const GAMES = Number(process.env.SOAK_GAMES ?? byCount(150, 1000));
const CHUNK = 250;
const SENDS = 70;
/** What a table event decides beside the turn: never picked from legalActions at random (the soak sends its own). */
const OWN_CHOICE = new Set(['UNDO', 'PROPOSE_SHORTCUT', 'SHORTEN_SHORTCUT']);
const STEPS = ['upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'end'] as const;

function optionsOf(seed: number, r: Random): GameOptions {
  const shape = pick(r, ['2p', '2p', '3p', '4p', 'twoHeadedGiant'] as const);
  const players = shape === '3p' ? ['A', 'B', 'C'] : shape === '2p' ? ['A', 'B'] : ['A', 'B', 'C', 'D'];
  const teams = shape === 'twoHeadedGiant' ? { variant: 'twoHeadedGiant' as const, teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] } : {};
  return {
    players,
    ...teams,
    seed,
    clock: { initialMs: pick(r, [4000, 30_000, 600_000]), incrementMs: pick(r, [0, 0, 1000]), delayMs: pick(r, [0, 0, 500]), onTimeout: pick(r, ['lose', 'pass'] as const) },
    undo: { mode: pick(r, ['own', 'consent'] as const), ...(r() < 0.3 ? { maxPerTurn: 2 } : {}) },
    ...(r() < 0.8 ? { away: { graceMs: pick(r, [0, 3000, 20_000]), then: pick(r, ['wait', 'pass', 'concede'] as const) } } : {}),
  } as GameOptions;
}

/**
 * The view less what an undo keeps going on (CONTRACT v3, "Undo"): version, seq, the clocks, the
 * requests counted, the seats; and (v4, issue 33) the players' own settings: stops set since stay
 * set, since no undo takes a player's settings back.
 */
function undoable(view: TurnView): Record<string, unknown> {
  const { version: _v, seq: _s, clocks: _c, undo: _u, seats: _seats, stops: _stops, ...rest } = view as TurnView & { undo?: unknown };
  return rest;
}

/** One clock per team in shared team turns: the clocks by the first member of each unit. */
function unitClocks(view: TurnView, shared: boolean): [string, NonNullable<TurnView['clocks']>[string]][] {
  const clocks = view.clocks ?? {};
  const firsts = shared && view.teams ? new Set(view.teams.map((t) => t.players[0])) : null;
  return Object.entries(clocks).filter(([p]) => firsts === null || firsts.has(p));
}

interface Soaked {
  sends: number;
  undos: number;
  shortcuts: number;
  restores: number;
  exactCharges: number;
}

function soak(seed: number): Soaked {
  const r = seededRandom(seed);
  const options = optionsOf(seed, r);
  const shared = sharesTurns(options);
  const increment = options.clock?.incrementMs ?? 0;
  let game: Game = createGame({ use: allModules, ...options });
  const seats = options.players;
  const leaks: string[] = [];
  const listen = (g: Game) => {
    // Every accepted step's view (CONTRACT v4: a send past a deadline commits the time-outs first, a version of their own).
    g.subscribe(() => views.set(g.view().version, undoable(g.view())));
    for (const seat of seats)
      g.on(
        '*',
        (e) => {
          const named = (e as { player?: string }).player;
          const hidden = (PRIVATE_FIELDS.events as Record<string, readonly string[]>)[e.type] ?? [];
          if (named !== undefined && named !== seat) for (const f of hidden) if (f in e) leaks.push(`seat ${seat} heard ${named}'s ${e.type}.${f}`);
        },
        { seat },
      );
  };
  const views = new Map<number, Record<string, unknown>>([[game.view().version, undoable(game.view())]]);
  listen(game);
  const out: Soaked = { sends: 0, undos: 0, shortcuts: 0, restores: 0, exactCharges: 0 };
  let at = 1000;
  let serial = 0;
  for (let i = 0; i < SENDS; i++) {
    const before = game.view();
    if (before.gameOver !== null) break;
    const actions = game.legalActions();
    expect(actions.length, `game ${seed}: stuck at version ${before.version} (nothing legal, not over)`).toBeGreaterThan(0);
    const gap = Math.floor(r() * (r() < 0.1 ? 40_000 : 3000));
    const roll = r();
    let event: TurnEvent;
    if (roll < 0.05) {
      const persisted = JSON.parse(JSON.stringify(game.persist())) as unknown;
      const restored = restoreGame(persisted, { use: allModules });
      expect(restored.view(), `game ${seed}: a restore at version ${before.version} changed the view`).toEqual(before);
      game = restored;
      listen(game);
      out.restores++;
      continue;
    } else if (roll < 0.14) {
      const p = pick(r, before.players);
      // The versions a player may return to: the host's legalActions lists them (the view shows the earliest, CONTRACT v4).
      const versions = game.legalActions(p).flatMap((a) => (a.type === 'UNDO' ? [a.to] : []));
      if (versions.length === 0) continue;
      event = { type: 'UNDO', player: p, to: pick(r, versions) } as TurnEvent;
    } else if (roll < 0.19 && before.priority !== null && before.stack.length === 0) {
      event = { type: 'PROPOSE_SHORTCUT', player: before.priority, until: { step: pick(r, STEPS) } } as unknown as TurnEvent;
    } else if (roll < 0.25) {
      event = { type: 'SET_SEAT_STATUS', player: pick(r, seats), status: r() < 0.5 ? 'away' : 'connected' } as TurnEvent;
    } else if (roll < 0.29) {
      event = { type: 'TICK' } as TurnEvent;
    } else if (roll < 0.32) {
      event = { type: r() < 0.5 ? 'PAUSE_CLOCKS' : 'RESUME_CLOCKS' } as TurnEvent;
    } else if (roll < 0.38) {
      event = hostEvent(before, r, serial++);
      if (['LOSE', 'WIN', 'DRAW', 'CONCEDE'].includes(event.type) && r() < 0.9) continue;
    } else {
      // A concession now and then only: the games should last.
      const decisions = actions.filter((a) => !OWN_CHOICE.has(a.type) && (a.type !== 'CONCEDE' || r() < 0.01));
      if (decisions.length === 0) continue;
      event = fill(pick(r, decisions), before, r, serial++, shared);
    }
    const timed = r() < 0.9;
    if (timed) at += gap;
    const deadline = game.nextDeadline();
    const result = game.send(timed ? ({ ...event, at } as TurnEvent) : event);
    if (!result.ok) continue;
    out.sends++;
    const after = game.view();
    views.set(after.version, undoable(after));
    for (const [p, c] of Object.entries(after.clocks ?? {})) expect(c.msLeft, `game ${seed}: ${p}'s clock at version ${after.version}`).toBeGreaterThanOrEqual(0);
    // The charge of the gap: exact while one clock ran, no time-out fell in it, and nobody ran out.
    const ran = unitClocks(before, shared).filter(([, c]) => c.running);
    const flaggedAfter = unitClocks(after, shared).some(([, c]) => c.flagged);
    if (timed && ran.length === 1 && !flaggedAfter && (deadline === null || deadline.at > at) && event.type !== 'UNDO') {
      const [p, c] = ran[0] as [string, NonNullable<TurnView['clocks']>[string]];
      const charged = Math.min(c.msLeft, Math.max(0, at - (c.at ?? at) - c.delayMsLeft));
      const now = after.clocks?.[p]?.msLeft as number;
      const earned = now - (c.msLeft - charged);
      expect(earned >= 0 && (increment === 0 ? earned === 0 : earned % increment === 0), `game ${seed}: ${p} charged ${c.msLeft - now} ms for a gap of ${at - (c.at ?? at)} ms (delay left ${c.delayMsLeft}, increment ${increment})`).toBe(true);
      out.exactCharges++;
    }
    // An accepted undo shows the earlier version's view again.
    const undone = result.events.find((e): e is EmittedEvent & { type: 'undone'; toVersion: number } => e.type === 'undone');
    // (Unless the clocks or the away policy answered for someone right after it, in the same send.)
    if (undone !== undefined && result.events.at(-1) === undone) {
      expect(undoable(after), `game ${seed}: UNDO to version ${undone.toVersion}`).toEqual(views.get(undone.toVersion));
      out.undos++;
    }
    if (result.events.some((e) => e.type === 'autoPass' && (e as { reason?: string }).reason === 'shortcut')) out.shortcuts++;
    // No seat sees another's private view fields.
    const seat = pick(r, seats);
    const seen = game.view({ seat }) as unknown as Record<string, Record<string, unknown> | null>;
    for (const field of PRIVATE_FIELDS.view) for (const [p, v] of Object.entries(seen[field] ?? {})) if (p !== seat && v !== null) leaks.push(`seat ${seat} sees ${p}'s ${field}`);
  }
  expect(leaks, `game ${seed}: private fields shown to another seat`).toEqual([]);
  return out;
}

describe(`a soak of ${GAMES} games between people: clocks, undo, seats that drop, shortcuts (issue 24)`, () => {
  const totals: Soaked = { sends: 0, undos: 0, shortcuts: 0, restores: 0, exactCharges: 0 };
  for (let from = 0; from < GAMES; from += CHUNK) {
    it(`games ${from} to ${Math.min(GAMES, from + CHUNK) - 1}: never stuck, clocks exact and never negative, restores and undos exact, nothing private leaks`, () => {
      for (let seed = from; seed < Math.min(GAMES, from + CHUNK); seed++) {
        const s = soak(seed + 24_000);
        for (const k of Object.keys(totals) as (keyof Soaked)[]) totals[k] += s[k];
      }
    });
  }
  it('exercised every part: undos, shortcuts, restores and exact charges happened', () => {
    if (GAMES < 200) return;
    expect(totals.undos).toBeGreaterThan(GAMES / 10);
    expect(totals.shortcuts).toBeGreaterThan(GAMES / 20);
    expect(totals.restores).toBeGreaterThan(GAMES / 2);
    expect(totals.exactCharges).toBeGreaterThan(GAMES * 5);
  });
});
