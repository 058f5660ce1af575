/**
 * `game.nextStop(player?)`: where the game will next ask that player (or anyone) for a
 * decision if every other decision is answered with the plainest input. Computed on copies of
 * the state, with no hook: the live game is not touched.
 */
import type { Awaiting, PhaseName, PlayerId, StepName, TurnEvent } from './contract.js';
import { decider } from './rules/control.js';
import { PLAINEST, violationOf } from './events/index.js';
import { plainestFill, legalActionsOf, mayAnswer } from './legal.js';
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

/** Most decisions a look ahead answers before it gives up. */
const MAX_LOOKAHEAD = 20_000;

/**
 * The next decision awaited from `player` (or anyone), or null if the game ends first or it is
 * not within `players.length + 1` turns, over any turn logic: `advance` takes the state after an
 * event (with the per-send counters at zero), or null when nothing changed.
 */
export function nextStopBy<S extends SnapshotLike>(snapshot: S, player: string | undefined, advance: (current: S, event: TurnEvent) => S | null): NextStop | null {
  if (player !== undefined && !snapshot.context.players.includes(player)) return null;
  const lastTurn = snapshot.context.turn + snapshot.context.players.length + 1;
  let current = snapshot;
  for (let i = 0; i < MAX_LOOKAHEAD; i++) {
    const ctx = current.context;
    const awaiting = awaitingOf(current);
    if (awaiting === null || ctx.turn > lastTurn) return null;
    if (player === undefined || isAsked(ctx, awaiting, player)) {
      return { turn: ctx.turn, activePlayer: ctx.activePlayer, phase: ctx.phase, step: ctx.step, awaiting: { ...awaiting } };
    }
    // The plainest answer (a pass, no attackers, the order as listed...), when it is legal.
    const action = legalActionsOf(current, awaiting.player).find((a) => PLAINEST.has(a.type));
    if (action === undefined) return null;
    const event = plainestFill(action, awaiting, ctx);
    if (violationOf(ctx, awaiting, event) !== null) return null;
    const next = advance(current, event);
    if (next === null) return null;
    current = next;
  }
  return null;
}
