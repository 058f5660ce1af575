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

/** Builds a fresh TurnView from a context and what is awaited. Nothing in it is shared with the context. */
export function buildView(ctx: TurnContext, awaiting: Awaiting | null, version: number): TurnView {
  const manaPool: Record<string, number> = {};
  const handSizes: Record<string, number> = {};
  const spellsCast: Record<string, number> = {};
  const landsPlayedBy: Record<string, number> = {};
  const maxHandSize: Record<string, number | null> = {};
  const decidedBy: Record<string, string> = {};
  const stops: TurnView['stops'] = {};
  for (const p of ctx.players) {
    manaPool[p] = ctx.manaPool[p] ?? 0;
    handSizes[p] = ctx.handSizes[p] ?? 0;
    spellsCast[p] = ctx.spellsCast[p] ?? 0;
    landsPlayedBy[p] = landsPlayedByOf(ctx, p);
    maxHandSize[p] = maxHandSizeOf(ctx, p);
    decidedBy[p] = decider(ctx, p);
    const s = ctx.stops[p];
    stops[p] = s === undefined || s === null ? null : s.map((x) => ({ ...x }));
  }
  return {
    version,
    turn: ctx.turn,
    activePlayer: ctx.activePlayer,
    activeTeam: ctx.activePlayer === null ? null : (teamOf(ctx, ctx.activePlayer)?.id ?? null),
    phase: ctx.phase,
    step: ctx.step,
    priority: ctx.result === null ? ctx.priority : null,
    awaiting: awaiting === null ? null : structuredCopy(awaiting),
    decidedBy,
    stack: ctx.stack.map((o) => (o.creatures ? { ...o, creatures: [...o.creatures] } : { ...o })),
    landsPlayed: landsPlayedByUnit(ctx, ctx.activePlayer),
    landsPlayedBy,
    landPlaysAllowed: landPlaysAllowed(ctx, ctx.activePlayer),
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
            attackers: ctx.combat.attackers.map((a) => ({ id: a.id, defender: a.defender, firstStrike: a.firstStrike, doubleStrike: a.doubleStrike, blockedBy: [...a.blockedBy] })),
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
  };
}

/** A deep copy of plain JSON data. */
function structuredCopy<T>(value: T): T {
  return typeof value === 'object' && value !== null ? (JSON.parse(JSON.stringify(value)) as T) : value;
}

/** The view of a machine snapshot. */
export function viewOf(snapshot: SnapshotLike, version: number): TurnView {
  return buildView(snapshot.context, awaitingOf(snapshot), version);
}

/** Freezes a view deeply (for `getSnapshot`). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
