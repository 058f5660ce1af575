/**
 * Teams, variants and the range of influence.
 * CR 104.2, 801.2, 801.3, 801.14, 801.15, 808, 809.3a, 809.3c, 809.5, 810.8a, 810.8b, 901.9.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';

type TeamContext = Pick<TurnContext, 'teams'>;

/** The team a player is on, or null in a game without teams. */
export function teamOf(ctx: TeamContext, player: PlayerId): { id: string; players: PlayerId[] } | null {
  return ctx.teams?.find((t) => t.players.includes(player)) ?? null;
}

/** Whether two players are opponents: different players not on the same team (CR 102.2, 102.3). */
export function areOpponents(ctx: TeamContext, a: PlayerId, b: PlayerId): boolean {
  if (a === b) return false;
  const team = teamOf(ctx, a);
  return team === null || !team.players.includes(b);
}

/** A team's emperor: the player in the middle of its seats (CR 809.2). */
export function emperorOf(team: { players: PlayerId[] }): PlayerId {
  return team.players[Math.floor((team.players.length - 1) / 2)] as PlayerId;
}

/** The distance in seats between two players still in the game (CR 801.2): the shorter way round. */
export function seatDistance(ctx: Pick<TurnContext, 'players'>, a: PlayerId, b: PlayerId): number {
  const i = ctx.players.indexOf(a);
  const j = ctx.players.indexOf(b);
  if (i < 0 || j < 0) return Infinity;
  const d = Math.abs(i - j);
  return Math.min(d, ctx.players.length - d);
}

/**
 * The players within each player's range of influence (CR 801.2): those within that many seats,
 * themselves included (801.2b), determined as each turn begins (801.2c); null without the option.
 *
 * Remembered by seating (the players in seat order and their ranges), so that a turn beginning
 * with the same players, in any game, takes the answer already made: the records are frozen
 * (a context is never changed in place, and these are shared by contexts of many games).
 * Each player's list is in seat order, and is found in time linear in its length.
 */
export function influenceOf(ctx: Pick<TurnContext, 'players' | 'ranges'>): Record<PlayerId, PlayerId[]> | null {
  const ranges = ctx.ranges;
  if (ranges === null) return null;
  const players = ctx.players;
  // The same lists as last time (context fields: the ranges for the whole game, the players until one leaves): no key to make.
  const last = lastByRanges.get(ranges);
  if (last !== undefined && last.players === players) return last.influence;
  const key = seatingKey(players, ranges);
  let out = influenceBySeating.get(key);
  if (out === undefined) {
    out = Object.freeze(computeInfluence(players, ranges));
    if (influenceBySeating.size >= MAX_SEATINGS) influenceBySeating.clear();
    influenceBySeating.set(key, out);
  }
  lastByRanges.set(ranges, { players, influence: out });
  return out;
}
const lastByRanges = new WeakMap<Record<PlayerId, number>, { players: readonly PlayerId[]; influence: Record<PlayerId, PlayerId[]> }>();

/** Most seatings whose influence is remembered at once (a game has one per set of players still in it). */
const MAX_SEATINGS = 256;
const influenceBySeating = new Map<string, Record<PlayerId, PlayerId[]>>();

/** A text that names a seating: the players in order, each with its range (JSON: no two seatings share one). */
function seatingKey(players: readonly PlayerId[], ranges: Record<PlayerId, number>): string {
  return JSON.stringify(players.map((p) => [p, ranges[p] ?? null]));
}

function computeInfluence(players: readonly PlayerId[], ranges: Record<PlayerId, number>): Record<PlayerId, PlayerId[]> {
  const out: Record<PlayerId, PlayerId[]> = {};
  const n = players.length;
  for (const [i, p] of players.entries()) {
    const range = ranges[p];
    let within: PlayerId[];
    if (range === undefined || (Number.isSafeInteger(range) && 2 * range + 1 >= n)) within = [...players];
    else if (Number.isSafeInteger(range) && range >= 0) {
      // The seats from i - range to i + range round the table, in seat order (2 * range + 1 < n: none twice).
      const from = i - range;
      const to = i + range;
      if (from < 0) within = [...players.slice(0, to + 1), ...players.slice(n + from)];
      else if (to >= n) within = [...players.slice(0, to - n + 1), ...players.slice(from)];
      else within = players.slice(from, to + 1);
    } else within = players.filter((q) => seatDistance({ players: players as PlayerId[] }, p, q) <= range);
    out[p] = Object.freeze(within) as PlayerId[];
  }
  return out;
}

/** Whether `to` is within `from`'s range of influence as determined when this turn began (CR 801.2, 801.2c; no limit without the option). */
export function withinRange(ctx: Pick<TurnContext, 'influence'>, from: PlayerId, to: PlayerId): boolean {
  const within = ctx.influence?.[from];
  return ctx.influence === null || from === to || (within !== undefined && within.includes(to));
}

/**
 * The opponents a player may attack (CR 506.2, 801.3, 809.3c): opponents still in the game,
 * within range of influence, and in the Emperor variant only those seated next to them.
 */
export function attackableOpponents(ctx: Pick<TurnContext, 'players' | 'teams' | 'influence' | 'variant'>, player: PlayerId | null): PlayerId[] {
  if (player === null) return [];
  const allowed = (p: PlayerId) => areOpponents(ctx, player, p) && (ctx.variant !== 'emperor' || seatDistance(ctx, player, p) === 1);
  if (ctx.influence === null) return ctx.players.filter(allowed);
  // Within range (CR 801.2): the player's own list (they are not their own opponent), in seat order; not a look at every player.
  return inSeatOrder(ctx.players, ctx.influence[player] ?? []).filter(allowed);
}

/** The players of `candidates` still in `players`, once each, in the order of `players` (a few candidates: each found by its seat). */
export function inSeatOrder(players: readonly PlayerId[], candidates: readonly PlayerId[]): PlayerId[] {
  const seats: number[] = [];
  for (const p of candidates) {
    const i = players.indexOf(p);
    if (i >= 0 && !seats.includes(i)) seats.push(i);
  }
  // An insertion sort (a handful of numbers; Array.prototype.sort costs more to set up than this takes).
  for (let i = 1; i < seats.length; i++) {
    const x = seats[i] as number;
    let j = i - 1;
    for (; j >= 0 && (seats[j] as number) > x; j--) seats[j + 1] = seats[j] as number;
    seats[j + 1] = x;
  }
  return seats.map((i) => players[i] as PlayerId);
}

/**
 * The players who leave the game with a player who loses or concedes. A team loses together
 * only in Two-Headed Giant (CR 810.8a, 810.8b) and Emperor, where the team leaves with its
 * emperor but a general leaves alone (809.5). In Team vs. Team (808) and Archenemy (904) a
 * player who leaves leaves alone, and their teammates play on (800.4a, 104.3a).
 */
export function leavingWith(ctx: Pick<TurnContext, 'teams' | 'variant' | 'players'>, player: PlayerId): PlayerId[] {
  const team = teamOf(ctx, player);
  if (team === null) return [player];
  if (ctx.variant !== 'twoHeadedGiant' && ctx.variant !== 'emperor') return [player];
  if (ctx.variant === 'emperor' && emperorOf(team) !== player) return [player];
  return [player, ...team.players.filter((p) => p !== player && ctx.players.includes(p))];
}

/**
 * The players for whom the game is a draw when an effect `controller` controls says so (CR 801.15):
 * the controller and the players within their range of influence as the turn began (801.2c), each
 * with those who leave with them (809.5c: an emperor's team draws with its emperor; 810.8a: a
 * Two-Headed Giant team together), in seat order. Without a controller or without the option, every
 * player in the game (104.4a).
 */
export function drawingWith(ctx: Pick<TurnContext, 'players' | 'teams' | 'variant' | 'influence'>, controller: PlayerId | undefined): PlayerId[] {
  const within = controller === undefined ? null : ctx.influence?.[controller];
  return within == null ? ctx.players : inSeatOrder(ctx.players, within.flatMap((p) => leavingWith(ctx, p)));
}

/** Whether the game is over because one player, or one team, is left (CR 104.2a, 104.2b). */
export function lastStanding(ctx: Pick<TurnContext, 'teams' | 'players'>): PlayerId[] | null {
  if (ctx.players.length === 0) return [];
  if (ctx.players.length === 1) return [...ctx.players];
  const first = teamOf(ctx, ctx.players[0] as PlayerId);
  if (first === null) return null;
  return ctx.players.every((p) => first.players.includes(p)) ? [...ctx.players] : null;
}

/** The players who lose when a player wins (CR 104.2a; 801.14: only opponents within that player's range of influence). */
export function losersWhenWinning(ctx: Pick<TurnContext, 'players' | 'teams' | 'influence'>, winner: PlayerId): PlayerId[] {
  return ctx.players.filter((p) => areOpponents(ctx, winner, p) && withinRange(ctx, winner, p));
}

/** The ranges of influence of a game (CR 801, 809.3a, 809.6a): one number for all, each Emperor player's as seated, or none. */
export function rangesOf(
  players: readonly PlayerId[],
  teams: readonly { id: string; players: PlayerId[] }[] | null,
  variant: TurnContext['variant'],
  range: number | undefined,
): Record<PlayerId, number> | null {
  if (variant === 'emperor' && teams !== null) {
    // CR 809.6a (809.3a with teams of three): the least range that reaches, as the game begins, one
    // general of an opposing team (a general) or two of them (an emperor).
    const out: Record<PlayerId, number> = {};
    const seated = { players: players as PlayerId[] };
    const generals = teams.map((t) => t.players.filter((p) => p !== emperorOf(t)));
    for (const [i, t] of teams.entries()) {
      const theirs = generals.filter((_, j) => j !== i).flat();
      for (const p of t.players) {
        const reach = theirs.map((g) => seatDistance(seated, p, g)).sort((a, b) => a - b);
        out[p] = p === emperorOf(t) ? (reach[1] ?? reach[0] ?? 2) : (reach[0] ?? 1);
      }
    }
    return out;
  }
  if (range === undefined) return null;
  const out: Record<PlayerId, number> = {};
  for (const p of players) out[p] = range;
  return out;
}

/** What rolling the planar die costs now (CR 901.9): one more mana than the last roll of this turn, the first free. */
export function planarDieCost(ctx: Pick<TurnContext, 'planarRolls'>): number {
  return ctx.planarRolls;
}

/** The faces of the planar die (CR 901.3): one chaos, one planeswalker, four blank. */
export const PLANAR_DIE = ['chaos', 'planeswalk', 'blank', 'blank', 'blank', 'blank'] as const;
