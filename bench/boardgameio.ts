/**
 * Baseline 2: boardgame.io, what a TypeScript developer would pick instead. The same turn
 * skeleton is expressed in its terms: each step of the turn is a boardgame.io phase (the
 * MTG active player is the phase's current player), what the game awaits is a stage
 * ('priority', 'declareAttackers', 'declareBlockers', 'discard') that only the awaited
 * player is in, and priority passing, casting, declarations and the host's bookkeeping are
 * moves. The game logic inside the moves is the hand-written reducer (bench/reducer.ts),
 * so the difference to baseline 1 is what boardgame.io's machinery costs.
 *
 * Host bookkeeping events (TRIGGER, ADD_MANA, ...) are made by the awaited player, the only
 * one boardgame.io lets move. Measured two ways: the headless `Client` and the bare
 * reducer (`InitializeGame` + `CreateGameReducer`). Never imported by the library.
 */
import { createRequire } from 'node:module';
import type { TurnEvent } from '../src/index.js';
import { initialState, reduce, reducerView, type ReducerState, type ReducerView } from './reducer.js';

const require = createRequire(import.meta.url);
// boardgame.io's production mode: no logging of each move.
process.env.NODE_ENV ??= 'production';

/* eslint-disable @typescript-eslint/no-explicit-any -- boardgame.io is loaded as CommonJS, untyped here */
const { Client } = require('boardgame.io/client') as { Client: (opts: any) => any };
const { InitializeGame, CreateGameReducer } = require('boardgame.io/internal') as {
  InitializeGame: (opts: { game: any; numPlayers: number }) => any;
  CreateGameReducer: (opts: { game: any }) => (state: any, action: any) => any;
};
const { INVALID_MOVE } = require('boardgame.io/core') as { INVALID_MOVE: string };

const STEPS = [
  'beginning_upkeep',
  'beginning_draw',
  'precombatMain_main',
  'combat_beginningOfCombat',
  'combat_declareAttackers',
  'combat_declareBlockers',
  'combat_firstStrikeDamage',
  'combat_combatDamage',
  'combat_endOfCombat',
  'postcombatMain_main',
  'ending_end',
  'ending_cleanup',
];

const DECISIONS: Record<string, string[]> = {
  priority: ['PASS_PRIORITY', 'CAST_SPELL', 'ACTIVATE_ABILITY', 'PLAY_LAND'],
  declareAttackers: ['DECLARE_ATTACKERS'],
  declareBlockers: ['DECLARE_BLOCKERS'],
  discard: ['DISCARD'],
};
const HOST = ['TRIGGER', 'HAND_SIZE', 'ADD_MANA', 'SPEND_MANA', 'ADD_EXTRA_TURN'];

const stepKey = (G: ReducerState): string => `${G.phase}_${G.step}`;
const seatOf = (G: ReducerState, player: string): string => String(G.seats.indexOf(player));

/** Who is awaited, as a boardgame.io activePlayers map. */
function awaited(G: ReducerState): Record<string, string> {
  switch (G.at) {
    case 'declaringAttackers':
      return { [seatOf(G, G.activePlayer as string)]: 'declareAttackers' };
    case 'discarding':
      return { [seatOf(G, G.activePlayer as string)]: 'discard' };
    case 'declaringBlockers':
      return { [seatOf(G, reducerView(G).awaiting?.player as string)]: 'declareBlockers' };
    default:
      return G.priority === null ? {} : { [seatOf(G, G.priority)]: 'priority' };
  }
}

/** A move: the event is its argument; a decision must come from the player it names. */
function move({ G, playerID, events }: any, event: TurnEvent): any {
  if ('player' in event && !HOST.includes(event.type) && seatOf(G, event.player as string) !== playerID) return INVALID_MOVE;
  const next = reduce(G, event);
  if (next === G) return INVALID_MOVE;
  if (next.at !== G.at || next.priority !== G.priority || next.at === 'declaringBlockers') events.setActivePlayers({ value: awaited(next) });
  return next;
}

/** The boardgame.io game definition for `players`. */
export function mtgGame(players: readonly string[]): any {
  const moves = (names: string[]) => Object.fromEntries([...names, ...HOST].map((n) => [n, move]));
  const stages = Object.fromEntries(Object.entries(DECISIONS).map(([stage, names]) => [stage, { moves: moves(names) }]));
  const phases = Object.fromEntries(
    STEPS.map((key) => [
      key,
      {
        start: key === 'beginning_upkeep',
        endIf: ({ G }: { G: ReducerState }) => stepKey(G) !== key,
        next: ({ G }: { G: ReducerState }) => stepKey(G),
        turn: {
          order: { first: ({ G }: { G: ReducerState }) => G.seats.indexOf(G.activePlayer), next: ({ ctx }: any) => ctx.playOrderPos },
          onBegin: ({ G, events }: any) => events.setActivePlayers({ value: awaited(G) }),
          stages,
        },
      },
    ]),
  );
  return { name: 'mtg-turn', setup: () => initialState(players), moves: moves([]), phases, disableUndo: true };
}

/** A boardgame.io action for one event: the move named by the event's type, made by the awaited player. */
function actionOf(state: any, e: TurnEvent, seats: readonly string[]): any {
  const playerID = 'player' in e && !HOST.includes(e.type) ? String(seats.indexOf(e.player as string)) : (Object.keys(state.ctx.activePlayers ?? {})[0] as string);
  return { type: 'MAKE_MOVE', payload: { type: e.type, args: [e], playerID } };
}

/** Plays the events through the bare reducer; returns the final G. */
export function playBareReducer(players: readonly string[], events: readonly TurnEvent[], check = false): ReducerState {
  const game = mtgGame(players);
  const reducer = CreateGameReducer({ game });
  let state = InitializeGame({ game, numPlayers: players.length });
  for (const e of events) {
    const next = reducer(state, actionOf(state, e, players));
    if (check && (next.G === state.G || next.transients?.error !== undefined)) throw new Error(`boardgame.io refused ${JSON.stringify(e)}`);
    state = next;
  }
  return state.G as ReducerState;
}

/** Plays the events through a headless boardgame.io Client; returns the final G. */
export function playClient(players: readonly string[], events: readonly TurnEvent[], check = false): ReducerState {
  const client = Client({ game: mtgGame(players), numPlayers: players.length, debug: false });
  client.start();
  for (const e of events) {
    const state = client.getState();
    const { payload } = actionOf(state, e, players);
    if (client.playerID !== payload.playerID) client.updatePlayerID(payload.playerID);
    client.moves[e.type](e);
    if (check && client.getState().G === state.G) throw new Error(`boardgame.io refused ${JSON.stringify(e)}`);
  }
  const G = client.getState().G as ReducerState;
  client.stop();
  return G;
}

/** The view boardgame.io's game ends in. */
export function boardgameioView(G: ReducerState): ReducerView {
  return reducerView(G);
}
