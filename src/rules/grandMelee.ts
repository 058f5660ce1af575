/**
 * Grand Melee: turn markers, waiting, removal and the stacks of several turns at once.
 * CR 807.2a-b, 807.4a-j, 807.5a-b. Pure functions: no XState.
 */
import type { PlayerId } from '../contract.js';
import { cloneContext, type ExtraTurn, type TurnContext } from '../state.js';
import { nextPlayerAfter } from './turnOrder.js';
import { inSeatOrder } from './teams.js';
import { setGrandMeleeRules } from './units.js';

/** Whether the game is a Grand Melee game (CR 807). */
export function isGrandMelee(ctx: Pick<TurnContext, 'variant'>): boolean {
  return ctx.variant === 'grandMelee';
}

/** CR 807.4a: one turn marker for each full four players (at least one, so a game always has a turn). */
export function markerCount(players: number): number {
  return Math.max(1, Math.floor(players / 4));
}

/**
 * CR 807.4b: the starting player gets turn marker 1, the player four seats to their left
 * marker 2, and so on: the holders of the markers, in marker order.
 */
export function initialHolders(players: readonly PlayerId[], starting: PlayerId): PlayerId[] {
  const start = Math.max(0, players.indexOf(starting));
  return Array.from({ length: markerCount(players.length) }, (_, i) => players[(start + 4 * i) % players.length] as PlayerId);
}

/**
 * CR 807.5a: a player gets priority for a turn marker's stack only if the marker is within
 * their range of influence, or an object on that stack is controlled by a player within it.
 * The players who get priority for this turn's stack, in turn order (every player outside
 * Grand Melee).
 */
export function priorityPlayers(ctx: Pick<TurnContext, 'variant' | 'players' | 'influence' | 'turnOwner' | 'stack'>): PlayerId[] {
  if (ctx.variant !== 'grandMelee') return ctx.players;
  const players = ctx.players;
  // Asked again of the same fields (a step asks it of every context it makes): the last answer.
  // (The seats too: a marker whose player left stands at the next seat.)
  const seats = (ctx as Partial<Pick<TurnContext, 'seats'>>).seats;
  const last = lastCircle;
  if (ctx.stack.length === 0 && last.players === players && last.influence === ctx.influence && last.turnOwner === ctx.turnOwner && last.seats === seats) return last.circle;
  const circle = priorityCircle(ctx);
  if (ctx.stack.length === 0) lastCircle = { players, influence: ctx.influence, turnOwner: ctx.turnOwner, seats, circle };
  return circle;
}
let lastCircle: { players: readonly PlayerId[] | null; influence: TurnContext['influence']; turnOwner: PlayerId; seats: readonly PlayerId[] | undefined; circle: PlayerId[] } = {
  players: null,
  influence: null,
  turnOwner: '',
  seats: undefined,
  circle: [],
};

function priorityCircle(ctx: Pick<TurnContext, 'variant' | 'players' | 'influence' | 'turnOwner' | 'stack'>): PlayerId[] {
  const players = ctx.players;
  // The marker stays at its seat for the rest of a turn whose active player left (807.4c): its nearest player on the left stands in.
  const marker = players.includes(ctx.turnOwner) ? ctx.turnOwner : nextPlayerAfter(ctx as Pick<TurnContext, 'seats' | 'players'> & typeof ctx, ctx.turnOwner);
  // Whose range of influence counts: the marker's, and that of each controller (still in the game) of an object on the stack.
  const sources: PlayerId[] = marker === null ? [] : [marker];
  for (const o of ctx.stack) if (!sources.includes(o.controller) && players.includes(o.controller)) sources.push(o.controller);
  const influence = ctx.influence;
  if (influence === null) return sources.length === 0 ? [] : [...players];
  // With nothing on the stack (most of the time) the answer depends on the players, their ranges and the marker: remembered.
  const only = sources.length === 1 ? (sources[0] as PlayerId) : null;
  const circles = rangesHolding(influence);
  const known = only === null ? undefined : circles.circle.get(only);
  if (known !== undefined && known.players === players) return known.circle;
  const circle = playersWithin(players, circles.within, sources);
  if (only !== null) circles.circle.set(only, { players, circle });
  return circle;
}

/** The players with a source within their range of influence (withinRange: the source itself, or in their list), in seat order. */
function playersWithin(players: readonly PlayerId[], within: Map<PlayerId, PlayerId[]>, sources: readonly PlayerId[]): PlayerId[] {
  const found: PlayerId[] = [];
  for (const s of sources) found.push(s, ...(within.get(s) ?? []));
  return inSeatOrder(players, found);
}

/**
 * For each player, the players whose range of influence holds them: the inverse of a context's
 * `influence`, made once per influence record (records are shared by the contexts of a seating,
 * teams.ts influenceOf).
 */
function rangesHolding(influence: Record<PlayerId, PlayerId[]>): Circles {
  let out = inverses.get(influence);
  if (out === undefined) {
    out = { within: new Map(), circle: new Map() };
    for (const from of Object.keys(influence)) {
      for (const to of influence[from] ?? []) {
        const list = out.within.get(to);
        if (list === undefined) out.within.set(to, [from]);
        else list.push(from);
      }
    }
    inverses.set(influence, out);
  }
  return out;
}

/** What an influence record answers: who has each player within range, and the circle of each marker with nothing on the stack (for the players it was found for). */
interface Circles {
  within: Map<PlayerId, PlayerId[]>;
  circle: Map<PlayerId, { players: readonly PlayerId[]; circle: PlayerId[] }>;
}
const inverses = new WeakMap<Record<PlayerId, PlayerId[]>, Circles>();

/** The context restricted to the players who get priority for its stack (CR 807.5a); the context itself outside Grand Melee. */
export function byPriorityCircle<T extends Pick<TurnContext, 'variant' | 'players' | 'influence' | 'turnOwner' | 'stack' | 'seats'>>(ctx: T): T {
  if (ctx.variant !== 'grandMelee') return ctx;
  // Not remembered by context: the compiled runtime patches the context of a step in place until it publishes it.
  const players = priorityPlayers(ctx);
  return (isContext(ctx) ? withPlayers(ctx, players) : { ...ctx, players }) as T;
}

/** Whether a context of the rules' type is a whole context (the engine's always are). */
function isContext(ctx: object): ctx is TurnContext {
  return 'pregame' in ctx && 'rng' in ctx;
}

/**
 * A whole context with other players: a copy by cloneContext, one object literal naming every
 * field (a spread of an object this size takes V8's slow path once it has seen contexts of a few
 * shapes: microseconds, several times an event).
 */
function withPlayers(c: TurnContext, players: PlayerId[]): TurnContext {
  const out = cloneContext(c);
  out.players = players;
  return out;
}

/** The `n` players to the left of `player` (next in turn order), among the players still in the game. */
export function playersToTheLeft(ctx: Pick<TurnContext, 'seats' | 'players'>, player: PlayerId, n: number): PlayerId[] {
  const out: PlayerId[] = [];
  let p: PlayerId | null = player;
  for (let i = 0; i < n && p !== null; i++) {
    p = nextPlayerAfter(ctx, p);
    if (p === null || p === player || out.includes(p)) break;
    out.push(p);
  }
  return out;
}

/** The `n` players to the right of `player` (back in turn order): {@link playersToTheLeft} around the table the other way. */
export function playersToTheRight(ctx: Pick<TurnContext, 'seats' | 'players'>, player: PlayerId, n: number): PlayerId[] {
  return playersToTheLeft({ seats: [...ctx.seats].reverse(), players: ctx.players }, player, n);
}

/** Where a turn marker is: the seat of the player holding it, and whether their turn is running. */
export interface MarkerSeat {
  number: number;
  holder: PlayerId;
  takingTurn: boolean;
}

/**
 * CR 807.4d: a player who receives a turn marker can't begin their turn while any player in
 * the three seats to their left has a turn marker; they wait until the player four seats to
 * their left takes it. With no turn running at all, the lowest-numbered waiting marker begins
 * (so the game never stalls on markers left too close by players leaving, 807.4e-g).
 */
export function canMarkerBegin(ctx: Pick<TurnContext, 'seats' | 'players'>, markers: readonly MarkerSeat[], number: number): boolean {
  const me = markers.find((m) => m.number === number);
  if (me === undefined) return false;
  // CR 807.4: each marker is an active player's turn; a holder still taking a turn with another marker (one designated for removal, 807.4g) begins this one after it.
  if (markers.some((m) => m.number !== number && m.takingTurn && m.holder === me.holder)) return false;
  const left = playersToTheLeft(ctx, me.holder, 3);
  if (!markers.some((m) => m.number !== number && left.includes(m.holder))) return true;
  return !markers.some((m) => m.takingTurn) && markers.every((m) => m.number >= number);
}

/**
 * CR 807.4e-f: the markers designated for removal when players leave: as long as the markers
 * not yet designated outnumber one per full four players left, the marker immediately to a
 * departed player's right is designated (again); when several players left at once and their
 * markers differ, the one with the lowest number. Returns the new designation counts by marker
 * number.
 */
export function designateForRemoval(
  ctx: Pick<TurnContext, 'seats' | 'players'>,
  markers: readonly (MarkerSeat & { removals: number })[],
  departed: readonly PlayerId[],
): Record<number, number> {
  const out: Record<number, number> = {};
  for (const m of markers) out[m.number] = m.removals;
  const candidates = departed.map((p) => markerToTheRight(ctx, markers, p)).filter((m) => m !== null);
  if (candidates.length === 0) return out;
  const chosen = candidates.reduce((a, b) => (b.number < a.number ? b : a));
  const designated = () => Object.values(out).reduce((a, b) => a + b, 0);
  let guard = markers.length;
  while (markers.length - designated() > markerCount(ctx.players.length) && guard-- > 0) {
    out[chosen.number] = (out[chosen.number] ?? 0) + 1;
  }
  return out;
}

/** CR 807.4e, 807.4g: the marker immediately to a player's right (of a departed player, or of a removed marker's holder), or null. */
export function markerToTheRight(ctx: Pick<TurnContext, 'seats'>, markers: readonly MarkerSeat[], from: PlayerId): MarkerSeat | null {
  const seat = ctx.seats.indexOf(from);
  for (let i = 1; i < ctx.seats.length; i++) {
    const s = ctx.seats[(seat - i + ctx.seats.length) % ctx.seats.length];
    // A seat holding two markers (one designated for removal, 807.4g): the lower number.
    const m = markers.filter((x) => x.holder === s).sort((a, b) => a.number - b.number)[0];
    if (m !== undefined) return m;
  }
  return null;
}

/**
 * CR 807.4i: as marker `number`'s turn ends, its player, who would keep the marker for an extra
 * turn, passes it to their left instead when another turn marker is within three seats on their
 * right (`markers`: where every marker is at that time), and takes the extra turn immediately
 * before their next turn: the pending extra turns with theirs marked `beforeNextTurn`; the same
 * list when they keep the marker. (With a marker too close on their left as well, they pass it:
 * the marker does not stay with a player who must wait on both sides.) A marker too close on
 * their left alone makes the kept marker wait (807.4d, canMarkerBegin).
 */
export function extraTurnsAsTurnEnds(ctx: Pick<TurnContext, 'seats' | 'players' | 'turnOwner' | 'rotation' | 'extraTurns'>, markers: readonly MarkerSeat[], number: number): ExtraTurn[] {
  const player = ctx.turnOwner;
  const keeps = (x: ExtraTurn) => x.player === player && x.beforeNextTurn !== true;
  // Only a player who would keep the marker: one whose own regular turn is not the marker's next anyway (807.4j).
  if (!ctx.extraTurns.some(keeps) || nextPlayerAfter(ctx, ctx.rotation) === player) return ctx.extraTurns;
  const right = playersToTheRight(ctx, player, 3);
  if (!markers.some((m) => m.number !== number && m.holder !== player && right.includes(m.holder))) return ctx.extraTurns;
  return ctx.extraTurns.map((x) => (keeps(x) ? { ...x, beforeNextTurn: true } : x));
}

/**
 * CR 807.4i-j: in Grand Melee a turn marker begins only the extra turns of the player holding
 * it (who keeps the marker, unless they passed it: `beforeNextTurn`) and of the player it passes
 * to (who takes the extra turn just before their own turn); the others wait for their players'
 * markers. Takes it out of `list`.
 */
function markerExtraTurn(ctx: Pick<TurnContext, 'seats' | 'players'> & Partial<Pick<TurnContext, 'turnOwner'>>, list: ExtraTurn[], rotation: PlayerId): ExtraTurn | undefined {
  const next = nextPlayerAfter(ctx, rotation);
  for (let i = list.length - 1; i >= 0; i--) {
    const x = list[i] as ExtraTurn;
    if ((x.player === ctx.turnOwner && x.beforeNextTurn !== true) || x.player === next) return list.splice(i, 1)[0];
  }
  return undefined;
}

// The rules of Grand Melee (CR 807.4i-j, 807.5a) the turn order and priority rules (src/rules/units.ts) play by from here on.
setGrandMeleeRules({ circle: byPriorityCircle, extraTurn: markerExtraTurn });

export { byPriority } from './units.js';
