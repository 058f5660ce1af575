/**
 * Private seats (CONTRACT v3, "Playing between people"; issue 24 point 1): over random games of
 * every setup, no seat's view, frozen snapshot or events ever hold another player's private
 * fields, and a spectator's hold no player's. Each seat sees exactly the host's view with the
 * other players' `stops` null, and exactly the host's events with the `reason` of other players'
 * automatic passes left out; each seat's snapshot is frozen and the same object until the next
 * accepted event. Seats are every player the game began with (players who left included) and a
 * spectator; the games are the harness's (playRandom over setupArb) and the lockstep setups
 * (setupOf) with stops, yields and control set often, so that automatic passes happen.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type Game, type GameOptions, type SeatEvent, type SeatOptions, type TurnEvent, type TurnView } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { setupOf } from '../runtime/lockstep.js';
import { fill, GameCheckError, hostEvent, playRandom, setupArb, sharesTurns } from './harness.js';
import { assertProperty } from './seeds.js';
import { allModules } from '../../src/allModules.js';

/** What the watch counted, so that the properties are seen to bite. */
interface Counts {
  views: number;
  /** Another player's stops that were set and shown as null. */
  stopsHidden: number;
  /** Automatic passes of another player that arrived without their reason. */
  reasonsHidden: number;
  /** Automatic passes that arrived with the reason to the seat they were made for. */
  reasonsShown: number;
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new GameCheckError(message);
}

const json = (v: unknown) => JSON.stringify(v);
const label = (viewer: SeatOptions) => ('seat' in viewer ? `seat ${viewer.seat}` : 'a spectator');
const owns = (viewer: SeatOptions, player: unknown) => 'seat' in viewer && viewer.seat === player;

/** Every property name anywhere in a value (a private field must be absent, not merely empty). */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

/** The view a viewer must see: the host's, with every other player's stops null. */
function expectedView(full: TurnView, viewer: SeatOptions): TurnView {
  const stops: TurnView['stops'] = {};
  for (const p of Object.keys(full.stops)) stops[p] = owns(viewer, p) ? (full.stops[p] ?? null) : null;
  return { ...full, stops };
}

/** The event a viewer must receive: the host's, without the reason of another player's automatic pass. */
function expectedEvent(e: EmittedEvent, viewer: SeatOptions): SeatEvent {
  if (e.type !== 'autoPass' || owns(viewer, e.player)) return e;
  const { reason: _hidden, ...plain } = e;
  return plain;
}

/**
 * Watches every game of a run from every seat and as a spectator: checks each viewer's view and
 * snapshot after every accepted event, and records each viewer's events beside the host's.
 */
function seatWatch(seats: readonly string[], counts: Counts) {
  const viewers: SeatOptions[] = [...seats.map((seat) => ({ seat })), { spectator: true }];
  const host: EmittedEvent[] = [];
  const seen = viewers.map(() => [] as SeatEvent[]);

  function checkViews(game: Game): void {
    const full = game.view();
    for (const viewer of viewers) {
      const view = game.view(viewer);
      const snapshot = game.getSnapshot(viewer);
      const want = expectedView(full, viewer);
      check(json(view) === json(want), `${label(viewer)} sees another view than the host's less others' stops (version ${full.version})`);
      check(json(snapshot) === json(view), `${label(viewer)}'s snapshot is not its view (version ${full.version})`);
      check(Object.isFrozen(snapshot) && Object.isFrozen(snapshot.stops) && Object.values(snapshot.stops).every((s) => s === null || Object.isFrozen(s)), `${label(viewer)}'s snapshot is not deeply frozen`);
      check(game.getSnapshot(viewer) === snapshot, `${label(viewer)}'s snapshot is not the same object until the next event`);
      check(!keysOf(view).has('yields'), `${label(viewer)}'s view shows yields`);
      for (const [p, stops] of Object.entries(full.stops)) if (stops !== null && !owns(viewer, p)) counts.stopsHidden++;
      counts.views++;
    }
  }

  // Subscribers' throws are the host's and never stop the engine (CONTRACT "Game"): the first is kept for the end.
  let failure: unknown = null;
  const keep = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      failure ??= err;
    }
  };

  return {
    watch(game: Game): void {
      game.on('*', (e) => host.push(e));
      viewers.forEach((viewer, i) => game.on('*', (e) => seen[i]!.push(e), viewer));
      // A snapshot taken now must not be handed out after the next accepted event.
      let before = viewers.map((viewer) => game.getSnapshot(viewer));
      game.subscribe(() =>
        keep(() => {
          const after = viewers.map((viewer) => game.getSnapshot(viewer));
          check(after.every((s, i) => s !== before[i]), 'a seat got the snapshot of the version before');
          before = after;
          checkViews(game);
        }),
      );
      checkViews(game);
    },
    /** What the subscribers found, then: each viewer received exactly the host's events, less others' reasons. */
    checkEvents(): void {
      if (failure !== null) throw failure;
      viewers.forEach((viewer, i) => {
        const got = seen[i]!;
        check(got.length === host.length, `${label(viewer)} received ${got.length} events, the host ${host.length}`);
        host.forEach((e, j) => {
          const want = expectedEvent(e, viewer);
          check(json(got[j]) === json(want), `${label(viewer)} received ${json(got[j])} for ${json(e)}`);
          if (e.type !== 'autoPass') return;
          if (owns(viewer, e.player)) counts.reasonsShown++;
          else {
            check(!('reason' in got[j]!), `${label(viewer)} received the reason of ${e.player}'s automatic pass`);
            counts.reasonsHidden++;
          }
        });
      });
    },
  };
}

const STEPS = ['upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'end'] as const;

/** A random setting of a player: stops (mostly set), a yield, or their control by another player (CR 723). */
function settingEvent(view: TurnView, r: () => number): TurnEvent {
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)] as T;
  const player = pick(view.players);
  const roll = r();
  if (roll < 0.6) return { type: 'SET_STOPS', player, stops: r() < 0.1 ? null : [{ step: pick(STEPS), turn: pick(['own', 'others', 'any'] as const) }] };
  if (roll < 0.9) return { type: 'YIELD', player, until: pick(['stackResolved', 'endOfTurn', 'nextTurn', null] as const), evenIfStackChanges: r() < 0.3 };
  return { type: 'CONTROL_PLAYER', controller: pick(view.players), player };
}

/**
 * A game of a lockstep setup (setupOf) heavy with settings: every player's stops set first,
 * then mostly legal decisions, host events, settings, concessions now and then, and restores.
 */
function playWithSettings(setup: GameOptions & { seed: number }, length: number, watch: (game: Game) => void): boolean {
  const r = seededRandom(setup.seed + 24);
  let game: Game;
  try {
    game = createGame({ use: allModules, ...setup });
  } catch {
    return false; // a lockstep setup the options refuse (Grand Melee with six players, CR 807.1)
  }
  watch(game);
  for (const player of setup.players) game.send({ type: 'SET_STOPS', player, stops: [{ step: STEPS[Math.floor(r() * STEPS.length)]!, turn: 'own' }] });
  for (let i = 0; i < length && game.view().gameOver === null; i++) {
    const view = game.view();
    const roll = r();
    if (roll < 0.03) {
      game = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
      watch(game);
      continue;
    }
    let event: TurnEvent;
    if (roll < 0.7) {
      const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
      const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
      const action = pass !== undefined && r() < 0.7 ? pass : actions[Math.floor(r() * actions.length)];
      if (action === undefined) break;
      event = fill(action, view, r, i, sharesTurns(setup));
    } else if (roll < 0.82) event = settingEvent(view, r);
    else if (roll < 0.99) {
      event = hostEvent(view, r, i);
      if (view.turns !== undefined && r() < 0.7) event = { ...event, turnMarker: view.turns[Math.floor(r() * view.turns.length)]!.turnMarker };
    } else event = { type: 'CONCEDE', player: view.players[Math.floor(r() * view.players.length)]! };
    game.send(event);
  }
  return true;
}

describe('private seats: no seat sees another player\'s private fields (CONTRACT v3, "Playing between people")', () => {
  it('random games of every setup (playRandom): each seat and a spectator see the host\'s view and events less others\' stops and reasons', () => {
    const counts: Counts = { views: 0, stopsHidden: 0, reasonsHidden: 0, reasonsShown: 0 };
    assertProperty(
      fc.property(setupArb, (setup) => {
        const seats = seatWatch(setup.players, counts);
        playRandom(setup, 120, { legal: 60, host: 30, refused: 5, concede: 1, restore: 4 }, false, seats.watch);
        seats.checkEvents();
      }),
      { numRuns: 24 },
    );
    expect(counts.views).toBeGreaterThan(5_000);
    expect(counts.stopsHidden).toBeGreaterThan(1_000);
    expect(counts.reasonsHidden).toBeGreaterThan(100);
    expect(counts.reasonsShown).toBeGreaterThan(20);
  });

  it('the lockstep setups with stops, yields and control set often: automatic passes reach other seats as plain passes (CR 117.4, 723.5, 805.5)', () => {
    const counts: Counts = { views: 0, stopsHidden: 0, reasonsHidden: 0, reasonsShown: 0 };
    let played = 0;
    for (let n = 0; n < 36; n++) {
      const setup = setupOf(n);
      const seats = seatWatch(setup.players, counts);
      if (!playWithSettings(setup, 100, seats.watch)) continue;
      seats.checkEvents();
      played++;
    }
    expect(played).toBeGreaterThan(30);
    expect(counts.stopsHidden).toBeGreaterThan(10_000);
    expect(counts.reasonsHidden).toBeGreaterThan(5_000);
    expect(counts.reasonsShown).toBeGreaterThan(1_000);
  });
});
