/**
 * The turn machine's plan: the chart of machines/turn.machine.ts compiled once (src/compiled/compile.ts).
 */
import { turnMachine } from '../../machines/turn.machine.js';
import { compileMachine, type Plan } from './compile.js';

/** The turn machine, compiled once. */
export const turnPlan: Plan = compileMachine(turnMachine);
