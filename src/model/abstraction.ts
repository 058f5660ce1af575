/**
 * The finite model of the turn: a projection of the machine's snapshot onto what changes its
 * control flow. Two snapshots with the same projection are one state of the model.
 *
 * Players are named by their seat relative to the player whose turn it is (0 = that player,
 * 1 = the next in turn order, ...), so that "A holds priority in A's turn" and "B holds
 * priority in B's turn" are the same model state. Counters that only grow (turn number,
 * object ids) and amounts that only matter as "some or none" are left out.
 */
import type { TurnContext } from '../state.js';
import { statePath } from '../persistence/format.js';
import { discardDue } from '../rules/cleanup.js';

/** The parts of a machine snapshot the model reads. */
export interface ModelSnapshot {
  status: string;
  value: unknown;
  context: TurnContext;
}

/** The dotted path of the active leaf state ('combat.declareBlockers.declaring'). */
export const leafPath = statePath;

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
 * The model's view of combat, as far as it decides what comes next: who is attacked, who has
 * declared blockers, whether a creature is blocked by several or blocks several (damage
 * assignment orders, 2009-2024), and whether first strike gives the phase a first combat
 * damage step (CR 510.4).
 */
function combatKey(ctx: TurnContext): string {
  const c = ctx.combat;
  if (c === null) return '-';
  const strikesFirst = [...c.attackers, ...c.blockers].some((x) => x.firstStrike || x.doubleStrike) ? 'f' : '';
  const multi = c.attackers.some((a) => a.blockedBy.length > 1) ? 'm' : '';
  const gang = c.blockers.some((b) => b.blocking.length > 1) ? 'g' : '';
  const ordered = [...c.attackers, ...c.blockers].some((x) => x.ordered) ? 'o' : '';
  const many = c.attackers.length > 1 ? '2' : '';
  return `${seats(ctx, [...new Set(c.attackers.map((a) => a.defender))]) || 'none'}${many}${c.attacksDeclared ? 'd' : ''}${strikesFirst}${multi}${gang}${ordered}/${seats(ctx, c.declaredBy)}/${c.defenders === null ? '*' : seats(ctx, c.defenders)}`;
}

/** The pending "skip your next ..." records, by relative seat (counts only as "some"). */
function skipsKey(ctx: TurnContext): string {
  const out: string[] = [];
  for (const [player, skips] of Object.entries(ctx.skips)) {
    for (const [what, count] of Object.entries(skips)) if ((count ?? 0) > 0) out.push(`${seatOf(ctx, player)}${what}`);
  }
  return out.sort().join(',');
}

/** The steps and phases still to come this turn (the schedule, CR 500.1, 500.8-500.10). */
function queueKey(ctx: TurnContext): string {
  const steps = ctx.steps.map((s) => `${s.step}${s.passedOver === undefined ? '' : '~'}`).join(',');
  const phases = ctx.phases.map((p) => `${p.kind}${p.extra ? '+' : ''}${p.steps.length}`).join(',');
  return `${steps}/${phases}`;
}

/** The pregame's progress (CR 103): mulligans taken, hands kept, players done with opening-hand actions. */
function pregameKey(ctx: TurnContext): string {
  const p = ctx.pregame;
  if (p === null) return '';
  const mulligans = ctx.seats.map((s) => p.mulligans[s] ?? 0).join('');
  const bottom = ctx.seats.map((s) => ((p.bottom[s] ?? 0) > 0 ? 'b' : '-')).join('');
  return `pg${p.starting === null ? '?' : seatOf(ctx, p.starting)}:${mulligans}/${seats(ctx, p.kept)}/${seats(ctx, p.decided)}/${bottom}/${seats(ctx, p.handsDone)}`;
}

/**
 * The projection of a snapshot that decides where the turn can go next. Used as
 * `serializeState` by the test model: snapshots with the same key are the same state.
 */
export function serializeState(snapshot: ModelSnapshot): string {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active' || ctx.result !== null) {
    return `gameOver|${ctx.result?.draw ? 'draw' : seats(ctx, ctx.result?.winners ?? [])}|${ctx.seats.length - ctx.players.length}`;
  }
  const path = leafPath(snapshot.value);
  const key = [
    path,
    pregameKey(ctx),
    // The first turn of some games has no draw step (CR 103.8a).
    ctx.turn === 1 ? 't1' : '',
    `in${seats(ctx, ctx.players)}${ctx.activePlayer === null ? '!' : ''}`,
    `p${ctx.priority === null ? '-' : seatOf(ctx, ctx.priority)}/${seats(ctx, ctx.passed)}`,
    ctx.stack.length === 0 ? '' : ctx.stack.length === 1 ? 's1' : 's2',
    ctx.pendingTriggers.length > 0 ? 'trig' : '',
    ctx.triggerOrder === null ? '' : `order${seats(ctx, Object.keys(ctx.triggerOrder.orders))}`,
    `q${queueKey(ctx)}`,
    ctx.mainSeen ? 'm' : '',
    // A land may be played only in a main phase (CR 305.2, 505.6b).
    Object.keys(ctx.landsPlayedBy).length > 0 && ctx.step === 'main' ? 'land' : '',
    ctx.extraTurns.length > 0 ? 'xturn' : '',
    `sk${skipsKey(ctx)}`,
    ctx.effects.map((e) => `${e.effect.kind}${'what' in e.effect ? `:${e.effect.what}` : ''}:${typeof e.duration === 'string' ? e.duration : 'step'}`).sort().join(','),
    `c${combatKey(ctx)}`,
    // Only the cleanup step discards (CR 514.1).
    ctx.phase === 'ending' && discardDue(ctx) > 0 ? 'discard' : '',
    ctx.cleanupCheck ?? '',
    Object.values(ctx.manaPool).some((n) => n > 0) ? 'mana' : '',
    Object.keys(ctx.controlledBy).length > 0 ? 'ctl' : '',
    ctx.controlNext.length > 0 ? 'ctlNext' : '',
    Object.values(ctx.stops).some((s) => s !== null) ? 'stops' : '',
    Object.keys(ctx.yields).length > 0 ? 'yield' : '',
    ctx.dayNight ?? '',
    ctx.planarRolls > 0 ? 'rolled' : '',
  ];
  return key.join('|');
}
