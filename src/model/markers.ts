/**
 * The model of Grand Melee's turn markers (CR 807.4): the coordinator's statechart
 * (machines/grandMelee.machine.ts) walked over live games, breadth first. A model state is
 * where the markers are (each marker's statechart state, its holder's seat relative to marker
 * 1's, its removals) and how many players are left; the events are whole turns (a marker's turn
 * played the plainest way to its end), players leaving at seats near the markers, and an extra
 * turn for a holder. Every transition the markers' statecharts take is observed (XState's
 * inspection of each `transition`), so coverage is of what the coordinator really did.
 */
import { createActor, type AnyStateNode } from 'xstate';
import { markerMachine } from '../../machines/grandMelee.machine.js';
import { markerStepper } from '../grandMelee/coordinator.js';
import { createGame } from '../game/create.js';
import { allModules } from '../allModules.js';
import { type Game, type GameOptions } from '../game/types.js';
import { PLAINEST } from '../events/index.js';
import { plainestFill } from '../legal.js';

/** A step of the markers' model: a whole turn of one marker, a player leaving, or an extra turn. */
export type MarkerStep = { kind: 'turn'; marker: number } | { kind: 'leave'; seat: number } | { kind: 'extraTurn'; marker: number };

/** What the walk covered. */
export interface MarkerCoverage {
  states: { id: string; covered: boolean }[];
  transitions: { id: string; covered: boolean }[];
  modelStates: number;
  ms: number;
}

/** The game the markers' model starts from: twelve players, three markers (CR 807.4a). */
export const MARKER_MODEL_OPTIONS: GameOptions = { players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'], variant: 'grandMelee', seed: 1 };

/** Every state node and transition of the markers' statechart, named as the turn chart's are ('turnMarker.waiting:CHECK[1]'). */
export function markerElements(): { states: string[]; transitions: string[] } {
  const walk = (n: AnyStateNode): AnyStateNode[] => [n, ...Object.values(n.states).flatMap(walk)];
  const nodes = walk(markerMachine.root);
  const transitions: string[] = [];
  for (const n of nodes) {
    for (const [event, list] of n.transitions) list.forEach((_: unknown, i: number) => transitions.push(`${n.id}:${event}[${i}]`));
    (n.always ?? []).forEach((_, i) => transitions.push(`${n.id}:always[${i}]`));
  }
  return { states: nodes.map((n) => n.id), transitions };
}

/** Where the markers are: each marker's state, its holder's seat relative to the first seat, its removals; and the players left. */
function keyOf(game: Game): string {
  const v = game.view();
  if (v.gameOver !== null) return 'over';
  const seats = MARKER_MODEL_OPTIONS.players;
  return `${v.players.length}|${(v.turns ?? []).map((t) => `${t.turnMarker}:${t.waiting ? 'w' : 't'}${seats.indexOf(t.player)}${t.removals > 0 ? `r${t.removals}` : ''}`).join(',')}`;
}

/** Plays one marker's turn the plainest way, to its end (at most 300 decisions). */
function playTurn(game: Game, marker: number): boolean {
  const start = game.view().turns?.find((t) => t.turnMarker === marker);
  if (start === undefined || start.waiting) return false;
  for (let i = 0; i < 300; i++) {
    const t = game.view().turns?.find((x) => x.turnMarker === marker);
    if (t === undefined || t.waiting || t.turn !== start.turn || game.view().gameOver !== null) return true;
    const action = game.legalActions().find((a) => a.player === t.awaiting?.player && (a.turnMarker === undefined || a.turnMarker === marker) && PLAINEST.has(a.type));
    if (action === undefined) return false;
    const event = { ...plainestFill(action, t.awaiting, { stack: t.stack, pendingTriggers: [] }), turnMarker: marker };
    if (!game.send(event).ok) return false;
  }
  return false;
}

function apply(game: Game, step: MarkerStep): boolean {
  const v = game.view();
  if (step.kind === 'turn') return playTurn(game, step.marker);
  if (step.kind === 'extraTurn') {
    const holder = v.turns?.find((t) => t.turnMarker === step.marker)?.player;
    return holder !== undefined && game.send({ type: 'ADD_EXTRA_TURN', player: holder, id: `x${v.version}`, turnMarker: v.turns?.find((t) => !t.waiting)?.turnMarker }).ok;
  }
  const player = MARKER_MODEL_OPTIONS.players[step.seat];
  return player !== undefined && v.players.includes(player) && game.send({ type: 'CONCEDE', player }).ok;
}

/** The steps offered in a state: each running marker's turn, an extra turn for a holder, a player leaving one or two seats from a holder. */
function stepsOf(game: Game, depth: number): MarkerStep[] {
  const v = game.view();
  const turns = v.turns ?? [];
  const out: MarkerStep[] = turns.filter((t) => !t.waiting).map((t) => ({ kind: 'turn', marker: t.turnMarker }));
  if (depth > 3 || v.players.length <= 9) return out;
  const seats = MARKER_MODEL_OPTIONS.players;
  for (const t of turns) {
    const at = seats.indexOf(t.player);
    for (const d of [1, 2]) out.push({ kind: 'leave', seat: (at + d) % seats.length });
  }
  if (depth === 0) out.push({ kind: 'extraTurn', marker: 2 });
  return out;
}

/** Walks the markers' model breadth first (depth `maxDepth`), observing every transition of the markers' statecharts. */
export function markerCoverage(maxDepth = 3): MarkerCoverage {
  const started = performance.now();
  const elements = markerElements();
  const states = new Set<string>();
  const transitions = new Set<string>();
  const observe = (snapshot: { _nodes: AnyStateNode[] }, taken: { source: AnyStateNode; eventType: string }[]): void => {
    for (const n of snapshot._nodes) states.add(n.id);
    for (const t of taken) {
      const list = t.eventType === '' ? (t.source.always ?? []) : (t.source.transitions.get(t.eventType) ?? []);
      transitions.add(`${t.source.id}:${t.eventType === '' ? 'always' : t.eventType}[${(list as unknown[]).indexOf(t)}]`);
    }
  };
  const plain = markerStepper.next;
  // The same transition by an actor that XState's inspection observes, microstep by microstep.
  markerStepper.next = (state, event) => {
    const snapshot = markerMachine.resolveState({ value: state.value, context: state.context });
    const actor = createActor(markerMachine, {
      snapshot,
      input: { number: state.context.number },
      inspect: (e) => {
        if (e.type === '@xstate.microstep') observe(e.snapshot as never, (e as unknown as { _transitions: never[] })._transitions);
      },
    });
    actor.start();
    actor.send(event);
    return { value: actor.getSnapshot().value as typeof state.value, context: state.context };
  };
  const seen = new Set<string>();
  try {
    const first = createGame({ ...MARKER_MODEL_OPTIONS, use: allModules });
    for (const n of markerMachine.getInitialSnapshot({} as never, { number: 1 })._nodes) states.add(n.id);
    let frontier: Game[] = [first];
    seen.add(keyOf(first));
    for (let depth = 0; depth < maxDepth && frontier.length > 0; depth++) {
      const next: Game[] = [];
      for (const game of frontier) {
        for (const step of stepsOf(game, depth)) {
          const fork = game.fork();
          if (!apply(fork, step)) continue;
          const key = keyOf(fork);
          if (seen.has(key)) continue;
          seen.add(key);
          next.push(fork);
        }
      }
      frontier = next;
    }
  } finally {
    markerStepper.next = plain;
  }
  return {
    states: elements.states.map((id) => ({ id, covered: states.has(id) })),
    transitions: elements.transitions.map((id) => ({ id, covered: transitions.has(id) })),
    modelStates: seen.size,
    ms: Math.round(performance.now() - started),
  };
}
