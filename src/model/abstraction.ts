/**
 * The finite model of the turn: a projection of the machine's snapshot onto what changes
 * its control flow. Two snapshots with the same projection are one state of the model.
 *
 * Players are named by their seat relative to the player whose turn it is (0 = that
 * player, 1 = the next in turn order, ...), so that "A holds priority in A's turn" and
 * "B holds priority in B's turn" are the same model state. Counters that only grow (turn
 * number, object ids) and amounts that only matter as "some or none" are left out.
 */
import type { TurnContext } from '../../machines/turn.types.js';
import { discardDue } from '../rules/cleanup.js';
import { skipsFirstDraw } from '../rules/turnOrder.js';
import { statePath } from '../view.js';

/** The parts of a machine snapshot the model reads. */
export interface ModelSnapshot {
  status: string;
  value: unknown;
  context: TurnContext;
}

/** A player's seat relative to the player whose turn it is (CR 101.4: turn order). */
export function seatOf(ctx: Pick<TurnContext, 'seats' | 'turnOwner'>, player: string): number {
  const n = ctx.seats.length;
  return (ctx.seats.indexOf(player) - ctx.seats.indexOf(ctx.turnOwner) + n) % n;
}

/** The player in a relative seat. */
export function playerAt(ctx: Pick<TurnContext, 'seats' | 'turnOwner'>, seat: number): string {
  const n = ctx.seats.length;
  return ctx.seats[(ctx.seats.indexOf(ctx.turnOwner) + seat) % n] as string;
}

function seats(ctx: TurnContext, players: readonly string[]): string {
  return players
    .map((p) => seatOf(ctx, p))
    .sort((a, b) => a - b)
    .join('');
}

/**
 * The model's view of combat, as far as it decides what comes next: who is attacked and
 * who has declared blockers while declarations go on (CR 508.8, 509.1), then only whether
 * first strike gives the phase a first combat damage step (CR 510.4).
 */
function combatKey(ctx: TurnContext, path: string): string {
  const c = ctx.combat;
  if (c === null) return '-';
  const strikesFirst = [...c.attackers, ...c.blockers].some((x) => x.firstStrike === true || x.doubleStrike === true) ? 'f' : '';
  if (path.startsWith('combat.declareAttackers.') || path === 'combat.declareBlockers.declaring') {
    const defenders = seats(ctx, [...new Set(c.attackers.map((a) => a.defender))]);
    return `${defenders || 'none'}${strikesFirst}/${seats(ctx, c.declaredBy)}`;
  }
  return path === 'combat.declareBlockers.priority' ? strikesFirst : '';
}

/** The pending "skip your next ..." effects, by relative seat (counts only as "some"). */
function skipsKey(ctx: TurnContext): string {
  const out: string[] = [];
  for (const [player, skips] of Object.entries(ctx.skips)) {
    for (const [what, count] of Object.entries(skips)) if ((count ?? 0) > 0) out.push(`${seatOf(ctx, player)}${what}`);
  }
  return out.sort().join(',');
}

/**
 * The projection of a snapshot that decides where the turn can go next. Used as
 * `serializeState` by the test model: snapshots with the same key are the same state.
 */
export function serializeState(snapshot: ModelSnapshot): string {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active' || ctx.winners !== null) return `gameOver|${ctx.seats.length - ctx.players.length}`;
  const path = statePath(snapshot.value);
  const key = [
    path,
    // Turn 1 of a two-player game has no draw step (CR 103.8a): only the beginning phase cares.
    ctx.phase === 'beginning' && skipsFirstDraw(ctx) ? 't1' : '',
    `in${seats(ctx, ctx.players)}${ctx.activePlayer === null ? '!' : ''}`,
    `p${ctx.priority === null ? '-' : seatOf(ctx, ctx.priority)}/${seats(ctx, ctx.passed)}`,
    ctx.stack.length > 0 ? 'stack' : '',
    ctx.pendingTriggers.length > 0 ? 'trig' : '',
    `ph${ctx.regularPhases}${ctx.mainPhases > 0 ? 'm' : ''}${ctx.extraPhases.slice(0, 2).join('')}`,
    ctx.extraTurns.length > 0 ? 'xturn' : '',
    `sk${skipsKey(ctx)}`,
    ctx.skipping !== null ? 'skipping' : '',
    `c${combatKey(ctx, path)}`,
    // Only the cleanup step discards (CR 514.1).
    ctx.phase === 'ending' && discardDue(ctx) > 0 ? 'discard' : '',
    Object.values(ctx.manaPool).some((n) => n > 0) ? 'mana' : '',
  ];
  return key.join('|');
}
