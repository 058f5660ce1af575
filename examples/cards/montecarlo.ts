/**
 * A flat Monte Carlo bot for the example card game (issue 34, point 3; docs/simulation.md, "A bot
 * that plans"; docs/cards.md, "Bots that plan"). For each legal decision of `player` it runs
 * `playouts` playouts and picks the decision with the best score. It knows only what its seat
 * may know: the seat's view and seatView (`seen`). Each playout round starts from a world built
 * from them (`determinize`): the public zones as seen, the cards the seat cannot see (the other
 * seat's hand and library, its own library's order) re-dealt at random from the cards that could
 * be there, in the game's turn (`worlds.world(S, seed)`, a fork with new random streams). The
 * decision is applied first, then both seats play the definition's random `bot` (through `playout`
 * of mtg-turn-engine/sim) to the end or to `turns` more turns (default 1: a short horizon, since a
 * playout of the example costs a few hundred sends); a capped playout is scored 0 to 1 by the
 * standing (life, power on the battlefield, cards in hand) against the other seat's. Pure and
 * seeded: the same view, seen and random numbers give the same decision.
 */
import { botWorlds } from '../../src/cards/index.js';
import type { BotWorlds, CardActionEvent, CardGame, CardRandom, PlanningBot, TurnEvent, TurnView } from '../../src/cards/index.js';
import { playout } from '../../src/sim/index.js';
import { seededRandom } from '../../src/simulation.js';
import { DECK, exampleCards, KINDS, type CastData, type ExampleSeatView, type ExampleState, type Side } from './definition.js';

/** Options of {@link monteCarloBot}. */
export interface MonteCarloOptions {
  /** Playouts per legal decision (default 8). */
  playouts?: number;
  /** The seed of the re-deals and the playouts' choices (default 1). */
  seed?: number;
  /** A playout stops this many turns after the decision's turn (default 1: at the next turn's start); then the standing decides (life, power, hand). */
  turns?: number;
  /** At most this many candidate decisions are weighed (default 12; attackers, blockers and discards are sampled past it). */
  candidates?: number;
}

/** A decision the bot may send: an engine event with its data, or a CARD_ACTION. */
export type Decision = TurnEvent | CardActionEvent;

/** The bot: the decision for `player` in `game` (the player must be the one awaited), or undefined when none is awaited of it. */
export type MonteCarloBot = (game: CardGame<ExampleState>, player: string) => Decision | undefined;

function whole(value: unknown, field: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new TypeError(`monteCarloBot: options.${field} must be a whole number from ${min}`);
  return value;
}

/** The random numbers of the bot's choices, as a card game's `ctx.random`. */
function randomOf(next: () => number): { int(n: number): number; shuffle<T>(list: readonly T[]): T[] } {
  return {
    int: (n) => Math.min(n - 1, Math.floor(next() * n)),
    shuffle: <T>(list: readonly T[]) => {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
  };
}

/** Every subset of `items` when there are few, else the empty set, all, each one alone and random ones, up to `cap`. */
function subsets<T>(items: readonly T[], cap: number, next: () => number): T[][] {
  if (2 ** items.length <= cap) {
    const out: T[][] = [];
    for (let mask = 0; mask < 2 ** items.length; mask++) out.push(items.filter((_, i) => (mask & (1 << i)) !== 0));
    return out;
  }
  const out: T[][] = [[], [...items], ...items.map((i) => [i])];
  while (out.length < cap) out.push(items.filter(() => next() < 0.5));
  return out.slice(0, cap);
}

/**
 * The legal decisions of `player` now, with their data (the random bot's options, every target
 * and land included): at priority pass, play a land, cast a spell at each target, tap a land for a
 * spell it could then afford; attackers, blockers and discards as subsets (sampled when many).
 */
export function decisionsOf(view: TurnView, me: ExampleSeatView, player: string, cap: number, next: () => number): Decision[] {
  const awaiting = view.awaiting;
  if (awaiting === null || awaiting.player !== player || me.hand === undefined) return [];
  const mine = me.battlefield.filter((p) => p.controller === player);
  const creatures = (list: ExampleSeatView['battlefield']) => list.filter((p) => p.type === 'creature');
  if (awaiting.kind === 'declareAttackers') {
    const able = creatures(mine).filter((p) => !p.tapped && !p.sick);
    const defender = awaiting.defenders[0] as string;
    return subsets(able, cap, next).map((set) => ({ type: 'DECLARE_ATTACKERS', player, attackers: set.map((p) => ({ id: p.id, defender })) }) as TurnEvent);
  }
  if (awaiting.kind === 'declareBlockers') {
    const attackers = view.combat?.attackers.filter((a) => a.defender === player) ?? [];
    const able = creatures(mine).filter((p) => !p.tapped);
    const pairs = attackers.length === 0 ? [] : able.flatMap((b) => attackers.map((a) => ({ id: b.id, attacker: a.id })));
    // Each blocker blocks at most one attacker: a set of pairs naming a blocker once.
    const sets = subsets(pairs, cap * 4, next).filter((set) => new Set(set.map((p) => p.id)).size === set.length).slice(0, cap);
    return sets.map((blockers) => ({ type: 'DECLARE_BLOCKERS', player, blockers }) as TurnEvent);
  }
  if (awaiting.kind === 'discard') {
    const random = randomOf(next);
    const seen = new Set<string>();
    const out: Decision[] = [];
    for (let i = 0; i < cap * 2 && out.length < cap; i++) {
      const cards = random.shuffle(me.hand.map((c) => c.id)).slice(0, awaiting.count).sort();
      if (seen.has(cards.join())) continue;
      seen.add(cards.join());
      out.push({ type: 'DISCARD', player, count: awaiting.count, data: { cards } } as TurnEvent);
    }
    return out;
  }
  if (awaiting.kind !== 'priority' || view.priority !== player) return [];
  const out: Decision[] = [{ type: 'PASS_PRIORITY', player }];
  const pool = view.manaPool[player] ?? 0;
  const lands = mine.filter((p) => p.type === 'land' && !p.tapped);
  const sorcerySpeed = view.activePlayer === player && view.step === 'main' && view.stack.length === 0;
  if (sorcerySpeed && view.landsPlayed < view.landPlaysAllowed) {
    // One land of each kind: two Forests are the same decision.
    const kinds = new Set<string>();
    for (const c of me.hand) {
      if (c.type !== 'land' || kinds.has(c.kind)) continue;
      kinds.add(c.kind);
      out.push({ type: 'PLAY_LAND', player, data: { card: c.id } } as TurnEvent);
    }
  }
  let wantsMana = false;
  const cast = new Set<string>();
  for (const c of me.hand) {
    if (c.type === 'land' || cast.has(c.kind)) continue;
    const speed = KINDS[c.kind].type === 'instant' ? 'instant' : 'sorcery';
    if (speed === 'sorcery' && !sorcerySpeed) continue;
    if (c.cost > pool) {
      if (c.cost <= pool + lands.length) wantsMana = true;
      continue;
    }
    cast.add(c.kind);
    const targets: (CastData['target'] | undefined)[] =
      c.kind === 'shock' ? [...view.players.map((p) => ({ player: p })), ...creatures(me.battlefield).map((p) => ({ creature: p.id }))]
      : c.kind === 'lavaAxe' ? view.players.filter((p) => p !== player).map((p) => ({ player: p }))
      : c.kind === 'counterspell' ? me.stack.filter((s) => !s.name.endsWith('(trigger)')).map((s) => ({ spell: s.id }))
      : [undefined];
    for (const target of targets) {
      const data: CastData = { card: c.id };
      if (target !== undefined) data.target = target;
      out.push({ type: 'CAST_SPELL', player, id: `spell-${view.version}`, speed, data } as TurnEvent);
    }
  }
  // One tap stands for all: the lands are alike (each taps for one generic mana).
  if (wantsMana && lands[0] !== undefined) out.push({ type: 'CARD_ACTION', player, action: 'tap', data: { card: lands[0].id } });
  return out;
}

/**
 * A cards' state consistent with what `player` may know (`seen`, its seatView, and `view`): the
 * public zones as seen; the cards it cannot see re-dealt at random. Which card ids a seat's deck
 * holds and their kinds follow from the public deck list (DECK, dealt to the seats in `players`
 * order, as `setup` does); the ids of a seat that are in no public zone (and not in `player`'s
 * hand) are shuffled and dealt back: the other seat's into its hand and library in the counts
 * seen, `player`'s own into its library. Reads nothing but `seen` and `view`.
 */
export function determinize(seen: ExampleSeatView, view: TurnView, player: string, next: () => number): ExampleState {
  const random = randomOf(next);
  const state: ExampleState = { kinds: {}, sides: {}, battlefield: {}, stack: {}, attacked: [...seen.attacked], nextTrigger: view.version + 1 };
  const decks: Record<string, string[]> = {};
  let n = 1;
  for (const seat of view.players) {
    decks[seat] = DECK.map((kind) => {
      const id = `c${n++}`;
      state.kinds[id] = kind;
      return id;
    });
  }
  const known = new Set<string>((seen.hand ?? []).map((c) => c.id));
  for (const p of seen.battlefield) {
    known.add(p.id);
    state.battlefield[p.id] = { id: p.id, kind: p.kind, controller: p.controller, tapped: p.tapped, sick: p.sick, damage: p.damage };
  }
  for (const s of seen.stack) {
    if (s.card !== null) known.add(s.card);
    const trigger = /^trigger-(\d+)$/.exec(s.id);
    if (trigger !== null) state.nextTrigger = Math.max(state.nextTrigger, Number(trigger[1]) + 1);
    const entry: ExampleState['stack'][string] = { card: s.card, kind: s.kind, controller: s.controller };
    if (s.target !== undefined) entry.target = s.target;
    state.stack[s.id] = entry;
  }
  for (const seen1 of Object.values(seen.players)) for (const c of seen1.graveyard) known.add(c.id);
  for (const seat of view.players) {
    const shown = seen.players[seat];
    if (shown === undefined) throw new Error(`determinize: seen.players has no ${seat}`);
    const unseen = random.shuffle((decks[seat] as string[]).filter((id) => !known.has(id)));
    const hand = seat === player ? (seen.hand ?? []).map((c) => c.id) : unseen.slice(0, shown.handCount);
    const library = seat === player ? unseen : unseen.slice(shown.handCount);
    if (library.length !== shown.library || hand.length !== shown.handCount) throw new Error(`determinize: the cards of ${seat} do not add up (${hand.length} in hand, ${library.length} in the library; seen ${shown.handCount} and ${shown.library})`);
    state.sides[seat] = { life: shown.life, library, hand, graveyard: shown.graveyard.map((c) => c.id), drewFromEmpty: false };
  }
  return state;
}

/** What a seat has going for it at a capped playout's end: life, power on the battlefield, cards in hand. */
function standing(state: ExampleState, seat: string): number {
  const side = state.sides[seat] as Side;
  let power = 0;
  for (const p of Object.values(state.battlefield)) if (p.controller === seat) power += (KINDS[p.kind] as { power?: number }).power ?? 0;
  return side.life + 1.5 * power + 0.5 * side.hand.length;
}

/** A playout's score for `player` from 0 to 1: 1 a win, 0 a loss; capped, the standing against the best other seat's, squashed. */
function scoreOf(game: CardGame<ExampleState>, player: string): number {
  const over = game.view().gameOver;
  if (over !== null) return over.winners.includes(player) ? 1 : 0;
  const state = game.cards();
  const theirs = Math.max(...Object.keys(state.sides).filter((p) => p !== player).map((p) => standing(state, p)));
  return 0.5 + 0.5 * Math.tanh((standing(state, player) - theirs) / 10);
}

/** The bounds of one decision: a playout count, a horizon and a candidate cap. */
interface Bounds {
  playouts: number;
  turns: number;
  cap: number;
}

function boundsOf(options: MonteCarloOptions): Bounds & { seed: number } {
  return {
    playouts: whole(options.playouts, 'playouts', 8, 1),
    seed: whole(options.seed, 'seed', 1, 0),
    turns: whole(options.turns, 'turns', 1, 1),
    cap: whole(options.candidates, 'candidates', 12, 2),
  };
}

/**
 * One decision from what `player` may know: its candidates (checked in a determinized world),
 * each tried in `playouts` determinized worlds (one re-deal and one seed per round, shared by
 * every candidate: common random numbers), the best total score wins.
 */
function plan(view: TurnView, seen: ExampleSeatView, player: string, next: () => number, worlds: BotWorlds<ExampleState>, bounds: Bounds): Decision | undefined {
  if (view.gameOver !== null || seen.hand === undefined) return undefined;
  const worldOf = () => worlds.world(determinize(seen, view, player, next), Math.floor(next() * 2 ** 32)) as CardGame<ExampleState>;
  const first = worldOf();
  const candidates = decisionsOf(view, seen, player, bounds.cap, next).filter((d) => first.check(d).ok);
  if (candidates.length <= 1) return candidates[0];
  const wins = candidates.map(() => 0);
  for (let i = 0; i < bounds.playouts; i++) {
    const world = i === 0 ? first : worldOf();
    const playoutSeed = Math.floor(next() * 2 ** 32);
    candidates.forEach((decision, c) => {
      const fork = world.fork({ seed: playoutSeed });
      if (!fork.send(decision).ok) return;
      playout(fork, { seed: playoutSeed, until: { turn: view.turn + bounds.turns }, cards: exampleCards as never, maxEvents: 20_000 });
      wins[c] = (wins[c] as number) + scoreOf(fork, player);
    });
  }
  let best = 0;
  for (let c = 1; c < candidates.length; c++) if ((wins[c] as number) > (wins[best] as number)) best = c;
  return candidates[best];
}

/** The random numbers in [0, 1) of a bot's `random` (CONTRACT v4, "Randomness": `int(n)`). */
function unitOf(random: CardRandom): () => number {
  return () => random.int(2 ** 30) / 2 ** 30;
}

/**
 * The planner as a definition's named bot (`bots: { montecarlo }`, docs/cards.md "Bots that
 * plan"): `monteCarloPlanner(options)(view, seen, player, random, worlds)` decides from `view`
 * and `seen` only, trying its candidates in `worlds` (seeded by `random`). Throws a TypeError
 * naming the option for bad options (`seed` is unused: `random` seeds it).
 */
export function monteCarloPlanner(options: MonteCarloOptions = {}): PlanningBot<ExampleState> {
  const bounds = boundsOf(options);
  return (view, seen, player, random, worlds) => plan(view, seen as ExampleSeatView, player, unitOf(random), worlds, bounds);
}

/**
 * The bounds of the served planner (a bot seat of kind 'montecarlo'): 4 playouts per candidate,
 * at most 8 candidates, to the next turn's start; about a tenth of a second a decision on an idle
 * core (docs/cards.md).
 */
export const SERVED_PLANNER: Readonly<MonteCarloOptions> = Object.freeze({ playouts: 4, candidates: 8, turns: 1 });

/**
 * The example definition's `bots.montecarlo`: the planner with {@link SERVED_PLANNER}'s bounds. A
 * function declaration (not a const) so that the definition, which imports it from this module
 * while this module imports the definition, can name it whichever module loads first.
 */
export function montecarlo(view: TurnView, seen: unknown, player: string, random: CardRandom, worlds: BotWorlds<ExampleState>): Decision | undefined {
  return plan(view, seen as ExampleSeatView, player, unitOf(random), worlds, boundsOf(SERVED_PLANNER));
}

/**
 * A flat Monte Carlo bot (see the module's comment) for a host that holds the game:
 * `monteCarloBot({ playouts, seed })(game, player)`. It gives the planner only the player's view,
 * its seatView and worlds of the game's turn (`botWorlds`): never the game's cards' state. With
 * one legal decision it plays it without playouts. Throws a TypeError naming the option for bad
 * options.
 */
export function monteCarloBot(options: MonteCarloOptions = {}): MonteCarloBot {
  const bounds = boundsOf(options);
  return (game, player) => {
    const view = game.view({ seat: player });
    if (view.gameOver !== null) return undefined;
    // Seeded by the position (version) so that the bot is a pure function of game, player and seed.
    const next = seededRandom((bounds.seed * 1_000_003 + view.version * 7919 + view.turn) >>> 0);
    return plan(view, game.cards({ seat: player }) as ExampleSeatView, player, next, botWorlds(game, exampleCards), bounds);
  };
}
