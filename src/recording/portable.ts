/**
 * A recorded scenario's expectations made portable (CONTRACT "Scenarios", docs/testing.md
 * "Recordings as cross-engine tests"): what another engine built to the contract can be asked.
 * `recordingToScenario(recording, { expect: 'portable' })` and the shipped recorded corpus
 * (src/conformance/recorded.ts) keep the view fields of the features the game plays and only what
 * the contract fixes of them. Pure; imports only the feature tables.
 */
import type { Scenario, ScenarioStep } from '../scenarios/schema.js';
import { scenarioFeatures, viewFieldFeature, type Feature } from '../conformance/features.js';

/**
 * The expectations of `scenario` without the view fields of features it does not otherwise need
 * (its setup, its sends and injects, the events it expects emitted): a two-player game that
 * never sets stops is not tagged `stops` for matching `stops: { A: null, B: null }`.
 */
export function narrowExpectations(scenario: Scenario): Scenario {
  const played = new Set<Feature>(scenarioFeatures({ ...scenario, steps: scenario.steps.filter((s) => !('expect' in s)) }));
  const steps = scenario.steps.map((step): ScenarioStep => {
    if (!('expect' in step)) return step;
    const kept = Object.entries(step.expect).filter(([field]) => {
      const feature = viewFieldFeature(field);
      return feature === undefined || played.has(feature);
    });
    return { ...step, expect: Object.fromEntries(kept) };
  });
  return { ...scenario, steps };
}

/** The fields of the contract's TurnView (CONTRACT.md, "TurnView"), and `turnMarker` and `player` of a Grand Melee `turns` entry. */
const TURN_ENTRY_FIELDS: ReadonlySet<string> = new Set([
  'turnMarker', 'player', 'version', 'turn', 'activePlayer', 'activeTeam', 'phase', 'step', 'priority', 'awaiting', 'decidedBy', 'stack', 'landsPlayed', 'landPlaysAllowed',
  'spellsCast', 'manaPool', 'handSizes', 'maxHandSize', 'players', 'teams', 'dayNight', 'combat', 'effects', 'schedule', 'stops', 'gameOver', 'rules', 'seq', 'currentTurn',
]);

/** `schedule` with only the first `count` turns (an object keyed by index matches an array's first elements). */
function scheduleHead(schedule: unknown, count: number): unknown {
  if (typeof schedule !== 'object' || schedule === null || !Array.isArray((schedule as { turns?: unknown }).turns)) return schedule;
  const turns = (schedule as { turns: unknown[] }).turns;
  return { ...schedule, turns: Object.fromEntries(turns.slice(0, count).map((t, i) => [String(i), t])) };
}

/**
 * The expectations of `scenario` held to what the contract fixes: `schedule.turns` lists "at
 * least the next players.length + 1 turns", so only those first entries are expected (this
 * engine lists more when turns are skipped); a Grand Melee `turns` entry is "TurnView-like", so
 * only TurnView's fields (and its marker and player) are expected of it.
 */
export function contractExpectations(scenario: Scenario): Scenario {
  let players = scenario.setup.players.length;
  const steps = scenario.steps.map((step): ScenarioStep => {
    if (!('expect' in step)) return step;
    const expect = { ...step.expect };
    if (Array.isArray(expect.players)) players = expect.players.length;
    if ('schedule' in expect) expect.schedule = scheduleHead(expect.schedule, players + 1);
    if (Array.isArray(expect.turns)) {
      expect.turns = expect.turns.map((entry: unknown) => {
        if (typeof entry !== 'object' || entry === null) return entry;
        const kept = Object.entries(entry).filter(([field]) => TURN_ENTRY_FIELDS.has(field));
        return Object.fromEntries(kept.map(([field, value]) => [field, field === 'schedule' ? scheduleHead(value, players + 1) : value]));
      });
    }
    return { ...step, expect };
  });
  return { ...scenario, steps };
}

/** Both: the fields of the features the game plays, held to what the contract fixes of them. */
export function portableExpectations(scenario: Scenario): Scenario {
  return contractExpectations(narrowExpectations(scenario));
}
