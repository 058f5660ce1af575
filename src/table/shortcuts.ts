/**
 * Tournament shortcuts (CR 732; CONTRACT v3, "Playing between people"), card-agnostic, as pure
 * functions over the turn's context: the player holding priority with an empty stack proposes to
 * pass up to a point (732.2a); each other player in turn order accepts it or shortens it to an
 * earlier point (732.2b); then every player passes up to the agreed point in one send (732.2c),
 * stopping early where anything goes on the stack or a decision other than priority is due (the
 * turn asks for declarations and orders whatever passes).
 *
 * A point is read where the game first reaches it after the proposal: a step (of a phase), in a
 * turn, with a player holding priority. Where that is comes from the turn as it stands (CR
 * 500.1): the steps and phases still to come this turn (added ones included, 500.8-500.9), then
 * the next turns in the order they will be taken (extra turns, skipped turns and players who
 * have left included: 500.7, 614.10, 800.4k), each with its own active player's pass order
 * (APNAP, 101.4); a step or phase a skip passes over is not a place the game reaches (614.10).
 * A point without a turn is the next one to come; a point without a player, the step's first
 * priority. Places are compared by their keys: the turn, then the phase and the step by their
 * order in that turn (counted from the proposal's position in its own turn), then the player.
 */
import type { PlayerId, ShortcutPoint, TurnPhaseName, TurnStepName } from '../contract.js';
import type { ActiveEffect, PhaseEntry, StepEntry, TurnContext } from '../state.js';
import { expire, type Moment } from '../rules/effects.js';
import { apnapOrder, inTurnOrderFrom, scheduledTurns } from '../rules/turnOrder.js';
import { afterStep, copyCounts, kindOf, phaseName, phaseSkipRule, REGULAR_PHASES, regularPhases, stepSkipRule, STEPS_OF_KIND, type SkipContext, type SkipCounts } from '../rules/schedule.js';
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
export type ShortcutContext = Pick<
  TurnContext,
  | 'turn'
  | 'phase'
  | 'step'
  | 'steps'
  | 'phases'
  | 'mainSeen'
  | 'priority'
  | 'stack'
  | 'pendingTriggers'
  | 'seats'
  | 'players'
  | 'turnOwner'
  | 'activePlayer'
  | 'startingPlayer'
  | 'teams'
  | 'variant'
  | 'extraTurns'
  | 'rotation'
  | 'skips'
  | 'effects'
  | 'combat'
>;

/** The most turns ahead a shortcut's point may name (each is looked at to find its active player). */
export const MAX_SHORTCUT_TURNS_AHEAD = 1000;

/**
 * Where a place falls, from a proposal's position: the turn; the phase, counted in that turn (in
 * the proposal's turn, the proposal's phase is 0 and the phases still to come follow; in later
 * turns, the regular phases, 500.1); the step, counted in that phase likewise; the player's place
 * in the turn's pass order. Compared in that order.
 */
type Key = readonly [number, number, number, number];

function compare(a: Key, b: Key): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  return 0;
}

/** The units in pass order of a turn whose active player (or the unit whose turn it is) is `owner` (APNAP, 101.4). */
function passOrder(ctx: ShortcutContext, owner: PlayerId): PlayerId[] {
  return inTurnOrderFrom(byUnits(ctx), unitOf(ctx, owner));
}

/**
 * Where the game stands in the frame of `start` (the position a shortcut was proposed at, or is
 * taken from): the priority holder's place in the current step. `start` itself is at phase 0, step 0.
 */
function positionIn(start: ShortcutContext, ctx: ShortcutContext): Key {
  const holder = ctx.priority === null ? -1 : apnapOrder(byUnits(ctx)).indexOf(unitOf(ctx, ctx.priority));
  if (ctx.turn !== start.turn) {
    const kind = kindOf(ctx.phase as TurnPhaseName);
    return [ctx.turn, REGULAR_PHASES.length - 1 - ctx.phases.length, STEPS_OF_KIND[kind].length - 1 - ctx.steps.length, holder];
  }
  const phase = start.phases.length - ctx.phases.length;
  if (phase <= 0) return [ctx.turn, phase, start.steps.length - ctx.steps.length, holder];
  const entry = start.phases[phase - 1] as PhaseEntry;
  return [ctx.turn, phase, entry.steps.length - 1 - ctx.steps.length, holder];
}

/** A phase a point may fall in, with its steps (each with its place in the phase) and whose turn it is. */
interface Place {
  readonly turn: number;
  readonly owner: PlayerId;
  readonly phase: TurnPhaseName;
  readonly ordinal: number;
  readonly steps: readonly { readonly step: TurnStepName; readonly ordinal: number; readonly skipped: boolean }[];
  readonly skipped: boolean;
}

/**
 * What the look ahead carries from step to step: the pending skips it has used up (as the turn
 * will) and the effects in force, which end as the turn goes (CR 514.2, 500.5a, 611.2b: `expire`).
 */
interface Ahead {
  readonly counts: SkipCounts;
  effects: ActiveEffect[];
  readonly unit: (player: PlayerId) => PlayerId;
}

/** The effects in force once `moment` has come. */
function expireAt(ahead: Ahead, moment: Moment): void {
  if (ahead.effects.length > 0) ahead.effects = expire(ahead.effects, moment, ahead.unit).kept;
}

/**
 * The steps of a phase in a turn of `skipCtx`'s active player, from the one at `first` on, each
 * marked when a skip passes it over: the effects that end as a step begins are gone for it
 * (`untilStep`); a skipped phase's steps never begin and use up no skip.
 */
function stepsOf(skipCtx: SkipContext, name: TurnPhaseName, entries: readonly StepEntry[], ahead: Ahead, first: number, phaseSkipped: boolean): Place['steps'] {
  let now = skipCtx;
  return entries.map((entry, i) => {
    if (phaseSkipped) return { step: entry.step, ordinal: first + i, skipped: true };
    expireAt(ahead, { at: 'stepBegan', step: entry.step, player: skipCtx.activePlayer, turn: skipCtx.turn });
    const skipped = stepSkipRule({ ...now, effects: ahead.effects }, name, entry, ahead.counts) !== null;
    // CR 508.8: a declare attackers step passed over passes over the rest of that combat's declarations and damage.
    now = afterStep(now, entry, skipped);
    return { step: entry.step, ordinal: first + i, skipped };
  });
}

/**
 * The phases from the current one on, in the order the game will reach them if nothing changes:
 * the rest of this turn, then the turns after it (in the order they will be taken, skipped ones
 * left out), up to `turns` turns ahead.
 */
function* placesAhead(ctx: ShortcutContext, turns: number): Generator<Place> {
  const ahead: Ahead = { counts: copyCounts(ctx.skips), effects: ctx.effects, unit: (p) => unitOf(ctx, p) };
  const owner = ctx.turnOwner;
  const phase = ctx.phase as TurnPhaseName;
  // The current step is under way: only the steps after it can still be passed over.
  const current = [{ step: ctx.step as TurnStepName, ordinal: 0, skipped: false }, ...stepsOf(ctx, phase, ctx.steps, ahead, 1, false)];
  yield { turn: ctx.turn, owner, phase, ordinal: 0, steps: current, skipped: false };
  if (kindOf(phase) === 'combat') expireAt(ahead, { at: 'endOfCombat' });
  // A combat phase still to come begins with no combat (506.1).
  yield* phasesOf({ ...ctx, combat: null }, owner, ctx.phases, ctx.mainSeen, ahead, 1);
  expireAt(ahead, { at: 'cleanup' });
  if (turns <= 0) return;
  const next = scheduledTurns(byUnits(ctx), copyCounts(ctx.skips), turns - 1).filter((t) => !t.skipped);
  for (const [k, t] of next.slice(0, turns).entries()) {
    const turn = ctx.turn + k + 1;
    expireAt(ahead, { at: 'turnBegan', player: t.player });
    yield* phasesOf({ ...ctx, activePlayer: t.player, turn, combat: null, phase: 'beginning' }, t.player, regularPhases(), false, ahead, 0);
    expireAt(ahead, { at: 'cleanup' });
  }
}

/** The places of the phases `entries` of a turn, the first at ordinal `first` (1 after the current phase, 0 in a later turn). */
function* phasesOf(skipCtx: SkipContext, owner: PlayerId, entries: readonly PhaseEntry[], mainSeen: boolean, ahead: Ahead, first: number): Generator<Place> {
  let seen = mainSeen;
  for (const [i, entry] of entries.entries()) {
    const name = phaseName(entry.kind, seen);
    if (entry.kind === 'main') seen = true;
    const skipped = phaseSkipRule({ ...skipCtx, effects: ahead.effects }, name, ahead.counts) !== null;
    yield { turn: skipCtx.turn, owner, phase: name, ordinal: first + i, steps: stepsOf(skipCtx, name, entry.steps, ahead, 0, skipped), skipped };
    if (entry.kind === 'combat') expireAt(ahead, { at: 'endOfCombat' });
  }
}

/** A point's step in a phase: the phase named, or any phase with that step ('main': both main phases, 505.1). */
function fallsIn(point: ShortcutPoint, phase: TurnPhaseName): boolean {
  return point.phase === undefined ? STEPS_OF_KIND[kindOf(phase)].includes(point.step) : point.phase === phase;
}

/**
 * Where a point falls from the current position: the first place after it that matches and that
 * the game will reach (a place a skip passes over is looked past, unless the point names its turn:
 * then the shortcut ends at the first place after it), or why none does (a turn that is over, a
 * place already passed this turn, a player who has left).
 */
export function pointKey(ctx: ShortcutContext, point: ShortcutPoint): Key | string {
  if (point.player !== undefined && !ctx.players.includes(point.player)) {
    return ctx.seats.includes(point.player) ? `until.player: ${point.player} has left the game and receives priority no more (CR 800.4a)` : `until.player: ${point.player} is not a player of this game`;
  }
  if (point.turn !== undefined && point.turn < ctx.turn) return `until.turn: turn ${point.turn} is over (this is turn ${ctx.turn})`;
  const ahead = point.turn === undefined ? ctx.players.length + 1 : point.turn - ctx.turn;
  if (ahead > MAX_SHORTCUT_TURNS_AHEAD) return `until.turn: a shortcut reaches at most ${MAX_SHORTCUT_TURNS_AHEAD} turns ahead (this is turn ${ctx.turn})`;
  const now = positionIn(ctx, ctx);
  let passedOver: Key | null = null;
  for (const place of placesAhead(ctx, ahead)) {
    if (point.turn !== undefined && place.turn !== point.turn) {
      if (place.turn > point.turn) break;
      continue;
    }
    if (!fallsIn(point, place.phase)) continue;
    const player = point.player === undefined ? 0 : passOrder(ctx, place.owner).indexOf(unitOf(ctx, point.player));
    for (const s of place.steps) {
      if (s.step !== point.step) continue;
      const key: Key = [place.turn, place.ordinal, s.ordinal, player];
      if (compare(key, now) <= 0) continue;
      if (!s.skipped) return key;
      passedOver ??= key;
    }
  }
  if (passedOver !== null && point.turn !== undefined) return passedOver;
  if (point.turn === undefined) return `until: ${describePoint(point)} does not come in the next ${ahead} turns (each one is passed over)`;
  return point.turn === ctx.turn ? `until: that point of turn ${point.turn} has passed` : `until: ${describePoint(point)} is not a place with priority`;
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

/** The players asked to accept: every other player in the game, in turn order starting after the proposer (CR 732.2b, 101.4). */
export function askedAbout(ctx: ShortcutContext, proposer: PlayerId): PlayerId[] {
  return inTurnOrderFrom(ctx, proposer).filter((p) => p !== proposer);
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

/** Whether the place of `ctx` is `point` (its turn, phase, step and player where it names them); `first`: the step's first priority. */
function isAt(ctx: ShortcutContext, point: ShortcutPoint, first: boolean): boolean {
  if (ctx.step !== point.step || (point.turn !== undefined && ctx.turn !== point.turn) || !fallsIn(point, ctx.phase as TurnPhaseName)) return false;
  return point.player === undefined ? first : ctx.priority !== null && unitOf(ctx, point.player) === unitOf(ctx, ctx.priority);
}

/**
 * CR 732.2c: the shortcut as the turn takes it (machines/hooks.ts `shortcut`), asked as a player
 * receives priority: 'pass', they pass for it; 'ask', the game has reached the agreed point (or
 * gone past it), where that player is asked whatever their own settings say; null, the shortcut
 * has stopped (anything is on the stack or waiting for it, 732.2a: no conditional actions) and
 * their own settings apply. The first call is the proposer's pass, where the shortcut begins;
 * once it stops it stays stopped for the send.
 *
 * The point is reached where the game first is at it, as the turn actually goes (a host event a
 * checkpoint returns may add a phase, a step or a turn on the way); it is gone past once the game
 * is in a later turn than the one it was found in, or in that turn past its step.
 */
export function takingShortcut(start: ShortcutContext, until: ShortcutPoint): (ctx: ShortcutContext) => 'pass' | 'ask' | null {
  const target = pointKey(start, until);
  let begun = false;
  let over = typeof target === 'string';
  let step: string | null = null;
  return (ctx) => {
    if (over) return null;
    if (ctx.stack.length > 0 || ctx.pendingTriggers.length > 0 || ctx.priority === null) {
      over = true;
      return null;
    }
    // The step the game is in (each step begun has its own steps and phases still to come).
    const here = `${ctx.turn} ${ctx.phases.length} ${ctx.steps.length} ${ctx.step}`;
    const first = here !== step;
    step = here;
    if (!begun) {
      begun = true;
      return 'pass';
    }
    const [turn, phase, at] = target as Key;
    const now = positionIn(start, ctx);
    if (isAt(ctx, until, first) || ctx.turn > turn || (ctx.turn === turn && (now[1] > phase || (now[1] === phase && now[2] > at)))) {
      over = true;
      return 'ask';
    }
    return 'pass';
  };
}
