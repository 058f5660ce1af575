/**
 * Turn order, APNAP order and who takes the next turn.
 * CR 101.4, 103.8, 500.7, 614.10, 800.4j, 800.4k.
 */
import type { PlayerId, TurnContext } from '../../machines/turn.types.js';

/**
 * The players still in the game, in turn order starting with `from` (or the first player
 * after `from`'s seat if `from` has left). CR 101.4: turn order continues around the table.
 */
export function inTurnOrderFrom(ctx: Pick<TurnContext, 'seats' | 'players'>, from: PlayerId): PlayerId[] {
  const start = ctx.seats.indexOf(from);
  const order: PlayerId[] = [];
  for (let i = 0; i < ctx.seats.length; i++) {
    const seat = ctx.seats[(start + i) % ctx.seats.length] as PlayerId;
    if (ctx.players.includes(seat)) order.push(seat);
  }
  return order;
}

/**
 * APNAP order (CR 101.4): the active player, then the others in turn order. With no active
 * player (CR 800.4j) it starts with the next player after the departed active player's seat.
 */
export function apnapOrder(ctx: Pick<TurnContext, 'seats' | 'players' | 'turnOwner'>): PlayerId[] {
  return inTurnOrderFrom(ctx, ctx.turnOwner);
}

/** The next player in turn order after `player` who is still in the game (CR 117.3d, 800.4a). */
export function nextPlayerAfter(ctx: Pick<TurnContext, 'seats' | 'players'>, player: PlayerId): PlayerId | null {
  const start = ctx.seats.indexOf(player);
  for (let i = 1; i <= ctx.seats.length; i++) {
    const seat = ctx.seats[(start + i) % ctx.seats.length] as PlayerId;
    if (ctx.players.includes(seat)) return seat;
  }
  return null;
}

/**
 * The player who receives priority where the rules give it to the active player
 * (CR 117.3a, 117.3b). If the active player has left, the next player in turn order
 * receives it instead (CR 800.4j).
 */
export function activeOrNext(ctx: Pick<TurnContext, 'seats' | 'players' | 'turnOwner' | 'activePlayer'>): PlayerId | null {
  return ctx.activePlayer ?? nextPlayerAfter(ctx, ctx.turnOwner);
}

/**
 * Whether the starting player skips the draw step of turn 1: only in a two-player game
 * (CR 103.8a; 103.8c: in other multiplayer games nobody does).
 */
export function skipsFirstDraw(ctx: Pick<TurnContext, 'turn' | 'seats' | 'activePlayer' | 'startingPlayer'>): boolean {
  return ctx.turn === 1 && ctx.seats.length === 2 && ctx.activePlayer === ctx.startingPlayer;
}

/** Who takes the next turn, and whether it is an extra turn. */
export interface NextTurn {
  player: PlayerId;
  extra: boolean;
  /** The extra turns still pending once this turn begins. */
  extraTurns: PlayerId[];
  /** The player the regular rotation continues from afterwards. */
  rotation: PlayerId;
  /** Turns skipped on the way (CR 614.10), in order. */
  skippedTurns: PlayerId[];
  /** Pending turn skips after consuming the skipped ones. */
  skips: TurnContext['skips'];
}

/**
 * Decides who takes the next turn. Extra turns come first, most recently created first
 * (CR 500.7); then the next player in turn order after the last regular turn. A player who
 * has left never begins a turn (CR 800.4k), and a pending "skip your next turn" replaces
 * that player's next turn with nothing (CR 614.10, 614.10a).
 */
export function nextTurn(ctx: Pick<TurnContext, 'seats' | 'players' | 'extraTurns' | 'rotation' | 'skips'>): NextTurn {
  const extraTurns = [...ctx.extraTurns];
  let rotation = ctx.rotation;
  let skips = ctx.skips;
  const skippedTurns: PlayerId[] = [];
  // Each iteration consumes an extra turn, a turn skip or advances the rotation; the number
  // of pending skips bounds it.
  for (;;) {
    const extra = extraTurns.length > 0;
    const candidate = extra ? (extraTurns.pop() as PlayerId) : nextPlayerAfter(ctx, rotation);
    if (candidate === null) throw new Error('no player is left to take a turn');
    if (!extra) rotation = candidate;
    if (!ctx.players.includes(candidate)) continue; // CR 800.4k
    const pending = skips[candidate]?.turn ?? 0;
    if (pending > 0) {
      skips = withSkipCount(skips, candidate, 'turn', pending - 1);
      skippedTurns.push(candidate);
      continue;
    }
    return { player: candidate, extra, extraTurns, rotation, skippedTurns, skips };
  }
}

/** Returns `skips` with one player's count for one target set to `count` (0 removes it). */
export function withSkipCount(
  skips: TurnContext['skips'],
  player: PlayerId,
  what: keyof NonNullable<TurnContext['skips'][string]>,
  count: number,
): TurnContext['skips'] {
  const mine = { ...skips[player] };
  if (count > 0) mine[what] = count;
  else delete mine[what];
  const next = { ...skips };
  if (Object.keys(mine).length > 0) next[player] = mine;
  else delete next[player];
  return next;
}
