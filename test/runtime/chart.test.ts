/** The chart itself: the CR's turn table, and nothing a graph walker cannot follow (CR 500.1, 501-514). */
import { describe, expect, it } from 'vitest';
import { turnMachine } from '../../machines/turn.machine.js';
import { STEPS_OF_PHASE } from '../../src/rules/schedule.js';

type Node = { key: string; states: Record<string, Node>; invoke: unknown[]; after: unknown[]; transitions: Map<string, unknown[]> };
const root = turnMachine.root as unknown as Node;

function walk(node: Node, visit: (n: Node) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) walk(child, visit);
}

describe('the turn chart', () => {
  it('103, 500.1: the start, the pregame, five phases in order, the choice of what follows a phase, then the final gameOver state', () => {
    expect(Object.keys(root.states)).toEqual(['start', 'pregame', 'beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending', 'nextPhase', 'turnMarkerPassed', 'gameOver']);
  });

  it('501-514: each phase holds the choice of its next step, then one state node per step in the order of the turn table', () => {
    for (const [phase, steps] of Object.entries(STEPS_OF_PHASE)) {
      const children = Object.keys(root.states[phase]?.states ?? {});
      // 724.2: a combat ended by an effect passes through `ended` before the phase ends.
      expect(children, phase).toEqual(['nextStep', ...steps, ...(phase === 'combat' ? ['ended'] : [])]);
    }
  });

  it('has no invoke and no delayed transitions, so xstate/graph can walk it', () => {
    walk(root, (n) => {
      expect(n.invoke, n.key).toEqual([]);
      expect(n.after, n.key).toEqual([]);
    });
  });
});
