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
import type * as Compiled from '../src/compiled/game.js';
import type * as GameModule from '../src/game.js';
import type * as Interpreter from '../src/interpreter.js';
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

export const { createGame, restoreGame, turnMachine } = await load<typeof Index>('index.js');
export const { seededRandom } = await load<typeof Simulation>('simulation.js');
export const { viewOf } = await load<typeof View>('view.js');
export const { plainestAnswer } = await load<typeof Runner>('scenarios/runner.js');
export const { playout } = await load<typeof Playout>('compiled/simulate.js');
export const { CompiledGame, turnPlan } = await load<typeof Compiled>('compiled/game.js');
export const { initialState, sendStep, snapshotOf } = await load<typeof Runtime>('compiled/runtime.js');
export const { initialContext } = await load<typeof TurnEffects>('../machines/turn.effects.js');
export const { toInput } = await load<typeof GameModule>('game.js');
export const { createInterpreterGame } = await load<typeof Interpreter>('interpreter.js');
export type { Game, GameOptions, TurnEvent, TurnView } from '../src/index.js';
