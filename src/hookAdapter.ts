/**
 * The API side of the checkpoint hook: builds the view the host sees, calls the hook with
 * the pending events, and validates what it returns (CONTRACT: hooks.checkpoint). The chart
 * (machines/checkpoint.ts) only receives the parsed result.
 */
import { hookFailed } from '../machines/checkpoint.js';
import { patched } from '../machines/context.js';
import { isHostEvent } from '../machines/host.effects.js';
import type { GameHooksRuntime, HookReport } from '../machines/hooks.js';
import type { Awaiting, CheckpointHook, PlayerId, TurnView } from './contract.js';
import type { TurnContext } from './state.js';
import { parseHookResult } from './schemas.js';
import { buildView } from './view.js';

/** What a host threw, described without trusting it (its message or toString may throw too). */
export function describeThrown(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'a value that cannot be described';
  }
}


/**
 * What a game gives its effects to call the host's checkpoint hook: the hook, shown the view at
 * the game's current `version()`, with re-entrance tracked; none without a hook (the effects
 * then behave as with a hook that reports nothing).
 */
export function hookRuntime(hook: CheckpointHook | undefined, version: () => number): GameHooksRuntime | undefined {
  if (hook === undefined) return undefined;
  const runtime: GameHooksRuntime = { inHook: false };
  const view = (ctx: TurnContext, awaiting: Awaiting | null) => buildView(ctx, awaiting, version());
  runtime.check = (ctx, about) => callHook(hook, view, ctx, about, (inHook) => (runtime.inHook = inHook));
  return runtime;
}

/** Calls the checkpoint hook as the game checks state-based actions and triggers; throws HOOK_FAILED when it misbehaves. */
export function callHook(
  hook: CheckpointHook,
  view: (ctx: TurnContext, awaiting: Awaiting | null) => TurnView,
  ctx: TurnContext,
  about: PlayerId | null,
  setInHook: (inHook: boolean) => void,
): HookReport {
  const shown = view(patched(ctx, { priority: about }), about === null ? null : { kind: 'priority', player: about });
  const pending = ctx.pending.map((e) => ({ ...e }));
  let raw: unknown;
  setInHook(true);
  try {
    raw = hook(shown, pending);
  } catch (err) {
    throw hookFailed(`the checkpoint hook threw: ${describeThrown(err)}`);
  } finally {
    setInHook(false);
  }
  if (raw === undefined || raw === null) return { triggers: [], stateBasedActions: false, events: [] };
  const parsed = parseHookResult(raw);
  if (!parsed.ok) throw hookFailed(`the checkpoint hook must return { triggers?, stateBasedActions?, events? } or nothing; ${parsed.message}`);
  for (const [i, t] of parsed.value.triggers.entries()) {
    if (!ctx.seats.includes(t.controller)) throw hookFailed(`result.triggers[${i}].controller: '${t.controller}' is not a player of this game`);
  }
  for (const [i, e] of parsed.value.events.entries()) {
    if (!isHostEvent(e)) throw hookFailed(`result.events[${i}]: ${e.type} is a player decision, not a host event; a checkpoint may return only host events`);
  }
  return parsed.value;
}
