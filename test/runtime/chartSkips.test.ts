/**
 * The chart names the skips (issue 21): each phase's `nextStep` state passes over its next step
 * by one guarded transition per rule, `passOverStep` with that rule as its parameter:
 * isOtherStepOfAddedPhase (500.10), isFirstDrawSkipped (103.8a), hasNoAttackers (508.8),
 * hasNoFirstStrike (510.4), isSkippedByEffect (614.10). Games are stepped through XState
 * with an inspection observer (the model coverage's own `observeStep`), which shows which
 * of these transitions each skip takes.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { turnMachine } from '../../machines/turn.machine.js';
import { GUARDS } from '../../machines/turn.setup.js';
import { initialContext } from '../../machines/turn.effects.js';
import type { TurnEvent, TurnPhaseName, TurnStepName } from '../../src/contract.js';
import { toInput } from '../../src/game/create.js';
import type { GameOptions } from '../../src/game/types.js';
import { describeAction, describeGuard, observeStep } from '../../src/model/coverage.js';
import { accepts, initialSnapshot, type TurnSnapshot } from '../../src/model/model.js';
import { newCombat } from '../../src/rules/combat.js';
import * as schedule from '../../src/rules/schedule.js';
import { copyCounts, kindOf, newPhase, STEPS_OF_PHASE, stepSkipRule, type StepSkip, type StepSkipRule } from '../../src/rules/schedule.js';
import { mismatch } from '../../src/scenarios/match.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';
import type { TurnContext } from '../../src/state.js';
import { viewOf } from '../../src/view.js';

type Transition = { guard?: unknown; actions: readonly unknown[]; target?: readonly AnyStateNode[] };
const root = turnMachine.root as unknown as { states: Record<string, { states: Record<string, { always?: Transition[]; transitions: Map<string, Transition[]> }> }> };

/** The skips a phase's `nextStep` state lists: [guard, its action], in order. */
function hubSkips(phase: TurnPhaseName): [string | null, string][] {
  const hub = root.states[phase]?.states.nextStep;
  return (hub?.always ?? []).filter((t) => t.actions.map(describeAction).some((a) => a.startsWith('passOverStep'))).map((t) => [describeGuard(t.guard), t.actions.map(describeAction).join(', ')]);
}

/** The guard that names each rule's skip in the chart. */
const GUARD_OF: Record<StepSkipRule, string> = {
  '500.10': 'isOtherStepOfAddedPhase',
  '103.8a': 'isFirstDrawSkipped',
  '508.8': 'hasNoAttackers',
  '510.4': 'hasNoFirstStrike',
  '614.10': 'isSkippedByEffect',
};

/** The rules that pass over a step, in the order stepSkipRule checks them, each with its rules function (named as its guard). */
const ORDER: StepSkipRule[] = ['500.10', '103.8a', '508.8', '510.4', '614.10'];
const SKIP_OF = (rule: StepSkipRule): StepSkip => (schedule as unknown as Record<string, StepSkip>)[GUARD_OF[rule]] as StepSkip;

const ADDED = ['isOtherStepOfAddedPhase', 'passOverStep(500.10)'];
const BY_EFFECT = ['isSkippedByEffect', 'passOverStep(614.10)'];

describe('the nextStep states name each skip with its rule', () => {
  it('list isOtherStepOfAddedPhase (500.10), isFirstDrawSkipped (103.8a), hasNoAttackers (508.8), hasNoFirstStrike (510.4), isSkippedByEffect (614.10), each phase those that can pass over one of its steps', () => {
    expect(hubSkips('beginning')).toEqual([ADDED, ['isFirstDrawSkipped', 'passOverStep(103.8a)'], BY_EFFECT]);
    expect(hubSkips('precombatMain')).toEqual([BY_EFFECT]);
    expect(hubSkips('combat')).toEqual([ADDED, ['hasNoAttackers', 'passOverStep(508.8)'], ['hasNoFirstStrike', 'passOverStep(510.4)'], BY_EFFECT]);
    expect(hubSkips('postcombatMain')).toEqual([BY_EFFECT]);
    expect(hubSkips('ending')).toEqual([ADDED, BY_EFFECT]);
  });

  it('check the skips before the steps, in the order of the rules (stepSkipRule), then take the next step, then leave the phase', () => {
    const order = ORDER;
    for (const [phase, steps] of Object.entries(STEPS_OF_PHASE) as [TurnPhaseName, readonly TurnStepName[]][]) {
      const always = root.states[phase]?.states.nextStep?.always ?? [];
      const rules = hubSkips(phase).map(([, action]) => /\((.*)\)/.exec(action)?.[1] as StepSkipRule);
      expect(rules.map((r) => order.indexOf(r)), phase).toEqual([...rules.map((r) => order.indexOf(r))].sort((a, b) => a - b));
      expect(always.slice(rules.length).map((t) => describeGuard(t.guard)), phase).toEqual([...steps.map((s) => `isNextStep(${s})`), null]);
    }
  });

  it('leave out only skips that cannot apply to a step of the phase: no added main phase has a step passed over (500.10, 505.2), the first draw is a beginning step (103.8a), 508.8 and 510.4 pass over combat steps', () => {
    for (const [phase, steps] of Object.entries(STEPS_OF_PHASE) as [TurnPhaseName, readonly TurnStepName[]][]) {
      if (hubSkips(phase).some(([guard]) => guard === GUARD_OF['500.10'])) continue;
      // Every way a phase of this kind is added (ADD_EXTRA_PHASE, ADD_EXTRA_COMBAT, ADD_EXTRA_STEP with afterPhase): none marks a step.
      for (const only of [undefined, ...steps]) expect(newPhase(kindOf(phase), true, only).steps.filter((s) => s.passedOver !== undefined), `${phase} ${only}`).toEqual([]);
    }
    // A context in which every rule that names the step would apply: turn 1 of a two-player game, a combat with attackers declared and none attacking.
    const base = initialContext(toInput({ players: ['A', 'B'] }));
    for (const [phase, steps] of Object.entries(STEPS_OF_PHASE) as [TurnPhaseName, readonly TurnStepName[]][]) {
      const listed = new Set(hubSkips(phase).map(([guard]) => guard));
      for (const rule of ORDER) {
        if (listed.has(GUARD_OF[rule])) continue;
        const skip = SKIP_OF(rule);
        for (const step of steps) {
          const ctx: TurnContext = { ...base, phase, step, steps: [{ step }], combat: { ...newCombat(), attacksDeclared: true } };
          expect(skip(ctx, phase, { step }, copyCounts(ctx.skips)), `${rule} in the ${phase} phase's ${step} step`).toBe(false);
        }
      }
    }
  });

  it('guard with the rules of src/rules/schedule.ts: the first guard that holds names the rule stepSkipRule gives', () => {
    const base = initialContext(toInput({ players: ['A', 'B'] }));
    const contexts: TurnContext[] = [
      { ...base, phase: 'beginning', step: 'upkeep', steps: [{ step: 'draw' }] },
      { ...base, phase: 'beginning', step: 'upkeep', steps: [{ step: 'draw' }], turn: 2 },
      { ...base, phase: 'beginning', step: 'upkeep', steps: [{ step: 'draw', passedOver: '500.10' }] },
      { ...base, phase: 'beginning', step: 'upkeep', steps: [{ step: 'draw' }], turn: 2, skips: { A: { draw: 1 } } },
      { ...base, phase: 'combat', step: 'declareAttackers', steps: [{ step: 'declareBlockers' }], combat: { ...newCombat(), attacksDeclared: true } },
      { ...base, phase: 'combat', step: 'declareBlockers', steps: [{ step: 'firstStrikeDamage' }], combat: { ...newCombat(), attacksDeclared: true, declared: true } },
      { ...base, phase: 'combat', step: 'declareBlockers', steps: [{ step: 'combatDamage' }], combat: { ...newCombat(), attacksDeclared: true, declared: true } },
      { ...base, phase: 'ending', step: 'end', steps: [{ step: 'cleanup' }], effects: [{ id: 'e', effect: { kind: 'skip', what: 'cleanup' }, duration: 'endOfTurn', since: 1 }] },
    ];
    const guards = GUARDS as unknown as Record<string, (args: { context: TurnContext; event: TurnEvent }) => boolean>;
    const seen = new Set<string | null>();
    for (const context of contexts) {
      const entry = context.steps[0] as { step: TurnStepName };
      const rule = stepSkipRule(context, context.phase as TurnPhaseName, entry, copyCounts(context.skips));
      const first = ORDER.find((r) => guards[GUARD_OF[r]]?.({ context, event: { type: 'END_COMBAT' } as TurnEvent }));
      expect(first ?? null, JSON.stringify(context.steps)).toBe(rule);
      seen.add(rule);
    }
    expect([...seen].sort()).toEqual(['103.8a', '500.10', '508.8', '510.4', '614.10', null].sort());
  });
});

/** A game stepped through XState with an inspection observer; the skips it took, in order. */
interface Observed {
  snapshot: TurnSnapshot;
  /** Each skip taken: the state it left, its guard and its action ('combat.nextStep hasNoAttackers passOverStep(508.8)'). */
  skips: string[];
  /** The state nodes the game was in, by id ('turn.combat.declareBlockers'). */
  nodes: Set<string>;
}

function observe(options: GameOptions): Observed {
  return { snapshot: initialSnapshot({ name: 'skips', options: { seed: 1, ...options }, unreachable: {} }), skips: [], nodes: new Set() };
}

function send(o: Observed, event: TurnEvent): void {
  expect(accepts(o.snapshot, event), `${JSON.stringify(event)} is accepted`).toBe(true);
  const step = observeStep(o.snapshot, event);
  for (const t of step.transitions) {
    const actions = t.actions.map(describeAction);
    if (actions.some((a) => a.startsWith('passOverStep'))) o.skips.push(`${t.source.id.replace(/^turn\./, '')} ${describeGuard(t.guard)} ${actions.join(', ')}`);
  }
  for (const n of step.nodes) o.nodes.add(n);
  o.snapshot = step.next;
}

function passUntil(o: Observed, pattern: Record<string, unknown>): void {
  for (let i = 0; mismatch(pattern, viewOf(o.snapshot, 0)) !== null; i++) {
    if (i >= 200) throw new Error(`passUntil ${JSON.stringify(pattern)} not reached`);
    send(o, plainestAnswer(viewOf(o.snapshot, 0)) as TurnEvent);
  }
}

describe('a game shows which skip passed a step over', () => {
  it('103.8a: the starting player of a two-player game goes from upkeep past the draw step through isFirstDrawSkipped', () => {
    const o = observe({ players: ['A', 'B'] });
    passUntil(o, { turn: 1, phase: 'precombatMain' });
    expect(o.skips).toEqual(['beginning.nextStep isFirstDrawSkipped passOverStep(103.8a)']);
    expect(o.nodes.has('turn.beginning.draw')).toBe(false);
  });

  it('508.8: a turn with no attackers goes from declareAttackers past declareBlockers and combatDamage through hasNoAttackers', () => {
    const o = observe({ players: ['A', 'B'] });
    passUntil(o, { turn: 1, step: 'declareAttackers' });
    o.skips.length = 0;
    send(o, { type: 'DECLARE_ATTACKERS', player: 'A', attackers: [] });
    passUntil(o, { turn: 1, step: 'endOfCombat' });
    // The first-strike damage step has no attackers either: 508.8 is checked before 510.4.
    expect(o.skips).toEqual(Array(3).fill('combat.nextStep hasNoAttackers passOverStep(508.8)'));
    for (const step of ['declareBlockers', 'firstStrikeDamage', 'combatDamage']) expect(o.nodes.has(`turn.combat.${step}`), step).toBe(false);
  });

  it('510.4: with attackers and no first or double strike, the first-strike damage step is passed over through hasNoFirstStrike', () => {
    const o = observe({ players: ['A', 'B'] });
    passUntil(o, { turn: 1, step: 'declareAttackers' });
    o.skips.length = 0;
    send(o, { type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear', defender: 'B' }] });
    passUntil(o, { turn: 1, step: 'endOfCombat' });
    expect(o.skips).toEqual(['combat.nextStep hasNoFirstStrike passOverStep(510.4)']);
    expect(o.nodes.has('turn.combat.declareBlockers') && o.nodes.has('turn.combat.combatDamage')).toBe(true);
    expect(o.nodes.has('turn.combat.firstStrikeDamage')).toBe(false);
  });

  it('614.10: a pending skip and a skip effect pass steps over through isSkippedByEffect, and the pending skip is used up', () => {
    const o = observe({ players: ['A', 'B'] });
    passUntil(o, { turn: 1, step: 'upkeep' });
    send(o, { type: 'SKIP_NEXT', player: 'B', what: 'draw' });
    send(o, { type: 'ADD_EFFECT', id: 'no-end', effect: { kind: 'skip', what: 'end' }, duration: 'endOfTurn' });
    o.skips.length = 0;
    passUntil(o, { turn: 2, phase: 'precombatMain' });
    expect(o.skips).toEqual([
      'beginning.nextStep isFirstDrawSkipped passOverStep(103.8a)',
      ...Array(3).fill('combat.nextStep hasNoAttackers passOverStep(508.8)'),
      'ending.nextStep isSkippedByEffect passOverStep(614.10)',
      'beginning.nextStep isSkippedByEffect passOverStep(614.10)',
    ]);
    expect(o.snapshot.context.skips).toEqual({ B: {} });
  });

  it('500.10: an added phase with only an upkeep step passes its untap and draw steps over through isOtherStepOfAddedPhase', () => {
    const o = observe({ players: ['A', 'B', 'C'] });
    passUntil(o, { turn: 1, step: 'upkeep' });
    send(o, { type: 'ADD_EXTRA_STEP', step: 'upkeep', afterPhase: 'beginning' });
    o.skips.length = 0;
    passUntil(o, { turn: 1, phase: 'precombatMain' });
    expect(o.skips).toEqual(Array(2).fill('beginning.nextStep isOtherStepOfAddedPhase passOverStep(500.10)'));
  });
});
