/**
 * What the table (./tableLogic.ts) reads of the turn's events and steps: a raw event's type, who
 * made a decision (for undo's horizons), a yield that passes at once, and whether a checkpoint
 * hook reported anything during a step (no undo goes back past it).
 */
import type { GameHooksRuntime, HookReport } from '../../machines/hooks.js';
import type { PlayerId, TurnEvent } from '../contract.js';
import type { TurnContext } from '../state.js';
import { unitOf } from '../rules/units.js';
import { DECISIONS } from '../events/index.js';

/** Who made a decision, for undo's horizons: its `by` when someone decides for its player (CR 723.5); a concession is its player's; host events are nobody's. */
export function actorOf(event: TurnEvent): PlayerId | null {
  if (DECISIONS.has(event.type)) return (event as { by?: PlayerId }).by ?? (event as { player: PlayerId }).player;
  return event.type === 'CONCEDE' ? event.player : null;
}

/** A raw event's type, read once (a value that cannot be read has none: the turn's gate says why). */
export function typeOf(raw: unknown): unknown {
  try {
    return typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a checkpoint result reported anything (CONTRACT v3: no undo goes back past it). */
function reports(r: HookReport): boolean {
  return r.triggers.length > 0 || r.stateBasedActions || r.events.length > 0;
}

/**
 * Runs `step` with the runtime watched: whether a checkpoint hook reported anything during it.
 * The runtime's `check` is wrapped for the length of the step and put back after.
 */
export function watched<T>(runtime: GameHooksRuntime | undefined, step: () => T): { out: T; reported: boolean } {
  const check = runtime?.check;
  if (runtime === undefined || check === undefined) return { out: step(), reported: false };
  let reported = false;
  runtime.check = (ctx, about) => {
    const r = check(ctx, about);
    if (reports(r)) reported = true;
    return r;
  };
  try {
    return { out: step(), reported };
  } finally {
    runtime.check = check;
  }
}

/** CONTRACT: a yield given by the player holding priority passes at once (machines/host.effects.ts): a decision, which no vote lets be made. */
export function passesAtOnce(ctx: TurnContext, event: TurnEvent): boolean {
  return event.type === 'YIELD' && event.until !== null && ctx.priority !== null && ctx.priority === unitOf(ctx, event.player);
}
