/**
 * The scenario runner: replays a scenario file against a live game (CONTRACT.md, "Scenarios").
 */
import type { CheckpointResult, EmittedEvent, TurnEvent, TurnView } from '../contract.js';
import { createGame, restoreGame } from '../game/create.js';
import { type Game, type GameOptions } from '../game/types.js';
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

/** Options of {@link runScenario}. */
export interface RunOptions {
  /** Persist the game and restore it from JSON before this step index (tests that persistence keeps the future). */
  restoreBefore?: number;
}

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

function answerTo(a: TurnView['awaiting']): unknown {
  return a === null ? null : plainestAnswerTo(a);
}

/** Replays one scenario. Invalid files and setups, and files over {@link SCENARIO_LIMITS}, fail at step -1. */
export function runScenario(scenario: unknown, options: RunOptions = {}): ScenarioResult {
  const bounds = checkBounds(scenario, SCENARIO_LIMITS, 'scenario');
  if (bounds !== null) return { ok: false, failures: [{ stepIndex: -1, message: `not a scenario: ${bounds}` }] };
  const parsed = ScenarioSchema.safeParse(scenario);
  if (!parsed.success) return { ok: false, failures: [{ stepIndex: -1, message: `not a scenario: ${describeIssue(parsed.error, 'scenario')}` }] };
  const s: Scenario = parsed.data;
  const injections = (s.setup.inject ?? []).map((entry) => ({ ...entry, fired: false }));
  const checkpoint = (view: TurnView): CheckpointResult | undefined => {
    const due = injections.filter((i) => !i.fired && mismatch(i.when, view) === null);
    if (due.length === 0) return undefined;
    for (const i of due) i.fired = true;
    return {
      triggers: due.flatMap((i) => i.triggers ?? []),
      stateBasedActions: due.some((i) => i.stateBasedActions === true),
      events: due.flatMap((i) => i.events ?? []) as unknown as TurnEvent[],
    };
  };
  const { inject: _inject, ...setup } = s.setup;
  let game: Game;
  try {
    game = createGame({ ...(setup as GameOptions), hooks: { checkpoint } });
  } catch (err) {
    return { ok: false, failures: [{ stepIndex: -1, message: `setup: ${err instanceof Error ? err.message : String(err)}` }] };
  }
  // CONTRACT: expectEmitted sees the events since the start of the steps (createGame's own are not among them).
  let emitted: EmittedEvent[] = [];
  const listen = (g: Game) => g.on('*', (e) => emitted.push(e));
  listen(game);
  for (const [index, step] of s.steps.entries()) {
    if (options.restoreBefore === index || 'restore' in step) {
      game = restoreGame(JSON.parse(JSON.stringify(game.persist())), { hooks: { checkpoint } });
      listen(game);
      if ('restore' in step) continue;
    }
    const message = runStep(game, step, emitted);
    if (message === 'reset-emitted') {
      emitted = [];
      continue;
    }
    if (message !== null) return { ok: false, failures: [{ stepIndex: index, message }] };
  }
  return { ok: true, failures: [] };
}

/** Runs one step; returns a failure message, null, or 'reset-emitted' after a passing expectEmitted. */
function runStep(game: Game, step: ScenarioStep, emitted: EmittedEvent[]): string | null {
  if ('send' in step) return runSend(game, step.send, step.reject);
  if ('expect' in step) {
    const m = mismatch(step.expect, game.view());
    return m === null ? null : `expect: ${m}`;
  }
  if ('passUntil' in step) return runPassUntil(game, step.passUntil, step.max ?? DEFAULT_PASS_UNTIL_MAX);
  if ('expectNextStop' in step) {
    const next = game.nextStop(step.player);
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

function runSend(game: Game, event: unknown, reject: string | undefined): string | null {
  const beforeView = JSON.stringify(game.view());
  const beforePersisted = JSON.stringify(game.persist());
  const result = game.send(event);
  if (reject === undefined) return result.ok ? null : `send ${JSON.stringify(event)} was refused: ${result.error.code}: ${result.error.message}`;
  if (result.ok) return `send ${JSON.stringify(event)} was accepted; expected ${reject}`;
  if (result.error.code !== reject) return `send ${JSON.stringify(event)} was refused with ${result.error.code} (${result.error.message}); expected ${reject}`;
  if (JSON.stringify(game.view()) !== beforeView || JSON.stringify(game.persist()) !== beforePersisted) {
    return `send ${JSON.stringify(event)} was refused but changed the game`;
  }
  return null;
}

function runPassUntil(game: Game, until: Record<string, unknown>, max: number): string | null {
  for (let actions = 0; ; actions++) {
    const view = game.view();
    if (mismatch(until, view) === null) return null;
    if (actions >= max) return `passUntil ${JSON.stringify(until)}: not reached after ${max} actions (now turn ${view.turn}, ${view.phase}/${view.step})`;
    const answer = plainestAnswer(view);
    if (answer === null) return `passUntil ${JSON.stringify(until)}: the game is over before it was reached`;
    const result = game.send(answer as unknown);
    if (!result.ok) return `passUntil: ${JSON.stringify(answer)} was refused: ${result.error.message}`;
  }
}
