/**
 * The meaning of a scenario's steps, written once (CONTRACT.md, "Scenarios"): a generator
 * that yields what it needs from the game under test (create it, send an event, read the
 * view, persist and restore, the next stop) and receives the answers. Two drivers run it:
 * `runScenario` against a local Game, synchronously (runner.ts), and the conformance runner
 * against another engine's process over the stdio protocol (src/conformance/runner.ts). So
 * `send`, `reject`, `expect`, `passUntil`, `expectEmitted`, `expectNextStop`, `restore` and
 * the plainest answers mean the same thing to both.
 */
import type { Awaiting, CheckpointResult, TurnEvent, TurnView } from '../contract.js';
import { describeIssue } from '../schemas.js';
import { checkBounds } from '../persistence/validate.js';
import { plainestAnswerTo } from '../legal.js';
import { mismatch } from './match.js';
import { ScenarioSchema, type Scenario, type ScenarioResult, type ScenarioStep } from './schema.js';

/** Most actions a `passUntil` takes unless the step says otherwise. */
export const DEFAULT_PASS_UNTIL_MAX = 500;

/**
 * Bounds on a scenario, checked breadth-first before anything else reads it, so that a deeply
 * nested or huge file fails at step -1 instead of overflowing the stack of the runner's
 * recursive matching and messages (issue 22). The shipped scenarios nest 8 levels deep.
 */
export const SCENARIO_LIMITS = { maxNodes: 200_000, maxDepth: 32, maxStringLength: 65_536 } as const;

/** The checkpoint hook a scenario's `setup.inject` makes: what it returns at a checkpoint whose view is `view`, or undefined. */
export type ScenarioCheckpoint = (view: TurnView) => CheckpointResult | undefined;

/** The `hooks.autoPass` a scenario's `setup.autoPass` makes (CONTRACT v3): true for a player whose entry's `when` matches the view. */
export type ScenarioAutoPass = (view: TurnView, player: string) => boolean;

/** An event as the game under test answers `send`: accepted with the events it emitted, or refused. */
export type SentOutcome = { ok: true; events: { type: string }[] } | { ok: false; error: { code: string; message: string } };

/**
 * What a scenario asks of the game under test, and what the driver answers:
 * `create` -> `{ error: string | null }`, `send` -> {@link SentOutcome}, `view` -> TurnView,
 * `persist` -> the persisted game (any JSON), `restore` -> anything, `nextStop` -> the next stop or null.
 * `checkpoint` is the hook made from `setup.inject` (null when the scenario injects nothing),
 * `autoPass` the one made from `setup.autoPass` (null without).
 */
export type GameRequest =
  | { op: 'create'; options: Record<string, unknown>; checkpoint: ScenarioCheckpoint | null; autoPass?: ScenarioAutoPass | null }
  | { op: 'send'; event: unknown }
  | { op: 'view' }
  | { op: 'persist' }
  | { op: 'restore'; persisted: unknown }
  | { op: 'nextStop'; player: string | undefined };

/** Where a scenario is: the index of the step being played (-1 before the first), for a driver that must report a failure of its own. */
export interface PlayProgress {
  stepIndex: number;
}

/** Options of {@link playScenario}. */
export interface PlayOptions {
  /** Persist the game and restore it from JSON before this step index (tests that persistence keeps the future). */
  restoreBefore?: number;
  /** Whether the game under test can persist (default true): a refused `send` is then checked to change neither the view nor `persist()`, else only the view. */
  canPersist?: boolean;
}

/** The play of one scenario: yields {@link GameRequest}s, receives their answers, returns the result. */
export type ScenarioPlay = Generator<GameRequest, ScenarioResult, unknown>;

/**
 * The plainest answer to what the game awaits (CONTRACT.md, passUntil). In Grand Melee, the
 * turn furthest behind (fewest turns, then lowest marker) answers first, naming its marker.
 */
export function plainestAnswer(view: TurnView): unknown {
  const turns = view.turns?.filter((t) => t.awaiting !== null) ?? [];
  if (view.turns !== undefined && view.turns.length > 1 && turns.length > 0) {
    const behind = turns.reduce((a, b) => (b.turn < a.turn ? b : a));
    return { ...(answerTo(behind.awaiting) as object), turnMarker: behind.turnMarker };
  }
  return answerTo(view.awaiting);
}

function answerTo(a: Awaiting | null): unknown {
  return a === null ? null : plainestAnswerTo(a);
}

/**
 * Checks a scenario (bounds, then the schema): the parsed scenario, or why it is not one.
 * Files over `SCENARIO_LIMITS` are refused before the schema reads them.
 */
export function parseScenario(scenario: unknown): { scenario: Scenario } | { problem: string; stepIndex?: number } {
  const bounds = checkBounds(scenario, SCENARIO_LIMITS, 'scenario');
  if (bounds !== null) return { problem: `not a scenario: ${bounds}` };
  const shape = stepProblem(scenario);
  if (shape !== null) return shape;
  const parsed = ScenarioSchema.safeParse(scenario);
  if (!parsed.success) return { problem: `not a scenario: ${describeIssue(parsed.error, 'scenario')}` };
  return { scenario: parsed.data };
}

/**
 * The checkpoint hook of `setup.inject` (none without it): each entry fires once, at the first checkpoint whose view
 * matches its `when`; an entry with `call` fires at that checkpoint call alone (counted from the
 * game's first, createGame's own included), and a view there that does not match its `when` is a
 * problem (pushed to `problems`: the scenario fails at the step under way).
 */
export function injectionHook(inject: Scenario['setup']['inject'], problems: string[] = []): ScenarioCheckpoint | null {
  // `inject` given, even empty, gives the game a checkpoint hook (recordingToScenario writes `[]` for a hook that reported nothing).
  if (inject === undefined) return null;
  const injections = inject.map((entry) => ({ ...entry, fired: false }));
  let calls = 0;
  return (view) => {
    calls++;
    const due = injections.filter((i) => {
      if (i.fired) return false;
      if (i.call === undefined) return mismatch(i.when, view) === null;
      if (i.call !== calls) return false;
      const m = mismatch(i.when, view);
      if (m !== null) problems.push(`inject at checkpoint call ${calls}: the view does not match \`when\`: ${m}`);
      return m === null;
    });
    if (due.length === 0) return undefined;
    for (const i of due) i.fired = true;
    return {
      triggers: due.flatMap((i) => i.triggers ?? []),
      stateBasedActions: due.some((i) => i.stateBasedActions === true),
      events: due.flatMap((i) => i.events ?? []) as unknown as TurnEvent[],
    };
  };
}

/** The kinds of step the format has (CONTRACT.md, "Scenarios"), each named by its key. */
export const STEP_KINDS = ['send', 'expect', 'passUntil', 'expectEmitted', 'expectNextStop', 'restore'] as const;

/**
 * Names what the schema's union could only call "nonoptional": a step of no known kind (its
 * keys), or a `$`-key in a pattern (the format has no `$`-matchers: such a key is never a
 * view field, so it is refused rather than compared as an object). Null when neither.
 */
function stepProblem(scenario: unknown): { problem: string; stepIndex?: number } | null {
  if (typeof scenario !== 'object' || scenario === null) return null;
  const { steps, setup } = scenario as { steps?: unknown; setup?: unknown };
  const patterns: [number, string, unknown][] = [];
  if (typeof setup === 'object' && setup !== null) {
    for (const key of ['inject', 'autoPass'] as const) {
      const list = (setup as Record<string, unknown>)[key];
      if (Array.isArray(list)) list.forEach((e, i) => patterns.push([-1, `setup.${key}[${i}].when`, (e as { when?: unknown } | null)?.when]));
    }
  }
  if (Array.isArray(steps)) {
    for (const [index, step] of steps.entries()) {
      if (typeof step !== 'object' || step === null || Array.isArray(step)) continue;
      const keys = Object.keys(step);
      const kind = STEP_KINDS.find((k) => keys.includes(k));
      if (kind === undefined) {
        return { stepIndex: index, problem: `not a scenario: steps[${index}]: unknown step kind ${keys.map((k) => `'${k}'`).join(', ') || '(no key)'}; a step is one of ${STEP_KINDS.join(', ')}` };
      }
      if (kind !== 'send' && kind !== 'restore') patterns.push([index, `steps[${index}].${kind}`, (step as Record<string, unknown>)[kind]]);
    }
  }
  for (const [stepIndex, where, pattern] of patterns) {
    const key = dollarKey(pattern, where);
    if (key !== null) return { stepIndex, problem: `not a scenario: ${key.path}: unknown matcher '${key.name}' (the scenario format has no $-matchers; fields match by equality, objects partially)` };
  }
  return null;
}

/** The first key starting with `$` in a pattern, with its path (breadth-first is not needed: checkBounds limited the depth). */
function dollarKey(value: unknown, path: string): { name: string; path: string } | null {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = dollarKey(v, `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith('$')) return { name: key, path: `${path}.${key}` };
    const found = dollarKey(v, `${path}.${key}`);
    if (found !== null) return found;
  }
  return null;
}

// One request each: `yield*` them to get the answer typed.
/** The `hooks.autoPass` of `setup.autoPass` (CONTRACT v3): true for `player` whenever one of their entries' `when` matches the view. */
export function autoPassHook(entries: Scenario['setup']['autoPass']): ScenarioAutoPass | null {
  if (entries === undefined) return null;
  return (view, player) => entries.some((e) => e.player === player && mismatch(e.when, view) === null);
}

function* view(): Generator<GameRequest, TurnView, unknown> {
  return (yield { op: 'view' }) as TurnView;
}
function* send(event: unknown): Generator<GameRequest, SentOutcome, unknown> {
  return (yield { op: 'send', event }) as SentOutcome;
}
function* persist(): Generator<GameRequest, unknown, unknown> {
  return yield { op: 'persist' };
}

const fail = (stepIndex: number, message: string): ScenarioResult => ({ ok: false, failures: [{ stepIndex, message }] });

/** Plays one scenario (see the file's comment). Invalid files and setups, and files over `SCENARIO_LIMITS`, fail at step -1. */
export function* playScenario(input: unknown, options: PlayOptions = {}, progress: PlayProgress = { stepIndex: -1 }): ScenarioPlay {
  progress.stepIndex = -1;
  const parsed = parseScenario(input);
  if ('problem' in parsed) return fail(parsed.stepIndex ?? -1, parsed.problem);
  const s = parsed.scenario;
  const { inject, autoPass, ...setup } = s.setup;
  const problems: string[] = [];
  const created = (yield { op: 'create', options: setup, checkpoint: injectionHook(inject, problems), autoPass: autoPassHook(autoPass) }) as { error: string | null };
  if (created.error !== null) return fail(-1, `setup: ${created.error}`);
  const canPersist = options.canPersist ?? true;
  // CONTRACT: expectEmitted sees the events since the start of the steps (createGame's own are not among them).
  const emitted: { type: string }[] = [];
  for (const [index, step] of s.steps.entries()) {
    progress.stepIndex = index;
    if (options.restoreBefore === index || 'restore' in step) {
      const persisted = yield* persist();
      yield { op: 'restore', persisted: JSON.parse(JSON.stringify(persisted)) };
      if ('restore' in step) continue;
    }
    const played = yield* playStep(step, emitted, canPersist);
    // An inject entry whose view did not match at its checkpoint call fails the step under way.
    const message = problems.length > 0 ? problems.splice(0).join('; ') : played;
    if (message === 'reset-emitted') {
      emitted.length = 0;
      continue;
    }
    if (message !== null) return fail(index, message);
  }
  return { ok: true, failures: [] };
}

/** Plays one step; returns a failure message, null, or 'reset-emitted' after a passing expectEmitted. */
function* playStep(step: ScenarioStep, emitted: { type: string }[], canPersist: boolean): Generator<GameRequest, string | null, unknown> {
  if ('send' in step) return yield* playSend(step.send, step.reject, emitted, canPersist);
  if ('expect' in step) {
    const m = mismatch(step.expect, yield* view());
    return m === null ? null : `expect: ${m}`;
  }
  if ('passUntil' in step) return yield* playPassUntil(step.passUntil, step.max ?? DEFAULT_PASS_UNTIL_MAX, emitted);
  if ('expectNextStop' in step) {
    const next = yield { op: 'nextStop', player: step.player };
    if (step.expectNextStop === null) return next === null ? null : `expectNextStop: expected null, got ${JSON.stringify(next)}`;
    const m = next === null ? 'expected a next stop, got null' : mismatch(step.expectNextStop, next);
    return m === null ? null : `expectNextStop${step.player === undefined ? '' : ` (${step.player})`}: ${m}`;
  }
  if ('restore' in step) return null;
  const wanted = new Set(step.expectEmitted.map((e) => e.type));
  const seen = emitted.filter((e) => wanted.has(e.type));
  const m = mismatch(step.expectEmitted, seen);
  return m === null ? 'reset-emitted' : `expectEmitted: ${m}`;
}

function* playSend(event: unknown, reject: string | undefined, emitted: { type: string }[], canPersist: boolean): Generator<GameRequest, string | null, unknown> {
  const beforeView = JSON.stringify(yield* view());
  const beforePersisted = canPersist ? JSON.stringify(yield* persist()) : '';
  const result = yield* send(event);
  if (result.ok) emitted.push(...result.events);
  if (reject === undefined) return result.ok ? null : `send ${JSON.stringify(event)} was refused: ${result.error.code}: ${result.error.message}`;
  if (result.ok) return `send ${JSON.stringify(event)} was accepted; expected ${reject}`;
  if (result.error.code !== reject) return `send ${JSON.stringify(event)} was refused with ${result.error.code} (${result.error.message}); expected ${reject}`;
  if (JSON.stringify(yield* view()) !== beforeView || (canPersist && JSON.stringify(yield* persist()) !== beforePersisted)) {
    return `send ${JSON.stringify(event)} was refused but changed the game`;
  }
  return null;
}

function* playPassUntil(until: Record<string, unknown>, max: number, emitted: { type: string }[]): Generator<GameRequest, string | null, unknown> {
  for (let actions = 0; ; actions++) {
    const now = yield* view();
    if (mismatch(until, now) === null) return null;
    if (actions >= max) return `passUntil ${JSON.stringify(until)}: not reached after ${max} actions (now turn ${now.turn}, ${now.phase}/${now.step})`;
    const answer = plainestAnswer(now);
    if (answer === null) return `passUntil ${JSON.stringify(until)}: the game is over before it was reached`;
    const result = yield* send(answer);
    if (!result.ok) return `passUntil: ${JSON.stringify(answer)} was refused: ${result.error.message}`;
    emitted.push(...result.events);
  }
}
