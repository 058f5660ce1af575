/**
 * `mtg-turn-engine/xstate`: the game's XState actor for inspection tools, and the chart
 * (CONTRACT v3, "Package"). The main entry imports nothing of XState; a host that inspects
 * imports this subpath.
 */
export { actorOf, chartSnapshotOf } from './game/actor.js';
export type { ActorOptions } from './game/actor.js';
export { turnMachine } from '../machines/turn.machine.js';
/** The chart's context and input (the engine's own state: hosts read the TurnView, src/contract.ts). */
export type { TurnContext, TurnInput, MachineEvent, InternalEvent, CleanupCheck, CombatState, CombatAttacker, CombatBlocker, ActiveEffect, ExtraTurn, PhaseEntry, StepEntry, PhaseKind } from './state.js';
export type { StepSkipRule } from './rules/schedule.js';
