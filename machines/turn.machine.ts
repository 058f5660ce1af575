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
 *   nextPhase      between phases: the next phase, or the next turn      (CR 500.1, 500.7, 500.8)
 *   gameOver       one player is left                                   (CR 104.2a)
 *
 * This file only names things; guards and actions are implemented in turn.setup.ts.
 * Priority is one structure shared by every step: the player decisions at the root, and
 * each step's eventless `isStepOver` transitions (CR 117.4, 500.2). Turn-based actions are
 * entry actions; skips are guarded transitions or steps passed over as they begin. There is
 * no `invoke` or `after`, so `xstate/graph` can walk the whole chart, and every transition
 * is taken in games of two and of three players under both rules profiles
 * (`npx mtg-turn-engine coverage`).
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

/**
 * A phase ends: the turn goes through `#turn.nextPhase`, the one place that decides what
 * comes next (CR 500.1, 500.7, 500.8).
 */
const toNextPhase = '#turn.nextPhase';

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
    CONCEDE: { guard: 'isPlayerInGame', actions: 'removePlayer' },
  },
  // CR 104.2a: with one player left, that player wins. Every step's own eventless
  // transitions wait while the game is over, so this one ends it.
  always: { guard: 'isGameOver', target: '.gameOver' },
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
          // CR 103.8a: the draw step of the starting player's first turn is passed over as it begins.
          always: { guard: 'isStepOver', target: 'draw' },
        },
        draw: {
          entry: [begin('beginning', 'draw'), 'drawForTurn', 'givePriorityToActivePlayer'],
          exit: endOfStep,
          always: { guard: 'isStepOver', target: toNextPhase },
        },
      },
    },
    precombatMain: {
      exit: endOfPhase,
      initial: 'main',
      states: {
        main: { ...priorityStep('precombatMain', 'main'), always: { guard: 'isStepOver', target: toNextPhase } },
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
              // CR 800.4j: with no active player nobody attacks; nor in a step passed over (CR 614.10).
              always: { guard: 'hasNoAttackDeclarationDue', target: 'priority' },
              on: { DECLARE_ATTACKERS: { guard: 'isLegalAttack', target: 'priority', actions: 'declareAttackers' } },
            },
            // CR 508.2: then the active player receives priority. 'classic': with no attackers
            // the rest of this step is passed over instead, so nobody receives priority.
            priority: { entry: ['skipRestOfStepWithoutAttackers', 'givePriorityToActivePlayer'] },
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
        endOfCombat: { ...priorityStep('combat', 'endOfCombat'), always: { guard: 'isStepOver', target: toNextPhase } },
      },
    },
    postcombatMain: {
      exit: endOfPhase,
      initial: 'main',
      states: {
        main: { ...priorityStep('postcombatMain', 'main'), always: { guard: 'isStepOver', target: toNextPhase } },
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
              always: [{ guard: 'wasCleanupActive', target: 'priority' }, { target: toNextPhase }],
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
    // CR 500.1, 500.7, 500.8: between phases. An added phase comes first, else the next phase
    // of the turn table; only the first main phase is precombat (CR 505.1a). After the ending
    // phase the next turn begins: an extra turn first, then turn order.
    nextPhase: {
      always: [
        { guard: { type: 'isNextPhase', params: { phase: 'combat' } }, target: 'combat', actions: 'beginPhase' },
        { guard: 'isNextPhaseFirstMain', target: 'precombatMain', actions: 'beginPhase' },
        { guard: { type: 'isNextPhase', params: { phase: 'main' } }, target: 'postcombatMain', actions: 'beginPhase' },
        { guard: { type: 'isNextPhase', params: { phase: 'ending' } }, target: 'ending', actions: 'beginPhase' },
        { guard: and(['isTurnOver', 'hasExtraTurn']), target: 'beginning', actions: 'beginTurn' },
        { guard: 'isTurnOver', target: 'beginning', actions: 'beginTurn' },
      ],
    },
    gameOver: { type: 'final' },
  },
});

/** The turn machine's type. */
export type TurnMachine = typeof turnMachine;

