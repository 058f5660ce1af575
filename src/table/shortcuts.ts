/**
 * Tournament shortcuts (CR 732; CONTRACT v3, "Playing between people"), card-agnostic, as pure
 * functions over the turn's context: the player holding priority with an empty stack proposes to
 * pass up to a point (732.2a); each other player in turn order accepts it or shortens it to an
 * earlier point (732.2b); then every player passes up to the agreed point in one send (732.2c),
 * stopping early where anything goes on the stack or a decision other than priority is due (the
 * turn asks for declarations and orders whatever passes).
 *
 * A point is read where the game first reaches it after the proposal: a step (of a phase), in a
 * turn, with a player holding priority. Points are compared by where they fall from the position
 * of the proposal, as the regular turn structure orders them (CR 500.1): the turn, the phase, the
 * step, then the player in pass order (APNAP, 101.4). A point without a turn is the next one to
 * come; a point without a player, the step's first priority.
 */
import type { PlayerId, ShortcutPoint, TurnPhaseName, TurnStepName } from '../contract.js';
import type { TurnContext } from '../state.js';
import { apnapPlayers } from '../rules/priority.js';
import { apnapOrder } from '../rules/turnOrder.js';
import { byUnits, unitOf } from '../rules/units.js';

/** A proposal awaiting the other players (CR 732.2b). */
export interface ShortcutVote {
  readonly proposer: PlayerId;
  /** The ending point as last named: proposed, or shortened by a player who answered. */
  readonly until: ShortcutPoint;
  /** The players still to answer, in turn order: the first is awaited. */
  readonly asked: readonly PlayerId[];
}

/** What the shortcut functions read of the turn. */
export type ShortcutContext = Pick<TurnContext, 'turn' | 'phase' | 'step' | 'priority' | 'stack' | 'pendingTriggers' | 'seats' | 'players' | 'turnOwner' | 'teams' | 'variant'>;

const PHASES: readonly TurnPhaseName[] = ['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending'];
const STEPS: readonly TurnStepName[] = ['untap', 'upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'firstStrikeDamage', 'combatDamage', 'endOfCombat', 'end', 'cleanup'];

/** Where a point falls: turn, phase, step and player in pass order, compared in that order. */
type Key = readonly [number, number, number, number];

function compare(a: Key, b: Key): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/** The units in pass order of a turn `ahead` turns after the current one (its active player first, as the regular rotation goes). */
function passOrder(ctx: ShortcutContext, ahead: number): PlayerId[] {
  const order = apnapOrder(byUnits(ctx));
  const k = order.length === 0 ? 0 : ahead % order.length;
  return [...order.slice(k), ...order.slice(0, k)];
}

/** Where the game is now: the priority holder's place in the current step. */
function positionOf(ctx: ShortcutContext): Key {
  const holder = ctx.priority === null ? -1 : passOrder(ctx, 0).indexOf(unitOf(ctx, ctx.priority));
  return [ctx.turn, PHASES.indexOf(ctx.phase as TurnPhaseName), STEPS.indexOf(ctx.step as TurnStepName), holder];
}

/** The phases a point may fall in: the one named, or those with its step ('main': both main phases, 505.1). */
function phasesOf(point: ShortcutPoint): TurnPhaseName[] {
  if (point.phase !== undefined) return [point.phase];
  if (point.step === 'main') return ['precombatMain', 'postcombatMain'];
  if (point.step === 'upkeep' || point.step === 'draw') return ['beginning'];
  if (point.step === 'end') return ['ending'];
  return ['combat'];
}

/** The key of a point in a turn (`ahead` turns after the current one), in a phase. */
function keyIn(ctx: ShortcutContext, point: ShortcutPoint, turn: number, phase: TurnPhaseName): Key {
  const player = point.player === undefined ? 0 : passOrder(ctx, turn - ctx.turn).indexOf(unitOf(ctx, point.player));
  return [turn, PHASES.indexOf(phase), STEPS.indexOf(point.step), player];
}

/**
 * Where a point falls from the current position: the first place after it that matches, or why
 * none does (a turn that is over, a place already passed this turn).
 */
export function pointKey(ctx: ShortcutContext, point: ShortcutPoint): Key | string {
  const now = positionOf(ctx);
  const turns = point.turn === undefined ? [ctx.turn, ctx.turn + 1] : [point.turn];
  for (const turn of turns) {
    for (const phase of phasesOf(point)) {
      const key = keyIn(ctx, point, turn, phase);
      if (compare(key, now) > 0) return key;
    }
  }
  return point.turn !== undefined && point.turn < ctx.turn ? `until.turn: turn ${point.turn} is over (this is turn ${ctx.turn})` : `until: that point of turn ${point.turn ?? ctx.turn} has passed`;
}

/**
 * Why `player` may not propose a shortcut now, or null (CR 732.2a: the player with priority, the
 * stack empty; CONTRACT v3: not in Grand Melee, where several turns run at once).
 */
export function proposalProblem(ctx: ShortcutContext, player: PlayerId): string | null {
  if (ctx.variant === 'grandMelee') return 'shortcuts are not taken in Grand Melee, where several turns run at once (CR 807.4)';
  if (ctx.priority === null || unitOf(ctx, player) !== unitOf(ctx, ctx.priority)) return `${player} cannot propose a shortcut: ${ctx.priority === null ? 'no player holds priority now' : `${ctx.priority} holds priority`} (CR 732.2a: the player with priority proposes)`;
  if (ctx.stack.length > 0 || ctx.pendingTriggers.length > 0) return `${player} cannot propose a shortcut with objects on the stack (CONTRACT: a shortcut is proposed with an empty stack; every pass of it would resolve something)`;
  return null;
}

/** The players asked to accept, in turn order from the active player (CR 732.2b, 101.4): every other player in the game. */
export function askedAbout(ctx: ShortcutContext, proposer: PlayerId): PlayerId[] {
  return apnapPlayers(ctx).filter((p) => p !== proposer);
}

/** Why `shorter` does not shorten the point agreed so far (CR 732.2b: an earlier point, or the same), or null. */
export function shortenProblem(ctx: ShortcutContext, agreed: ShortcutPoint, shorter: ShortcutPoint): string | null {
  const a = pointKey(ctx, agreed);
  const b = pointKey(ctx, shorter);
  if (typeof b === 'string') return b;
  if (typeof a !== 'string' && compare(b, a) > 0) return `until: that point comes after the one proposed (${describePoint(agreed)}); a player may only shorten a shortcut, naming an earlier point (CR 732.2b)`;
  return null;
}

/** A point, in words. */
export function describePoint(p: ShortcutPoint): string {
  return [p.player === undefined ? null : `${p.player}'s priority`, `the ${p.step} step`, p.phase === undefined ? null : `of the ${p.phase} phase`, p.turn === undefined ? null : `of turn ${p.turn}`].filter((s) => s !== null).join(' ');
}

/**
 * Whether the game still stands where the proposal was made, for a vote to go on: the same
 * player holding priority in the same step of the same turn, the stack empty, nobody gone.
 */
export function standsStill(before: ShortcutContext, after: ShortcutContext): boolean {
  return (
    after.turn === before.turn &&
    after.phase === before.phase &&
    after.step === before.step &&
    after.priority === before.priority &&
    after.stack.length === 0 &&
    after.pendingTriggers.length === 0 &&
    after.players.length === before.players.length
  );
}

/**
 * CR 732.2c: the shortcut as the turn takes it (machines/hooks.ts `shortcut`), asked as a player
 * receives priority: 'pass', they pass for it; 'ask', the game has reached the agreed point (or
 * gone past it), where that player is asked whatever their own settings say; null, the shortcut
 * has stopped (anything is on the stack or waiting for it, 732.2a: no conditional actions) and
 * their own settings apply. The first call is the proposer's pass, where the shortcut begins;
 * once it stops it stays stopped for the send.
 */
export function takingShortcut(start: ShortcutContext, until: ShortcutPoint): (ctx: ShortcutContext) => 'pass' | 'ask' | null {
  const target = pointKey(start, until);
  let begun = false;
  let over = typeof target === 'string';
  return (ctx) => {
    if (over) return null;
    if (ctx.stack.length > 0 || ctx.pendingTriggers.length > 0 || ctx.priority === null) {
      over = true;
      return null;
    }
    if (begun && compare(positionOf(ctx), target as Key) >= 0) {
      over = true;
      return 'ask';
    }
    begun = true;
    return 'pass';
  };
}
