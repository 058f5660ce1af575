/**
 * Turn order, APNAP order and who takes the next turn.
 * CR 101.4, 500.7, 614.10, 614.10a, 800.4j, 800.4k, 807.4i-j.
 */
import type { PlayerId, ScheduledTurn, SkipTarget } from '../contract.js';
import type { ActiveEffect, ExtraTurn, TurnContext } from '../state.js';
import { skipsEvery } from './effects.js';
import { byUnits, meleeRules, sharesTurns, unitOf } from './units.js';

type Seating = Pick<TurnContext, 'seats' | 'players'>;

/**
 * The players still in the game, in turn order starting with `from` (or the first player
 * after `from`'s seat if `from` has left). CR 101.4: turn order continues around the table.
 */
export function inTurnOrderFrom(ctx: Seating, from: PlayerId): PlayerId[] {
  const start = ctx.seats.indexOf(from);
  const order: PlayerId[] = [];
  // Every seat still in the game (players are seated): no look through the players for each seat.
  const everyone = start >= 0 && ctx.players.length === ctx.seats.length;
  for (let i = 0; i < ctx.seats.length; i++) {
    const seat = ctx.seats[(start + i) % ctx.seats.length] as PlayerId;
    if (everyone || ctx.players.includes(seat)) order.push(seat);
  }
  return order;
}

/**
 * APNAP order (CR 101.4): the active player, then the others in turn order. With no active
 * player (CR 800.4j) it starts with the next player after the departed active player's seat.
 */
export function apnapOrder(ctx: Seating & Pick<TurnContext, 'turnOwner'>): PlayerId[] {
  return inTurnOrderFrom(ctx, ctx.turnOwner);
}

/** The next player in turn order after `player` who is still in the game (CR 117.3d, 800.4a). */
export function nextPlayerAfter(ctx: Seating, player: PlayerId): PlayerId | null {
  const start = ctx.seats.indexOf(player);
  for (let i = 1; i <= ctx.seats.length; i++) {
    const seat = ctx.seats[(start + i) % ctx.seats.length] as PlayerId;
    if (ctx.players.includes(seat)) return seat;
  }
  return null;
}

/**
 * The players who have left whose seats the regular rotation went past between two of its turns
 * (strictly between `from` and `to`, going left): their next turn would have begun by now, so the
 * effects that lasted until then end (CR 800.4m). An extra turn does not move the rotation.
 */
export function departedPassedOver(ctx: Seating, from: PlayerId, to: PlayerId): PlayerId[] {
  const out: PlayerId[] = [];
  if (from === to) return out;
  const start = ctx.seats.indexOf(from);
  for (let i = 1; i < ctx.seats.length; i++) {
    const seat = ctx.seats[(start + i) % ctx.seats.length] as PlayerId;
    if (seat === to) break;
    if (!ctx.players.includes(seat)) out.push(seat);
  }
  return out;
}

/**
 * CR 800.4m: the players who have left whose turns the turn order passed over to reach the turn
 * `next` (found by units): their next turn would have begun, so what lasts until then ends. With
 * shared team turns a player's turn is their team's (805.4): the players of a team that has left,
 * as the turn order passes over the team's turn; never a player whose team plays on (Archenemy,
 * 904), whose next turn is their team's (`endsAt` ends their effects as it begins), wherever the
 * rotation goes past their seat.
 */
export function departedTurnsBegun(ctx: Seating & Pick<TurnContext, 'teams' | 'variant'>, next: Pick<NextTurn, 'passedOver'>): PlayerId[] {
  return sharesTurns(ctx) ? ctx.seats.filter((p) => !ctx.players.includes(p) && next.passedOver.includes(unitOf(ctx, p))) : next.passedOver;
}

/**
 * The player who receives priority where the rules give it to the active player
 * (CR 117.3a, 117.3b). If the active player has left, the next player in turn order
 * receives it instead (CR 800.4j).
 */
export function activeOrNext(ctx: Seating & Pick<TurnContext, 'turnOwner' | 'activePlayer'> & Partial<Pick<TurnContext, 'teams' | 'variant'>>): PlayerId | null {
  return ctx.activePlayer ?? nextPlayerAfter(ctx.teams !== undefined && ctx.variant !== undefined ? byUnits(ctx as Seating & Pick<TurnContext, 'teams' | 'variant'>) : ctx, ctx.turnOwner);
}

/** Who takes the next turn, and what is left pending once it begins. */
export interface NextTurn {
  player: PlayerId;
  extra: boolean;
  id?: string;
  /** The extra turns still pending once this turn begins. */
  extraTurns: ExtraTurn[];
  /** The player the regular rotation continues from afterwards. */
  rotation: PlayerId;
  /**
   * CR 800.4m: players who have left whose turns were passed over to reach this one (the regular
   * rotation went past their seats, or their extra turn was dropped, 800.4k): their next turn
   * would have begun, so what lasted until then ends.
   */
  passedOver: PlayerId[];
  /** Pending turn skips after consuming the skipped ones. */
  skips: TurnContext['skips'];
  /** Turns passed over on the way (CR 614.10), in order. */
  skipped: ScheduledTurn[];
  /** Every turn would be skipped for ever (effects skip every player's turns): this one is only the end of the look. CR 104.4b: a loop, the game is a draw. */
  forever?: true;
}

type TurnOrderContext = Pick<TurnContext, 'seats' | 'players' | 'extraTurns' | 'rotation' | 'skips' | 'effects'> & Partial<Pick<TurnContext, 'variant' | 'turnOwner' | 'teams' | 'reasons'>>;

/**
 * Decides who takes the next turn. Extra turns come first, most recently created first
 * (CR 500.7); then the next player in turn order after the last regular turn. A player who
 * has left never begins a turn (CR 800.4k); a pending "skip your next turn" (614.10a) or a
 * skip effect on turns or extra turns (614.10) passes that turn over. If every turn would be
 * skipped forever, the look ends after a full round of every kind on a turn marked `forever`
 * (CR 104.4b: the game is a draw as it would begin).
 */
export function nextTurn(ctx: TurnOrderContext): NextTurn {
  const extraTurns = [...ctx.extraTurns];
  let rotation = ctx.rotation;
  let skips = ctx.skips;
  const skipped: ScheduledTurn[] = [];
  const passedOver: PlayerId[] = [];
  // The effects in force as each turn would begin: those lasting until a departed player's next turn end as it is passed over (800.4m).
  let now: TurnOrderContext = ctx;
  const passing = (departed: readonly PlayerId[]) => {
    for (const p of departed) {
      if (passedOver.includes(p)) continue;
      passedOver.push(p);
      now = { ...now, effects: now.effects.filter((e) => !endsWithTurnOf(e, p)) };
    }
  };
  // The turns looked at before one is taken anyway. When effects skip every player's turns, a full
  // round of every kind. Otherwise as many as the finite skips and extra turns take to run out: each
  // round of the table uses one up or reaches a player nothing skips (CR 614.10). A departed
  // player's extra turns are passed over without counting (800.4k).
  const finite = ctx.extraTurns.filter((x) => ctx.players.includes(x.player)).length + pendingTurnSkips(ctx.skips) + 1;
  let budget = ctx.players.every((p) => skipsEvery(ctx, p, 'turn')) ? finite + ctx.seats.length * 2 : (finite + 1) * (ctx.seats.length + 1);
  for (;;) {
    const extraTurn = ctx.variant === 'grandMelee' ? meleeRules().extraTurn(ctx, extraTurns, rotation) : extraTurns.pop();
    const extra = extraTurn !== undefined;
    const player = extraTurn?.player ?? nextPlayerAfter(ctx, rotation);
    if (player === null) throw new Error('no player is left to take a turn');
    if (!extra) {
      passing(departedPassedOver(ctx, rotation, player));
      rotation = player;
    }
    if (!ctx.players.includes(player)) {
      // CR 800.4k: that turn doesn't begin (it would have begun now: 800.4m).
      passing([player]);
      continue;
    }
    const entry: ScheduledTurn = extraTurn?.id !== undefined ? { player, extra, id: extraTurn.id, skipped: true } : { player, extra, skipped: true };
    budget--;
    const byEffect = skipsEvery(now, player, 'turn') || (extra && skipsEvery(now, player, 'extraTurn'));
    const pending = skips[player]?.turn ?? 0;
    if (budget > 0 && (byEffect || pending > 0)) {
      if (!byEffect) skips = withSkipCount(skips, player, 'turn', pending - 1);
      skipped.push(entry);
      continue;
    }
    // Unchanged when no extra turn was taken: the same list (a context field that keeps its identity is known unchanged).
    const taken: NextTurn = { player, extra, extraTurns: extraTurns.length === ctx.extraTurns.length ? ctx.extraTurns : extraTurns, rotation, skips, skipped, passedOver };
    if (extraTurn?.id !== undefined) taken.id = extraTurn.id;
    if (byEffect || pending > 0) taken.forever = true;
    return taken;
  }
}

function pendingTurnSkips(skips: TurnContext['skips']): number {
  let n = 0;
  for (const p in skips) n += skips[p]?.turn ?? 0;
  return n;
}

/**
 * The next turns if nothing changes (CONTRACT: schedule.turns): at least the next
 * `playerCount + 1` turns taken, with the skipped ones between them. `ctx` may be by units
 * (teams taking shared turns, 805): the count is still of players, in every variant.
 */
export function scheduledTurns(ctx: TurnOrderContext, counts: TurnContext['skips'], playerCount: number = ctx.players.length): ScheduledTurn[] {
  const out: ScheduledTurn[] = [];
  if (ctx.players.length === 0) return out;
  // Only the fields the turn order reads (a spread would copy the whole context, players + 1 times);
  // the effects that end with this turn are gone by the next one (CR 514.2, 500.5a).
  let effects = ctx.effects.length === 0 ? ctx.effects : ctx.effects.filter((e) => e.duration !== 'endOfTurn' && e.duration !== 'endOfCombat');
  // Grand Melee's extra turns go with the marker's holder and the player it passes to (CR 807.4i-j): the variant, and whose turn each is.
  // CR 805.2: with shared team turns a turn is its team's, and what lasts until a teammate's next turn ends with it.
  const { teams, variant } = ctx;
  const unit = (p: PlayerId) => (teams === undefined || variant === undefined ? p : unitOf({ teams, variant }, p));
  let state: TurnOrderContext = { seats: ctx.seats, players: ctx.players, extraTurns: ctx.extraTurns, rotation: ctx.rotation, skips: counts, effects, variant: ctx.variant, turnOwner: ctx.turnOwner, teams: ctx.teams, reasons: ctx.reasons };
  for (let taken = 0; taken < playerCount + 1; taken++) {
    const next = nextTurn(state);
    out.push(...next.skipped);
    out.push(next.id !== undefined ? { player: next.player, extra: next.extra, id: next.id, skipped: false } : { player: next.player, extra: next.extra, skipped: false });
    // CR 611.2b, 800.4m: what lasts until that player's next turn (or a step of it), or a departed player's passed over, is gone after it.
    if (effects.length > 0) effects = effects.filter((e) => !endsWithTurnOf(e, next.player, unit) && !next.passedOver.some((p) => endsWithTurnOf(e, p)));
    state = { seats: state.seats, players: state.players, extraTurns: next.extraTurns, rotation: next.rotation, skips: next.skips, effects, variant: ctx.variant, turnOwner: next.player, teams: ctx.teams, reasons: ctx.reasons };
  }
  return out;
}

/** Whether an effect lasts until `player`'s next turn or a step of it (CR 611.2b): over once that turn is taken. */
function endsWithTurnOf(e: ActiveEffect, player: PlayerId, unit: (p: PlayerId) => PlayerId = (p) => p): boolean {
  const d = e.duration;
  const owner = typeof d === 'object' ? (d.ofPlayer ?? e.controller) : d === 'untilYourNextTurn' ? e.controller : undefined;
  return owner !== undefined && unit(owner) === player;
}

/** Returns `skips` with one player's count for one target set to `count` (0 removes it). */
export function withSkipCount(skips: TurnContext['skips'], player: PlayerId, what: SkipTarget, count: number): TurnContext['skips'] {
  const mine = { ...skips[player] };
  if (count > 0) mine[what] = count;
  else delete mine[what];
  const next = { ...skips };
  if (Object.keys(mine).length > 0) next[player] = mine;
  else delete next[player];
  return next;
}
