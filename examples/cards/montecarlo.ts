/**
 * A flat Monte Carlo bot for the example card game (issue 34, point 3; docs/simulation.md, "A bot
 * that plans"). For each legal decision of `player` it runs `playouts` playouts and picks the
 * decision with the best win rate. Each playout starts from a determinized copy of the game: what
 * `player` cannot see (the other seat's hand and library, and `player`'s own library order) is
 * re-dealt at random from the cards that could be there, so the bot never plays on hidden
 * information. The decision is applied first, then both seats play the definition's random `bot`
 * (through `playout` of mtg-turn-engine/sim) to the end or to `turns` more turns (default 1: a
 * short horizon, since a playout of the example costs a few hundred sends); a capped playout is
 * scored 0 to 1 by the standing (life, power on the battlefield, cards in hand) against the other
 * seat's. Pure and seeded: the same
 * game, player and seed give the same decision.
 */
import { restoreGame } from '../../src/cards/index.js';
import type { CardActionEvent, CardGame, TurnEvent, TurnView } from '../../src/cards/index.js';
import { playout } from '../../src/sim/index.js';
import { seededRandom } from '../../src/simulation.js';
import { exampleCards, KINDS, type CastData, type ExampleSeatView, type ExampleState, type Side } from './definition.js';

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
 * The game as `player` may know it, its hidden cards re-dealt: the other seats' hands and
 * libraries shuffled together and dealt back in the same counts (each seat keeps its own cards,
 * whose list is public: a deck less what has been seen), and `player`'s own library shuffled.
 */
export function determinize(game: CardGame<ExampleState>, player: string, next: () => number): CardGame<ExampleState> {
  const saved = JSON.parse(JSON.stringify(game.persist())) as { cards: { state: ExampleState } };
  const random = randomOf(next);
  for (const [seat, side] of Object.entries(saved.cards.state.sides) as [string, Side][]) {
    if (seat === player) {
      side.library = random.shuffle(side.library);
      continue;
    }
    const unseen = random.shuffle([...side.hand, ...side.library]);
    side.hand = unseen.slice(0, side.hand.length);
    side.library = unseen.slice(side.hand.length);
  }
  return restoreGame(saved, { cards: exampleCards });
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

/**
 * A flat Monte Carlo bot (see the module's comment): `monteCarloBot({ playouts, seed })(game,
 * player)`. With one legal decision it plays it without playouts. Throws a TypeError naming the
 * option for bad options.
 */
export function monteCarloBot(options: MonteCarloOptions = {}): MonteCarloBot {
  const playouts = whole(options.playouts, 'playouts', 8, 1);
  const seed = whole(options.seed, 'seed', 1, 0);
  const turns = whole(options.turns, 'turns', 1, 1);
  const cap = whole(options.candidates, 'candidates', 12, 2);
  return (game, player) => {
    const view = game.view();
    if (view.gameOver !== null) return undefined;
    // Seeded by the position (version) so that the bot is a pure function of game, player and seed.
    const next = seededRandom((seed * 1_000_003 + view.version * 7919 + view.turn) >>> 0);
    const seen = game.cards({ seat: player }) as ExampleSeatView;
    const candidates = decisionsOf(view, seen, player, cap, next).filter((d) => game.check(d).ok);
    if (candidates.length <= 1) return candidates[0];
    const wins = candidates.map(() => 0);
    for (let i = 0; i < playouts; i++) {
      // One re-deal and one seed per round, shared by every candidate (common random numbers).
      const world = determinize(game, player, next);
      const playoutSeed = Math.floor(next() * 2 ** 32);
      candidates.forEach((decision, c) => {
        const fork = world.fork({ seed: playoutSeed });
        if (!fork.send(decision).ok) return;
        playout(fork, { seed: playoutSeed, until: { turn: view.turn + turns }, cards: exampleCards as never, maxEvents: 20_000 });
        wins[c] = (wins[c] as number) + scoreOf(fork, player);
      });
    }
    let best = 0;
    for (let c = 1; c < candidates.length; c++) if ((wins[c] as number) > (wins[best] as number)) best = c;
    return candidates[best];
  };
}
