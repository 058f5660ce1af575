/**
 * `playout(game, { policy?, until?, seed? })` (issue 34, CONTRACT v4 "Simulation"): plays a game
 * forward in place, one decision after another, until `until` matches its view, the game ends, no
 * decision is awaited, or `maxEvents` events were sent. Deterministic for a seed.
 *
 * Who decides: the `policy` when given; else a card game's bot (its definition's
 * `bot(view, seen, player, random)`, see {@link CardBotSource}); else the default: usually
 * (1 - `explore`) the plainest answer to what is awaited (pass priority, no attackers, no
 * blockers, discard what is due), otherwise one of the awaited player's legal actions at random,
 * its choices filled the plainest way, so that a game moves on to its later turns.
 *
 * A game on the compiled plan with the default policy takes a fast path (no view or legal action
 * list built for a plain pass: the state says what is awaited); other games (Grand Melee) and
 * games with a policy or a bot take the general path, through the view and `legalActions`.
 */
import type { Awaiting, TurnEvent, TurnView } from '../contract.js';
import { legalActionsOf, plainestAnswerTo, plainestCandidate, plainestFill, type LegalAction } from '../legal.js';
import { seededRandom } from '../simulation.js';
import { awaitingOf } from '../view.js';
import { ErrorCode, TurnEngineError, type EngineErrorInfo } from '../errors.js';
import type { Game } from '../game/types.js';
import { snapshotOf, type CompiledState } from '../compiled/runtime.js';
import { turnPlan } from '../compiled/plan.js';

/** The random numbers a card game's bot draws from: as a card game's `ctx.random` (CONTRACT v4, "Card games"). */
export interface BotRandom {
  /** A whole number from 0 to n - 1. */
  int(n: number): number;
  /** A new list with the items in random order. */
  shuffle<T>(list: readonly T[]): T[];
}

/** A card definition's `bot`: a legal decision for `player` (with its `data`) from what that player may know, or undefined. */
export type CardBot = (view: TurnView, seen: unknown, player: string, random: BotRandom) => TurnEvent | Record<string, unknown> | undefined;

/**
 * What playout needs of a card game (mtg-turn-engine/cards) to use its bot: the definition
 * (with its optional `bot`) and what a seat sees of the cards' state (`game.cards({ seat })`, the
 * definition's `seatView`). Any game that has both plugs in; playout never reads the full state.
 */
export interface CardBotSource {
  readonly definition?: { readonly bot?: CardBot };
  cards(options: { seat: string }): unknown;
}

/** What a policy is given besides the view and the legal actions. */
export interface PolicyContext {
  /** The game being played (read it; sending to it is playout's job). */
  readonly game: Game;
  /** The player who decides now. */
  readonly player: string;
  /** The playout's seeded random numbers in [0, 1). */
  readonly random: () => number;
  /** An event from a legal action's template, its choices (`choose`) filled the plainest way. */
  fill(action: LegalAction): TurnEvent;
}

/**
 * Chooses the next event: from the view and the legal actions of the player who decides now
 * (never empty), the event to send, or undefined to stop the playout. An event the game refuses
 * stops the playout (`stopped: 'refused'`).
 */
export type Policy = (view: TurnView, actions: LegalAction[], context: PolicyContext) => TurnEvent | Record<string, unknown> | undefined;

/** A partial view: the playout stops when every field given equals the view's (objects matched field by field, arrays whole). */
export type Until = { [K in keyof TurnView]?: unknown };

/** Options of {@link playout}. */
export interface PlayoutOptions {
  /** Chooses every decision (default: the card game's bot, else random legal actions). */
  policy?: Policy;
  /** Stop when the view matches this partial view, e.g. `{ turn: 21 }` (default: play to the game's end or `maxEvents`). */
  until?: Until;
  /** The seed of the playout's random choices (default 1). */
  seed?: number;
  /** A cap on the events sent (default 100,000). */
  maxEvents?: number;
  /** The default policy: the probability of a random legal action instead of the plainest answer (default 0.1). */
  explore?: number;
  /** The default policy: whether a random action may be a concession (default false). */
  allowConcede?: boolean;
  /** A card game's bot source, when the game itself does not carry its definition. */
  cards?: { readonly bot?: CardBot };
}

/** Why a playout stopped. */
export type PlayoutStop = 'until' | 'gameOver' | 'noDecision' | 'maxEvents' | 'refused' | 'policy';

/** What a playout did (plain JSON). */
export interface PlayoutResult {
  /** Events sent and accepted. */
  events: number;
  /** The game's turn at the end. */
  turn: number;
  /** The winners if the game ended, else null. */
  winners: string[] | null;
  stopped: PlayoutStop;
  /** The refusal that stopped it (`stopped: 'refused'`). */
  error?: EngineErrorInfo;
}

const DEFAULT_MAX_EVENTS = 100_000;

/** A game whose logic state is on the compiled plan (the shell's `state`), else undefined. */
function compiledStateOf(game: Game): CompiledState | undefined {
  const state = (game as { state?: unknown }).state;
  return typeof state === 'object' && state !== null && typeof (state as CompiledState).value === 'string' && 'context' in state ? (state as CompiledState) : undefined;
}

/** Whether `actual` has every field of `expected` (objects field by field, everything else equal as JSON). */
export function matchesPartial(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object') return Object.is(actual, expected) || actual === expected;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    return expected.every((e, i) => matchesPartial(actual[i], e));
  }
  if (actual === null || typeof actual !== 'object') return false;
  for (const [key, value] of Object.entries(expected)) if (!matchesPartial((actual as Record<string, unknown>)[key], value)) return false;
  return true;
}

/** The random numbers of a bot from the playout's generator. */
function botRandom(random: () => number): BotRandom {
  return {
    int: (n) => Math.min(n - 1, Math.floor(random() * n)),
    shuffle: <T>(list: readonly T[]) => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
  };
}

/** The checks of playout's options: a clear error naming the field, nothing played. */
function checkOptions(game: unknown, options: PlayoutOptions): void {
  const bad = (field: string, what: string) => new TurnEngineError(ErrorCode.INVALID_OPTIONS, `playout: ${field} ${what}`);
  if (typeof game !== 'object' || game === null || typeof (game as Game).send !== 'function' || typeof (game as Game).view !== 'function') throw bad('game', 'must be a Game (createGame, restoreGame, fork or createCardGame)');
  if (options.policy !== undefined && typeof options.policy !== 'function') throw bad('options.policy', 'must be a function (view, actions, context) => event');
  if (options.until !== undefined && (typeof options.until !== 'object' || options.until === null || Array.isArray(options.until))) throw bad('options.until', 'must be a partial view (an object), e.g. { turn: 21 }');
  if (options.seed !== undefined && !Number.isFinite(options.seed)) throw bad('options.seed', 'must be a finite number');
  if (options.maxEvents !== undefined && !(Number.isInteger(options.maxEvents) && options.maxEvents >= 0)) throw bad('options.maxEvents', 'must be a whole number from 0');
  if (options.explore !== undefined && !(options.explore >= 0 && options.explore <= 1)) throw bad('options.explore', 'must be a probability from 0 to 1');
}

/**
 * Plays `game` forward in place (see the module's comment). Returns what it did; the game is
 * left where the playout stopped. Throws INVALID_OPTIONS for bad options, changing nothing.
 */
export function playout(game: Game, options: PlayoutOptions = {}): PlayoutResult {
  checkOptions(game, options);
  const random = seededRandom(options.seed ?? 1);
  const explore = options.explore ?? 0.1;
  const maxEvents = options.maxEvents ?? DEFAULT_MAX_EVENTS;
  const until = options.until;
  // `turn` is read from the state on the fast path; any other field needs the view.
  const untilTurn = until !== undefined && Object.keys(until).every((k) => k === 'turn') ? until.turn : undefined;
  const untilNeedsView = until !== undefined && untilTurn === undefined;
  const bot = options.cards?.bot ?? (game as Partial<CardBotSource>).definition?.bot;
  const chooser = options.policy ?? (typeof bot === 'function' ? botPolicy(bot, game as unknown as CardBotSource) : undefined);
  let events = 0;
  const result = (stopped: PlayoutStop, error?: EngineErrorInfo): PlayoutResult => {
    const view = game.view();
    return { events, turn: view.turn, winners: view.gameOver === null ? null : [...view.gameOver.winners], stopped, ...(error === undefined ? {} : { error }) };
  };
  for (;;) {
    const state = chooser === undefined ? compiledStateOf(game) : undefined;
    if (state !== undefined) {
      // The fast path: the state alone says whether to stop and what is awaited.
      const ctx = state.context;
      if (state.status !== 'active' || ctx.result !== null) return result('gameOver');
      if (untilTurn !== undefined && matchesPartial(ctx.turn, untilTurn)) return result('until');
      if (untilNeedsView && matchesPartial(game.view(), until)) return result('until');
      if (events >= maxEvents) return result('maxEvents');
      const snapshot = snapshotOf(turnPlan, state);
      const awaiting = awaitingOf(snapshot);
      if (awaiting === null) return result('noDecision');
      if (random() >= explore) {
        const plainest = plainestCandidate(ctx, awaiting, awaiting.player);
        if (plainest.type !== 'CONCEDE' && game.send(plainestFill(plainest, awaiting, ctx)).ok) {
          events++;
          continue;
        }
      }
      const actions = legalActionsOf(snapshot, awaiting.player).filter((a) => a.type !== 'CONCEDE' || options.allowConcede === true);
      if (actions.length === 0) return result('noDecision');
      const chosen = actions[Math.floor(random() * actions.length)] as LegalAction;
      const sent = game.send(plainestFill(chosen, awaiting, ctx));
      if (!sent.ok) return result('refused', sent.error);
      events++;
      continue;
    }
    // The general path: the view and the legal actions, as any host has them.
    const view = game.view();
    if (view.gameOver !== null) return result('gameOver');
    if (until !== undefined && matchesPartial(view, until)) return result('until');
    if (events >= maxEvents) return result('maxEvents');
    const decision = awaitedOf(view, random);
    if (decision === null) return result('noDecision');
    const actions = game.legalActions(decision.awaiting.player).filter((a) => a.turnMarker === undefined || decision.turnMarker === undefined || a.turnMarker === decision.turnMarker);
    if (actions.length === 0) return result('noDecision');
    const seen: TurnView = decision.view;
    // Ids are chosen clear of the stack the decider sees (its turn's, in Grand Melee).
    const fill = (action: LegalAction) => plainestFill(action, decision.awaiting, { stack: seen.stack as never, pendingTriggers: [] });
    let event: TurnEvent | Record<string, unknown> | undefined;
    if (chooser !== undefined) {
      event = chooser(seen, actions, { game, player: decision.awaiting.player, random, fill });
      if (event === undefined) return result('policy');
    } else {
      event = defaultChoice(decision.awaiting, actions, random, explore, options.allowConcede === true, fill);
      if (event === undefined) return result('noDecision');
    }
    const sent = game.send((decision.turnMarker === undefined || 'turnMarker' in event ? event : { ...event, turnMarker: decision.turnMarker }) as unknown);
    if (!sent.ok) return result('refused', sent.error);
    events++;
  }
}

/** The default choice from the view: the plainest answer, or (with probability `explore`, or when it is not legal) a random legal action. */
function defaultChoice(awaiting: Awaiting, actions: LegalAction[], random: () => number, explore: number, allowConcede: boolean, fill: (a: LegalAction) => TurnEvent): TurnEvent | undefined {
  if (random() >= explore) {
    const plainest = plainestAnswerTo(awaiting);
    if (actions.some((a) => a.type === plainest.type)) return plainest;
  }
  const open = actions.filter((a) => a.type !== 'CONCEDE' || allowConcede);
  if (open.length === 0) return undefined;
  return fill(open[Math.floor(random() * open.length)] as LegalAction);
}

/** What is awaited now and from whom: in Grand Melee one of the turns awaiting a decision, at random (CR 807.4), seen as that turn's view. */
function awaitedOf(view: TurnView, random: () => number): { awaiting: Awaiting; view: TurnView; turnMarker?: number } | null {
  const waiting = view.turns?.filter((t) => t.awaiting !== null) ?? [];
  if (waiting.length === 0) return view.awaiting === null ? null : { awaiting: view.awaiting, view };
  const turn = waiting[Math.floor(random() * waiting.length)] as (typeof waiting)[number];
  return { awaiting: turn.awaiting as Awaiting, view: { ...view, awaiting: turn.awaiting, combat: turn.combat, stack: turn.stack }, turnMarker: turn.turnMarker };
}

/** A card game's bot as a policy: its decision for the awaited player, else a random legal action without data. */
function botPolicy(bot: CardBot, game: CardBotSource): Policy {
  let random: BotRandom | null = null;
  let from: (() => number) | null = null;
  return (view, actions, context) => {
    if (from !== context.random) random = botRandom((from = context.random));
    const seen = game.cards({ seat: context.player });
    // CONTRACT v4, "Bots": what that player may know: the view their seat receives (the decision's own turn in Grand Melee, as `view` has it).
    const own = (context.game as Game).view({ seat: context.player });
    const chosen = bot({ ...own, awaiting: view.awaiting, combat: view.combat, stack: view.stack }, seen, context.player, random as BotRandom);
    if (chosen !== undefined) return chosen;
    const open = actions.filter((a) => a.type !== 'CONCEDE');
    return open.length === 0 ? undefined : context.fill(open[Math.floor(context.random() * open.length)] as LegalAction);
  };
}
