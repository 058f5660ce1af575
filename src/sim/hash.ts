/**
 * `stateHash(game)` (issue 34, CONTRACT v4 "Simulation"): a 64-bit hash of a game's state, for
 * transposition tables and for telling positions apart in simulations.
 *
 * What is hashed: the turn's state as persisted (the chart's state, its status and the context;
 * each turn marker's in Grand Melee; the shortcut vote, an undo request awaiting answers and the
 * undo requests made this turn at the table) and, in a card game, the
 * cards' state, as canonical values: object keys in sorted order, `undefined` fields left out,
 * numbers by value (`-0` is 0; NaN and infinities are null, as in JSON). Not hashed: `version`,
 * `seq` (also the `seq` of the events a state keeps for the next checkpoint), the context's
 * per-send fields (reset by every send), history (undo's kept states, recordings), and the
 * table's time state (clocks, seats). So games equal as JSON hash equal whatever route reached them.
 *
 * How: FNV-1a 64 (offset basis 0xcbf29ce484222325, prime 2^40 + 0x1b3) over a stream of 32-bit
 * words, in two 32-bit halves: each value is a tag word then its payload (a string: its length
 * then its UTF-16 code units two to a word; an integer of 32 bits: one word; another number: the
 * two words of its float64; a context field: its index in the sorted field names). The stream
 * decodes one way only, so different states give different streams. The hash depends on nothing
 * but the state (no per-process seed, no insertion order): it is the same in every process and
 * every version of the engine that writes the same persisted format. The words and the values'
 * stream are written by ./fnv64.ts; this module reads the game's state into it.
 */
import { CONTEXT_KEYS, FRESH_SEND } from '../../machines/context.js';
import type { TurnContext } from '../state.js';
import { CARDS_OWED, CARDS_RANDOM } from '../game/cardsPart.js';
import { CARDS, CHART, END, Fnv64, H, MARKERS, TABLE } from './fnv64.js';

export { fnvWord } from './fnv64.js';

/**
 * The context's fields in sorted order (the order a canonical JSON writes them), less the fields
 * that last one send (FRESH_SEND: the auto-pass loop guard, whether priority was just given):
 * every send starts them afresh, so they tell routes apart, not states. {@link mixContext} reads
 * them in this order (a test holds the two together: test/sim/state-hash.test.ts).
 */
export const HASHED_FIELDS: readonly string[] = ['activePlayer', 'attack', 'cleanupCheck', 'cleanupSteps', 'combat', 'controlNext', 'controlledBy', 'dayNight', 'effects', 'emptyTurns', 'extraTurn', 'extraTurns', 'handSizes', 'influence', 'landsPlayedBy', 'mainSeen', 'manaPool', 'maxHandSize', 'nextObjectId', 'orderTriggers', 'passed', 'pending', 'pendingTriggers', 'phase', 'phases', 'planarRolls', 'players', 'pregame', 'previousTurnSpells', 'priority', 'ranges', 'reasons', 'result', 'rng', 'rotation', 'rules', 'seats', 'skips', 'spellsCast', 'stack', 'startingPlayer', 'step', 'steps', 'stops', 'teams', 'triggerOrder', 'turn', 'turnOwner', 'variant', 'waitingToPhaseIn', 'yields'];

/** The fields {@link HASHED_FIELDS} should list: the context's, less the per-send ones, sorted. */
export function hashedFieldsOfContext(): string[] {
  return CONTEXT_KEYS.filter((k) => !(k in FRESH_SEND)).sort();
}

/** The context's fields, in the order of {@link HASHED_FIELDS}, each read by its name (one shape of context: fast reads). */
function mixContext(h: Fnv64, c: TurnContext): void {
  h.field(0, c.activePlayer, false);
  h.field(1, c.attack, false);
  h.field(2, c.cleanupCheck, false);
  h.field(3, c.cleanupSteps, false);
  h.field(4, c.combat, false);
  h.field(5, c.controlNext, false);
  h.field(6, c.controlledBy, false);
  h.field(7, c.dayNight, false);
  h.field(8, c.effects, false);
  h.field(9, c.emptyTurns, false);
  h.field(10, c.extraTurn, false);
  h.field(11, c.extraTurns, false);
  h.field(12, c.handSizes, false);
  h.field(13, c.influence, false);
  h.field(14, c.landsPlayedBy, false);
  h.field(15, c.mainSeen, false);
  h.field(16, c.manaPool, false);
  h.field(17, c.maxHandSize, false);
  h.field(18, c.nextObjectId, false);
  h.field(19, c.orderTriggers, false);
  h.field(20, c.passed, false);
  h.field(21, c.pending, true);
  h.field(22, c.pendingTriggers, false);
  h.field(23, c.phase, false);
  h.field(24, c.phases, false);
  h.field(25, c.planarRolls, false);
  h.field(26, c.players, false);
  h.field(27, c.pregame, false);
  h.field(28, c.previousTurnSpells, false);
  h.field(29, c.priority, false);
  h.field(30, c.ranges, false);
  h.field(31, c.reasons, false);
  h.field(32, c.result, false);
  h.field(33, c.rng, false);
  h.field(34, c.rotation, false);
  h.field(35, c.rules, false);
  h.field(36, c.seats, false);
  h.field(37, c.skips, false);
  h.field(38, c.spellsCast, false);
  h.field(39, c.stack, false);
  h.field(40, c.startingPlayer, false);
  h.field(41, c.step, false);
  h.field(42, c.steps, false);
  h.field(43, c.stops, false);
  h.field(44, c.teams, false);
  h.field(45, c.triggerOrder, false);
  h.field(46, c.turn, false);
  h.field(47, c.turnOwner, false);
  h.field(48, c.variant, false);
  h.field(49, c.waitingToPhaseIn, false);
  h.field(50, c.yields, false);
  h.word(END);
}

/** A turn's state on the compiled plan (src/compiled/runtime.ts). */
interface ChartLike {
  readonly value: string;
  readonly context: TurnContext;
  readonly status: string;
}

function isChart(s: unknown): s is ChartLike {
  return typeof s === 'object' && s !== null && typeof (s as ChartLike).value === 'string' && typeof (s as ChartLike).context === 'object' && (s as ChartLike).context !== null;
}

/** Mixes a logic's state: a turn, Grand Melee's markers, or a table around either (its undo history left out). */
function mixState(h: Fnv64, state: unknown): void {
  if (isChart(state)) {
    h.word(CHART);
    h.string(state.value);
    h.string(state.status);
    mixContext(h, state.context);
    return;
  }
  if (Array.isArray(state)) {
    h.word(MARKERS);
    for (const m of state as { number: number; life: string; removals: number; turn: unknown }[]) {
      h.number(m.number);
      h.string(m.life);
      h.number(m.removals);
      mixState(h, m.turn);
    }
    h.word(END);
    return;
  }
  if (typeof state === 'object' && state !== null && 'game' in state && 'shortcut' in state) {
    const table = state as { game: unknown; shortcut: unknown; undo?: { vote: { requester: string; asked: readonly string[] } | null; requests: Readonly<Record<string, number>> } | null };
    h.word(TABLE);
    mixState(h, table.game);
    h.value(table.shortcut, null);
    // An undo request awaiting answers and the requests made this turn (maxPerTurn) are state: what may be sent differs. Its `to` is a version, and history, as the kept moments are.
    const undo = table.undo;
    if (undo !== null && undo !== undefined && (undo.vote !== null || Object.keys(undo.requests).length > 0)) h.value({ requests: undo.requests, vote: undo.vote === null ? null : { requester: undo.vote.requester, asked: undo.vote.asked } }, null);
    return;
  }
  throw new TypeError('stateHash: the game is not one made by createGame, restoreGame, fork or a card game (its state is not the engine\'s)');
}

/** What stateHash reads of a game: the logic's state (`GameShell.state`) and, in a card game, the cards' state and random position. */
export interface Hashable {
  readonly state: unknown;
  /** A card game's (mtg-turn-engine/cards): the cards' state for the host. */
  cards?: () => unknown;
  /** A card game's: the position of the cards' random stream (what `ctx.random` gives next). */
  [CARDS_RANDOM]?: () => number;
  /** A card game's: the decisions owed to the next checkpoint (their events, without seq). */
  [CARDS_OWED]?: () => readonly unknown[];
}

/** The 64-bit hash of a logic state and a card game's state, as 16 hex characters. */
export const hashOf = Object.assign(hashState, {
  /** @internal The running hash's halves, for the test of {@link fnvWord} against BigInt. */
  __state: H,
});

function hashState(state: unknown, cards?: unknown, random?: number, owed?: readonly unknown[]): string {
  const h = new Fnv64();
  mixState(h, state);
  if (cards !== undefined) {
    h.word(CARDS);
    h.value(cards, null);
    // The cards' random position: equal cards that will draw differently are not the same state.
    if (random !== undefined) h.word(random);
    // Decisions the checkpoint is still to be given (none: the hash of a game that owes none is unchanged).
    if (owed !== undefined && owed.length > 0) h.value(owed, null);
  }
  return h.hex();
}

/**
 * The game's state hash: 16 hex characters (64 bits), equal for games whose turn state and
 * cards' state are equal, whatever route reached them; `version`, `seq` and history are not
 * part of it. Throws a TypeError for an object that is not a game of this engine.
 */
export function stateHash(game: object): string {
  const g = game as Hashable;
  if (!('state' in g)) throw new TypeError('stateHash: expected a Game made by createGame, restoreGame, fork or createCardGame');
  const random = g[CARDS_RANDOM];
  const owed = g[CARDS_OWED];
  return hashOf(g.state, typeof g.cards === 'function' ? g.cards() : undefined, typeof random === 'function' ? random() : undefined, typeof owed === 'function' ? owed() : undefined);
}
