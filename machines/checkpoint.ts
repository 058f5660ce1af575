/**
 * The state-based action and trigger check that runs before a player would receive
 * priority and once in every cleanup step (CR 117.5, 704.3, 514.3a). It calls the host's
 * checkpoint hook, puts triggered abilities on the stack in APNAP order (CR 603.3b), and
 * repeats until a check reports nothing.
 */
import { TurnEngineError, ErrorCode } from '../src/errors.js';
import { MAX_STACK } from '../src/limits.js';
import { stackTriggers } from '../src/rules/priority.js';
import { activeOrNext } from '../src/rules/turnOrder.js';
import { CheckpointResultSchema, describeIssue } from '../src/schemas.js';
import { buildView } from '../src/view.js';
import type { CheckpointHook, PlayerId, Trigger, TurnContext } from './turn.types.js';

/**
 * How many times one check may repeat because the previous round reported something.
 * A host that reports state-based actions or new triggers forever hits this cap, and the
 * event that started the check is refused with LOOP_LIMIT.
 */
export const MAX_CHECKPOINT_ROUNDS = 100;

/** Refuses the event that would put more than MAX_STACK objects on the stack (or waiting for it). */
export function assertStackLimit(size: number, what: string): void {
  if (size > MAX_STACK) {
    throw new TurnEngineError(ErrorCode.LOOP_LIMIT, `${what} would hold ${size} objects; the cap is ${MAX_STACK}`);
  }
}

/** The outcome of a check: the context after it, and whether anything happened. */
export interface CheckpointOutcome {
  ctx: TurnContext;
  activity: boolean;
}

/** What a host threw, described without trusting it (its message or toString may throw too). */
function describeThrown(err: unknown): string {
  try {
    return err instanceof Error ? err.message : String(err);
  } catch {
    return 'a value that cannot be described';
  }
}

function callHook(hook: CheckpointHook, ctx: TurnContext, about: PlayerId | null): { triggers: Trigger[]; stateBasedActions: boolean } {
  const view = buildView({ ...ctx, priority: about }, about === null ? null : { kind: 'priority', player: about });
  let raw: unknown;
  try {
    raw = hook(view);
  } catch (err) {
    throw new TurnEngineError(ErrorCode.HOOK_FAILED, `the checkpoint hook threw: ${describeThrown(err)}`);
  }
  // Most checks report nothing: `undefined` or `null` is that answer, with no need for zod.
  if (raw === undefined || raw === null) return { triggers: [], stateBasedActions: false };
  let parsed: ReturnType<typeof CheckpointResultSchema.safeParse>;
  try {
    parsed = CheckpointResultSchema.safeParse(raw);
  } catch (err) {
    throw new TurnEngineError(ErrorCode.INVALID_HOOK_RESULT, `reading the checkpoint hook's result threw: ${describeThrown(err)}`);
  }
  if (!parsed.success) {
    throw new TurnEngineError(
      ErrorCode.INVALID_HOOK_RESULT,
      `the checkpoint hook must return { triggers?, stateBasedActions? } or nothing; ${describeIssue(parsed.error, 'result')}`,
    );
  }
  const result = parsed.data ?? {};
  for (const [i, t] of (result.triggers ?? []).entries()) {
    if (!ctx.seats.includes(t.controller)) {
      throw new TurnEngineError(ErrorCode.INVALID_HOOK_RESULT, `result.triggers[${i}].controller: '${t.controller}' is not a player of this game`);
    }
  }
  return { triggers: result.triggers ?? [], stateBasedActions: result.stateBasedActions === true };
}

/**
 * Runs the check. `about` is the player about to receive priority (null for the cleanup
 * step's own check, CR 514.3a; later rounds of that check show the player who will then
 * receive priority). Triggers waiting from `TRIGGER` events go on the stack here too.
 */
export function runCheckpoint(ctx: TurnContext, hook: CheckpointHook | undefined, about: PlayerId | null): CheckpointOutcome {
  // Without a hook and with no triggers waiting, the first round reports nothing.
  if (hook === undefined && ctx.pendingTriggers.length === 0) return { ctx, activity: false };
  let current = ctx;
  let activity = false;
  let shown = about;
  for (let round = 0; ; round++) {
    if (round >= MAX_CHECKPOINT_ROUNDS) {
      throw new TurnEngineError(
        ErrorCode.LOOP_LIMIT,
        `state-based actions and triggers were still being reported after ${MAX_CHECKPOINT_ROUNDS} checks in a row (CR 704.3); ` +
          'the checkpoint hook must eventually report nothing',
      );
    }
    const reported = hook === undefined ? { triggers: [], stateBasedActions: false } : callHook(hook, current, shown);
    const triggers = current.pendingTriggers.length > 0 ? [...current.pendingTriggers, ...reported.triggers] : reported.triggers;
    if (!reported.stateBasedActions && triggers.length === 0) return { ctx: current, activity };
    activity = true;
    current = { ...current, stack: stackTriggers(current, triggers.filter((t) => current.players.includes(t.controller))), pendingTriggers: [] };
    assertStackLimit(current.stack.length, 'the stack');
    shown = about ?? activeOrNext(current);
  }
}
