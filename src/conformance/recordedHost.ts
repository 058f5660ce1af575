/**
 * The deterministic host of the recorded corpus (scenarios/recorded/, issue 26): it plays one
 * game with `record: true` as a host with cards would, from a seed alone: the players answer
 * what `legalActions` offers (mostly passing, sometimes casting, attacking and blocking, as
 * `simulate` does), the checkpoint hook reports triggers, state-based actions and host events,
 * and the host sends its own events now and then. The same spec gives the same recording.
 */
import type { CheckpointResult, EmittedEvent, PlayerId, TurnEvent, TurnView } from '../contract.js';
import { createGame } from '../game/create.js';
import { allModules } from '../allModules.js';
import type { Game, RecordedOptions, Recording } from '../game/types.js';
import type { LegalAction } from '../legal.js';
import { concreteEvent, seededRandom } from '../simulation.js';

/** What the checkpoint hook of a recorded game reports. */
export type HookKind =
  /** Triggers as each upkeep and end step begins (two of the active player's at the end step, one of the next player's), state-based actions in the first cleanup of even turns. */
  | 'triggers'
  /** Host events: mana at each draw step, the active player's hand size at each upkeep. */
  | 'events';

/** The events the host sends now and then between the players' decisions. */
export type HostMove = 'triggers' | 'mana' | 'stops' | 'effects' | 'extraTurns' | 'extraPhases' | 'skips' | 'stack' | 'combatChanges' | 'endTurn' | 'dayNight' | 'control' | 'leaving';

/** One game of the recorded corpus. */
export interface RecordedGameSpec {
  /** The file's name without its number and `.json`. */
  slug: string;
  /** What the game is (the scenario's name). */
  name: string;
  /** createGame's options (record and hooks are added); `seed` also seeds the host. */
  options: RecordedOptions;
  /** Play until this many turns have been played (every turn marker's, in Grand Melee), the sends run out, or the game ends. */
  turns: number;
  /** At most this many accepted sends (default {@link DEFAULT_SENDS}): a recorded game stays small whatever the dice say. */
  sends?: number;
  /** What the checkpoint hook reports (none: the game has no hook). */
  hook?: readonly HookKind[];
  /** The events the host sends besides the players' decisions, in turn, one every five decisions (default: TRIGGER and ADD_MANA, one every 20; `[]`: none). */
  host?: readonly HostMove[];
  /** Keep every view field in the expectations, also those of features the game does not play (default: left out). */
  fullView?: boolean;
}

/** The sends of one game unless its spec says otherwise. */
export const DEFAULT_SENDS = 40;

const pickOf = (random: () => number) => <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** The checkpoint hook of a recorded game: a pure function of what it is shown and of what it was shown before. */
function checkpointHook(kinds: readonly HookKind[]): (view: TurnView, pending: EmittedEvent[]) => CheckpointResult | undefined {
  const cleanups = new Set<string>();
  return (view, pending) => {
    const began = (step: string) => pending.find((e) => e.type === 'stepBegan' && e.step === step) as { turnMarker?: number } | undefined;
    const marker = (e: { turnMarker?: number }) => (e.turnMarker === undefined ? {} : { turnMarker: e.turnMarker });
    const where = (e: { turnMarker?: number }) => `${view.turn}${e.turnMarker === undefined ? '' : `m${e.turnMarker}`}`;
    const active = view.activePlayer;
    const out: CheckpointResult = {};
    if (kinds.includes('triggers') && active !== null) {
      const upkeep = began('upkeep');
      const end = began('end');
      if (upkeep !== undefined) out.triggers = [{ id: `upkeep-${where(upkeep)}`, controller: active, ...marker(upkeep) }];
      if (end !== undefined) {
        const next = view.players[(view.players.indexOf(active) + 1) % view.players.length] as PlayerId;
        out.triggers = [
          { id: `end-${where(end)}-a`, controller: active, ...marker(end) },
          { id: `end-${where(end)}-b`, controller: active, ...marker(end) },
          ...(next === active ? [] : [{ id: `end-${where(end)}-c`, controller: next, ...marker(end) }]),
        ];
      }
      const key = `${view.turn}:${active}`;
      if (view.step === 'cleanup' && view.priority === null && view.turn % 2 === 0 && view.turns === undefined && !cleanups.has(key)) {
        cleanups.add(key);
        out.stateBasedActions = true;
      }
    }
    if (kinds.includes('events') && active !== null) {
      const events: TurnEvent[] = [];
      if (began('draw') !== undefined) events.push({ type: 'ADD_MANA', player: active, amount: 1 + (view.turn % 3) });
      if (began('upkeep') !== undefined && view.turns === undefined) events.push({ type: 'HAND_SIZE', player: active, size: 4 + (view.turn % 4) });
      if (events.length > 0) out.events = events;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  };
}

/** The stops a player may set (or null: none). */
const STOP_SETS = [null, [{ step: 'main', turn: 'own' }, { step: 'declareBlockers', turn: 'others' }], [{ step: 'upkeep', turn: 'any' }, { step: 'end', turn: 'others' }], [{ step: 'declareAttackers', turn: 'own' }]] as const;

/** One host event of a kind the game allows, made for the game as it is (or null: none fits now). */
function hostEvent(move: HostMove, view: TurnView, random: () => number, serial: number): Record<string, unknown> | null {
  const pick = pickOf(random);
  const players = view.players;
  if (players.length === 0) return null;
  const someone = pick(players);
  switch (move) {
    case 'triggers': {
      const running = view.turns?.filter((t) => !t.waiting) ?? [];
      return { type: 'TRIGGER', triggers: [{ id: `trigger-${serial}`, controller: someone, ...(running.length === 0 ? {} : { turnMarker: pick(running).turnMarker }) }] };
    }
    case 'mana': {
      const pool = view.manaPool[someone] ?? 0;
      return pool > 0 && random() < 0.4 ? { type: 'SPEND_MANA', player: someone, amount: 1 + Math.floor(random() * pool) } : { type: 'ADD_MANA', player: someone, amount: 1 + Math.floor(random() * 3) };
    }
    case 'stops':
      return random() < 0.5
        ? { type: 'SET_STOPS', player: someone, stops: pick(STOP_SETS) }
        : { type: 'YIELD', player: view.priority ?? someone, until: pick(['stackResolved', 'endOfTurn', 'nextTurn', null] as const), ...(random() < 0.3 ? { evenIfStackChanges: true } : {}) };
    case 'effects': {
      if (view.effects.length > 0 && random() < 0.3) return { type: 'REMOVE_EFFECT', id: pick(view.effects).id };
      const effect = pick([
        { kind: 'maxHandSize', change: -1, players: [someone] },
        { kind: 'maxHandSize', set: null },
        { kind: 'landPlays', change: 1 },
        { kind: 'keepMana', players: [someone] },
        { kind: 'spellLimit', perTurn: 1 },
        { kind: 'skip', what: 'upkeep', players: [someone] },
        { kind: 'skip', what: 'combat', players: [someone] },
      ]);
      const duration = pick(['endOfTurn', 'endOfCombat', 'untilYourNextTurn', 'untilRemoved', { untilStep: 'upkeep' }] as const);
      return { type: 'ADD_EFFECT', id: `effect-${serial}`, effect, duration, controller: someone };
    }
    case 'extraTurns':
      return { type: 'ADD_EXTRA_TURN', player: someone, id: `extra-${serial}` };
    case 'extraPhases':
      return random() < 0.6 ? { type: 'ADD_EXTRA_COMBAT', followedByMain: random() < 0.5 } : { type: 'ADD_EXTRA_STEP', step: 'upkeep', after: 'upkeep' };
    case 'skips':
      return { type: 'SKIP_NEXT', player: someone, what: pick(['upkeep', 'draw', 'combat', 'turn'] as const) };
    case 'stack': {
      const top = view.stack[view.stack.length - 1];
      if (top !== undefined && random() < 0.4) return { type: 'REMOVE_FROM_STACK', id: top.id, reason: pick(['countered', 'exiled', 'removed'] as const) };
      return { type: 'PUT_ON_STACK', object: { id: `copy-${serial}`, controller: someone, kind: 'copy' }, ...(random() < 0.3 ? { cast: true } : {}) };
    }
    case 'combatChanges': {
      const attackers = view.combat?.attackers ?? [];
      const active = view.activePlayer;
      if (attackers.length === 0) {
        // A creature put onto the battlefield attacking (CR 508.4), while the combat phase can still use it.
        const defenders = players.filter((p) => p !== active && !(view.teams?.some((t) => t.players.includes(p) && active !== null && t.players.includes(active)) ?? false));
        if (view.phase !== 'combat' || active === null || defenders.length === 0 || view.step === 'endOfCombat' || view.step === 'combatDamage') return null;
        return { type: 'ADD_ATTACKER', id: `${active}-token-${serial}`, defender: pick(defenders) };
      }
      const attacker = pick(attackers);
      return random() < 0.5 ? { type: 'SET_COMBAT_ABILITIES', id: attacker.id, firstStrike: random() < 0.5 } : { type: 'REMOVE_FROM_COMBAT', id: attacker.id };
    }
    case 'endTurn':
      return view.phase === 'combat' && random() < 0.5 ? { type: 'END_COMBAT' } : random() < 0.5 ? { type: 'END_TURN' } : null;
    case 'dayNight':
      return { type: 'SET_DAY_NIGHT', value: view.dayNight === 'day' ? 'night' : 'day' };
    case 'control': {
      const other = players.filter((p) => p !== someone);
      return other.length === 0 ? null : { type: 'CONTROL_PLAYER', controller: someone, player: pick(other) };
    }
    case 'leaving':
      return players.length > 2 || random() < 0.3 ? { type: 'CONCEDE', player: someone } : null;
  }
}

/** A player's decision: what one of the awaited players may do, mostly a pass (as `simulate` plays). */
function decision(game: Game, view: TurnView, random: () => number, serial: number): Record<string, unknown> | null {
  const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
  // Grand Melee: one of the turns that await a decision, at random (CR 807.4), seen as that turn's view.
  const waiting = view.turns?.filter((t) => t.awaiting !== null) ?? [];
  const turn = waiting.length === 0 ? undefined : waiting[Math.floor(random() * waiting.length)];
  const seen: TurnView = turn === undefined ? view : { ...view, awaiting: turn.awaiting, combat: turn.combat, stack: turn.stack };
  const awaited = actions.filter((a) => a.player === seen.awaiting?.player && (turn === undefined || a.turnMarker === undefined || a.turnMarker === turn.turnMarker));
  if (awaited.length === 0) return null;
  const pass = awaited.find((a) => a.type === 'PASS_PRIORITY');
  const passing = Math.min(0.95, 0.75 + 0.05 * seen.stack.length);
  const choice = pass !== undefined && random() < passing ? pass : (awaited[Math.floor(random() * awaited.length)] as LegalAction);
  const event = concreteEvent(choice, seen, random, serial);
  return choice.turnMarker === undefined ? event : { ...event, turnMarker: choice.turnMarker };
}

/** How far the game has gone: its turn (the least of its turn markers' in Grand Melee). */
function turnsPlayed(view: TurnView): number {
  return view.turns === undefined ? view.turn : Math.min(...view.turns.map((t) => t.turn));
}

/**
 * Plays one game of the corpus with `record: true` and returns its recording. Deterministic:
 * the spec's seed drives the engine, the host and the players.
 */
export function playRecordedGame(spec: RecordedGameSpec): Recording {
  const random = seededRandom(spec.options.seed * 7919 + 17);
  const hook = spec.hook === undefined || spec.hook.length === 0 ? undefined : checkpointHook(spec.hook);
  const game = createGame({ ...spec.options, record: true, use: allModules, ...(hook === undefined ? {} : { hooks: { checkpoint: hook } }) });
  const moves: readonly HostMove[] = spec.host ?? ['triggers', 'mana'];
  const send = (event: Record<string, unknown>) => game.send(event as unknown);
  if (moves.includes('stops')) {
    // Every player starts with stops of their own (CONTRACT "Stops and auto-pass").
    game.view().players.forEach((player, i) => send({ type: 'SET_STOPS', player, stops: STOP_SETS[(i + 1) % STOP_SETS.length] }));
  }
  const budget = spec.sends ?? DEFAULT_SENDS;
  // The host's moves come in turn, one every few decisions: each waits until it fits the game and is accepted.
  const every = spec.host === undefined ? 20 : 5;
  let due = 0;
  let waiting = false;
  for (let serial = 1, sends = 0; sends < budget && serial < budget * 10; serial++) {
    const view = game.view();
    if (view.gameOver !== null || turnsPlayed(view) > spec.turns) break;
    if (moves.length > 0 && (waiting || serial % every === 0)) {
      const event = hostEvent(moves[due % moves.length] as HostMove, view, random, serial);
      waiting = event === null || !send(event).ok;
      if (!waiting) {
        due++;
        sends++;
        continue;
      }
    }
    const event = decision(game, view, random, serial);
    if (event === null) break;
    if (send(event).ok) sends++;
  }
  return game.recording();
}
