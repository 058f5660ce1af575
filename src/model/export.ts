/**
 * Model paths as conformance scenarios (CONTRACT.md, "Scenarios"): after every `send`, an
 * `expect` of what the model predicts (turn, activePlayer, phase, step, priority,
 * awaiting, stack); at the end, the events the model offers there that the rules refuse,
 * each with `reject`. The files are deterministic: same model, same bytes.
 */
import type { TurnEvent, TurnView } from '../contract.js';
import type { Scenario, ScenarioStep } from '../scenarios/schema.js';
import { viewOf } from '../view.js';
import type { MachineEvent } from '../state.js';
import { leafPath, seatOf, serializeState } from './abstraction.js';
import { computeCoverage, type CoverageResult } from './coverage.js';
import { decisionEvents } from './events.js';
import { accepts, configName, isMarkerConfig, initialSnapshot, modelSetup, nextSnapshot, type ModelConfig, type ModelPath, type TurnSnapshot } from './model.js';

/** The view fields every generated `expect` holds. */
export const EXPECTED_FIELDS = ['turn', 'activePlayer', 'phase', 'step', 'priority', 'awaiting', 'stack'] as const;

/** The part of a view a generated scenario expects. */
export function expectedView(view: TurnView): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of EXPECTED_FIELDS) out[f] = view[f];
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

/** The model's prediction along a path: the snapshot after each event (replayed on the machine). */
export function predict(config: ModelConfig, events: readonly MachineEvent[]): TurnSnapshot[] {
  const out: TurnSnapshot[] = [];
  let s = initialSnapshot(config);
  for (const e of events) {
    if (!accepts(s, e)) throw new Error(`the model path sends ${JSON.stringify(e)}, which the game refuses in ${leafPath(s.value)}`);
    out.push((s = nextSnapshot(s, e)));
  }
  return out;
}

/**
 * Events the game refuses in a snapshot, with the code it gives: once the game is over, any
 * event (GAME_OVER); otherwise a pass from a player who does not hold priority and a land
 * played out of turn (ILLEGAL_ACTION), those of them the rules refuse there.
 */
export function refusedEvents(snapshot: TurnSnapshot): { send: TurnEvent; reject: string }[] {
  const ctx = snapshot.context;
  if (snapshot.status !== 'active' || ctx.result !== null) {
    const player = ctx.players[0] ?? (ctx.seats[0] as string);
    return [{ send: { type: 'PASS_PRIORITY', player }, reject: 'GAME_OVER' }];
  }
  const offered = new Set(decisionEvents(snapshot).map((e) => JSON.stringify(e)));
  const probes: TurnEvent[] = ctx.players.flatMap((player): TurnEvent[] => [
    { type: 'PASS_PRIORITY', player },
    { type: 'PLAY_LAND', player },
  ]);
  return probes.filter((e) => !offered.has(JSON.stringify(e)) && !accepts(snapshot, e)).map((send) => ({ send, reject: 'ILLEGAL_ACTION' }));
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
  if (snapshot.status !== 'active' || ctx.result !== null) return `gameOver (${ctx.result?.draw ? 'a draw' : `${ctx.result?.winners.join(', ') ?? ''} wins`})`;
  const parts = [leafPath(snapshot.value)];
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
    steps.push({ expect: expectedView(viewOf(snapshots[i] as TurnSnapshot, 0)) });
  });
  for (const r of refusedEvents(last)) steps.push(r);
  const seq = String(index + 1).padStart(3, '0');
  const leaf = last.status === 'active' ? leafPath(last.value) : 'gameOver';
  const name = `${configName(config)} ${seq}: ${describeState(last)}`;
  const description =
    `Generated from the statechart by \`mtg-turn-engine generate\`; model state ${serializeState(last)}.` +
    (covers.length > 0 ? ` First to cover: ${covers.join('; ')}.` : '');
  return {
    file: `${configName(config)}-${seq}-${leaf.replaceAll('.', '-')}.json`,
    scenario: { name, description, setup: modelSetup(config), steps },
    covers: [...covers],
  };
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

/** Options of {@link generateScenarios}. */
export interface GenerateOptions {
  configs: readonly ModelConfig[];
  /** Most scenarios per configuration. */
  max?: number;
}

/** The scenarios of a configuration's covering set (see {@link coveringPaths}). */
export function coveringScenarios(result: CoverageResult, max = Infinity): GeneratedScenario[] {
  // A Grand Melee turn marker's paths send the coordinator's BEGIN_MARKER_TURN, which no host can: no host scenarios (CR 807.4c).
  if (isMarkerConfig(result.config)) return [];
  return coveringPaths(result)
    .slice(0, max)
    .map(({ path, covers }, i) => toScenario(result.config, path, i, covers));
}

/** Generates the scenarios of the given configurations: the covering set of the model's shortest paths. */
export function generateScenarios(options: GenerateOptions): GeneratedScenario[] {
  return options.configs.flatMap((config) => coveringScenarios(computeCoverage(config), options.max));
}

/** A scenario file's text: two-space JSON and a final newline. */
export function scenarioText(scenario: Scenario): string {
  return `${JSON.stringify(scenario, null, 2)}\n`;
}
