/**
 * Snapshot -> TurnView: the plain object hosts read (the "connect" of this project).
 */
import type { Awaiting, TurnContext, TurnView } from '../machines/turn.types.js';
import { awaitedDefender } from './rules/combat.js';
import { discardDue } from './rules/cleanup.js';

/** The state-machine facts the view needs beside the context. */
export interface SnapshotLike {
  status: string;
  context: TurnContext;
  value: unknown;
}

/** The dotted path of a state value's leaf ('combat.declareAttackers.priority'). */
export function statePath(value: unknown): string {
  const parts: string[] = [];
  let v: unknown = value;
  while (typeof v === 'object' && v !== null) {
    const [key, child] = Object.entries(v as Record<string, unknown>)[0] ?? [];
    if (key === undefined) break;
    parts.push(key);
    v = child;
  }
  if (typeof v === 'string') parts.push(v);
  return parts.join('.');
}

/** What the game waits for, derived from the state the machine is in (null once the game is over). */
export function awaitingOf(snapshot: SnapshotLike): Awaiting | null {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active' || ctx.winners !== null) return null;
  const path = ctx.priority === null ? statePath(snapshot.value) : '';
  if (path === 'combat.declareAttackers.declaring' && ctx.activePlayer !== null) {
    return { kind: 'declareAttackers', player: ctx.activePlayer };
  }
  if (path === 'combat.declareBlockers.declaring') {
    const defender = awaitedDefender(ctx);
    if (defender !== null) return { kind: 'declareBlockers', player: defender };
  }
  if (path === 'ending.cleanup.discarding' && ctx.activePlayer !== null) {
    return { kind: 'discard', player: ctx.activePlayer, count: discardDue(ctx) };
  }
  return ctx.priority === null ? null : { kind: 'priority', player: ctx.priority };
}

/** Builds a fresh TurnView from a context and what is awaited. Nothing in it is shared with the context. */
export function buildView(ctx: TurnContext, awaiting: Awaiting | null): TurnView {
  const manaPool: Record<string, number> = {};
  const handSizes: Record<string, number> = {};
  for (const p of ctx.players) {
    manaPool[p] = ctx.manaPool[p] ?? 0;
    handSizes[p] = ctx.handSizes[p] ?? 0;
  }
  const skips: TurnView['schedule']['skips'] = {};
  for (const [p, s] of Object.entries(ctx.skips)) skips[p] = { ...s };
  return {
    turn: ctx.turn,
    activePlayer: ctx.activePlayer,
    phase: ctx.phase,
    step: ctx.step,
    priority: ctx.winners === null ? ctx.priority : null,
    awaiting: awaiting === null ? null : { ...awaiting },
    stack: ctx.stack.map((o) => (o.creatures ? { ...o, creatures: [...o.creatures] } : { ...o })),
    landsPlayed: ctx.landsPlayed,
    manaPool,
    players: [...ctx.players],
    gameOver: ctx.winners === null ? null : { winners: [...ctx.winners] },
    handSizes,
    rules: ctx.rules,
    combat:
      ctx.combat === null
        ? null
        : { attackers: ctx.combat.attackers.map((a) => ({ ...a })), blockers: ctx.combat.blockers.map((b) => ({ ...b })) },
    schedule: { extraTurns: [...ctx.extraTurns], extraPhases: [...ctx.extraPhases], skips },
    skippedThisTurn: ctx.skippedThisTurn.map((s) => ({ ...s })),
  };
}

/** The view of a machine snapshot. */
export function viewOf(snapshot: SnapshotLike): TurnView {
  return buildView(snapshot.context, awaitingOf(snapshot));
}
