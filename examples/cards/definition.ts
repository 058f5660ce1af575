/**
 * The example card game (issue 32): ten card kinds written once as a definition of
 * `mtg-turn-engine/cards`, run the same way in-process, on the table server, by a bot and in
 * tests. Two players, 20-card decks shuffled with `ctx.random`, 20 life; a player loses at 0
 * life or on drawing from an empty library (CR 704.5a, 704.5b). Mana is generic: every land taps
 * for one (a CARD_ACTION), and a card costs its `cost`.
 */
import { defineCards } from '../../src/cards/index.js';
import type { CardActionEvent, CardContext, CardRandom, CheckpointResult, EmittedEvent, PlayerId, TurnEvent, TurnView } from '../../src/cards/index.js';
import type { Cards } from '../../src/cards/index.js';
// The planner (a named bot); montecarlo.ts imports this module too: `montecarlo` is a function declaration, named here at load whichever module loads first.
import { montecarlo } from './montecarlo.js';

/** The kinds of card: what each is and does. */
export const KINDS = {
  forest: { name: 'Forest', type: 'land', cost: 0 },
  mountain: { name: 'Mountain', type: 'land', cost: 0 },
  goblinRaider: { name: 'Goblin Raider', type: 'creature', cost: 1, power: 2, toughness: 1 },
  grizzlyBears: { name: 'Grizzly Bears', type: 'creature', cost: 2, power: 2, toughness: 2 },
  hillGiant: { name: 'Hill Giant', type: 'creature', cost: 4, power: 3, toughness: 3 },
  /** "At the beginning of your upkeep, draw a card." */
  scrollKeeper: { name: 'Scroll Keeper', type: 'creature', cost: 2, power: 1, toughness: 1 },
  /** 2 damage to any target. */
  shock: { name: 'Shock', type: 'instant', cost: 1 },
  /** 5 damage to target player. */
  lavaAxe: { name: 'Lava Axe', type: 'sorcery', cost: 4 },
  /** Counter target spell. */
  counterspell: { name: 'Counterspell', type: 'instant', cost: 2 },
  /** Untap the creatures that attacked this turn; an additional combat phase, then a main phase (CR 500.8). */
  relentlessAssault: { name: 'Relentless Assault', type: 'sorcery', cost: 3 },
} as const satisfies Record<string, { name: string; type: 'land' | 'creature' | 'instant' | 'sorcery'; cost: number; power?: number; toughness?: number }>;

export type Kind = keyof typeof KINDS;

/** Each deck: 20 cards. */
export const DECK: readonly Kind[] = [
  ...(['forest', 'forest', 'forest', 'forest', 'mountain', 'mountain', 'mountain', 'mountain'] as const),
  ...(['goblinRaider', 'goblinRaider', 'grizzlyBears', 'grizzlyBears', 'hillGiant', 'scrollKeeper'] as const),
  ...(['shock', 'shock', 'lavaAxe', 'counterspell', 'counterspell', 'relentlessAssault'] as const),
];

/** A card on the battlefield. */
export interface Permanent {
  id: string;
  kind: Kind;
  controller: PlayerId;
  tapped: boolean;
  /** Came under its controller's control this turn (CR 302.6). */
  sick: boolean;
  damage: number;
}

/** One player's zones and life. */
export interface Side {
  life: number;
  library: string[];
  hand: string[];
  graveyard: string[];
  /** Tried to draw from an empty library since the last check (CR 704.5b). */
  drewFromEmpty: boolean;
}

/** What a spell or trigger on the engine's stack is, by its stack id. */
export interface OnStack {
  card: string | null;
  kind: Kind;
  controller: PlayerId;
  /** A player, a creature's id, or a spell's stack id. */
  target?: { player: PlayerId } | { creature: string } | { spell: string };
}

/** The cards' state S: plain JSON. */
export interface ExampleState {
  kinds: Record<string, Kind>;
  sides: Record<PlayerId, Side>;
  battlefield: Record<string, Permanent>;
  stack: Record<string, OnStack>;
  /** Creatures that attacked this turn (Relentless Assault untaps them). */
  attacked: string[];
  nextTrigger: number;
}

/** The data a decision carries. */
export type CastData = { card: string; target?: { player: PlayerId } | { creature: string } | { spell: string } };

/** What one seat sees: its own hand, the other's count; both battlefields, life, graveyards, the stack with names. */
export interface ExampleSeatView {
  seat: PlayerId | null;
  players: Record<PlayerId, { life: number; library: number; handCount: number; graveyard: { id: string; name: string }[] }>;
  /** The seat's own hand (absent for a spectator). */
  hand?: { id: string; kind: Kind; name: string; cost: number; type: string }[];
  battlefield: (Permanent & { name: string; type: string; cost: number; power?: number; toughness?: number })[];
  /** The stack: each spell's card (public once cast; null for a trigger) and kind. */
  stack: { id: string; name: string; card: string | null; kind: Kind; controller: PlayerId; target?: OnStack['target'] }[];
  /** The creatures that attacked this turn (public: Relentless Assault untaps them). */
  attacked: string[];
}

const STARTING_LIFE = 20;
const HAND = 7;

function kindOf(state: ExampleState, card: string): (typeof KINDS)[Kind] {
  return KINDS[state.kinds[card] as Kind];
}

/** Draws a card for `player` (an empty library marks the draw, CR 704.5b). */
function draw(state: ExampleState, player: PlayerId): void {
  const side = state.sides[player] as Side;
  const card = side.library.shift();
  if (card === undefined) side.drewFromEmpty = true;
  else side.hand.push(card);
}

function isCreature(state: ExampleState, id: string): boolean {
  const p = state.battlefield[id];
  return p !== undefined && KINDS[p.kind].type === 'creature';
}

/** The speed a card is cast at (CR 307.1: creatures and sorceries at sorcery speed). */
function speedOf(kind: Kind): 'instant' | 'sorcery' {
  return KINDS[kind].type === 'instant' ? 'instant' : 'sorcery';
}

function refuse(message: string): { refuse: string } {
  return { refuse: message };
}

/** Whether `target` is a legal target of a card of `kind` now, or why not. */
function targetProblem(state: ExampleState, kind: Kind, target: CastData['target'], players: readonly PlayerId[]): string | null {
  if (kind === 'shock') {
    if (target !== undefined && 'player' in target && players.includes(target.player)) return null;
    if (target !== undefined && 'creature' in target && isCreature(state, target.creature)) return null;
    return 'Shock needs a target: { player } or { creature } on the battlefield';
  }
  if (kind === 'lavaAxe') return target !== undefined && 'player' in target && players.includes(target.player) ? null : 'Lava Axe needs a target player: { player }';
  if (kind === 'counterspell') return target !== undefined && 'spell' in target && state.stack[target.spell]?.card !== null && state.stack[target.spell] !== undefined ? null : 'Counterspell needs a target spell on the stack: { spell }';
  return target === undefined ? null : `${KINDS[kind].name} takes no target`;
}

/** The data of a decision: a card in the player's hand, or why not. */
function cardInHand(ctx: CardContext<ExampleState>): { card: string; data: CastData } | { refuse: string } {
  const data = ctx.data as Partial<CastData> | undefined;
  const card = data?.card;
  if (typeof card !== 'string') return refuse('data.card: name the card (its id) from your hand');
  if (!(ctx.state.sides[ctx.player as PlayerId] as Side).hand.includes(card)) return refuse(`data.card: ${card} is not in your hand`);
  return { card, data: data as CastData };
}

/** The host events that bring the engine's hand size in line with the cards. */
function handSize(state: ExampleState, player: PlayerId): TurnEvent {
  return { type: 'HAND_SIZE', player, size: (state.sides[player] as Side).hand.length };
}

/** `decide`: every decision's card checks and costs, before the engine takes it. */
function decide(event: TurnEvent & { data?: unknown }, ctx: CardContext<ExampleState>): { refuse: string } | TurnEvent[] | undefined {
  const state = ctx.state;
  const player = ctx.player as PlayerId;
  switch (event.type) {
    case 'PLAY_LAND': {
      const chosen = cardInHand(ctx);
      if ('refuse' in chosen) return chosen;
      if (kindOf(state, chosen.card).type !== 'land') return refuse(`data.card: ${kindOf(state, chosen.card).name} is not a land`);
      const side = state.sides[player] as Side;
      side.hand.splice(side.hand.indexOf(chosen.card), 1);
      state.battlefield[chosen.card] = { id: chosen.card, kind: state.kinds[chosen.card] as Kind, controller: player, tapped: false, sick: true, damage: 0 };
      return [handSize(state, player)];
    }
    case 'CAST_SPELL': {
      const chosen = cardInHand(ctx);
      if ('refuse' in chosen) return chosen;
      const kind = state.kinds[chosen.card] as Kind;
      const card = KINDS[kind];
      if (card.type === 'land') return refuse(`data.card: ${card.name} is a land: play it with PLAY_LAND`);
      if (event.speed !== speedOf(kind)) return refuse(`${card.name} is cast at ${speedOf(kind)} speed`);
      if ((ctx.view.manaPool[player] ?? 0) < card.cost) return refuse(`${card.name} costs ${card.cost}; your mana pool has ${ctx.view.manaPool[player] ?? 0} (tap lands first)`);
      const problem = targetProblem(state, kind, chosen.data.target, ctx.view.players);
      if (problem !== null) return refuse(`data.target: ${problem}`);
      const side = state.sides[player] as Side;
      side.hand.splice(side.hand.indexOf(chosen.card), 1);
      const entry: OnStack = { card: chosen.card, kind, controller: player };
      if (chosen.data.target !== undefined) entry.target = chosen.data.target;
      state.stack[event.id] = entry;
      return [{ type: 'SPEND_MANA', player, amount: card.cost }, handSize(state, player)];
    }
    case 'DECLARE_ATTACKERS': {
      const seen = new Set<string>();
      for (const a of event.attackers) {
        const p = state.battlefield[a.id];
        if (p === undefined || !isCreature(state, a.id) || p.controller !== player) return refuse(`attackers: ${a.id} is not a creature you control`);
        if (p.tapped || p.sick || seen.has(a.id)) return refuse(`attackers: ${a.id} cannot attack (tapped, summoning sick or named twice)`);
        seen.add(a.id);
      }
      for (const a of event.attackers) {
        (state.battlefield[a.id] as Permanent).tapped = true;
        state.attacked.push(a.id);
      }
      return undefined;
    }
    case 'DECLARE_BLOCKERS': {
      const seen = new Set<string>();
      const attackers = new Set((ctx.view.combat?.attackers ?? []).map((a) => a.id));
      for (const b of event.blockers) {
        const p = state.battlefield[b.id];
        if (p === undefined || !isCreature(state, b.id) || p.controller !== event.player) return refuse(`blockers: ${b.id} is not a creature you control`);
        if (p.tapped || seen.has(b.id)) return refuse(`blockers: ${b.id} cannot block (tapped, or blocks twice)`);
        if (!attackers.has(b.attacker)) return refuse(`blockers: ${b.attacker} is not attacking`);
        seen.add(b.id);
      }
      return undefined;
    }
    case 'DISCARD': {
      const side = state.sides[player] as Side;
      const chosen = (ctx.data as { cards?: unknown } | undefined)?.cards;
      const cards = chosen === undefined ? side.hand.slice(side.hand.length - event.count) : chosen;
      if (!Array.isArray(cards) || cards.length !== event.count || new Set(cards).size !== cards.length || !cards.every((c) => side.hand.includes(c as string))) return refuse(`data.cards: name ${event.count} different cards of your hand`);
      for (const c of cards as string[]) {
        side.hand.splice(side.hand.indexOf(c), 1);
        side.graveyard.push(c);
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** A permanent leaves the battlefield for its owner's graveyard. */
function dies(state: ExampleState, id: string): void {
  const p = state.battlefield[id];
  if (p === undefined) return;
  delete state.battlefield[id];
  (state.sides[p.controller] as Side).graveyard.push(id);
}

/** Damage to a player or a creature. */
function damage(state: ExampleState, target: OnStack['target'], amount: number): void {
  if (target === undefined) return;
  if ('player' in target) (state.sides[target.player] as Side).life -= amount;
  else if ('creature' in target) {
    const p = state.battlefield[target.creature];
    if (p !== undefined) p.damage += amount;
  }
}

/** CR 510.1: combat damage, attackers and blockers as the view says (blocked attackers deal damage to their blockers in order). */
function combatDamage(state: ExampleState, view: TurnView): void {
  const combat = view.combat;
  if (combat === null) return;
  for (const a of combat.attackers) {
    const attacker = state.battlefield[a.id];
    if (attacker === undefined) continue;
    let power = (KINDS[attacker.kind] as { power?: number }).power ?? 0;
    if (!a.blocked) {
      (state.sides[a.defender] as Side).life -= power;
      continue;
    }
    for (const b of a.blockedBy) {
      const blocker = state.battlefield[b];
      if (blocker === undefined || power <= 0) continue;
      const lethal = Math.max(0, ((KINDS[blocker.kind] as { toughness?: number }).toughness ?? 0) - blocker.damage);
      const dealt = a.blockedBy[a.blockedBy.length - 1] === b ? power : Math.min(power, lethal);
      blocker.damage += dealt;
      power -= dealt;
    }
  }
  for (const b of combat.blockers) {
    const blocker = state.battlefield[b.id];
    const attacker = state.battlefield[b.blocking[0] as string];
    if (blocker !== undefined && attacker !== undefined) attacker.damage += (KINDS[blocker.kind] as { power?: number }).power ?? 0;
  }
}

/** What a spell or trigger does as it resolves (CR 608.2); host events to apply. */
function resolve(state: ExampleState, id: string, events: TurnEvent[]): void {
  const entry = state.stack[id];
  if (entry === undefined) return;
  delete state.stack[id];
  const { kind, card, controller, target } = entry;
  const type = KINDS[kind].type;
  if (kind === 'scrollKeeper' && card === null) {
    draw(state, controller);
    events.push(handSize(state, controller));
    return;
  }
  if (type === 'creature' && card !== null) {
    state.battlefield[card] = { id: card, kind, controller, tapped: false, sick: true, damage: 0 };
    return;
  }
  if (kind === 'shock') damage(state, target, 2);
  if (kind === 'lavaAxe') damage(state, target, 5);
  if (kind === 'counterspell' && target !== undefined && 'spell' in target && state.stack[target.spell] !== undefined) events.push({ type: 'REMOVE_FROM_STACK', id: target.spell, reason: 'countered' });
  if (kind === 'relentlessAssault') {
    for (const a of state.attacked) {
      const p = state.battlefield[a];
      if (p !== undefined) p.tapped = false;
    }
    events.push({ type: 'ADD_EXTRA_COMBAT' });
  }
  if (card !== null) (state.sides[controller] as Side).graveyard.push(card);
}

/** The checkpoint: carries out what the engine emitted, then state-based actions (CR 704) and triggers (603.3). */
function checkpoint(view: TurnView, pending: EmittedEvent[], ctx: CardContext<ExampleState>): CheckpointResult | undefined {
  const events: TurnEvent[] = [];
  const triggers: { id: string; controller: PlayerId }[] = [];
  const state = (): ExampleState => ctx.state;
  for (const e of pending) {
    switch (e.type) {
      case 'untap':
        for (const p of Object.values(state().battlefield)) {
          if (p.controller === e.player) {
            p.tapped = false;
            p.sick = false;
          }
        }
        state().attacked = [];
        break;
      case 'draw':
        draw(state(), e.player);
        break;
      case 'stepBegan':
        // "At the beginning of your upkeep, draw a card."
        if (e.step === 'upkeep' && view.activePlayer !== null) {
          for (const p of Object.values(ctx.state.battlefield)) {
            if (p.kind === 'scrollKeeper' && p.controller === view.activePlayer) {
              const id = `trigger-${state().nextTrigger++}`;
              state().stack[id] = { card: null, kind: 'scrollKeeper', controller: p.controller };
              triggers.push({ id, controller: p.controller });
            }
          }
        }
        break;
      case 'resolve':
        resolve(state(), e.object.id, events);
        break;
      case 'removedFromStack': {
        const entry = ctx.state.stack[e.object.id];
        if (entry !== undefined) {
          delete state().stack[e.object.id];
          if (entry.card !== null) (state().sides[entry.controller] as Side).graveyard.push(entry.card);
        }
        break;
      }
      case 'combatDamage':
        combatDamage(state(), view);
        break;
      case 'cleanup':
        for (const p of Object.values(state().battlefield)) p.damage = 0;
        break;
      default:
        break;
    }
  }
  // CR 704.5f, 704.5g: creatures with lethal damage die.
  let sba = false;
  for (const p of Object.values(ctx.state.battlefield)) {
    const toughness = (KINDS[p.kind] as { toughness?: number }).toughness;
    if (toughness !== undefined && p.damage >= toughness) {
      dies(state(), p.id);
      sba = true;
    }
  }
  // CR 704.5a, 704.5b: a player at 0 life, or who drew from an empty library, loses.
  for (const player of view.players) {
    const side = ctx.state.sides[player] as Side;
    if (side.life <= 0) events.push({ type: 'LOSE', player, reason: 'life' });
    else if (side.drewFromEmpty) events.push({ type: 'LOSE', player, reason: 'empty library' });
  }
  if (events.length === 0 && triggers.length === 0 && !sba) return undefined;
  return { events, triggers, stateBasedActions: sba };
}

/** CARD_ACTION 'tap': tap an untapped land you control for one mana. */
function tap(ctx: CardContext<ExampleState>): { refuse: string } | TurnEvent[] {
  const card = (ctx.data as { card?: unknown } | undefined)?.card;
  const p = typeof card === 'string' ? ctx.state.battlefield[card] : undefined;
  if (p === undefined || p.controller !== ctx.player || KINDS[p.kind].type !== 'land') return refuse('data.card: name a land you control');
  if (p.tapped) return refuse(`${KINDS[p.kind].name} (${p.id}) is tapped`);
  p.tapped = true;
  return [{ type: 'ADD_MANA', player: ctx.player as PlayerId, amount: 1 }];
}

/** What seat `seat` (null: a spectator) sees: never the other seat's hand or any library. */
function seatView(state: ExampleState, seat: PlayerId | null): ExampleSeatView {
  const players: ExampleSeatView['players'] = {};
  for (const [player, side] of Object.entries(state.sides)) {
    players[player] = { life: side.life, library: side.library.length, handCount: side.hand.length, graveyard: side.graveyard.map((id) => ({ id, name: kindOf(state, id).name })) };
  }
  const out: ExampleSeatView = {
    seat,
    players,
    battlefield: Object.values(state.battlefield).map((p) => ({ ...p, ...KINDS[p.kind] })),
    stack: Object.entries(state.stack).map(([id, s]) => {
      const entry: ExampleSeatView['stack'][number] = { id, name: s.card === null ? `${KINDS[s.kind].name} (trigger)` : KINDS[s.kind].name, card: s.card, kind: s.kind, controller: s.controller };
      if (s.target !== undefined) entry.target = s.target;
      return entry;
    }),
    attacked: [...state.attacked],
  };
  if (seat !== null && state.sides[seat] !== undefined) out.hand = (state.sides[seat] as Side).hand.map((id) => ({ id, kind: state.kinds[id] as Kind, ...KINDS[state.kinds[id] as Kind] }));
  return out;
}

function pick<T>(list: readonly T[], random: CardRandom): T | undefined {
  return list.length === 0 ? undefined : list[random.int(list.length)];
}

/**
 * A bot: a random legal decision for `player` with its data, from what that seat sees (`seen`);
 * undefined when it has none of its own to offer (then the caller picks from `legalActions`).
 */
function bot(view: TurnView, seen: unknown, player: PlayerId, random: CardRandom): TurnEvent | CardActionEvent | undefined {
  const me = seen as ExampleSeatView;
  const awaiting = view.awaiting;
  if (awaiting === null || me.hand === undefined) return undefined;
  const others = view.players.filter((p) => p !== player);
  const mine = me.battlefield.filter((p) => p.controller === player);
  const creatures = (list: ExampleSeatView['battlefield']) => list.filter((p) => p.type === 'creature');
  if (awaiting.kind === 'declareAttackers' && awaiting.player === player) {
    const able = creatures(mine).filter((p) => !p.tapped && !p.sick && random.int(2) === 0);
    return { type: 'DECLARE_ATTACKERS', player, attackers: able.map((p) => ({ id: p.id, defender: awaiting.defenders[0] as PlayerId })) };
  }
  if (awaiting.kind === 'declareBlockers' && awaiting.player === player) {
    const attackers = view.combat?.attackers.filter((a) => a.defender === player) ?? [];
    const blockers = creatures(mine)
      .filter((p) => !p.tapped && attackers.length > 0 && random.int(2) === 0)
      .map((p) => ({ id: p.id, attacker: (pick(attackers, random) as { id: string }).id }));
    return { type: 'DECLARE_BLOCKERS', player, blockers };
  }
  if (awaiting.kind === 'discard' && awaiting.player === player) {
    const cards = random.shuffle(me.hand.map((c) => c.id)).slice(0, awaiting.count);
    return { type: 'DISCARD', player, count: awaiting.count, data: { cards } } as TurnEvent;
  }
  if (awaiting.kind !== 'priority' || view.priority !== player) return undefined;
  const options: (TurnEvent | CardActionEvent)[] = [{ type: 'PASS_PRIORITY', player }];
  const pool = view.manaPool[player] ?? 0;
  const lands = mine.filter((p) => p.type === 'land' && !p.tapped);
  const sorcerySpeed = view.activePlayer === player && (view.step === 'main') && view.stack.length === 0;
  if (sorcerySpeed && view.landsPlayed < view.landPlaysAllowed) {
    for (const c of me.hand) if (c.type === 'land') options.push({ type: 'PLAY_LAND', player, data: { card: c.id } } as TurnEvent);
  }
  let wantsMana = false;
  for (const c of me.hand) {
    if (c.type === 'land') continue;
    const speed = speedOf(c.kind);
    if (speed === 'sorcery' && !sorcerySpeed) continue;
    if (c.cost > pool) {
      if (c.cost <= pool + lands.length) wantsMana = true;
      continue;
    }
    const needsTarget = c.kind === 'shock' || c.kind === 'lavaAxe' || c.kind === 'counterspell';
    const targets: NonNullable<CastData['target']>[] =
      c.kind === 'shock' ? [...view.players.map((p) => ({ player: p })), ...creatures(me.battlefield).map((p) => ({ creature: p.id }))]
      : c.kind === 'lavaAxe' ? others.map((p) => ({ player: p }))
      : c.kind === 'counterspell' ? me.stack.filter((s) => !s.name.endsWith('(trigger)')).map((s) => ({ spell: s.id }))
      : [];
    if (needsTarget && targets.length === 0) continue;
    const target = needsTarget ? pick(targets, random) : undefined;
    const data: CastData = { card: c.id };
    if (target !== undefined) data.target = target;
    options.push({ type: 'CAST_SPELL', player, id: `spell-${view.version}`, speed, data } as TurnEvent);
  }
  if (wantsMana) for (const land of lands) options.push({ type: 'CARD_ACTION', player, action: 'tap', data: { card: land.id } });
  return pick(options, random);
}

/** What the other seats see of a decision's data: the card played or cast (public once it is), not the cards discarded. */
function publicData(event: TurnEvent & { data?: unknown }): unknown {
  if (event.type === 'DISCARD') return { count: event.count };
  return event.data;
}

/** The example's cards. */
export const exampleCards: Cards<ExampleState> = defineCards<ExampleState>({
  name: 'example-cards@1',
  setup({ players, random }) {
    const state: ExampleState = { kinds: {}, sides: {}, battlefield: {}, stack: {}, attacked: [], nextTrigger: 1 };
    let n = 1;
    for (const player of players) {
      const ids = DECK.map((kind) => {
        const id = `c${n++}`;
        state.kinds[id] = kind;
        return id;
      });
      const library = random.shuffle(ids);
      state.sides[player] = { life: STARTING_LIFE, library: library.slice(HAND), hand: library.slice(0, HAND), graveyard: [], drewFromEmpty: false };
    }
    return state;
  },
  checkpoint,
  decide,
  actions: { tap },
  seatView,
  bot,
  // "Play against a Monte Carlo bot": a bot seat { seat, bot: 'montecarlo' } plans from what its seat sees (docs/cards.md).
  bots: { montecarlo },
  publicData,
});
