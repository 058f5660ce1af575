/**
 * What the cards' functions are given and what they answer, made into steps of a send (CONTRACT
 * v4, "Card games"): the `ctx` of a call, a checkpoint's `pending` with the decisions it is owed
 * first, a call of one of the definition's functions (HOOK_FAILED naming it when it throws), its
 * answer applied (nothing, a refusal, or host events in order, each as if the host had sent it),
 * and the step of a CARD_ACTION that changes nothing in the turn.
 */
import type { CardAnswer, CardContext, CardRandom, EmittedEvent, PlayerId, TurnEvent, TurnView } from '../contract.js';
import { ACTED_FOR, type PartStep, type ShellSteps } from '../game/cardsPart.js';
import { ErrorCode, TurnEngineError, describeThrown, type EngineErrorInfo } from '../errors.js';
import { isHostEvent } from '../../machines/host.effects.js';
import { refusal, type Refusal } from '../gate.js';
import { failed, isObject, joined, jsonCopy } from './partData.js';

/**
 * A step for `player`'s CARD_ACTION that changes nothing in the turn (no mana: ADD_MANA of 0): the
 * action's time taken (`at`), or a moment undo can return to. Its player's, for undo's horizons.
 */
export function stillStep(steps: ShellSteps, player: PlayerId, actor: PlayerId, at?: number): PartStep | Refusal {
  return steps.step({ type: 'ADD_MANA', player, amount: 0, ...(at === undefined ? {} : { at }), [ACTED_FOR]: actor });
}

/** `ctx` for one call: `state` is the send's working copy (`working` makes it when first read). */
export function cardContext<S>(working: () => S, view: TurnView, random: CardRandom, player?: PlayerId, data?: unknown): CardContext<S> {
  const ctx = {
    get state(): S {
      return working();
    },
    view,
    random,
  } as CardContext<S>;
  if (player !== undefined) ctx.player = player;
  if (data !== undefined) ctx.data = data;
  return ctx;
}

/**
 * A checkpoint's `pending` with the decisions it is owed put first (copies): CONTRACT v4, the
 * `decided` event of this send comes first in `pending`, as in the send's result; those of earlier
 * sends that reached no checkpoint (`owed`) come before it, every event in the order of its seq.
 */
export function decisionsFirst(pending: EmittedEvent[], owed: readonly EmittedEvent[], decided: EmittedEvent | null): void {
  const given = decided === null ? owed : [...owed, decided];
  pending.unshift(...given.map(jsonCopy));
  if (owed.length > 0) pending.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/** Calls one of the definition's functions: its answer, or HOOK_FAILED naming it when it throws. */
export function callCards(name: string, call: () => CardAnswer): { value: CardAnswer } | Refusal {
  try {
    return { value: call() };
  } catch (err) {
    return failed(`the cards' ${name} threw: ${err instanceof TurnEngineError ? err.message : describeThrown(err)}`);
  }
}

/** What `decide` or an action answered: nothing, a refusal, or host events applied in order (from `start`, else the committed state). */
export function applyAnswer(answer: CardAnswer, steps: ShellSteps, name: string, start?: PartStep, actedBy?: PlayerId): PartStep | Refusal | undefined {
  if (answer === undefined || answer === null) return undefined;
  if (isObject(answer) && typeof answer.refuse === 'string') {
    const rule = typeof answer.rule === 'string' ? answer.rule : 'cards';
    return refusal(ErrorCode.ILLEGAL_ACTION, answer.refuse, rule);
  }
  if (!Array.isArray(answer)) return failed(`the cards' ${name} must return { refuse, rule? }, a list of host events or nothing`);
  let from: PartStep | undefined = start;
  for (let i = 0; i < answer.length; i++) {
    const e = answer[i] as TurnEvent;
    const type = isObject(e) ? e.type : undefined;
    // A decision or a concession is a player's own (CONTRACT: decide and actions return host events).
    if (typeof type !== 'string' || !isHostEvent(type) || (type as string) === 'CARD_ACTION') return failed(`the cards' ${name} returned [${i}] ${String(type)}: only host events may be returned`);
    // A CARD_ACTION's host events are its player's (undo: no other player goes back past them).
    const out = steps.step(actedBy === undefined ? e : { ...e, [ACTED_FOR]: actedBy }, from);
    if ('error' in out) {
      // CONTRACT v4: as if the host had sent it: ILLEGAL_ACTION with that event's rule.
      const error: EngineErrorInfo = { code: ErrorCode.ILLEGAL_ACTION, message: `${type} returned by the cards' ${name}: ${out.error.message}` };
      if (out.error.rule !== undefined) error.rule = out.error.rule;
      return { ok: false, error };
    }
    from = joined(out, from, [...(from?.emitted ?? []), ...out.emitted]);
  }
  return from;
}
