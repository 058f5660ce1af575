/**
 * Snapshots of real games for the hostile-snapshot property (issue 22): games of every variant
 * (free-for-all, Two-Headed Giant, Archenemy, Emperor, Planechase, Grand Melee), played with
 * random legal decisions and host events, persisted at the moments the validation must get
 * right (mid-combat, a discard awaited, triggers waiting or being ordered, effects in force,
 * the pregame, a finished game); and the check that a restored game plays to its end (send never
 * throws, persist() works, the game is saved and restored again equal). The mutations are in
 * snapshotMutations.ts.
 */
import { createGame, restoreGame, TurnEngineError, type Game, type GameOptions, type Persisted, type TurnEvent } from '../../src/index.js';
import type { PersistedFull } from '../../src/persistence/format.js';
import { fullSnapshot } from '../support/persisted.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, hostEvent, sharesTurns } from './harness.js';
import { allModules } from '../../src/allModules.js';

type Random = () => number;

/** A persisted game of a real game, with what it shows (for the mutations that need another game's): in the full form (format 2), or as persist() writes it (format 3, {@link compactPool}). */
export interface PoolEntry<S extends object = PersistedFull> {
  /** What the snapshot is of: the variant and the moment ('emperor, combat'). */
  name: string;
  snapshot: S;
}

const TEAMS = {
  twoHeadedGiant: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }],
  archenemy: [{ id: 'boss', players: ['E'] }, { id: 'heroes', players: ['A', 'B', 'C'] }],
  emperor: [{ id: 'T1', players: ['A', 'B', 'C'] }, { id: 'T2', players: ['D', 'E', 'F'] }],
};

/** The setups of the pool: every variant, with players ordering their triggers in some, the pregame in some. */
export const POOL_SETUPS: readonly (GameOptions & { seed: number })[] = [
  { players: ['A', 'B'], seed: 1, orderTriggers: 'players' },
  { players: ['A', 'B', 'C'], seed: 2, rules: 'm10', attack: 'chooseOne' },
  { players: ['A', 'B', 'C', 'D'], seed: 3, rules: 'classic', attack: 'left', pregame: true },
  { players: ['A', 'B', 'C', 'D'], seed: 4, variant: 'twoHeadedGiant', teams: TEAMS.twoHeadedGiant, orderTriggers: 'players' },
  { players: ['E', 'A', 'B', 'C'], seed: 5, variant: 'archenemy', teams: TEAMS.archenemy, pregame: true },
  { players: ['A', 'B', 'C', 'D', 'E', 'F'], seed: 6, variant: 'emperor', teams: TEAMS.emperor, orderTriggers: 'players' },
  { players: ['A', 'B', 'C'], seed: 7, variant: 'planechase' },
  { players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], seed: 8, variant: 'grandMelee', orderTriggers: 'players' },
  { players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'], seed: 9, variant: 'grandMelee', attack: 'right' },
  // CONTRACT v3, "Playing between people": clocks and seats (persisted as `time`), every event with the host's clock.
  { players: ['A', 'B', 'C'], seed: 10, clock: { initialMs: 30_000, incrementMs: 500, delayMs: 200, onTimeout: 'pass' }, away: { graceMs: 4000, then: 'pass' } },
  { players: ['A', 'B', 'C', 'D'], seed: 11, variant: 'twoHeadedGiant', teams: TEAMS.twoHeadedGiant, clock: { initialMs: 20_000, onTimeout: 'lose' } },
];

/** What a snapshot shows, by the moments the pool wants one of each. */
function momentsOf(p: PersistedFull, game: Game): string[] {
  const out = new Set<string>();
  for (const m of p.markers ?? [{ context: p.context }]) for (const moment of contextMoments(p, m.context, game)) out.add(moment);
  return [...out];
}

function contextMoments(p: PersistedFull, c: PersistedFull['context'], game: Game): string[] {
  const out: string[] = [];
  const view = game.view();
  const awaiting = view.awaiting ?? view.turns?.find((t) => t.awaiting?.kind === 'discard')?.awaiting;
  if (p.status === 'done') out.push('over');
  if (c.pregame !== null) out.push('pregame');
  if (c.combat !== null && c.combat.attackers.length > 0) out.push('combat');
  if (awaiting?.kind === 'discard') out.push('discard');
  if (c.triggerOrder !== null) out.push('orderTriggers');
  if (c.pendingTriggers.length > 0) out.push('pendingTriggers');
  if (c.stack.length > 0) out.push('stack');
  if (c.effects.length > 0) out.push('effects');
  if (c.extraTurns.length > 0 || Object.keys(c.skips).length > 0) out.push('extra turns and skips');
  if (Object.keys(c.controlledBy).length > 0) out.push('control');
  if (Object.keys(c.reasons).length > 0) out.push('a player left');
  if ((p.markers?.length ?? 0) > 1 && p.markers?.some((m) => m.life === 'waiting')) out.push('a waiting turn marker');
  return out;
}

/**
 * A decision or a host event, as the random games of harness.ts send them (without refused
 * input), leaning towards the moments the pool wants: attackers declared, two triggers each for
 * two players (an order of triggers with `orderTriggers: 'players'`), hands to discard from.
 */
export function randomEvent(game: Game, options: GameOptions, r: Random, serial: number): unknown {
  const view = game.view();
  const a = view.awaiting ?? view.turns?.find((t) => t.awaiting?.kind === 'declareAttackers')?.awaiting;
  if (a?.kind === 'declareAttackers' && a.defenders.length > 0 && r() < 0.9) {
    const attackers = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, i) => ({ id: `${a.player}-${serial}-${i}`, defender: a.defenders[Math.floor(r() * a.defenders.length)] as string, firstStrike: r() < 0.3 }));
    return { type: 'DECLARE_ATTACKERS', player: a.player, attackers, ...(view.turns !== undefined && view.turns.length > 1 ? { turnMarker: view.turns.find((t) => t.awaiting?.kind === 'declareAttackers')?.turnMarker } : {}) };
  }
  if (r() < 0.03 && view.players.length >= 2) {
    const [p, q] = [view.players[Math.floor(r() * view.players.length)] as string, view.players[Math.floor(r() * view.players.length)] as string];
    return { type: 'TRIGGER', triggers: [p, p, q, q].map((controller, i) => ({ id: `t${serial}-${i}`, controller })) };
  }
  if (r() < 0.15) {
    const event = hostEvent(view, r, serial);
    // Hand sizes big enough for a discard in the cleanup step now and then.
    if (event.type === 'HAND_SIZE' && r() < 0.7) return { ...event, size: 9 + Math.floor(r() * 4) };
    const marker = view.turns?.[Math.floor(r() * view.turns.length)]?.turnMarker;
    return marker !== undefined && r() < 0.7 ? { ...event, turnMarker: marker } : event;
  }
  // Mostly a pass, so that games move on (found without listing every action when one turn runs).
  if (a?.kind === 'priority' && view.turns === undefined && r() < 0.8) return { type: 'PASS_PRIORITY', player: a.player };
  const actions = game.legalActions().filter((x) => x.type !== 'CONCEDE');
  if (actions.length === 0) return null;
  const pass = actions.find((x) => x.type === 'PASS_PRIORITY');
  const action = pass !== undefined && r() < 0.8 ? pass : actions[Math.floor(r() * actions.length)]!;
  return fill(action, view, r, serial, sharesTurns(options));
}

/**
 * The pool: for each setup, a game played for `length` events, persisted at the first moment of
 * each kind it reaches, then at its end (conceded to its end after a player or two left).
 */
export function snapshotPool(length = 200): PoolEntry[] {
  const pool: PoolEntry[] = [];
  for (const options of POOL_SETUPS) {
    const variant = options.variant ?? 'freeForAll';
    const r = seededRandom(options.seed);
    const game = createGame({ use: allModules, ...options });
    const seen = new Set<string>();
    const keep = (moment: string) => {
      pool.push({ name: `${variant} (seed ${options.seed}), ${moment}`, snapshot: fullSnapshot(game) });
      seen.add(moment);
    };
    keep('the start');
    for (let i = 0; i < length && game.view().gameOver === null; i++) {
      const untimed = randomEvent(game, options, r, i);
      if (untimed === null) break;
      // With clocks, the host's clock on every event (some far apart: clocks run out, seats drop and come back).
      const event = options.clock === undefined ? untimed : i % 9 === 4 ? { type: 'SET_SEAT_STATUS', player: game.view().players[i % game.view().players.length], status: i % 18 === 4 ? 'away' : 'connected', at: 900 * i } : { ...(untimed as object), at: 900 * i };
      if (!game.send(event as TurnEvent).ok) continue;
      const p = fullSnapshot(game);
      for (const moment of momentsOf(p, game)) if (!seen.has(moment)) keep(moment);
      // A player leaves now and then, so that games without one are few.
      if (i === Math.floor(length / 2) && game.view().players.length > 2) {
        const player = game.view().players.at(-1) as string;
        if (game.send({ type: 'CONCEDE', player }).ok && !seen.has('a player left')) keep('a player left');
      }
    }
    keep('late');
    concedeToTheEnd(game);
    keep('over');
  }
  // Snapshots of the earlier format (src/persistence/format.ts `upgraded`): the lands of the turn as one number, no endedInSend.
  for (const entry of pool.filter((e) => e.name.endsWith('effects') && e.snapshot.markers === undefined)) {
    pool.push({ name: `${entry.name}, in the earlier format`, snapshot: earlierFormat(entry.snapshot) });
  }
  return pool;
}

/** The pool's snapshots as persist() writes them (format 3, the compact form); the earlier format's left out. */
export function compactPool(pool: readonly PoolEntry[]): PoolEntry<Persisted>[] {
  return pool
    .filter((e) => !e.name.endsWith('in the earlier format'))
    .map((e) => ({ name: `${e.name} (compact)`, snapshot: JSON.parse(JSON.stringify(restoreGame(e.snapshot, { use: allModules }).persist())) as Persisted }));
}

/** A snapshot as an earlier version of the engine wrote it: `landsPlayed` (the active player's count) for `landsPlayedBy`, no `endedInSend`. */
export function earlierFormat(snapshot: PersistedFull): PersistedFull {
  const c = snapshot.context as unknown as Record<string, unknown>;
  const lands = snapshot.context.landsPlayedBy[snapshot.context.activePlayer ?? ''] ?? 0;
  const context = Object.fromEntries(Object.entries(c).filter(([k]) => k !== 'endedInSend').map(([k, v]) => (k === 'landsPlayedBy' ? ['landsPlayed', lands] : [k, v])));
  return { ...structuredClone(snapshot), context: context as unknown as PersistedFull['context'] };
}

/** Players concede, last first, until the game is over. */
function concedeToTheEnd(game: Game): void {
  for (let guard = 0; guard < 80 && game.view().gameOver === null; guard++) {
    const r = game.send({ type: 'CONCEDE', player: game.view().players.at(-1) as string });
    if (!r.ok) throw new Error(`CONCEDE refused in a live game: ${r.error.message}`);
  }
}

/** What restoring a snapshot gave: refused with INVALID_SNAPSHOT, or a game. Anything else is thrown as a failure. */
export function restoredOrRefused(input: unknown): { refused: string } | { game: Game } {
  try {
    return { game: restoreGame(input, { use: allModules }) };
  } catch (err) {
    if (!(err instanceof TurnEngineError)) throw new Error(`restoreGame threw something other than a TurnEngineError: ${String(err)}`);
    if (err.code !== 'INVALID_SNAPSHOT') throw new Error(`restoreGame refused with ${err.code}, not INVALID_SNAPSHOT: ${err.message}`);
    return { refused: err.message };
  }
}

/** A failure of a restored game: what went wrong, and after which events. */
export class PlayFailure extends Error {}

const REFUSALS = new Set(['INVALID_EVENT', 'ILLEGAL_ACTION', 'GAME_OVER']);

/** JSON with every object's keys sorted: equal for equal values, whatever the order of their keys. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));
}

/**
 * Saves and restores a game: persist() works, its JSON restores, and the restored game
 * persists to the same JSON and shows the same view.
 */
export function roundTrip(game: Game, where: string): Game {
  let text: string;
  try {
    text = JSON.stringify(game.persist());
  } catch (err) {
    throw new PlayFailure(`${where}: persist() threw: ${String(err)}`);
  }
  const again = restoredOrRefused(JSON.parse(text));
  if ('refused' in again) throw new PlayFailure(`${where}: the game's own persist() is refused: ${again.refused}`);
  // Equal as values: the validation hands the engine its records with their keys in the schema's order.
  const persisted = JSON.stringify(again.game.persist());
  if (persisted !== text && canonical(JSON.parse(persisted)) !== canonical(JSON.parse(text))) throw new PlayFailure(`${where}: the restored game persists differently`);
  const view = JSON.stringify(game.view());
  if (JSON.stringify(again.game.view()) !== view && canonical(again.game.view()) !== canonical(JSON.parse(view))) throw new PlayFailure(`${where}: the restored game shows another view`);
  return again.game;
}

/**
 * Plays a restored game to its end: up to `length` random events (legal decisions, every one
 * of which must be accepted, and host events, which may be refused but never throw), saved and
 * restored halfway, then players concede until the game is over; saved and restored at the end.
 */
export function playToTheEnd(start: Game, seed: number, length = 40): void {
  const r = seededRandom(seed);
  let game = roundTrip(start, 'as restored');
  const recent: string[] = [];
  const send = (event: unknown, mustPass: boolean) => {
    recent.push(JSON.stringify(event));
    let result: ReturnType<Game['send']>;
    try {
      result = game.send(event);
    } catch (err) {
      throw new PlayFailure(`send threw on ${JSON.stringify(event)}: ${String(err)} (after ${recent.slice(-6).join(', ')})`);
    }
    if (!result.ok && (mustPass || !REFUSALS.has(result.error.code))) throw new PlayFailure(`${JSON.stringify(event)} refused: ${result.error.code} ${result.error.message} (after ${recent.slice(-6).join(', ')})`);
  };
  const { teams, variant } = fullSnapshot(game).context;
  const options: GameOptions = { players: [], variant, ...(teams === null ? {} : { teams }) };
  for (let i = 0; i < length && game.view().gameOver === null; i++) {
    if (i === Math.floor(length / 2)) game = roundTrip(game, `after ${i} events`);
    const view = game.view();
    if (r() < 0.2) {
      send(hostEvent(view, r, 1000 + i) as TurnEvent, false);
      continue;
    }
    // Mostly a pass; with one turn running, the pass offered is the awaited player's (every so often all actions are listed and checked).
    if (view.turns === undefined && view.awaiting?.kind === 'priority' && i % 4 !== 0 && r() < 0.7) {
      send({ type: 'PASS_PRIORITY', player: view.awaiting.player }, true);
      continue;
    }
    const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
    if (actions.length === 0) throw new PlayFailure(`stuck: a live game offers no decision (turn ${view.turn}, ${view.phase}/${view.step}; after ${recent.slice(-6).join(', ')})`);
    const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
    const action = pass !== undefined && r() < 0.7 ? pass : actions[Math.floor(r() * actions.length)]!;
    send(fill(action, view, r, 1000 + i, sharesTurns(options)), true);
  }
  for (let guard = 0; guard < 80 && game.view().gameOver === null; guard++) {
    const players = game.view().players;
    send({ type: 'CONCEDE', player: players[Math.floor(r() * players.length)] as string }, true);
  }
  if (game.view().gameOver === null) throw new PlayFailure('the game did not end once every player but one conceded');
  roundTrip(game, 'at the end');
}
