/**
 * `game.nextStop(player?)`: where the game will next ask that player (or anyone) for a
 * decision if every other decision is answered with the plainest input. Computed on copies of
 * the state, with no hook: the live game is not touched.
 */
import type { Awaiting, PhaseName, PlayerId, StepName, TurnEvent } from './contract.js';
import { decider } from './rules/control.js';
import { PLAINEST, violationOf } from './events/index.js';
import { eachCandidate, filledOf, mayAnswer } from './legal.js';
import { awaitingOf, type SnapshotLike } from './view.js';

/** Where the game will next ask for a decision. */
export interface NextStop {
  turn: number;
  activePlayer: string | null;
  phase: PhaseName;
  step: StepName;
  awaiting: Awaiting;
  /** Grand Melee, with several turn markers: the marker whose turn it is in (CR 807.4). */
  turnMarker?: number;
}

/**
 * Whether a player is asked for what is awaited: they may answer it (with shared team turns, as
 * a member of the awaited team, CR 805.5), or they decide for a player who may (723.5).
 */
function isAsked(ctx: SnapshotLike['context'], awaiting: Awaiting, player: PlayerId): boolean {
  return mayAnswer(ctx, awaiting, player) || ctx.players.some((p) => decider(ctx, p) === player && mayAnswer(ctx, awaiting, p));
}

/**
 * @internal The key of a game's `[NEXT_STOPS](players)`: `nextStop` of each of `players` from one
 * look ahead ({@link nextStopsOver}), for the table server, which wants every seat's at every send.
 */
export const NEXT_STOPS: unique symbol = Symbol.for('mtg-turn-engine: nextStop of several players');

/** Most decisions a look ahead answers before it gives up. */
const MAX_LOOKAHEAD = 20_000;

/** A decision awaited in a look ahead: in which turn (a Grand Melee turn marker's, 807.4), and what. */
export interface Decision<S extends SnapshotLike = SnapshotLike> {
  snapshot: S;
  awaiting: Awaiting;
  /** Grand Melee: the turn marker whose turn awaits it. */
  turnMarker?: number;
  /** Whether `awaiting` is `awaitingOf(snapshot)` itself (one turn at a time): not made again. */
  ofSnapshot?: true;
}

/** What a look ahead reads of a game's state, over any turn logic. */
export interface LookAhead<G, S extends SnapshotLike = SnapshotLike> {
  /** The decisions awaited now, in the order they are answered (one, or one per running Grand Melee turn). */
  decisions(state: G): Decision<S>[];
  /** The state after `event` answers `decision` (the per-send counters at zero, no hook), or null when nothing changed. */
  advance(state: G, decision: Decision<S>, event: TurnEvent): G | null;
  /** How many turns have begun so far (the horizon counts the turns begun, every turn marker's in Grand Melee). */
  turnsBegun(state: G): number;
}

/** The plainest answer to a decision (a pass, no attackers, the order as listed...), when it is legal. */
function plainestAnswer(decision: Decision): TurnEvent | null {
  const { snapshot, awaiting } = decision;
  const ctx = snapshot.context;
  // The first plainest of `legalActionsOf(snapshot, awaiting.player)`, without checking the
  // candidates after it (or the ones before it that are not plainest): a look ahead answers
  // every decision it walks through (issue 31, point 6). A game over awaits nothing (`now` is
  // null), nor does a player out of it: their only candidate, CONCEDE, is not plainest.
  const now = decision.ofSnapshot === true ? awaiting : awaitingOf(snapshot);
  let event = null as TurnEvent | null;
  eachCandidate(ctx, now, awaiting.player, (offer, who, fields) => {
    if (!PLAINEST.has(offer.type)) return false;
    const plainest = filledOf(offer, who, fields, now, ctx);
    if (violationOf(ctx, now, plainest) !== null) return false;
    // What is awaited now is the decision's own (one turn at a time it always is): the same fill of
    // the same action, already found legal (issue 31: not made and checked twice).
    if (now === awaiting) event = plainest;
    else {
      const other = filledOf(offer, who, fields, awaiting, ctx);
      event = violationOf(ctx, awaiting, other) === null ? other : null;
    }
    return true;
  });
  return event;
}

/**
 * The next decision awaited from `player` (or anyone), or null if the game ends first or it is
 * not within `players.length + 1` turns, over any turn logic. The decisions awaited now are
 * answered first (CONTRACT v3: never the decision awaited now, so it always names a later one),
 * then every decision that is not that player's, with the plainest input.
 */
export function nextStopOver<G, S extends SnapshotLike>(start: G, player: string | undefined, look: LookAhead<G, S>, fromNow?: boolean): NextStop | null {
  return walk(start, [player], look, fromNow)[0] ?? null;
}

/**
 * {@link nextStopOver} of several players at once, as one look ahead: the walk (every decision
 * answered with the plainest input) is the same whoever it is for, so each player's answer is
 * the first decision of it that asks them. The same answers as one call per player (issue 31,
 * point 6: a table server wants every seat's at every send).
 */
export function nextStopsOver<G, S extends SnapshotLike>(start: G, players: readonly string[], look: LookAhead<G, S>, fromNow?: boolean): Record<string, NextStop | null> {
  const found = walk(start, players, look, fromNow);
  const out: Record<string, NextStop | null> = {};
  players.forEach((p, i) => (out[p] = found[i] ?? null));
  return out;
}

/**
 * The walk of {@link nextStopOver} for each of `who` (undefined: anyone), until each is asked or
 * the walk ends; null for those never asked. `fromNow`: what is awaited now is itself a stop (the
 * table's look ahead past a vote, which was the decision awaited now: src/table/tableLogic.ts).
 */
function walk<G, S extends SnapshotLike>(start: G, who: readonly (string | undefined)[], look: LookAhead<G, S>, fromNow = false): (NextStop | null)[] {
  const out: (NextStop | null)[] = who.map(() => null);
  const first = look.decisions(start);
  const players = first[0]?.snapshot.context.players ?? [];
  if (first.length === 0) return out;
  // Those still looked for (a player not in the game never is).
  const left = who.map((_, i) => i).filter((i) => who[i] === undefined || players.includes(who[i] as string));
  if (left.length === 0) return out;
  const lastTurn = look.turnsBegun(start) + players.length + 1;
  let current = start;
  // What is awaited now, in each turn that awaits something: answered, not named (unless `fromNow`).
  for (const now of fromNow ? [] : first) {
    // The decisions of the state the walk starts from are `first` (a state's decisions are read from it alone).
    const decision = (current === start ? first : look.decisions(current)).find((d) => d.turnMarker === now.turnMarker);
    if (decision === undefined) continue;
    const next = answered(look, current, decision);
    if (next === null) return out;
    current = next;
  }
  for (let i = 0; i < MAX_LOOKAHEAD; i++) {
    const decisions = look.decisions(current);
    if (decisions.length === 0 || look.turnsBegun(current) > lastTurn) return out;
    // Those asked now are found; the others kept, in place (no closure or list made per decision).
    let kept = 0;
    for (const w of left) {
      const player = who[w];
      let d: Decision<S> | undefined;
      for (const x of decisions) {
        if (player === undefined || isAsked(x.snapshot.context, x.awaiting, player)) {
          d = x;
          break;
        }
      }
      if (d === undefined) left[kept++] = w;
      else out[w] = stopAt(d);
    }
    if ((left.length = kept) === 0) return out;
    const next = answered(look, current, decisions[0] as Decision<S>);
    if (next === null) return out;
    current = next;
  }
  return out;
}

/** The stop a decision of the walk makes. */
function stopAt(d: Decision): NextStop {
  const ctx = d.snapshot.context;
  const found: NextStop = { turn: ctx.turn, activePlayer: ctx.activePlayer, phase: ctx.phase, step: ctx.step, awaiting: { ...d.awaiting } };
  if (d.turnMarker !== undefined) found.turnMarker = d.turnMarker;
  return found;
}

function answered<G, S extends SnapshotLike>(look: LookAhead<G, S>, state: G, decision: Decision<S>): G | null {
  const event = plainestAnswer(decision);
  return event === null ? null : look.advance(state, decision, event);
}

/** The look ahead of a game with one turn at a time: `advance` takes the state after an event, or null when nothing changed. */
export function nextStopBy<S extends SnapshotLike>(snapshot: S, player: string | undefined, advance: (current: S, event: TurnEvent) => S | null, fromNow?: boolean): NextStop | null {
  return nextStopOver<S, S>(snapshot, player, oneTurn(advance), fromNow);
}

/** {@link nextStopBy} of several players at once (one look ahead: {@link nextStopsOver}). */
export function nextStopsBy<S extends SnapshotLike>(snapshot: S, players: readonly string[], advance: (current: S, event: TurnEvent) => S | null, fromNow?: boolean): Record<string, NextStop | null> {
  return nextStopsOver<S, S>(snapshot, players, oneTurn(advance), fromNow);
}

/** The look ahead of a game with one turn at a time. */
function oneTurn<S extends SnapshotLike>(advance: (current: S, event: TurnEvent) => S | null): LookAhead<S, S> {
  return {
    decisions(current) {
      const awaiting = awaitingOf(current);
      return awaiting === null ? [] : [{ snapshot: current, awaiting, ofSnapshot: true }];
    },
    advance: (current, _decision, event) => advance(current, event),
    turnsBegun: (current) => current.context.turn,
  };
}
