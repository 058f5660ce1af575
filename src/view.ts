/**
 * Snapshot -> TurnView: the plain object hosts read (the "connect" of this project). What
 * the game waits for comes from the tags of the states it is in (`awaiting:*`).
 */
import type { Awaiting, TurnView } from './contract.js';
import type { TurnContext } from './state.js';
import { discardDue, discardingPlayer } from './rules/cleanup.js';
import { attackablePlayers, awaitedDefender, defenderChoices, orderDue } from './rules/combat.js';
import { decider } from './rules/control.js';
import { triggerOrderDue } from './rules/priority.js';
import { bottomDue, mulliganDue, openingHandDue, startingCandidates, startingChooser } from './rules/pregame.js';
import { teamOf } from './rules/teams.js';
import { representative, unitOf } from './rules/units.js';
import { landPlaysAllowed, maxHandSizeOf } from './rules/effects.js';
import { scheduleOf } from './rules/schedule.js';
import { landsPlayedBy as landsPlayedByOf, landsPlayedByUnit } from './rules/timing.js';

/** The state-machine facts the view needs beside the context. */
export interface SnapshotLike {
  status: string;
  context: TurnContext;
  hasTag(tag: string): boolean;
}

/** What the game waits for, derived from the tags of the states it is in (null once the game is over). */
export function awaitingOf(snapshot: SnapshotLike): Awaiting | null {
  const awaiting = awaitedOf(snapshot);
  // CR 805.2, 904: a team whose first player left is awaited through a member still in the game.
  if (awaiting === null || snapshot.context.players.includes(awaiting.player)) return awaiting;
  return { ...awaiting, player: representative(snapshot.context, awaiting.player) };
}

function awaitedOf(snapshot: SnapshotLike): Awaiting | null {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active' || ctx.result !== null) return null;
  if (ctx.priority !== null) return { kind: 'priority', player: ctx.priority };
  const order = triggerOrderDue(ctx);
  if (order !== null) return { kind: 'orderTriggers', player: order.player, triggers: order.triggers };
  const active = ctx.activePlayer;
  const pre = ctx.pregame;
  if (pre !== null) {
    if (snapshot.hasTag('awaiting:chooseStartingPlayer')) {
      const candidates = startingCandidates(ctx);
      const player = startingChooser(ctx) ?? pre.chooser;
      return candidates === null ? { kind: 'chooseStartingPlayer', player } : { kind: 'chooseStartingPlayer', player, candidates };
    }
    const bottom = bottomDue(ctx);
    if (snapshot.hasTag('awaiting:bottom') && bottom !== null) return { kind: 'bottom', player: bottom.player, count: bottom.count };
    const mulligan = mulliganDue(ctx);
    if (snapshot.hasTag('awaiting:mulligan') && mulligan !== null) return { kind: 'mulligan', player: mulligan, mulligans: pre.mulligans[mulligan] ?? 0 };
    const hand = openingHandDue(ctx);
    if (snapshot.hasTag('awaiting:openingHandActions') && hand !== null) return { kind: 'openingHandActions', player: hand };
  }
  if (snapshot.hasTag('awaiting:chooseDefender') && active !== null) return { kind: 'chooseDefender', player: active, defenders: defenderChoices(ctx) ?? [] };
  if (snapshot.hasTag('awaiting:declareAttackers') && active !== null) return { kind: 'declareAttackers', player: active, defenders: attackablePlayers(ctx) };
  if (snapshot.hasTag('awaiting:declareBlockers')) {
    const defender = awaitedDefender(ctx);
    if (defender !== null) return { kind: 'declareBlockers', player: defender };
  }
  if (snapshot.hasTag('awaiting:order')) {
    const due = orderDue(ctx);
    if (due?.kind === 'orderBlockers' && active !== null) return { kind: 'orderBlockers', player: active, attacker: due.attacker.id, blockers: [...due.attacker.blockedBy] };
    if (due?.kind === 'orderAttackers') return { kind: 'orderAttackers', player: due.blocker.player, blocker: due.blocker.id, attackers: [...due.blocker.blocking] };
  }
  const discarding = discardingPlayer(ctx);
  if (snapshot.hasTag('awaiting:discard') && discarding !== null) return { kind: 'discard', player: discarding, count: discardDue(ctx) };
  return null;
}

/** The view's records by player: what they are made of, and the records (never handed out: each view gets copies). */
interface PlayerRecords {
  of: Pick<TurnContext, 'manaPool' | 'handSizes' | 'spellsCast' | 'landsPlayedBy' | 'maxHandSize' | 'effects' | 'controlledBy' | 'stops'>;
  manaPool: Record<string, number>;
  handSizes: Record<string, number>;
  spellsCast: Record<string, number>;
  landsPlayedBy: Record<string, number>;
  maxHandSize: Record<string, number | null>;
  decidedBy: Record<string, string>;
  stops: TurnView['stops'];
  /** Whether some player has stops (else every entry of `stops` is null and a shallow copy is a fresh one). */
  anyStops: boolean;
}

/** The last records of each game, by its players' list (one memo per game, not one for every game a process holds): made of that list and the fields in `of`. */
const lastRecords = new WeakMap<readonly string[], PlayerRecords>();

/**
 * The records by player of a context's view, remembered while the fields they are made of stay
 * the same (contexts are never changed in place): consecutive checks of a game mostly share them,
 * and copying a record is cheaper than building it one player at a time.
 */
function playerRecords(ctx: TurnContext): PlayerRecords {
  const last = lastRecords.get(ctx.players);
  if (
    last !== undefined &&
    last.of.manaPool === ctx.manaPool &&
    last.of.handSizes === ctx.handSizes &&
    last.of.spellsCast === ctx.spellsCast &&
    last.of.landsPlayedBy === ctx.landsPlayedBy &&
    last.of.maxHandSize === ctx.maxHandSize &&
    last.of.effects === ctx.effects &&
    last.of.controlledBy === ctx.controlledBy &&
    last.of.stops === ctx.stops
  ) {
    return last;
  }
  const records: PlayerRecords = {
    of: {
      manaPool: ctx.manaPool,
      handSizes: ctx.handSizes,
      spellsCast: ctx.spellsCast,
      landsPlayedBy: ctx.landsPlayedBy,
      maxHandSize: ctx.maxHandSize,
      effects: ctx.effects,
      controlledBy: ctx.controlledBy,
      stops: ctx.stops,
    },
    manaPool: {},
    handSizes: {},
    spellsCast: {},
    landsPlayedBy: {},
    maxHandSize: {},
    decidedBy: {},
    stops: {},
    anyStops: false,
  };
  for (const p of ctx.players) {
    records.manaPool[p] = ctx.manaPool[p] ?? 0;
    records.handSizes[p] = ctx.handSizes[p] ?? 0;
    records.spellsCast[p] = ctx.spellsCast[p] ?? 0;
    records.landsPlayedBy[p] = landsPlayedByOf(ctx, p);
    records.maxHandSize[p] = maxHandSizeOf(ctx, p);
    records.decidedBy[p] = decider(ctx, p);
    const s = ctx.stops[p];
    records.stops[p] = s === undefined || s === null ? null : s;
    if (s !== undefined && s !== null) records.anyStops = true;
  }
  lastRecords.set(ctx.players, records);
  return records;
}

/** A fresh copy of the stops by player (each player's list and its entries copied). */
function copyStops(stops: TurnView['stops']): TurnView['stops'] {
  const out: TurnView['stops'] = {};
  for (const p in stops) {
    const s = stops[p];
    out[p] = s === undefined || s === null ? null : s.map((x) => ({ ...x }));
  }
  return out;
}

/** CR 305.2, 805.4c: the lands each player in the game may play this turn (0 but for the active player or team). */
function landPlaysAllowedBy(ctx: TurnContext): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of ctx.players) out[p] = ctx.activePlayer !== null && unitOf(ctx, p) === ctx.activePlayer ? landPlaysAllowed(ctx, p) : 0;
  return out;
}

/** CONTRACT v3, TurnView.currentTurn: whose turn is in progress (its unit, also after they left) and whether it is an extra turn (500.7). */
function currentTurnOf(ctx: TurnContext): TurnView['currentTurn'] {
  if (ctx.phase === 'pregame') return null;
  const extra = ctx.extraTurn;
  if (extra === null) return { player: ctx.turnOwner, extra: false };
  return extra.id === undefined ? { player: ctx.turnOwner, extra: true } : { player: ctx.turnOwner, extra: true, id: extra.id };
}

/** Builds a fresh TurnView from a context and what is awaited. Nothing in it is shared with the context. */
export function buildView(ctx: TurnContext, awaiting: Awaiting | null, version: number, seq = 0): TurnView {
  const records = playerRecords(ctx);
  const manaPool = { ...records.manaPool };
  const handSizes = { ...records.handSizes };
  const spellsCast = { ...records.spellsCast };
  const landsPlayedBy = { ...records.landsPlayedBy };
  const maxHandSize = { ...records.maxHandSize };
  const decidedBy = { ...records.decidedBy };
  const stops = records.anyStops ? copyStops(records.stops) : { ...records.stops };
  return {
    version,
    seq,
    currentTurn: currentTurnOf(ctx),
    turn: ctx.turn,
    activePlayer: ctx.activePlayer === null ? null : representative(ctx, ctx.activePlayer),
    activeTeam: ctx.activePlayer === null ? null : (teamOf(ctx, ctx.activePlayer)?.id ?? null),
    phase: ctx.phase,
    step: ctx.step,
    priority: ctx.result === null && ctx.priority !== null ? representative(ctx, ctx.priority) : null,
    // The usual awaiting (priority, the only one a checkpoint hook is shown) copied as it is made; the others as JSON would.
    awaiting: awaiting === null ? null : awaiting.kind === 'priority' ? { kind: awaiting.kind, player: awaiting.player } : structuredCopy(awaiting),
    decidedBy,
    stack: ctx.stack.map((o) => (o.creatures ? { ...o, creatures: [...o.creatures] } : { ...o })),
    landsPlayed: landsPlayedByUnit(ctx, ctx.activePlayer),
    landsPlayedBy,
    landPlaysAllowed: landPlaysAllowed(ctx, ctx.activePlayer),
    landPlaysAllowedBy: landPlaysAllowedBy(ctx),
    spellsCast,
    manaPool,
    handSizes,
    maxHandSize,
    players: [...ctx.players],
    teams: ctx.teams === null ? null : ctx.teams.map((t) => ({ id: t.id, players: t.players.filter((p) => ctx.players.includes(p)) })),
    dayNight: ctx.dayNight,
    combat:
      ctx.combat === null
        ? null
        : {
            attackers: ctx.combat.attackers.map((a) => ({ id: a.id, defender: a.defender, firstStrike: a.firstStrike, doubleStrike: a.doubleStrike, blocked: a.blocked, blockedBy: [...a.blockedBy] })),
            blockers: ctx.combat.blockers.map((b) => ({ id: b.id, blocking: [...b.blocking], firstStrike: b.firstStrike, doubleStrike: b.doubleStrike })),
          },
    effects: ctx.effects.map((e) => {
      const entry: TurnView['effects'][number] = { id: e.id, effect: structuredCopy(e.effect), duration: structuredCopy(e.duration) };
      if (e.controller !== undefined) entry.controller = e.controller;
      return entry;
    }),
    schedule: scheduleOf(ctx),
    stops,
    gameOver: ctx.result === null ? null : { winners: [...ctx.result.winners], draw: ctx.result.draw, reasons: { ...ctx.result.reasons } },
    rules: ctx.rules,
    // CONTRACT v4: the table's (src/table/undo.ts), set by the game when it has the undo option.
    undo: null,
    // CONTRACT v3: the table's (src/table/time.ts), set by the game when it has clocks or seats.
    clocks: null,
    seats: null,
  };
}

/** A deep copy of plain JSON data: what `JSON.parse(JSON.stringify(value))` returns, made without the text in between. */
function structuredCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return plainCopy(value) as T;
  } catch {
    // Anything but plain data (a cycle, a class instance, toJSON, a bigint ...): JSON's own answer, or its error.
    return JSON.parse(JSON.stringify(value)) as T;
  }
}

/** Thrown by {@link plainCopy} on what JSON would treat otherwise than as plain data. */
const NOT_PLAIN = new Error('not plain data');

/** JSON's copy of plain data (objects of Object.prototype or null prototype, arrays, strings, finite numbers, booleans, null). */
function plainCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      // JSON writes -0 as 0, NaN and the infinities as null.
      return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'object':
      break;
    default:
      throw NOT_PLAIN;
  }
  if (value === null) return null;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(plainCopy(value[i]) ?? null);
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = plainCopy((value as Record<string, unknown>)[key]);
    if (v === undefined) continue;
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
    else out[key] = v;
  }
  return out;
}

/** The view of a machine snapshot. */
export function viewOf(snapshot: SnapshotLike, version: number, seq = 0): TurnView {
  return buildView(snapshot.context, awaitingOf(snapshot), version, seq);
}

/** Freezes a view deeply (for `getSnapshot`). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
