/**
 * The engine as hosts run it: the built package (dist/, compiled by tsc), not the
 * TypeScript sources through tsx (whose transform adds work of its own, e.g. esbuild's
 * `__name` calls). `npm run bench` builds first.
 */
import type * as Index from '../src/index.js';
import type * as Simulation from '../src/simulation.js';
import type * as View from '../src/view.js';
import type * as Runner from '../src/scenarios/runner.js';
import type * as Playout from '../src/compiled/simulate.js';
import type * as Plan from '../src/compiled/plan.js';
import type * as Create from '../src/game/create.js';
import type * as Shell from '../src/game/shell.js';
import type * as Xstate from '../src/xstate.js';
import type * as XstateLogic from '../src/logic/xstate.js';
import type * as Runtime from '../src/compiled/runtime.js';
import type * as TurnEffects from '../machines/turn.effects.js';

const dist = (path: string) => new URL(`../dist/src/${path}`, import.meta.url).href;

async function load<T>(path: string): Promise<T> {
  try {
    return (await import(dist(path))) as T;
  } catch (err) {
    throw new Error(`cannot load the built engine (${dist(path)}): run \`npm run build\` first. ${err instanceof Error ? err.message : String(err)}`);
  }
}

import type * as AllModules from '../src/allModules.js';

const index = await load<typeof Index>('index.js');
/** CONTRACT v4: the bench's games have every module (as every game had the table before v4; Grand Melee's workloads need theirs). */
const { allModules } = await load<typeof AllModules>('allModules.js');
export const createGame: typeof index.createGame = (options) => index.createGame({ use: allModules, ...options });
export const restoreGame: typeof index.restoreGame = (persisted, options = {}) => index.restoreGame(persisted, { use: allModules, ...options });
export const replayGame: typeof index.replayGame = (recording, options = {}) => index.replayGame(recording, { use: allModules, ...options });
export const { turnMachine } = await load<typeof Xstate>('xstate.js');
export const { seededRandom } = await load<typeof Simulation>('simulation.js');
export const { viewOf } = await load<typeof View>('view.js');
export const { plainestAnswer } = await load<typeof Runner>('scenarios/runner.js');
export const { playout } = await load<typeof Playout>('compiled/simulate.js');
export const { turnPlan } = await load<typeof Plan>('compiled/plan.js');
/** The shell every game runs in (a game on the compiled plan has a CompiledState as its `state`). */
export const { GameShell: CompiledGame } = await load<typeof Shell>('game/shell.js');
export const { initialState, sendStep, snapshotOf } = await load<typeof Runtime>('compiled/runtime.js');
export const { initialContext } = await load<typeof TurnEffects>('../machines/turn.effects.js');
const create = await load<typeof Create>('game/create.js');
export const { toInput } = create;
const { xstateLogic } = await load<typeof XstateLogic>('logic/xstate.js');
/** A game on the reference logic (XState's own transition). */
export const createInterpreterGame = (options: Parameters<typeof Create.createGame>[0]) => create.createGame({ ...options, [create.LOGIC]: xstateLogic } as typeof options);
export type { Game, GameOptions, Recording, TurnEvent, TurnView } from '../src/index.js';
