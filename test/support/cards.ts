/**
 * A small realistic host for the tests: 32 opaque "cards" and what they do to the turn,
 * written against the public API only, as a game client would. The host owns cards, life
 * and the battlefield; it tells the engine what they did (host events) and answers its
 * checkpoint (state-based actions and triggers).
 */
import type { CheckpointResult, EmittedEvent, Game, TurnEvent, TurnView } from '../../src/index.js';

/** What a card does when it resolves (or, for permanents, while it is on the battlefield). */
export interface Card {
  name: string;
  kind: 'land' | 'creature' | 'instant' | 'sorcery' | 'artifact' | 'enchantment';
  /** Host events sent when it resolves: `me` is its controller, `other` an opponent. */
  onResolve?: (me: string, other: string, id: string, view: TurnView) => TurnEvent[];
  power?: number;
  firstStrike?: boolean;
  doubleStrike?: boolean;
}

const effect = (id: string, e: Extract<TurnEvent, { type: 'ADD_EFFECT' }>['effect'], duration: Extract<TurnEvent, { type: 'ADD_EFFECT' }>['duration'] = 'untilRemoved', controller?: string): TurnEvent =>
  controller === undefined ? { type: 'ADD_EFFECT', id, effect: e, duration } : { type: 'ADD_EFFECT', id, effect: e, duration, controller };

/** The card pool: lands, creatures, and the cards that change the turn. */
export const CARDS: Card[] = [
  { name: 'Forest', kind: 'land' },
  { name: 'Island', kind: 'land' },
  { name: 'Swamp', kind: 'land' },
  { name: 'Grizzly Bears', kind: 'creature', power: 2 },
  { name: 'White Knight', kind: 'creature', power: 2, firstStrike: true },
  { name: 'Fencing Ace', kind: 'creature', power: 1, doubleStrike: true },
  { name: 'Wall of Wood', kind: 'creature', power: 0 },
  { name: 'Hill Giant', kind: 'creature', power: 3 },
  { name: 'Dark Ritual', kind: 'instant', onResolve: (me) => [{ type: 'ADD_MANA', player: me, amount: 3 }] },
  { name: 'Time Walk', kind: 'sorcery', onResolve: (me, _o, id) => [{ type: 'ADD_EXTRA_TURN', player: me, id }] },
  { name: 'Relentless Assault', kind: 'sorcery', onResolve: () => [{ type: 'ADD_EXTRA_COMBAT' }] },
  { name: 'Stasis', kind: 'enchantment', onResolve: (_m, _o, id) => [effect(id, { kind: 'skip', what: 'untap' })] },
  { name: 'Exploration', kind: 'enchantment', onResolve: (me, _o, id) => [effect(id, { kind: 'landPlays', change: 1, players: [me] }, 'untilRemoved', me)] },
  { name: 'Spellbook', kind: 'artifact', onResolve: (me, _o, id) => [effect(id, { kind: 'maxHandSize', set: null, players: [me] }, 'untilRemoved', me)] },
  { name: 'Arcane Laboratory', kind: 'enchantment', onResolve: (_m, _o, id) => [effect(id, { kind: 'spellLimit', perTurn: 1 })] },
  { name: 'Upwelling', kind: 'enchantment', onResolve: (_m, _o, id) => [effect(id, { kind: 'keepMana' })] },
  { name: 'Eon Hub', kind: 'artifact', onResolve: (_m, _o, id) => [effect(id, { kind: 'skip', what: 'upkeep' })] },
  { name: 'Paradox Haze', kind: 'instant', onResolve: (me, _o, _id, view) => (view.step === 'upkeep' ? [{ type: 'ADD_EXTRA_STEP', step: 'upkeep', player: me }] : []) },
  { name: 'Obeka, Brute Chronologist', kind: 'instant', onResolve: (me, _o, _id, view) => (view.phase === 'pregame' ? [] : [{ type: 'ADD_EXTRA_STEP', step: 'upkeep', afterPhase: view.phase, player: me }]) },
  { name: 'Time Stop', kind: 'instant', onResolve: () => [{ type: 'END_TURN' }] },
  { name: 'Mandate of Peace', kind: 'instant', onResolve: () => [{ type: 'END_COMBAT' }] },
  { name: 'Mindslaver', kind: 'artifact', onResolve: (me, other) => [{ type: 'CONTROL_PLAYER', controller: me, player: other }] },
  { name: 'Stitch in Time', kind: 'sorcery', onResolve: (me) => [{ type: 'SKIP_NEXT', player: me, what: 'draw' }] },
  { name: 'Fog Bank Tactics', kind: 'instant', onResolve: (_m, _o, _id, view) => (view.phase === 'combat' && view.combat?.attackers[0] ? [{ type: 'REMOVE_FROM_COMBAT', id: view.combat.attackers[0].id }] : []) },
  { name: 'Knighthood', kind: 'instant', onResolve: (_m, _o, _id, view) => (view.phase === 'combat' && view.combat?.attackers[0] ? [{ type: 'SET_COMBAT_ABILITIES', id: view.combat.attackers[0].id, firstStrike: true }] : []) },
  { name: 'Kaervek’s Torch', kind: 'sorcery', onResolve: (me) => [{ type: 'HAND_SIZE', player: me, size: 3 }] },
  { name: 'Daybound Werewolf', kind: 'creature', power: 2, onResolve: (_m, _o, _id, view) => (view.dayNight === null ? [{ type: 'SET_DAY_NIGHT', value: 'day' }] : []) },
  { name: 'Fork', kind: 'instant', onResolve: (me, _o, id) => [{ type: 'PUT_ON_STACK', object: { id: `${id}-copy`, controller: me, kind: 'copy' } }] },
  { name: 'Counterspell', kind: 'instant' },
  { name: 'Howling Mine', kind: 'artifact' },
  { name: 'Lightning Bolt', kind: 'instant' },
  { name: 'Llanowar Elves', kind: 'creature', power: 1 },
  { name: 'Serra Angel', kind: 'creature', power: 4 },
];

/** A seeded random choice. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The host: what is on the stack and the battlefield, life totals, and its checkpoint. */
export class Host {
  readonly life: Record<string, number> = {};
  readonly battlefield: { id: string; card: Card; controller: string }[] = [];
  readonly spells = new Map<string, Card>();
  readonly emitted: EmittedEvent[] = [];
  /** Host events to report at the next checkpoint (what resolving cards did). */
  private queued: TurnEvent[] = [];
  private next = 0;

  constructor(players: string[]) {
    for (const p of players) this.life[p] = 20;
  }

  /** The checkpoint hook: carry out what happened (pending), then report SBAs, triggers and events. */
  readonly checkpoint = (view: TurnView, pending: EmittedEvent[]): CheckpointResult | undefined => {
    const triggers: { id: string; controller: string }[] = [];
    for (const e of pending) {
      this.emitted.push(e);
      if (e.type === 'resolve') this.resolve(e.object.id, e.object.controller, view);
      if (e.type === 'combatDamage') this.damage(e.creatures, view);
      if (e.type === 'stepBegan' && e.step === 'draw') {
        for (const mine of this.battlefield.filter((b) => b.card.name === 'Howling Mine')) triggers.push({ id: `mine-${this.next++}`, controller: mine.controller });
      }
    }
    const events = this.queued;
    this.queued = [];
    const losers = view.players.filter((p) => (this.life[p] ?? 0) <= 0);
    for (const p of losers) events.push({ type: 'LOSE', player: p, reason: 'life total 0 or less (CR 704.5a)' });
    if (triggers.length === 0 && events.length === 0) return undefined;
    return { triggers, events, stateBasedActions: losers.length > 0 };
  };

  private resolve(id: string, controller: string, view: TurnView): void {
    const card = this.spells.get(id);
    if (card === undefined) return;
    this.spells.delete(id);
    const other = view.players.find((p) => p !== controller) ?? controller;
    if (card.kind === 'creature' || card.kind === 'artifact' || card.kind === 'enchantment') this.battlefield.push({ id, card, controller });
    if (card.name === 'Lightning Bolt') this.life[other] = (this.life[other] ?? 0) - 3;
    if (card.name === 'Counterspell') {
      const target = view.stack.filter((o) => o.id !== id && o.kind === 'spell').at(-1);
      if (target) this.queued.push({ type: 'REMOVE_FROM_STACK', id: target.id, reason: 'countered' });
    }
    this.queued.push(...(card.onResolve?.(controller, other, id, view) ?? []));
  }

  private damage(creatures: string[], view: TurnView): void {
    for (const id of creatures) {
      const attacker = view.combat?.attackers.find((a) => a.id === id);
      const power = this.battlefield.find((b) => b.id === id)?.card.power ?? 1;
      if (attacker && attacker.blockedBy.length === 0) this.life[attacker.defender] = (this.life[attacker.defender] ?? 0) - power;
    }
  }

  /** A new opaque spell id for a card. */
  cast(card: Card): string {
    const id = `${card.name.toLowerCase().replace(/[^a-z]+/g, '-')}-${this.next++}`;
    this.spells.set(id, card);
    return id;
  }

  /** The creatures a player controls. */
  creatures(player: string): { id: string; card: Card }[] {
    return this.battlefield.filter((b) => b.controller === player && b.card.kind === 'creature');
  }
}

/** Plays one random legal action for the game through the host's eyes; returns false when the game is over. */
export function playOne(game: Game, host: Host, random: () => number): boolean {
  const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
  if (actions.length === 0) return false;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const passes = actions.filter((a) => a.type === 'PASS_PRIORITY');
  const others = actions.filter((a) => a.type !== 'PASS_PRIORITY');
  // Pass most of the time (more often as the stack grows), else any other offered action.
  const passChance = 0.55 + Math.min(0.4, game.view().stack.length * 0.1);
  const sorcery = actions.find((a) => a.type === 'CAST_SPELL' && a.speed === 'sorcery');
  const action =
    sorcery !== undefined && random() < 0.3
      ? sorcery
      : passes.length > 0 && (others.length === 0 || random() < passChance)
        ? (passes[0] as (typeof actions)[number])
        : pick(others);
  const { choose: _choose, ...template } = action;
  const view = game.view();
  let event: Record<string, unknown> = template;
  switch (action.type) {
    case 'CAST_SPELL': {
      const card = pick(CARDS.filter((c) => c.kind !== 'land' && (action.speed === 'sorcery' || c.kind === 'instant')));
      event = { ...template, id: host.cast(card) };
      break;
    }
    case 'ACTIVATE_ABILITY':
      event = { ...template, id: `ability-${Math.floor(random() * 1e9)}` };
      break;
    case 'DECLARE_ATTACKERS': {
      const defenders = view.awaiting?.kind === 'declareAttackers' ? view.awaiting.defenders : [];
      const mine = host.creatures(action.player).filter(() => random() < 0.6);
      event = { ...template, attackers: defenders.length === 0 ? [] : mine.map((c) => ({ id: c.id, defender: pick(defenders), firstStrike: c.card.firstStrike, doubleStrike: c.card.doubleStrike })) };
      break;
    }
    case 'DECLARE_BLOCKERS': {
      const attackers = view.combat?.attackers.filter((a) => a.defender === action.player) ?? [];
      const mine = host.creatures(action.player).filter(() => random() < 0.5);
      event = { ...template, blockers: attackers.length === 0 ? [] : mine.map((c) => ({ id: c.id, attacker: pick(attackers).id })) };
      break;
    }
    case 'CHOOSE_DEFENDER':
      event = { ...template, defender: view.awaiting?.kind === 'chooseDefender' ? pick(view.awaiting.defenders) : '' };
      break;
    case 'ORDER_BLOCKERS':
      event = { ...template, order: view.awaiting?.kind === 'orderBlockers' ? [...view.awaiting.blockers].reverse() : [] };
      break;
    case 'ORDER_ATTACKERS':
      event = { ...template, order: view.awaiting?.kind === 'orderAttackers' ? [...view.awaiting.attackers].reverse() : [] };
      break;
    case 'ORDER_TRIGGERS':
      event = { ...template, order: view.awaiting?.kind === 'orderTriggers' ? [...view.awaiting.triggers].reverse() : [] };
      break;
    case 'CHOOSE_STARTING_PLAYER':
      event = { ...template, starting: pick(view.players) };
      break;
    default:
      break;
  }
  const result = game.send(event as unknown);
  if (!result.ok) throw new Error(`legalActions offered ${JSON.stringify(event)} but send refused it: ${result.error.code} ${result.error.message}`);
  return game.view().gameOver === null;
}
