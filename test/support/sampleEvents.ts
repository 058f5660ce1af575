/**
 * One well-formed event of every type a host may send (every record with a schema, src/events/),
 * with every optional field given, for tests that spoil one field at a time. The mapped type
 * makes one compulsory for each type; test/properties/boundaryRefusals.property.test.ts checks
 * that each parses.
 */
import type { TurnEvent } from '../../src/contract.js';

type HostSent = Exclude<TurnEvent['type'], 'BEGIN_MARKER_TURN'>;

/** Player ids of the sample events: a two-player game of 'A' and 'B'. */
export const SAMPLE_PLAYERS = ['A', 'B'];

export const SAMPLE_EVENTS: { [T in HostSent]: Extract<TurnEvent, { type: T }> } = {
  PASS_PRIORITY: { type: 'PASS_PRIORITY', player: 'A', by: 'A' },
  CAST_SPELL: { type: 'CAST_SPELL', player: 'A', id: 's1', speed: 'instant', by: 'A' },
  ACTIVATE_ABILITY: { type: 'ACTIVATE_ABILITY', player: 'A', id: 'a1', speed: 'instant', by: 'A' },
  PLAY_LAND: { type: 'PLAY_LAND', player: 'A', by: 'A' },
  DECLARE_ATTACKERS: { type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'c1', defender: 'B', firstStrike: true, doubleStrike: false }], by: 'A' },
  DECLARE_BLOCKERS: { type: 'DECLARE_BLOCKERS', player: 'B', blockers: [{ id: 'c2', attacker: 'c1', firstStrike: false, doubleStrike: true }], by: 'B' },
  DISCARD: { type: 'DISCARD', player: 'A', count: 1, by: 'A' },
  CHOOSE_DEFENDER: { type: 'CHOOSE_DEFENDER', player: 'A', defender: 'B', by: 'A' },
  ORDER_BLOCKERS: { type: 'ORDER_BLOCKERS', player: 'A', attacker: 'c1', order: ['c2', 'c3'], by: 'A' },
  ORDER_ATTACKERS: { type: 'ORDER_ATTACKERS', player: 'B', blocker: 'c2', order: ['c1', 'c4'], by: 'B' },
  ORDER_TRIGGERS: { type: 'ORDER_TRIGGERS', player: 'A', order: ['t1', 't2'], by: 'A' },
  CHOOSE_STARTING_PLAYER: { type: 'CHOOSE_STARTING_PLAYER', player: 'A', starting: 'B', by: 'A' },
  MULLIGAN: { type: 'MULLIGAN', player: 'A', by: 'A' },
  KEEP: { type: 'KEEP', player: 'A', by: 'A' },
  BOTTOM: { type: 'BOTTOM', player: 'A', count: 1, by: 'A' },
  OPENING_HAND_DONE: { type: 'OPENING_HAND_DONE', player: 'A', by: 'A' },
  ROLL_PLANAR_DIE: { type: 'ROLL_PLANAR_DIE', player: 'A', by: 'A' },
  CONCEDE: { type: 'CONCEDE', player: 'A', by: 'A' },
  TRIGGER: { type: 'TRIGGER', triggers: [{ id: 't1', controller: 'A' }] },
  HAND_SIZE: { type: 'HAND_SIZE', player: 'A', size: 7 },
  ADD_MANA: { type: 'ADD_MANA', player: 'A', amount: 2 },
  SPEND_MANA: { type: 'SPEND_MANA', player: 'A', amount: 1 },
  ADD_EXTRA_TURN: { type: 'ADD_EXTRA_TURN', player: 'A', id: 'x1' },
  ADD_EXTRA_COMBAT: { type: 'ADD_EXTRA_COMBAT', followedByMain: false, after: 'precombatMain' },
  ADD_EXTRA_STEP: { type: 'ADD_EXTRA_STEP', step: 'upkeep', after: 'upkeep', afterPhase: 'beginning', player: 'A' },
  ADD_EXTRA_PHASE: { type: 'ADD_EXTRA_PHASE', phase: 'combat', after: 'precombatMain', player: 'A' },
  SKIP_NEXT: { type: 'SKIP_NEXT', player: 'A', what: 'draw' },
  ADD_EFFECT: { type: 'ADD_EFFECT', id: 'e1', effect: { kind: 'maxHandSize', set: 5, change: -1, players: ['A'] }, duration: { untilStep: 'end', ofPlayer: 'B' }, controller: 'A' },
  REMOVE_EFFECT: { type: 'REMOVE_EFFECT', id: 'e1' },
  REMOVE_FROM_STACK: { type: 'REMOVE_FROM_STACK', id: 's1', reason: 'countered' },
  PUT_ON_STACK: { type: 'PUT_ON_STACK', object: { id: 'p1', controller: 'A', kind: 'copy' }, cast: false },
  END_TURN: { type: 'END_TURN' },
  END_COMBAT: { type: 'END_COMBAT' },
  REMOVE_FROM_COMBAT: { type: 'REMOVE_FROM_COMBAT', id: 'c1' },
  SET_COMBAT_ABILITIES: { type: 'SET_COMBAT_ABILITIES', id: 'c1', firstStrike: true, doubleStrike: false },
  ADD_ATTACKER: { type: 'ADD_ATTACKER', id: 'c5', defender: 'B', firstStrike: false, doubleStrike: false },
  ADD_BLOCKER: { type: 'ADD_BLOCKER', id: 'c6', attacker: 'c1', firstStrike: false, doubleStrike: false },
  CONTROL_PLAYER: { type: 'CONTROL_PLAYER', controller: 'A', player: 'B' },
  LOSE: { type: 'LOSE', player: 'B', reason: 'poison' },
  WIN: { type: 'WIN', player: 'A' },
  DRAW_GAME: { type: 'DRAW_GAME' },
  SET_DAY_NIGHT: { type: 'SET_DAY_NIGHT', value: 'night' },
  SET_STOPS: { type: 'SET_STOPS', player: 'A', stops: [{ step: 'upkeep', turn: 'own' }] },
  YIELD: { type: 'YIELD', player: 'A', until: 'endOfTurn', evenIfStackChanges: true },
  UNDO: { type: 'UNDO', player: 'A', to: 3 },
  ACCEPT_UNDO: { type: 'ACCEPT_UNDO', player: 'B' },
  DECLINE_UNDO: { type: 'DECLINE_UNDO', player: 'B' },
  MARK_IRREVERSIBLE: { type: 'MARK_IRREVERSIBLE' },
  PROPOSE_SHORTCUT: { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 2, phase: 'combat', step: 'declareAttackers', player: 'B' } },
  ACCEPT_SHORTCUT: { type: 'ACCEPT_SHORTCUT', player: 'B' },
  SHORTEN_SHORTCUT: { type: 'SHORTEN_SHORTCUT', player: 'B', until: { turn: 1, phase: 'ending', step: 'end', player: 'A' } },
  TICK: { type: 'TICK', at: 1000 },
  PAUSE_CLOCKS: { type: 'PAUSE_CLOCKS', at: 1000 },
  RESUME_CLOCKS: { type: 'RESUME_CLOCKS', at: 1000 },
  SET_SEAT_STATUS: { type: 'SET_SEAT_STATUS', player: 'A', status: 'away', at: 1000 },
};

/** A path to a field of an event: keys and list indexes. */
export type FieldPath = (string | number)[];

/** Every field of a sample event, nested ones included (`attackers`, `attackers[0]`, `attackers[0].defender`, ...), without `type`. */
export function fieldPaths(value: unknown, path: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = path.length === 0 ? [] : [path];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...fieldPaths(v, [...path, i])));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) if (path.length > 0 || k !== 'type') out.push(...fieldPaths(v, [...path, k]));
  return out;
}

/** A deep copy of an event with the field at `path` set to `value` (or removed, for `undefined` with `remove`). */
export function withField(event: object, path: FieldPath, value: unknown, remove = false): Record<string, unknown> {
  const copy = structuredClone(event) as Record<string | number, unknown>;
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) delete parent[last];
  else parent[last] = value;
  return copy as Record<string, unknown>;
}

/** A path as refusal messages name it: `event.attackers[0].defender`. */
export function pathName(root: string, path: FieldPath): string {
  return path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : `${s}.${k}`), root);
}
