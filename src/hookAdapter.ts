/**
 * The API side of the checkpoint hook: builds the view the host sees, calls the hook with
 * the pending events, and validates what it returns (CONTRACT: hooks.checkpoint). The chart
 * (machines/checkpoint.ts) only receives the parsed result.
 */
import { hookFailed } from '../machines/checkpoint.js';
import { patched } from '../machines/context.js';
import { numberEvents, type GameHooksRuntime, type HookReport } from '../machines/hooks.js';
import type { Awaiting, CheckpointHook, EmittedEvent, GameHooks, PlayerId, TurnEvent, TurnView } from './contract.js';
import { copyEvent } from './emitter.js';
import { unknownPlayer } from './gate.js';
import { AT_TABLE_EVENTS, TABLE_EVENTS } from './events/index.js';
import { isHostEvent } from '../machines/host.effects.js';
import type { TurnContext } from './state.js';
import { parseHookResult } from './schemas.js';
import { buildView } from './view.js';
import { describeThrown } from './errors.js';
import type { HookTape } from './recording/tape.js';

/** What a checkpoint that reported nothing reports. */
const NOTHING: HookReport = { triggers: [], stateBasedActions: false, events: [] };

/**
 * What a game gives its effects to call the host's checkpoint hook: the hook, shown the view at
 * the game's current `version()`, with re-entrance tracked; none without a hook (the effects
 * then behave as with a hook that reports nothing).
 *
 * CONTRACT v3, "Recordings": with a `tape`, every answer the hooks give is written to its `log`
 * while it has one (a recorded game's send), and while it has a `source` (a replay) the source
 * answers in place of the hooks (it asks the hooks given too, to compare).
 */
export function hookRuntime(hooks: GameHooks | CheckpointHook | undefined, version: () => number, tape?: HookTape): GameHooksRuntime | undefined {
  const { checkpoint, autoPass } = typeof hooks === 'function' ? { checkpoint: hooks, autoPass: undefined } : (hooks ?? {});
  const had = tape?.source?.had;
  const checks = checkpoint !== undefined || had?.checkpoint === true;
  const asks = autoPass !== undefined || had?.autoPass === true;
  if (!checks && !asks) return undefined;
  const runtime: GameHooksRuntime = { inHook: false, seq: 0, calls: 0, numbers: null };
  const view = (ctx: TurnContext, awaiting: Awaiting | null) => buildView(ctx, awaiting, version(), runtime.seq);
  const setInHook = (inHook: boolean) => void (runtime.inHook = inHook);
  if (checks) {
    runtime.check = (ctx, about) => {
      runtime.calls++;
      // CONTRACT v3: `pending` holds the events as emitted, `seq` included: those of this send so far are numbered now.
      numberEvents(runtime, ctx.pending);
      const live = checkpoint && (() => callHook(checkpoint, view, ctx, about, setInHook, runtime.numbers));
      const source = tape?.source;
      const report = source ? source.checkpoint(ctx, live, version()) : live ? live() : NOTHING;
      tape?.log?.push(report);
      return report;
    };
  }
  if (asks) {
    const ask = autoPass && ((ctx: TurnContext, player: PlayerId) => askAutoPass(autoPass, view(ctx, ctx.priority === null ? null : { kind: 'priority', player: ctx.priority }), player, setInHook));
    if (tape) tape.lookAhead = ask;
    runtime.autoPass = (ctx, player) => {
      const live = ask && (() => ask(ctx, player));
      const source = tape?.source;
      const answer = source ? source.autoPass(live, version()) : live ? live() : false;
      tape?.log?.push(answer);
      return answer;
    };
  }
  return runtime;
}

/** Asks `hooks.autoPass`; anything but `true` is "ask the player". A throw is HOOK_FAILED. */
function askAutoPass(hook: NonNullable<GameHooks['autoPass']>, view: TurnView, player: PlayerId, setInHook: (inHook: boolean) => void): boolean {
  setInHook(true);
  try {
    return hook(view, player) === true;
  } catch (err) {
    throw hookFailed(`the autoPass hook threw: ${describeThrown(err)}`);
  } finally {
    setInHook(false);
  }
}

/**
 * Calls the checkpoint hook as the game checks state-based actions and triggers; throws HOOK_FAILED when it misbehaves.
 * The view and the copy of the pending events are built only for a hook that can read them
 * ({@link argumentsSeen}): a hook declared without parameters is called with none.
 */
export function callHook(
  hook: CheckpointHook,
  view: (ctx: TurnContext, awaiting: Awaiting | null) => TurnView,
  ctx: TurnContext,
  about: PlayerId | null,
  setInHook: (inHook: boolean) => void,
  numbers: ReadonlyMap<EmittedEvent, number> | null = null,
): HookReport {
  const seen = argumentsSeen(hook);
  const shown = seen === 0 ? undefined : view(patched(ctx, { priority: about }), about === null ? null : { kind: 'priority', player: about });
  // Copies, nested parts included: the context keeps the events (and `persist()` writes them) until the hook has seen them.
  const pending = seen < 2 ? undefined : ctx.pending.map((e) => (e.seq !== undefined || numbers === null ? copyEvent(e) : Object.assign(copyEvent(e), { seq: numbers.get(e) })));
  let raw: unknown;
  setInHook(true);
  try {
    raw = seen === 0 ? (hook as () => unknown)() : seen === 1 ? (hook as (view: TurnView) => unknown)(shown as TurnView) : hook(shown as TurnView, pending as EmittedEvent[]);
  } catch (err) {
    throw hookFailed(`the checkpoint hook threw: ${describeThrown(err)}`);
  } finally {
    setInHook(false);
  }
  const checked = checkedResult(raw, ctx);
  if (typeof checked === 'string') throw hookFailed(checked);
  return checked;
}

/**
 * A checkpoint hook's result (or a recorded one) parsed and checked against the game: the
 * report, or what is wrong with it. Nothing (`undefined`, `null`) reports nothing.
 */
export function checkedResult(raw: unknown, ctx: TurnContext): HookReport | string {
  if (raw === undefined || raw === null) return { triggers: [], stateBasedActions: false, events: [] };
  const parsed = parseHookResult(raw);
  if (!parsed.ok) return `the checkpoint hook must return { triggers?, stateBasedActions?, events? } or nothing; ${parsed.message}`;
  // The players each names are checked as `send` checks them (src/gate.ts): the triggers as one TRIGGER event, then each event.
  const { triggers, events } = parsed.value;
  const stranger = triggers.length === 0 ? null : unknownPlayer({ type: 'TRIGGER', triggers }, ctx.seats, 'result');
  if (stranger !== null) return stranger;
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as TurnEvent;
    const unknown = unknownPlayer(e, ctx.seats, `result.events[${i}]`);
    if (unknown !== null) return `${unknown} (send refuses such a ${e.type} with INVALID_EVENT)`;
    if (TABLE_EVENTS.has(e.type)) return `result.events[${i}]: ${e.type} is the table's (clocks, seats): send it with game.send`;
    // CONTRACT v3: the table logic around the turn takes these (undo, shortcuts); a checkpoint that reports anything is already a point no undo goes back past (so MARK_IRREVERSIBLE, a host event, is taken and changes nothing more).
    if (AT_TABLE_EVENTS.has(e.type) && e.type !== 'MARK_IRREVERSIBLE') return `result.events[${i}]: ${e.type} is the table's: send it with game.send`;
    // A decision, a concession included (CR 104.3a: the player's own): a player's to send, never a checkpoint's.
    if (!isHostEvent(e.type)) return `result.events[${i}]: ${e.type} is a player decision, not a host event`;
  }
  return parsed.value;
}

/**
 * How many of its arguments (the view, then the pending events) a checkpoint hook can read: 0
 * or 1 only when its source text proves it (read once per hook, with
 * `Function.prototype.toString`), 2 otherwise. A hook declared with fewer simple parameters
 * than it is given cannot read the others when it is an arrow function (it has no `arguments`
 * of its own) or a function whose source never names `arguments` or `eval`. Anything else (a
 * rest, default or destructured parameter, a bound or native function, a proxy, source text
 * that does not parse here) counts as reading both: the arguments are built for it as always.
 *
 * Building the view is most of what a checkpoint costs a hook that ignores it; a hook that
 * cannot observe its arguments sees no difference when they are not built (they are fresh
 * copies, pure functions of the context).
 */
export function argumentsSeen(hook: CheckpointHook): 0 | 1 | 2 {
  if (hook === lastHook) return lastSeen;
  let seen = analysed.get(hook);
  if (seen === undefined) analysed.set(hook, (seen = parametersRead(hook)));
  lastHook = hook;
  lastSeen = seen;
  return seen;
}

const analysed = new WeakMap<CheckpointHook, 0 | 1 | 2>();
let lastHook: CheckpointHook | undefined;
let lastSeen: 0 | 1 | 2 = 2;

/** A function's parameter list: `async`, then `function`, `function*`, a method's name or nothing (an arrow), then the list in parentheses. */
const PARAMETER_LIST = /^(?:async\s*)?(?:function\b\s*\*?\s*[\w$]*|\*?\s*[\w$]*)\s*\(([^()]*)\)\s*(=>)?/;
/** An arrow function with one parameter and no parentheses. */
const ONE_PARAMETER_ARROW = /^(?:async\s+)?[\w$]+\s*=>/;
const SIMPLE_PARAMETER = /^\s*[A-Za-z_$][\w$]*\s*$/;
/** What lets a non-arrow function read arguments it does not declare. */
const READS_ARGUMENTS = /\b(?:arguments|eval)\b/;

function parametersRead(hook: CheckpointHook): 0 | 1 | 2 {
  let source: string;
  try {
    source = Function.prototype.toString.call(hook);
  } catch {
    return 2;
  }
  if (source.includes('[native code]')) return 2;
  if (ONE_PARAMETER_ARROW.test(source)) return 1;
  const list = PARAMETER_LIST.exec(source);
  if (list === null) return 2;
  const params = (list[1] as string).trim() === '' ? [] : (list[1] as string).split(',');
  if (params.length >= 2 || !params.every((p) => SIMPLE_PARAMETER.test(p))) return 2;
  if (list[2] === undefined && READS_ARGUMENTS.test(source)) return 2;
  return params.length as 0 | 1;
}
