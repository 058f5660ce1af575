/** The chart itself: the CR's turn table, and nothing a graph walker cannot follow (CR 500.1, 501-514). */
import { describe, expect, it } from 'vitest';
import { turnMachine } from '../machines/turn.machine.js';
import { STEPS_OF_PHASE } from '../src/rules/schedule.js';

type Node = { key: string; states: Record<string, Node>; invoke: unknown[]; after: unknown[]; transitions: Map<string, unknown[]> };
const root = turnMachine.root as unknown as Node;

function walk(node: Node, visit: (n: Node) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) walk(child, visit);
}

describe('the turn chart', () => {
  it('500.1: five phases in order, the choice of what follows a phase, then the final gameOver state', () => {
    expect(Object.keys(root.states)).toEqual(['beginning', 'precombatMain', 'combat', 'postcombatMain', 'ending', 'nextPhase', 'gameOver']);
  });

  it('501-514: each phase holds its steps, one state node per step, in the order of the turn table', () => {
    for (const [phase, steps] of Object.entries(STEPS_OF_PHASE)) {
      expect(Object.keys(root.states[phase]?.states ?? {})).toEqual(steps);
    }
  });

  it('has no invoke and no delayed transitions, so xstate/graph can walk it', () => {
    walk(root, (n) => {
      expect(n.invoke, n.key).toEqual([]);
      expect(n.after, n.key).toEqual([]);
    });
  });
});
