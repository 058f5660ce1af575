/**
 * Continuous effects that change the turn: what they do and when they end.
 * CR 305.2, 402.2, 500.5, 500.5a, 514.2, 611.2b, 613.7, 614.10, 800.4a.
 */
import type { Effect, PlayerId, TurnStepName } from '../contract.js';
import type { ActiveEffect, TurnContext } from '../state.js';
import { LANDS_PER_TURN } from './limits.js';
import { sharesTurns } from './units.js';

type EffectsContext = Pick<TurnContext, 'effects'>;

/** Whether an effect applies to a player: those it names, or every player (CONTRACT: `players`, default all). */
export function appliesTo(effect: Effect, player: PlayerId): boolean {
  return effect.players === undefined || effect.players.includes(player);
}

/** The effects of one kind that apply to a player, oldest first (CR 613.7: timestamp order). */
function effectsOf<K extends Effect['kind']>(ctx: EffectsContext, kind: K, player: PlayerId): Extract<Effect, { kind: K }>[] {
  const out: Extract<Effect, { kind: K }>[] = [];
  for (const e of ctx.effects) if (e.effect.kind === kind && appliesTo(e.effect, player)) out.push(e.effect as Extract<Effect, { kind: K }>);
  return out;
}

/**
 * A player's maximum hand size now (CR 402.2): the game's maximum, then each effect in
 * timestamp order, `set` (null: no maximum) then `change`.
 */
export function maxHandSizeOf(ctx: EffectsContext & Pick<TurnContext, 'maxHandSize'>, player: PlayerId): number | null {
  let size: number | null = ctx.maxHandSize;
  for (const e of effectsOf(ctx, 'maxHandSize', player)) {
    if (e.set !== undefined) size = e.set;
    if (e.change !== undefined && size !== null) size = Math.max(0, size + e.change);
  }
  return size;
}

/**
 * How many lands a player may play this turn (CR 305.2): one, then each effect, `set` then
 * `change`. `set: 0` is "can't play lands", which no effect allowing more overrides (CR 101.2).
 */
export function landPlaysAllowed(ctx: EffectsContext, player: PlayerId | null): number {
  if (player === null) return 0;
  let plays = LANDS_PER_TURN;
  for (const e of effectsOf(ctx, 'landPlays', player)) {
    // CR 101.2: "can't" takes precedence.
    if (e.set === 0) return 0;
    if (e.set !== undefined) plays = e.set;
    if (e.change !== undefined) plays = Math.max(0, plays + e.change);
  }
  return plays;
}

/** How many spells a player may cast each turn (CR 101.2: "can't" wins); Infinity without a limit. */
export function spellLimitOf(ctx: EffectsContext, player: PlayerId): number {
  let limit = Infinity;
  for (const e of effectsOf(ctx, 'spellLimit', player)) limit = Math.min(limit, e.perTurn);
  return limit;
}

/** Whether mana stays in a player's pool as steps and phases end (CR 500.5: "mana doesn't empty"). */
export function keepsMana(ctx: EffectsContext, player: PlayerId): boolean {
  return effectsOf(ctx, 'keepMana', player).length > 0;
}

/** What a skip effect can name. */
export type SkipWhat = Extract<Effect, { kind: 'skip' }>['what'];

/**
 * Whether a skip effect makes a player skip every such step, phase or turn (CR 614.10). With
 * shared team turns an effect naming any member of the player's team who has not left skips it
 * for the team (CR 805.8). `player` may stand for the team (its primary, src/rules/units.ts).
 */
export function skipsEvery(ctx: EffectsContext & Partial<Pick<TurnContext, 'teams' | 'variant' | 'reasons'>>, player: PlayerId, what: SkipWhat): boolean {
  for (const { effect } of ctx.effects) {
    if (effect.kind !== 'skip' || effect.what !== what) continue;
    if (effect.players === undefined || effect.players.includes(player)) return true;
    // CR 805.8: "If an effect causes a player to skip a step, phase, or turn, that player's team does so."
    if (teammateNamed(ctx, effect.players, player)) return true;
  }
  return false;
}

/** Whether `named` holds a player still in the game (none has a reason for leaving) on `player`'s team, with shared team turns (CR 805.8). */
function teammateNamed(ctx: Partial<Pick<TurnContext, 'teams' | 'variant' | 'reasons'>>, named: readonly PlayerId[], player: PlayerId): boolean {
  if (ctx.teams === undefined || ctx.variant === undefined || !sharesTurns(ctx as Pick<TurnContext, 'teams' | 'variant'>)) return false;
  const team = ctx.teams?.find((t) => t.players.includes(player));
  return team !== undefined && named.some((p) => team.players.includes(p) && ctx.reasons?.[p] === undefined);
}

/** A moment at which effects with a duration end. */
export type Moment =
  | { at: 'cleanup' }
  | { at: 'endOfCombat' }
  | { at: 'turnBegan'; player: PlayerId; passedOver?: readonly PlayerId[] }
  | { at: 'stepBegan'; step: TurnStepName; player: PlayerId | null; turn: number };

/**
 * Whether an effect ends at a moment: 'endOfTurn' in the cleanup step (CR 514.2),
 * 'endOfCombat' as the combat phase ends (CR 500.5a), 'untilYourNextTurn' as its
 * controller's next turn begins (CR 611.2b), `untilStep` as that step of that player's next
 * turn begins. For a player who has left, as the turn begins that takes the place of theirs
 * (`passedOver`: they neither end at once nor last for ever, 800.4m).
 */
export function endsAt(e: ActiveEffect, moment: Moment, unit: (player: PlayerId) => PlayerId = (p) => p): boolean {
  const d = e.duration;
  if (d === 'untilRemoved') return false;
  if (d === 'endOfTurn') return moment.at === 'cleanup';
  if (d === 'endOfCombat') return moment.at === 'endOfCombat';
  // CR 805.4: with shared team turns a player's turn is their team's (`unit`: the team's primary player).
  const owner = d === 'untilYourNextTurn' ? e.controller : (d.ofPlayer ?? e.controller);
  if (moment.at === 'turnBegan' && owner !== undefined && moment.passedOver?.includes(owner) === true) return true;
  if (d === 'untilYourNextTurn') return moment.at === 'turnBegan' && e.controller !== undefined && unit(e.controller) === moment.player;
  if (moment.at !== 'stepBegan' || moment.step !== d.untilStep || moment.turn <= e.since) return false;
  return owner === undefined || unit(owner) === moment.player;
}

/** Splits the effects into those that go on and the ids of those that end at a moment. */
export function expire(effects: readonly ActiveEffect[], moment: Moment, unit?: (player: PlayerId) => PlayerId): { kept: ActiveEffect[]; ended: string[] } {
  const kept: ActiveEffect[] = [];
  const ended: string[] = [];
  for (const e of effects) {
    if (endsAt(e, moment, unit)) ended.push(e.id);
    else kept.push(e);
  }
  return { kept, ended };
}
