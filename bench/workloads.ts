/**
 * The benchmark workloads: fixed lists of events, scripted per step and replayed from a
 * seed. A workload is recorded once by driving the engine with its script (every event is
 * checked to be accepted), then the same list is replayed by every implementation.
 *
 * - quiet turns: every player passes through every step (2 and 4 players);
 * - busy turns: lands, spells and responses, triggers of several players at once (APNAP
 *   order, CR 603.3b), mana added and spent, combat with first strike and double strike
 *   (CR 510.4), an extra turn every fourth turn (CR 500.7) and a cleanup loop: a trigger
 *   during the cleanup step gives priority and a new cleanup step follows (CR 514.3a).
 */
import { createGame, plainestAnswer, seededRandom, type GameOptions, type Recording, type TurnEvent, type TurnView } from './engine.js';

/** A recorded workload. */
export interface Workload {
  name: string;
  players: string[];
  /** The events, in order; every one is accepted by the engine. */
  events: TurnEvent[];
  /** Turns the workload plays. */
  turns: number;
  /** The variant of the game (a free-for-all when absent). */
  variant?: GameOptions['variant'];
}

type Script = (view: TurnView, random: () => number, once: (label: string) => boolean) => TurnEvent[] | null;

/** Quiet turns: nobody does anything but answer what is awaited in the plainest way. */
const quiet: Script = () => null;

/** Busy turns: something happens in most steps. */
const busy: Script = (view, random, once) => {
  const a = view.awaiting;
  if (a === null) return null;
  const active = view.activePlayer as string;
  const others = view.players.filter((p) => p !== active);
  const t = view.turn;
  const id = (what: string) => `${what}-${t}-${view.step}-${Math.floor(random() * 1e6)}`;
  if (a.kind === 'declareAttackers') {
    // Two or three attackers, one with first strike, spread over the opponents.
    const n = 2 + Math.floor(random() * 2);
    const attackers = Array.from({ length: n }, (_, i) => ({
      id: `${active}-creature-${i + 1}`,
      defender: others[i % others.length] as string,
      ...(i === 0 ? { firstStrike: true } : {}),
    }));
    return [{ type: 'DECLARE_ATTACKERS', player: active, attackers }];
  }
  if (a.kind === 'declareBlockers') {
    const mine = (view.combat?.attackers ?? []).filter((x) => x.defender === a.player);
    const blockers = mine.slice(0, 1).map((x) => ({ id: `${a.player}-creature-1`, attacker: x.id, ...(random() < 0.5 ? { doubleStrike: true } : {}) }));
    return [{ type: 'DECLARE_BLOCKERS', player: a.player, blockers }];
  }
  if (a.kind === 'discard') {
    const events: TurnEvent[] = [];
    // The cleanup loop: a trigger during cleanup (CR 514.3a).
    if (once('cleanup-trigger')) events.push({ type: 'TRIGGER', triggers: [{ id: id('cleanup'), controller: others[0] as string }] });
    events.push({ type: 'DISCARD', player: a.player, count: a.count ?? 0 });
    return events;
  }
  // Priority.
  const p = a.player;
  if (view.step === 'upkeep' && p === active && once('upkeep-triggers')) {
    // Abilities of every player trigger at once: APNAP order on the stack.
    const triggers = [...view.players].reverse().map((c) => ({ id: id(`upkeep-${c}`), controller: c }));
    return [{ type: 'TRIGGER', triggers }];
  }
  if (view.step === 'main' && view.phase === 'precombatMain' && p === active && view.stack.length === 0 && once('main-plays')) {
    return [
      { type: 'PLAY_LAND', player: p },
      { type: 'ADD_MANA', player: p, amount: 3 },
      { type: 'SPEND_MANA', player: p, amount: 2 },
      { type: 'CAST_SPELL', player: p, id: id('sorcery'), speed: 'sorcery' },
    ];
  }
  if (view.step === 'main' && view.phase === 'precombatMain' && p !== active && view.stack.length === 1 && once(`response-${p}`)) {
    return [{ type: 'CAST_SPELL', player: p, id: id('response'), speed: 'instant' }];
  }
  if (view.step === 'combatDamage' && p !== active && view.stack.length === 0 && once('damage-ability')) {
    return [{ type: 'ACTIVATE_ABILITY', player: p, id: id('ability'), speed: 'instant' }];
  }
  if (view.step === 'end' && p === active && once('end-step')) {
    const events: TurnEvent[] = [{ type: 'HAND_SIZE', player: p, size: 9 }];
    if (t % 4 === 1) events.push({ type: 'ADD_EXTRA_TURN', player: p });
    return events;
  }
  return null;
};

/** The plainest answer to what is awaited (the scenario runner's, CONTRACT.md passUntil). */
function plainest(view: TurnView): TurnEvent {
  if (view.awaiting === null) throw new Error('the game is over');
  return plainestAnswer(view) as TurnEvent;
}

/** Records a workload by driving the engine with a script until `turns` turns are over (or `maxEvents` events are sent). */
function record(name: string, players: string[], turns: number, seed: number, script: Script, options: Partial<GameOptions> = {}, maxEvents = Infinity): Workload {
  const game = createGame({ ...options, players });
  const random = seededRandom(seed);
  const events: TurnEvent[] = [];
  const done = new Set<string>();
  for (;;) {
    const view = game.view();
    if (view.turn > turns || events.length >= maxEvents) break;
    const scope = `${view.turn}:${view.phase}:${view.step}`;
    const once = (label: string) => !done.has(`${scope}:${label}`) && done.add(`${scope}:${label}`) !== undefined;
    for (const event of script(view, random, once) ?? [plainest(view)]) {
      const result = game.send(event);
      if (!result.ok) throw new Error(`workload ${name}: event ${events.length} (${JSON.stringify(event)}) was refused: ${result.error.message}`);
      events.push(event);
    }
  }
  return { name, players, events, turns, ...(options.variant === undefined ? {} : { variant: options.variant }) };
}

const PLAYERS_4 = ['A', 'B', 'C', 'D'];

/** Every workload, recorded from its seed. */
export function workloads(turns = 40): Workload[] {
  return [
    record('quiet-2p', ['A', 'B'], turns, 1, quiet),
    record('quiet-4p', PLAYERS_4, turns, 2, quiet),
    record('busy-2p', ['A', 'B'], turns, 3, busy),
    record('busy-4p', PLAYERS_4, turns, 4, busy),
  ];
}

/** The 64 players of the Grand Melee figure (issue 21): P01 ... P64. */
export const PLAYERS_64 = Array.from({ length: 64 }, (_, i) => `P${String(i + 1).padStart(2, '0')}`);

/**
 * 64 players passing through every step, as a free-for-all and as a Grand Melee game (CR 807:
 * 16 turn markers, range of influence 1), the first `events` events of each: what one event
 * costs with 64 players, and what Grand Melee's coordination of the markers adds to it.
 */
export function players64(events = 3000): { freeForAll: Workload; grandMelee: Workload } {
  return {
    freeForAll: record('quiet-64p', PLAYERS_64, Infinity, 5, quiet, {}, events),
    grandMelee: record('grandMelee-64p', PLAYERS_64, Infinity, 6, quiet, { variant: 'grandMelee' }, events),
  };
}

/**
 * A recorded game of `turns` turns (issue 23, the seek figure): the busy 2-player script played
 * by a host with a checkpoint hook (its answers are in the recording), `record: true`. Its
 * recording keeps a persisted snapshot every 256 versions.
 */
export function recordedGame(turns = 1000): { recording: Recording; events: number } {
  const { events, players } = record(`busy-2p-${turns}`, ['A', 'B'], turns, 3, busy);
  const game = createGame({ players, record: true, hooks: { checkpoint: () => undefined } });
  for (const e of events) game.send(e);
  return { recording: JSON.parse(JSON.stringify(game.recording())) as Recording, events: events.length };
}
