/**
 * Model paths as conformance scenarios (CONTRACT.md, "Scenarios"): after every `send`, an
 * `expect` of what the model predicts (turn, activePlayer, phase, step, priority,
 * awaiting, stack); at the end, the events the model offers there that the rules refuse,
 * each with `reject`. The files are deterministic: same model, same bytes.
 */
import { createTestModel } from 'xstate/graph';
import { turnMachine } from '../../machines/turn.machine.js';
import type { TurnEvent, TurnView } from '../../machines/turn.types.js';
import type { Scenario, ScenarioStep } from '../scenarios/schema.js';
import { statePath, viewOf } from '../view.js';
import { seatOf, serializeState, type ModelSnapshot } from './abstraction.js';
import { computeCoverage, type CoverageResult } from './coverage.js';
import { modelEvents } from './events.js';
import { discardDue } from '../rules/cleanup.js';
import {
  configName,
  eventsOfTestPath,
  initialSnapshot,
  modelInput,
  modelSetup,
  nextSnapshot,
  type ModelConfig,
  type ModelPath,
  type TurnSnapshot,
} from './model.js';

/** The view fields every generated `expect` holds. */
export const EXPECTED_FIELDS = ['turn', 'activePlayer', 'phase', 'step', 'priority', 'awaiting', 'stack'] as const;

/** The part of a view a generated scenario expects. */
export function expectedView(view: TurnView): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of EXPECTED_FIELDS) out[f] = view[f];
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

/** The model's prediction along a path: the snapshot after each event (replayed on the machine). */
export function predict(config: ModelConfig, events: readonly TurnEvent[]): TurnSnapshot[] {
  const out: TurnSnapshot[] = [];
  let s = initialSnapshot(config);
  for (const e of events) {
    const next = nextSnapshot(s, e);
    if (next === s) throw new Error(`the model path sends ${JSON.stringify(e)}, which the machine refuses in ${statePath(s.value)}`);
    out.push((s = next));
  }
  return out;
}

/** The offered events the machine refuses in a snapshot, with the code the game gives. */
export function refusedEvents(snapshot: TurnSnapshot): { send: TurnEvent; reject: string }[] {
  if (snapshot.status !== 'active') {
    const player = snapshot.context.players[0] ?? (snapshot.context.seats[0] as string);
    return [{ send: { type: 'PASS_PRIORITY', player }, reject: 'GAME_OVER' }];
  }
  const seen = new Set<string>();
  const out: { send: TurnEvent; reject: string }[] = [];
  for (const e of modelEvents(snapshot as ModelSnapshot)) {
    const key = JSON.stringify(e);
    if (seen.has(key) || nextSnapshot(snapshot, e) !== snapshot) continue;
    seen.add(key);
    out.push({ send: e, reject: 'ILLEGAL_ACTION' });
  }
  return out;
}

/** A generated scenario and the file name it is written to. */
export interface GeneratedScenario {
  file: string;
  scenario: Scenario;
  /** The state nodes ('#id') and transitions this scenario is the first to cover. */
  covers: string[];
}

/** A short description of a model state for names: 'combat.declareBlockers.declaring, B holds priority, stack'. */
function describeState(snapshot: TurnSnapshot): string {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active') return `gameOver (${ctx.winners?.join(', ') ?? ''} wins)`;
  const parts = [statePath(snapshot.value)];
  parts.push(ctx.priority === null ? 'no priority' : `priority ${ctx.priority} (seat +${seatOf(ctx, ctx.priority)})`);
  if (ctx.stack.length > 0) parts.push(`stack ${ctx.stack.length}`);
  return parts.join(', ');
}

/** Builds the scenario of one path. */
export function toScenario(config: ModelConfig, path: ModelPath, index: number, covers: readonly string[] = []): GeneratedScenario {
  const snapshots = predict(config, path.events);
  const last = snapshots[snapshots.length - 1] ?? initialSnapshot(config);
  const steps: ScenarioStep[] = [];
  path.events.forEach((e, i) => {
    steps.push({ send: e });
    steps.push({ expect: expectedView(viewOf(snapshots[i] as TurnSnapshot)) });
  });
  for (const r of refusedEvents(last)) steps.push(r);
  const seq = String(index + 1).padStart(3, '0');
  const leaf = last.status === 'active' ? statePath(last.value) : 'gameOver';
  const name = `${configName(config)} ${seq}: ${describeState(last)}`;
  const description =
    `Generated from the statechart by \`mtg-turn-engine generate\`; model state ${serializeState(last as ModelSnapshot)}.` +
    (covers.length > 0 ? ` First to cover: ${covers.join('; ')}.` : '');
  return {
    file: `${configName(config)}-${seq}-${leaf.replaceAll('.', '-')}.json`,
    scenario: { name, description, setup: modelSetup(config), steps },
    covers: [...covers],
  };
}

/** The longest prefix of `events` the machine accepts, event by event, from a new game. */
function acceptedPrefix(config: ModelConfig, events: readonly TurnEvent[]): TurnEvent[] {
  let s = initialSnapshot(config);
  const out: TurnEvent[] = [];
  for (const e of events) {
    const next = nextSnapshot(s, e);
    if (next === s) break;
    out.push(e);
    s = next;
  }
  return out;
}

/** Removes paths that are a prefix of another path (they test nothing the longer one does not). */
function withoutPrefixes(paths: ModelPath[]): ModelPath[] {
  const keys = paths.map((p) => p.events.map((e) => JSON.stringify(e)));
  return paths.filter((_, i) => {
    const mine = keys[i] as string[];
    return !keys.some((other, j) => j !== i && other.length > mine.length && mine.every((k, n) => other[n] === k));
  });
}

/**
 * The covering set of a configuration: the paths that first cover each state node and
 * transition, without those that are a prefix of another, in the order they were found.
 */
export function coveringPaths(result: CoverageResult): { path: ModelPath; covers: string[] }[] {
  const covers = new Map<number, string[]>();
  for (const e of [...result.stateNodes.map((n) => ({ ...n, id: `#${n.id}` })), ...result.transitions]) {
    if (e.path === null) continue;
    covers.set(e.path, [...(covers.get(e.path) ?? []), e.id]);
  }
  const chosen = [...covers.keys()].sort((a, b) => a - b).map((i) => result.paths[i] as ModelPath);
  const kept = withoutPrefixes(chosen);
  // What a removed prefix covered is credited to the first kept path that contains it.
  const isPrefix = (p: ModelPath, of: ModelPath): boolean =>
    p.events.length <= of.events.length && p.events.every((e, n) => JSON.stringify(e) === JSON.stringify(of.events[n]));
  const credited = kept.map((path) => ({ path, covers: [] as string[] }));
  for (const [i, ids] of [...covers.entries()].sort((a, b) => a[0] - b[0])) {
    credited.find((k) => isPrefix(result.paths[i] as ModelPath, k.path))?.covers.push(...ids);
  }
  return credited;
}

/**
 * Simple paths (no model state twice) of a coarser model: the state path, the active
 * player, who holds priority and who passed, with the plainest events (passes,
 * declarations, discards), through the first turn into the second. The full model has
 * too many simple paths to enumerate; this one shows the ways through a turn's steps.
 */
export function simplePaths(config: ModelConfig, max: number): ModelPath[] {
  const plain = new Set(['PASS_PRIORITY', 'DECLARE_ATTACKERS', 'DECLARE_BLOCKERS', 'DISCARD']);
  const coarse = (s: TurnSnapshot): string => {
    const ctx = s.context;
    if (s.status !== 'active') return 'gameOver';
    const combat = ctx.combat === null ? '' : `${ctx.combat.attackers.map((a) => a.defender).join('')}/${ctx.combat.declaredBy.join('')}`;
    const who = `${ctx.activePlayer}|${ctx.priority}|${[...ctx.passed].sort().join('')}|${ctx.stack.length}|${discardDue(ctx)}`;
    return `${statePath(s.value)}|${ctx.turn === 1 ? 't1' : ''}|${who}|${combat}`;
  };
  const model = createTestModel(turnMachine, {
    input: modelInput(config),
    serializeState: (s) => coarse(s as TurnSnapshot),
    events: (s) => modelEvents(s as ModelSnapshot),
    filterEvents: (s, e) => s.status === 'active' && plain.has(e.type) && nextSnapshot(s as TurnSnapshot, e as TurnEvent) !== s,
    // Simple paths multiply with every turn: they go through the first turn, into the second.
    stopWhen: (s) => s.context.turn > 1,
  });
  // Each path is replayed on the machine and kept up to its first refused event: the
  // coarse states merge snapshots that the traversal may not tell apart.
  const candidates = model
    .getSimplePaths()
    .map((p) => eventsOfTestPath(p))
    .map((events) => ({ events, json: JSON.stringify(events) }))
    .sort((a, b) => b.events.length - a.events.length || (a.json < b.json ? -1 : a.json > b.json ? 1 : 0));
  // Longest first; each is replayed on the machine and kept up to its first refused event
  // (the coarse states merge snapshots the traversal does not tell apart), unless it is a
  // prefix of one already kept.
  const kept: ModelPath[] = [];
  for (const c of candidates) {
    if (kept.length >= max) break;
    const events = acceptedPrefix(config, c.events);
    const keys = events.map((e) => JSON.stringify(e));
    if (events.length === 0 || kept.some((k) => k.events.length >= events.length && keys.every((j, n) => JSON.stringify(k.events[n]) === j))) continue;
    kept.push({ events, keys: [] });
  }
  return kept;
}

/** Options of {@link generateScenarios}. */
export interface GenerateOptions {
  configs: readonly ModelConfig[];
  paths: 'shortest' | 'simple';
  /** Most scenarios per configuration. */
  max?: number;
}

/** The scenarios of a configuration's covering set (see {@link coveringPaths}). */
export function coveringScenarios(result: CoverageResult, max = Infinity): GeneratedScenario[] {
  return coveringPaths(result)
    .slice(0, max)
    .map(({ path, covers }, i) => toScenario(result.config, path, i, covers));
}

/**
 * Generates the scenarios of the given configurations: with 'shortest', the covering set
 * of the shortest paths; with 'simple', simple paths of a coarser model (default 50).
 */
export function generateScenarios(options: GenerateOptions): GeneratedScenario[] {
  const out: GeneratedScenario[] = [];
  for (const config of options.configs) {
    if (options.paths === 'simple') {
      simplePaths(config, options.max ?? 50).forEach((path, i) => out.push(toScenario(config, path, i)));
    } else {
      out.push(...coveringScenarios(computeCoverage(config), options.max));
    }
  }
  return out;
}

/** A scenario file's text: two-space JSON and a final newline. */
export function scenarioText(scenario: Scenario): string {
  return `${JSON.stringify(scenario, null, 2)}\n`;
}
