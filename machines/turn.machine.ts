/**
 * The turn of Magic: The Gathering as one statechart (CR 500-514, 724).
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
 *   turnMarkerPassed  Grand Melee: the turn is over, the marker waits to begin the next (CR 807.4c-d)
 *   gameOver       the game has ended                                   (CR 104)
 *
 * What comes next is one queue in the context: the steps left in this phase and the phases
 * left in this turn, so added steps and phases (500.8-500.10) are taken by the same
 * transitions as regular ones. Each phase's `nextStep` state takes the next step or passes
 * it over, one guarded transition per rule that can: isOtherStepOfAddedPhase (500.10),
 * isFirstDrawSkipped (103.8a), hasNoAttackers (508.8), hasNoFirstStrike (510.4),
 * isSkippedByEffect (614.10), each with `passOverStep` and its rule; `nextPhase` does the same
 * for phases and turns.
 * States that wait for input carry an `awaiting:*` tag, which the view reads.
 *
 * This file only names things; guards and actions are implemented in turn.implementations.ts (turn.setup.ts hands them to XState). There is
 * no `invoke` or `after`, so `xstate/graph` can walk the whole chart.
 */
import { turnSetup } from './turn.setup.js';
import { initialContext } from './turn.effects.js';
import type { TurnPhaseName, TurnStepName } from '../src/contract.js';
import type { StepSkipRule } from '../src/rules/schedule.js';

/** The entry action that begins a step (CR 500.4). */
function begin(step: TurnStepName) {
  return { type: 'beginStep', params: { step } } as const;
}

/** Mana empties as each step ends in the current eras (CR 500.5) ... */
const endOfStep = { type: 'emptyManaPools', params: { at: 'step' } } as const;
/** ... and as each phase ends, after the phase's own effects ended (500.5); in 'classic' only then, with mana burn (classic 300.3). */
const endOfPhase = { type: 'emptyManaPools', params: { at: 'phase' } } as const;

/** A phase is over: `#turn.nextPhase` decides what comes next. */
const toNextPhase = '#turn.nextPhase';
const priorityTags = ['awaiting:priority'];

/** A step in which the active player receives priority after the step's own actions. */
function priorityStep<const A extends readonly unknown[] = []>(step: TurnStepName, actions: A = [] as unknown as A) {
  return {
    entry: [begin(step), ...actions, 'givePriorityToActivePlayer'],
    exit: endOfStep,
    tags: priorityTags,
    always: { guard: 'isStepOver', target: 'nextStep' },
  } as const;
}

/** The next step is passed over when `guard` holds, by `rule`: it does not begin and emits nothing. */
function passOver<const G extends string, const R extends StepSkipRule>(guard: G, rule: R) {
  return { guard, actions: { type: 'passOverStep', params: { rule } } } as const;
}

/**
 * The skips of a step about to begin, each named as its rule says (src/rules/schedule.ts). A
 * phase's `nextStep` lists those that can pass over one of its steps, in this order.
 */
// CR 500.10: a step "after this phase" gets a phase of its own, whose other steps are passed over.
const otherStepOfAddedPhase = passOver('isOtherStepOfAddedPhase', '500.10');
// CR 103.8a: the starting player of a two-player game skips the draw step of their first turn.
const firstDraw = passOver('isFirstDrawSkipped', '103.8a');
// CR 508.8: with no attackers, there are no declare blockers and combat damage steps.
const noAttackers = passOver('hasNoAttackers', '508.8');
// CR 510.4: without first or double strike, there is no first combat damage step.
const noFirstStrike = passOver('hasNoFirstStrike', '510.4');
// CR 614.10: a skip effect, or a pending "skip your next ...", skips the step.
const skippedByEffect = passOver('isSkippedByEffect', '614.10');

/** Where a phase goes next: the next step passed over by the first of `skips` that applies, else the next step, else the next phase. */
function nextStep<const S extends readonly unknown[]>(steps: readonly TurnStepName[], skips: S) {
  return {
    always: [
      ...skips,
      ...steps.map((step) => ({ guard: { type: 'isNextStep', params: { step } }, target: step, actions: 'takeNextStep' }) as const),
      { target: toNextPhase },
    ],
  } as const;
}

/** Where the turn goes between phases (CR 500.1, 500.7, 500.8, 505.1a, 614.10). */
const phases: readonly TurnPhaseName[] = ['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending'];

export const turnMachine = turnSetup.createMachine({
  id: 'turn',
  context: ({ input }) => initialContext(input),
  initial: 'start',
  on: {
    // Player decisions that need priority (CR 117.1-117.4).
    PASS_PRIORITY: [
      { guard: 'isLastToPassWithObjectOnStack', actions: ['passPriority', 'resolveTopOfStack'] },
      { actions: 'passPriority' },
    ],
    CAST_SPELL: { actions: ['castSpell', 'keepPriority'] },
    ACTIVATE_ABILITY: { actions: ['activateAbility', 'keepPriority'] },
    PLAY_LAND: { actions: ['playLand', 'keepPriority'] },
    // CR 603.3b: with `orderTriggers: 'players'`, each player orders their triggers of a batch.
    ORDER_TRIGGERS: { actions: 'orderTriggers' },
    // CR 901.9: Planechase: the active player rolls the planar die (a special action).
    ROLL_PLANAR_DIE: { actions: 'rollPlanarDie' },
    // What the host's cards did: accepted at any time while the game is live (CR 117.1d).
    TRIGGER: { actions: 'addTriggers' },
    HAND_SIZE: { actions: 'applyHostEvent' },
    ADD_MANA: { actions: 'applyHostEvent' },
    SPEND_MANA: { actions: 'applyHostEvent' },
    ADD_EXTRA_TURN: { actions: 'applyHostEvent' },
    ADD_EXTRA_COMBAT: { actions: 'applyHostEvent' },
    ADD_EXTRA_STEP: { actions: 'applyHostEvent' },
    ADD_EXTRA_PHASE: { actions: 'applyHostEvent' },
    SKIP_NEXT: { actions: 'applyHostEvent' },
    ADD_EFFECT: { actions: 'applyHostEvent' },
    REMOVE_EFFECT: { actions: 'applyHostEvent' },
    REMOVE_FROM_STACK: { actions: 'applyHostEvent' },
    PUT_ON_STACK: { actions: 'applyHostEvent' },
    REMOVE_FROM_COMBAT: { actions: 'applyHostEvent' },
    SET_COMBAT_ABILITIES: { actions: 'applyHostEvent' },
    ADD_ATTACKER: { actions: 'applyHostEvent' },
    ADD_BLOCKER: { actions: 'applyHostEvent' },
    CONTROL_PLAYER: { actions: 'applyHostEvent' },
    SET_DAY_NIGHT: { actions: 'applyHostEvent' },
    SET_STOPS: { actions: 'applyHostEvent' },
    YIELD: { actions: 'applyHostEvent' },
    // CR 724.1: the turn ends: straight to the cleanup step.
    END_TURN: { target: '.ending.cleanup', actions: ['endTheTurnOrCombat', 'skipToCleanup'] },
    // CR 724.2g: outside a combat phase, ending the combat does nothing.
    END_COMBAT: {},
    // Leaving the game and its results, at any time (CR 104.3a, 800.4).
    CONCEDE: { actions: 'removePlayer' },
    LOSE: { actions: 'removePlayer' },
    WIN: { actions: 'removePlayer' },
    DRAW_GAME: { actions: 'removePlayer' },
  },
  // CR 104: the game is over. Every step's own eventless transitions wait then, so this one ends it.
  always: [
    { guard: 'isGameOver', target: '.gameOver' },
    // CONTRACT "Stops and auto-pass": a player whose stops or yield say so passes automatically (117.4).
    { guard: 'shouldAutoPass', actions: 'autoPassPriority' },
  ],
  states: {
    // The game starts with the pregame (CR 103) when asked to, else with turn 1.
    start: {
      always: [{ guard: 'hasPregame', target: 'pregame' }, { target: 'nextPhase', actions: 'beginFirstTurn' }],
    },
    // CR 103: the starting player, mulligans and opening hand actions, then turn 1.
    pregame: {
      initial: 'choosingStartingPlayer',
      states: {
        // CR 103.1: a player chosen at random chooses who takes the first turn.
        choosingStartingPlayer: {
          tags: ['awaiting:chooseStartingPlayer'],
          on: { CHOOSE_STARTING_PLAYER: { target: 'mulligans', actions: 'chooseStartingPlayer' } },
        },
        // CR 103.5: each player keeps or takes a mulligan, in turn order from the starting player.
        mulligans: {
          tags: ['awaiting:mulligan'],
          always: [{ guard: 'isBottomDue', target: 'bottom' }, { guard: 'hasEveryoneKept', target: 'openingHand' }],
          on: { MULLIGAN: { actions: 'takeMulligan' }, KEEP: { actions: 'keepHand' } },
        },
        // CR 103.5 (London mulligan): a player who kept puts cards on the bottom of their library.
        bottom: {
          tags: ['awaiting:bottom'],
          // CR 800.4a: a player who left the game while awaited here is waited for no longer.
          always: { guard: 'hasNothingToBottom', target: 'mulligans' },
          on: { BOTTOM: { target: 'mulligans', actions: 'putOnBottom' } },
        },
        // CR 103.6: opening hand actions, in turn order from the starting player; then turn 1.
        openingHand: {
          tags: ['awaiting:openingHandActions'],
          always: { guard: 'hasOpeningHandsDone', target: '#turn.nextPhase', actions: 'beginFirstTurn' },
          on: { OPENING_HAND_DONE: { actions: 'finishOpeningHand' } },
        },
      },
    },
    beginning: {
      exit: endOfPhase,
      initial: 'nextStep',
      states: {
        nextStep: nextStep(['untap', 'upkeep', 'draw'], [otherStepOfAddedPhase, firstDraw, skippedByEffect]),
        // CR 502, 703.4a-c: phasing, day/night, untap; no player receives priority (502.4).
        untap: {
          entry: [begin('untap'), 'phaseInPermanents', 'checkDayNight', 'untapActivePlayer'],
          exit: endOfStep,
          always: { target: 'nextStep' },
        },
        upkeep: priorityStep('upkeep'),
        draw: priorityStep('draw', ['drawForTurn']),
      },
    },
    precombatMain: {
      exit: endOfPhase,
      initial: 'nextStep',
      states: {
        // CR 505.2: a main phase has no steps, so an added main phase passes none over (500.10).
        nextStep: nextStep(['main'], [skippedByEffect]),
        // CR 505.4, 703.4e-g: the precombat main phase's turn-based actions.
        main: priorityStep('main', ['beginPrecombatMain']),
      },
    },
    combat: {
      entry: 'beginCombat',
      exit: ['endCombat', endOfPhase],
      initial: 'nextStep',
      on: {
        // CR 724.2: the stack is exiled and state-based actions checked (724.2b-c) before the
        // combat phase ends and its 'endOfCombat' effects expire (724.2d): through `ended`.
        END_COMBAT: { target: '.ended', actions: 'endTheTurnOrCombat' },
      },
      states: {
        // CR 511.3: the combat ends as the phase is left (the exit's endCombat).
        nextStep: nextStep(
          ['beginningOfCombat', 'declareAttackers', 'declareBlockers', 'firstStrikeDamage', 'combatDamage', 'endOfCombat'],
          [otherStepOfAddedPhase, noAttackers, noFirstStrike, skippedByEffect],
        ),
        beginningOfCombat: {
          entry: begin('beginningOfCombat'),
          exit: endOfStep,
          initial: 'choosing',
          states: {
            // CR 507.1, 703.4h: in some multiplayer games the active player chooses the defending player.
            choosing: {
              tags: ['awaiting:chooseDefender'],
              always: { guard: 'hasNoDefenderChoiceDue', target: 'priority' },
              on: { CHOOSE_DEFENDER: { target: 'priority', actions: 'chooseDefender' } },
            },
            priority: { entry: 'givePriorityToActivePlayer', tags: priorityTags },
          },
          always: { guard: 'isStepOver', target: 'nextStep' },
        },
        declareAttackers: {
          entry: begin('declareAttackers'),
          exit: endOfStep,
          initial: 'declaring',
          states: {
            // CR 508.1: the active player declares attackers (none without an active player, 800.4j).
            declaring: {
              tags: ['awaiting:declareAttackers'],
              always: { guard: 'hasNoAttackDeclarationDue', target: 'declared', actions: 'markAttacksDeclared' },
              on: { DECLARE_ATTACKERS: { guard: 'isLegalAttack', target: 'declared', actions: 'declareAttackers' } },
            },
            // 'classic': with no attackers the rest of the step is skipped too (classic 308.5).
            declared: {
              always: [{ guard: 'skipsRestOfStepWithoutAttackers', target: '#turn.combat.nextStep' }, { target: 'priority' }],
            },
            // CR 508.2: then the active player receives priority.
            priority: { entry: 'givePriorityToActivePlayer', tags: priorityTags },
          },
          always: { guard: 'isStepOver', target: 'nextStep' },
        },
        declareBlockers: {
          entry: begin('declareBlockers'),
          exit: endOfStep,
          initial: 'declaring',
          states: {
            // CR 509.1: each defending player declares blockers, in APNAP order.
            declaring: {
              tags: ['awaiting:declareBlockers'],
              always: { guard: 'hasNoBlockDeclarationDue', target: 'ordering' },
              on: { DECLARE_BLOCKERS: { guard: 'isLegalBlock', actions: 'declareBlockers' } },
            },
            // 'm10' (2009-2024, 509.2, 509.3): damage assignment orders.
            ordering: {
              tags: ['awaiting:order'],
              always: { guard: 'hasNoOrderDue', target: 'priority' },
              on: { ORDER_BLOCKERS: { actions: 'orderBlockers' }, ORDER_ATTACKERS: { actions: 'orderAttackers' } },
            },
            // CR 509.5: then the active player receives priority.
            priority: { entry: 'givePriorityToActivePlayer', tags: priorityTags },
          },
          always: { guard: 'isStepOver', target: 'nextStep' },
        },
        // CR 510.4: first or double strike adds a first combat damage step.
        firstStrikeDamage: priorityStep('firstStrikeDamage', [{ type: 'dealCombatDamage', params: { first: true } }]),
        combatDamage: priorityStep('combatDamage', [{ type: 'dealCombatDamage', params: { first: false } }]),
        endOfCombat: priorityStep('endOfCombat'),
        // CR 724.2d: straight to the next phase.
        ended: { always: { target: toNextPhase } },
      },
    },
    postcombatMain: {
      exit: endOfPhase,
      initial: 'nextStep',
      states: {
        nextStep: nextStep(['main'], [skippedByEffect]),
        main: priorityStep('main'),
      },
    },
    ending: {
      exit: endOfPhase,
      initial: 'nextStep',
      states: {
        nextStep: nextStep(['end', 'cleanup'], [otherStepOfAddedPhase, skippedByEffect]),
        end: priorityStep('end'),
        cleanup: {
          entry: begin('cleanup'),
          exit: endOfStep,
          initial: 'discarding',
          on: {
            // CR 724.1d: a turn ended during the cleanup step gets a new cleanup step.
            END_TURN: { target: 'cleanup', reenter: true, actions: ['endTheTurnOrCombat', 'skipToCleanup'] },
          },
          states: {
            // CR 514.1: the active player discards down to their maximum hand size.
            discarding: {
              tags: ['awaiting:discard'],
              always: { guard: 'hasNoDiscardDue', target: 'checking' },
              on: { DISCARD: { actions: 'discardToHandSize' } },
            },
            // CR 514.2, 514.3: damage wears off; then, normally, the step ends with no priority.
            checking: {
              entry: ['endTurnEffects', 'checkCleanup'],
              always: [{ guard: 'wasCleanupActive', target: 'priority' }, { target: '#turn.ending.nextStep' }],
            },
            // CR 514.3a: state-based actions or triggers: players receive priority, then another cleanup step begins.
            priority: {
              entry: 'givePriorityToActivePlayer',
              tags: priorityTags,
              always: { guard: 'isStepOver', target: '#turn.ending.cleanup', reenter: true },
            },
          },
        },
      },
    },
    // CR 500.1, 500.7, 500.8, 505.1a, 614.10: between phases. The next phase of the queue, or
    // passed over; after the last phase the next turn begins: an extra turn first, then turn order.
    nextPhase: {
      always: [
        { guard: 'isNextPhaseSkipped', actions: 'passOverPhase' },
        ...phases.map((phase) => ({ guard: { type: 'isNextPhase', params: { phase } }, target: phase, actions: 'beginPhase' }) as const),
        // After the last phase the next turn begins, and its first phase comes through here too.
        { guard: 'isGameOver', target: 'gameOver' },
        // CR 807.4c: in Grand Melee the turn marker passes; the coordinator (grandMelee.machine.ts) begins its next turn.
        { guard: 'isTurnMarkerPassing', target: 'turnMarkerPassed' },
        { guard: 'hasExtraTurn', actions: 'beginTurn' },
        { actions: 'beginTurn' },
      ],
    },
    // CR 807.4c-d: Grand Melee: this turn marker's turn is over; its next turn begins when it may (807.4d).
    turnMarkerPassed: {
      on: { BEGIN_MARKER_TURN: { target: 'nextPhase', actions: 'beginTurn' } },
    },
    gameOver: { type: 'final' },
  },
});

/** The turn machine's type. */
export type TurnMachine = typeof turnMachine;
