/**
 * The turn of Magic: The Gathering as one statechart (CR 500-514).
 *
 * Phases are parent states and steps their children, in the order of the CR's turn table:
 *
 *   beginning      untap -> upkeep -> draw                              (CR 501-504)
 *   precombatMain  main                                                 (CR 505)
 *   combat         beginningOfCombat -> declareAttackers -> declareBlockers
 *                  -> firstStrikeDamage -> combatDamage -> endOfCombat (CR 506-511)
 *   postcombatMain main                                                 (CR 505)
 *   ending         end -> cleanup (-> cleanup ...)                      (CR 512-514)
 *
 * This file only names things; guards and actions are implemented in turn.setup.ts.
 * Priority is one structure shared by every step: the player decisions at the root, and
 * each step's eventless `isStepOver` transitions (CR 117.4, 500.2). Turn-based actions are
 * entry actions; skips are guarded transitions. There is no `invoke` or `after`, so
 * `xstate/graph` can walk the whole chart.
 */
import { and } from 'xstate';
import { initialContext } from './turn.effects.js';
import { turnSetup } from './turn.setup.js';
import type { PhaseName, StepName } from './turn.types.js';

/** The entry action that begins a step (CR 500.4; passed over when skipped, CR 614.10). */
function begin(phase: PhaseName, step: StepName) {
  return { type: 'beginStep', params: { phase, step } } as const;
}

/** Records steps that this turn does not have, and why. */
function record(phase: PhaseName, steps: StepName[], rule: string) {
  return { type: 'recordSkips', params: { phase, steps, rule } } as const;
}

/** Mana empties as each step ends under the current rules (CR 500.5). */
const endOfStep = { type: 'emptyManaPools', params: { at: 'step' } } as const;
/** ... and as each phase ends under 'classic' rules, with mana burn (classic 300.3). */
const endOfPhase = { type: 'emptyManaPools', params: { at: 'phase' } } as const;

type StateConfig = Parameters<typeof turnSetup.createStateConfig>[0];
type Transition = Extract<Extract<NonNullable<StateConfig['always']>, readonly unknown[]>[number], { target?: unknown }>;
type Guard = NonNullable<Transition['guard']>;

/** What can follow a phase: a phase node, or the next turn (an extra turn first, CR 500.7). */
type NextPart = 'combat' | 'precombatMain' | 'postcombatMain' | 'ending' | 'extraTurn' | 'nextTurn';

/**
 * Where a phase goes when it ends (CR 500.1): a phase added after it comes first (CR 500.8),
 * else the next phase of the turn table; only the first main phase of a turn is precombat
 * (CR 505.1a). After the last phase the next turn begins, an extra turn first (CR 500.7).
 * `next` lists what can follow this phase; `when` is the condition for the phase to end.
 */
function leavePhase(next: NextPart[], when?: Guard, ...actions: ReturnType<typeof record>[]): Transition[] {
  const only = (guard: Guard): Guard => (when === undefined ? guard : (and([when as never, guard as never]) as Guard));
  const go = (guard: Guard, target: string, action: 'beginPhase' | 'beginTurn', reenter = false): Transition =>
    ({ guard: only(guard), target, reenter, actions: [...actions, action] }) as Transition;
  const transitions: Record<NextPart, Transition> = {
    combat: go({ type: 'isNextPhase', params: { phase: 'combat' } }, '#turn.combat', 'beginPhase', true),
    precombatMain: go('isNextPhaseFirstMain', '#turn.precombatMain', 'beginPhase'),
    postcombatMain: go({ type: 'isNextPhase', params: { phase: 'main' } }, '#turn.postcombatMain', 'beginPhase', true),
    ending: go({ type: 'isNextPhase', params: { phase: 'ending' } }, '#turn.ending', 'beginPhase'),
    extraTurn: go(and(['isTurnOver', 'hasExtraTurn']) as Guard, '#turn.beginning', 'beginTurn'),
    nextTurn: go('isTurnOver', '#turn.beginning', 'beginTurn'),
  };
  return next.map((part) => transitions[part]);
}

/** After the beginning phase: the first main phase, or a combat phase added during it (CR 500.8). */
const AFTER_BEGINNING: NextPart[] = ['combat', 'precombatMain'];
/** After the precombat main phase: combat, or the regular main phase when an added main phase came first. */
const AFTER_PRECOMBAT_MAIN: NextPart[] = ['combat', 'postcombatMain'];
/**
 * After combat: another combat phase, a main phase (the first one if this combat was added
 * before it), or, when it was added with no main phase after it, whatever followed the phase
 * it was added after: the ending phase or the next turn.
 */
const AFTER_COMBAT: NextPart[] = ['combat', 'precombatMain', 'postcombatMain', 'ending', 'extraTurn', 'nextTurn'];
/**
 * After a postcombat main phase: an added or the regular combat, the regular main phase after
 * an added one, the ending phase, or (after phases added at the end of the turn) the next turn.
 */
const AFTER_POSTCOMBAT_MAIN: NextPart[] = ['combat', 'postcombatMain', 'ending', 'extraTurn', 'nextTurn'];
/** After the ending phase: the next turn, or a combat phase added during it. */
const AFTER_ENDING: NextPart[] = ['combat', 'extraTurn', 'nextTurn'];

/** A step in which players receive priority and nothing else happens first (CR 503.1, 507.2, 511.1, 513.1). */
function priorityStep(phase: PhaseName, step: StepName) {
  return { entry: [begin(phase, step), 'givePriorityToActivePlayer'], exit: endOfStep } as const;
}

export const turnMachine = turnSetup.createMachine({
  id: 'turn',
  context: ({ input }) => initialContext(input),
  entry: 'announceFirstTurn',
  initial: 'beginning',
  on: {
    // Player decisions that need priority (CR 117.1-117.4).
    PASS_PRIORITY: [
      { guard: 'isLastToPassWithObjectOnStack', actions: ['passPriority', 'resolveTopOfStack', 'givePriorityToActivePlayer'] },
      { guard: 'holdsPriority', actions: 'passPriority' },
    ],
    CAST_SPELL: { guard: 'canCastSpell', actions: ['castSpell', 'keepPriority'] },
    ACTIVATE_ABILITY: { guard: 'canActivateAbility', actions: ['activateAbility', 'keepPriority'] },
    PLAY_LAND: { guard: 'canPlayLand', actions: ['playLand', 'keepPriority'] },
    // What the host's cards did: accepted at any time while the game is live (CR 117.1d).
    TRIGGER: { actions: 'addTriggers' },
    HAND_SIZE: { guard: 'isPlayerInGame', actions: 'setHandSize' },
    ADD_MANA: { guard: 'isPlayerInGame', actions: 'addMana' },
    SPEND_MANA: { guard: 'canSpendMana', actions: 'spendMana' },
    ADD_EXTRA_TURN: { guard: 'canAddExtraTurn', actions: 'addExtraTurn' },
    ADD_EXTRA_COMBAT: { guard: 'canAddExtraCombat', actions: 'addExtraCombat' },
    SKIP_NEXT: { guard: 'canSkipNext', actions: 'skipNext' },
    // Leaving the game, at any time (CR 104.3a, 800.4).
    CONCEDE: [
      { guard: 'leavesOnePlayer', target: '.gameOver', actions: 'removePlayer' },
      { guard: 'isPlayerInGame', actions: 'removePlayer' },
    ],
  },
  states: {
    beginning: {
      exit: endOfPhase,
      initial: 'untap',
      states: {
        // CR 502: no player receives priority; the step ends when its actions are done (500.3).
        untap: {
          entry: [begin('beginning', 'untap'), 'untapActivePlayer'],
          exit: endOfStep,
          always: { guard: 'isStepOver', target: 'upkeep' },
        },
        upkeep: {
          ...priorityStep('beginning', 'upkeep'),
          always: [
            // CR 103.8a: in a two-player game the starting player skips their first draw.
            ...leavePhase(AFTER_BEGINNING, and(['isStepOver', 'skipsFirstDraw']) as Guard, record('beginning', ['draw'], '103.8a')),
            { guard: 'isStepOver', target: 'draw' },
          ],
        },
        draw: {
          entry: [begin('beginning', 'draw'), 'drawForTurn', 'givePriorityToActivePlayer'],
          exit: endOfStep,
          always: leavePhase(AFTER_BEGINNING, 'isStepOver'),
        },
      },
    },
    precombatMain: {
      exit: endOfPhase,
      initial: 'main',
      states: {
        main: { ...priorityStep('precombatMain', 'main'), always: leavePhase(AFTER_PRECOMBAT_MAIN, 'isStepOver') },
      },
    },
    combat: {
      entry: 'beginCombat',
      exit: ['endCombat', endOfPhase],
      initial: 'beginningOfCombat',
      states: {
        beginningOfCombat: {
          ...priorityStep('combat', 'beginningOfCombat'),
          always: { guard: 'isStepOver', target: 'declareAttackers' },
        },
        declareAttackers: {
          entry: begin('combat', 'declareAttackers'),
          exit: endOfStep,
          initial: 'declaring',
          states: {
            // CR 508.1: the active player declares attackers.
            declaring: {
              always: [
                // CR 800.4j: with no active player nobody attacks.
                { guard: and(['hasNoActivePlayer', 'isClassic']), target: '#turn.combat.endOfCombat', actions: record('combat', ['declareBlockers', 'combatDamage'], '508.8') },
                { guard: 'hasNoActivePlayer', target: 'priority' },
              ],
              on: {
                DECLARE_ATTACKERS: [
                  // 'classic': with no attackers the rest of this step is skipped too.
                  {
                    guard: and(['isLegalAttack', 'declaresNoAttackers', 'isClassic']),
                    target: '#turn.combat.endOfCombat',
                    actions: ['declareAttackers', record('combat', ['declareBlockers', 'combatDamage'], '508.8')],
                  },
                  { guard: 'isLegalAttack', target: 'priority', actions: 'declareAttackers' },
                ],
              },
            },
            // CR 508.2: then the active player receives priority.
            priority: { entry: 'givePriorityToActivePlayer' },
          },
          always: [
            { guard: and(['isStepOver', 'hasAttackers']), target: 'declareBlockers' },
            // CR 508.8: no attackers, so no declare blockers and combat damage steps.
            { guard: 'isStepOver', target: 'endOfCombat', actions: record('combat', ['declareBlockers', 'combatDamage'], '508.8') },
          ],
        },
        declareBlockers: {
          entry: begin('combat', 'declareBlockers'),
          exit: endOfStep,
          initial: 'declaring',
          states: {
            // CR 509.1: each defending player declares blockers, in APNAP order.
            declaring: {
              always: { guard: 'hasNoBlockDeclarationDue', target: 'priority' },
              on: { DECLARE_BLOCKERS: { guard: 'isLegalBlock', actions: 'declareBlockers' } },
            },
            // CR 509.2: then the active player receives priority.
            priority: { entry: 'givePriorityToActivePlayer' },
          },
          always: [
            // CR 510.4: first or double strike adds a first combat damage step.
            { guard: and(['isStepOver', 'hasFirstStrikeCombatant']), target: 'firstStrikeDamage' },
            { guard: 'isStepOver', target: 'combatDamage', actions: record('combat', ['firstStrikeDamage'], '510.4') },
          ],
        },
        firstStrikeDamage: {
          entry: [begin('combat', 'firstStrikeDamage'), { type: 'dealCombatDamage', params: { first: true } }, 'givePriorityToActivePlayer'],
          exit: endOfStep,
          always: { guard: 'isStepOver', target: 'combatDamage' },
        },
        combatDamage: {
          entry: [begin('combat', 'combatDamage'), { type: 'dealCombatDamage', params: { first: false } }, 'givePriorityToActivePlayer'],
          exit: endOfStep,
          always: { guard: 'isStepOver', target: 'endOfCombat' },
        },
        endOfCombat: { ...priorityStep('combat', 'endOfCombat'), always: leavePhase(AFTER_COMBAT, 'isStepOver') },
      },
    },
    postcombatMain: {
      exit: endOfPhase,
      initial: 'main',
      states: {
        main: { ...priorityStep('postcombatMain', 'main'), always: leavePhase(AFTER_POSTCOMBAT_MAIN, 'isStepOver') },
      },
    },
    ending: {
      exit: endOfPhase,
      initial: 'end',
      states: {
        end: { ...priorityStep('ending', 'end'), always: { guard: 'isStepOver', target: 'cleanup' } },
        cleanup: {
          entry: begin('ending', 'cleanup'),
          exit: endOfStep,
          initial: 'discarding',
          states: {
            // CR 514.1: the active player discards down to their maximum hand size.
            discarding: {
              always: { guard: 'hasNoDiscardDue', target: 'checking' },
              on: { DISCARD: { guard: 'isDiscardDue', target: 'checking', actions: 'discardToHandSize' } },
            },
            // CR 514.2, 514.3: damage wears off; then, normally, the step ends with no priority.
            checking: {
              entry: ['endTurnEffects', 'checkCleanup'],
              always: [{ guard: 'wasCleanupActive', target: 'priority' }, ...leavePhase(AFTER_ENDING)],
            },
            // CR 514.3a: state-based actions or triggers: players receive priority, then another cleanup step begins.
            priority: {
              entry: 'givePriorityToActivePlayer',
              always: { guard: 'isStepOver', target: '#turn.ending.cleanup', reenter: true },
            },
          },
        },
      },
    },
    gameOver: { type: 'final' },
  },
});

/** The turn machine's type. */
export type TurnMachine = typeof turnMachine;

