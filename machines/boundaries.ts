/**
 * What the turn's effects (turn.effects.ts) and combat's (combat.effects.ts) both need: effects
 * ending at a moment, the combat phase ending, and whether an END_TURN or END_COMBAT is leaving
 * a step before its checks (724). Here, so that neither module imports the other.
 */
import { expire, type Moment } from '../src/rules/effects.js';
import { unitOf } from '../src/rules/units.js';
import type { EmittedEvent } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';
import { andThen, effect, NOTHING, type Effect } from './effect.js';

/** Effects that end at a moment, with their `effectEnded` events. */
export function expireAt(ctx: TurnContext, moment: Moment): Effect {
  if (ctx.effects.length === 0) return NOTHING;
  const { kept, ended } = expire(ctx.effects, moment, (p) => unitOf(ctx, p));
  if (ended.length === 0) return NOTHING;
  return effect(ctx, { effects: kept }, ended.map((id): EmittedEvent => ({ type: 'effectEnded', id })));
}

/** CR 511.3, 500.5a: the combat phase ends: creatures leave combat, 'endOfCombat' effects end. */
export function endCombat(ctx: TurnContext): Effect {
  return andThen(ctx, effect(ctx, { combat: null }), (c) => expireAt(c, { at: 'endOfCombat' }));
}

/**
 * Whether a step or phase is left by an END_TURN or END_COMBAT that has not yet exiled the stack
 * and checked state-based actions (724.1a-c, 724.2a-c): its end (mana emptying, the combat's
 * end) then waits for them (724.1d, 724.2d). XState runs a state's exit before the transition's
 * actions; the eventless transitions after them in the same send see the same event, but by then
 * `endedInSend` says the checks were made, and their steps and phases end as usual.
 */
export function isLeftBeforeEndingChecks(ctx: Pick<TurnContext, 'endedInSend'>, event: { type: string }): boolean {
  return (event.type === 'END_TURN' || event.type === 'END_COMBAT') && !ctx.endedInSend;
}
