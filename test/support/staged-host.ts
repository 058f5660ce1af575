/**
 * A host written to CONTRACT v3 ("Every event exactly once", `hooks.settled`), on the cards of
 * test/support/cards.ts: each player's library holds two copies of every card, each with its own
 * instance id (`grizzly-bears#12`). The host owns libraries, hands, graveyards, the battlefield,
 * life and damage, and carries out every emitted event exactly once, by `seq`:
 *
 * - in the checkpoint it carries events out on a staged copy of its state, which `settled`
 *   commits (`ok: true`) or discards (`ok: false`: the send was refused, HOOK_FAILED included);
 * - what a player does to the host's cards by sending (casting a card from the hand, playing a
 *   land, putting cards on the bottom) is staged with the send the same way ({@link StagedHost.send});
 * - the events a send emitted after its last checkpoint (the pregame's `drawHand` and
 *   `mulligan`, one teammate's `discard`, `playerLeft`, `gameOver`) are carried out from send's
 *   result; they come again in the next checkpoint's `pending`, where their `seq` skips them.
 *
 * Removals are sent without asking whether the object is still there (a creature that died is
 * removed from combat and its effect ended, whether or not it was in combat or had one): the
 * engine accepts removals of what is already gone (CONTRACT v3). `noOps` counts them.
 */
import type { CheckpointResult, EmittedEvent, Game, SendResult, TurnEvent, TurnView } from '../../src/index.js';
import { CARDS, type Card } from './cards.js';

type HostEvent = NonNullable<CheckpointResult['events']>[number];

/** A card's slug, the first part of its instance ids. */
export const slug = (card: Card): string => card.name.toLowerCase().replace(/[^a-z]+/g, '-');
const BY_SLUG = new Map(CARDS.map((c) => [slug(c), c]));
/** The card an instance id (`grizzly-bears#12`) is a copy of, if it is one. */
export const cardOf = (id: string): Card | undefined => BY_SLUG.get(id.slice(0, id.indexOf('#')));

/** Toughness of the creatures (cards.ts gives only power). */
const TOUGHNESS: Record<string, number> = { 'Grizzly Bears': 2, 'White Knight': 2, 'Fencing Ace': 1, 'Wall of Wood': 3, 'Hill Giant': 3, 'Daybound Werewolf': 2, 'Llanowar Elves': 1, 'Serra Angel': 4 };
const toughness = (card: Card | undefined): number => (card === undefined ? 1 : (TOUGHNESS[card.name] ?? 1));

export interface Permanent {
  id: string;
  controller: string;
}

/**
 * Everything the host owns: plain JSON, saved with `persist()`. Its arrays are never changed in
 * place (a change makes a new one), so staging a copy copies only the records that hold them.
 */
export interface Table {
  /** The `seq` of the last event carried out. */
  seq: number;
  /** How many events were carried out (equals `seq` when each was carried out exactly once). */
  carriedOut: number;
  /** The next number for the ids of triggers. */
  next: number;
  library: Record<string, readonly string[]>;
  hand: Record<string, readonly string[]>;
  graveyard: Record<string, readonly string[]>;
  battlefield: readonly Permanent[];
  /** Damage marked on creatures this turn. */
  damage: Record<string, number>;
  /** The host's cards on the stack: instance id -> who cast it. */
  stack: Record<string, string>;
  life: Record<string, number>;
  /** Players who drew from an empty library (704.5b). */
  decked: string[];
  /** Host events to report at the next checkpoint (what events carried out from send's result caused). */
  queued: HostEvent[];
  /** Removals sent for what was already gone (accepted, CONTRACT v3). */
  noOps: number;
  /** The events carried out from send's result (no checkpoint followed them), by type. */
  late: Record<string, number>;
  winners: string[] | null;
}

function copy(t: Table): Table {
  return {
    ...t,
    library: { ...t.library },
    hand: { ...t.hand },
    graveyard: { ...t.graveyard },
    damage: { ...t.damage },
    stack: { ...t.stack },
    life: { ...t.life },
    decked: [...t.decked],
    queued: [...t.queued],
    late: { ...t.late },
    winners: t.winners === null ? null : [...t.winners],
  };
}

/**
 * A new table: each player's library is two copies of every card, in an order `random` picks,
 * and each has drawn the opening hand (`handSize`) the engine counts (with a pregame, `drawHand`
 * draws it again).
 */
export function newTable(players: string[], random: () => number, handSize = 7): Table {
  const t: Table = { seq: 0, carriedOut: 0, next: 1, library: {}, hand: {}, graveyard: {}, battlefield: [], damage: {}, stack: {}, life: {}, decked: [], queued: [], noOps: 0, late: {}, winners: null };
  let n = 1;
  for (const p of players) {
    const cards = CARDS.flatMap((c) => [`${slug(c)}#${n++}`, `${slug(c)}#${n++}`]);
    for (let i = cards.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [cards[i], cards[j]] = [cards[j] as string, cards[i] as string];
    }
    t.library[p] = cards;
    t.hand[p] = [];
    t.graveyard[p] = [];
    t.life[p] = 20;
    draw(t, p, handSize);
  }
  return t;
}

const list = (r: Record<string, readonly string[]>, p: string): readonly string[] => r[p] ?? [];
const add = (r: Record<string, readonly string[]>, p: string, ...ids: string[]): void => void (r[p] = [...list(r, p), ...ids]);
const without = (r: Record<string, readonly string[]>, p: string, id: string): void => void (r[p] = list(r, p).filter((x) => x !== id));

function draw(t: Table, p: string, count = 1): void {
  const library = list(t.library, p);
  add(t.hand, p, ...library.slice(0, count));
  t.library[p] = library.slice(count);
  if (library.length < count && !t.decked.includes(p)) t.decked.push(p);
}

function discard(t: Table, p: string, count: number): void {
  const hand = list(t.hand, p);
  const kept = Math.max(0, hand.length - Math.max(0, count));
  add(t.graveyard, p, ...hand.slice(kept));
  t.hand[p] = hand.slice(0, kept);
}

/**
 * A permanent leaves the battlefield: it goes to its owner's graveyard, its effect ends and it
 * leaves combat. Both removals are sent whether or not there is anything to remove.
 */
function leave(t: Table, id: string, view: TurnView | null): HostEvent[] {
  const permanent = t.battlefield.find((p) => p.id === id);
  if (permanent !== undefined) {
    t.battlefield = t.battlefield.filter((p) => p !== permanent);
    add(t.graveyard, permanent.controller, id);
    delete t.damage[id];
  }
  const inCombat = view?.combat?.attackers.some((a) => a.id === id) === true || view?.combat?.blockers.some((b) => b.id === id) === true;
  const inForce = view?.effects.some((e) => e.id === id) === true;
  t.noOps += (inCombat ? 0 : 1) + (inForce ? 0 : 1);
  return [{ type: 'REMOVE_FROM_COMBAT', id }, { type: 'REMOVE_EFFECT', id }];
}

/** A card of the host's resolves: it goes where it goes, and does what it does. */
function resolve(t: Table, id: string, controller: string, view: TurnView): HostEvent[] {
  const card = cardOf(id);
  if (card === undefined || t.stack[id] === undefined) return [];
  delete t.stack[id];
  if (card.kind === 'creature' || card.kind === 'artifact' || card.kind === 'enchantment') t.battlefield = [...t.battlefield, { id, controller }];
  else add(t.graveyard, controller, id);
  const other = view.players.find((p) => p !== controller) ?? controller;
  const events: HostEvent[] = [];
  if (card.name === 'Lightning Bolt') {
    // 3 damage to the opponent's toughest creature it kills, else to the opponent.
    const target = t.battlefield.filter((p) => p.controller === other && toughness(cardOf(p.id)) - (t.damage[p.id] ?? 0) <= 3).at(-1);
    if (target !== undefined) t.damage[target.id] = (t.damage[target.id] ?? 0) + 3;
    else t.life[other] = (t.life[other] ?? 0) - 3;
  }
  if (card.name === 'Counterspell') {
    const target = view.stack.filter((o) => o.kind === 'spell').at(-1);
    if (target !== undefined) events.push({ type: 'REMOVE_FROM_STACK', id: target.id, reason: 'countered' });
  }
  for (const e of card.onResolve?.(controller, other, id, view) ?? []) {
    // Kaervek's Torch: the host's hand is the truth; its size reaches the engine below.
    if (e.type === 'HAND_SIZE') discard(t, e.player, list(t.hand, e.player).length - e.size);
    else events.push(e as HostEvent);
  }
  return events;
}

/** Combat damage: unblocked attackers hit the player, blocked ones their first blocker, blockers their attacker. */
function combatDamage(t: Table, creatures: string[], view: TurnView | null): void {
  const power = (id: string) => cardOf(id)?.power ?? 1;
  const hit = (id: string, amount: number) => {
    if (t.battlefield.some((b) => b.id === id)) t.damage[id] = (t.damage[id] ?? 0) + amount;
  };
  for (const id of creatures) {
    const attacker = view?.combat?.attackers.find((a) => a.id === id);
    const blocker = view?.combat?.blockers.find((b) => b.id === id);
    if (attacker !== undefined && !attacker.blocked) t.life[attacker.defender] = (t.life[attacker.defender] ?? 0) - power(id);
    else if (attacker?.blockedBy[0] !== undefined) hit(attacker.blockedBy[0], power(id));
    if (blocker?.blocking[0] !== undefined) hit(blocker.blocking[0], power(id));
  }
}

/** Carries out one emitted event, exactly once (its `seq` says whether it already was). */
function carryOut(t: Table, e: EmittedEvent, view: TurnView | null): HostEvent[] {
  const seq = e.seq ?? 0;
  if (seq <= t.seq) return [];
  if (seq !== t.seq + 1) throw new Error(`event ${seq} carried out after ${t.seq}: one was missed`);
  t.seq = seq;
  t.carriedOut++;
  switch (e.type) {
    case 'drawHand': // 103.5: the hand goes back (to the bottom: the host's shuffle), a new one is drawn
      add(t.library, e.player, ...list(t.hand, e.player));
      t.hand[e.player] = [];
      draw(t, e.player, e.size);
      return [];
    case 'draw':
      draw(t, e.player);
      return [];
    case 'discard':
      discard(t, e.player, e.count);
      return [];
    case 'resolve':
      if (view === null) throw new Error('a resolution reached no checkpoint');
      if (e.object.kind === 'trigger' && view.activePlayer !== null) draw(t, view.activePlayer); // Howling Mine
      return resolve(t, e.object.id, e.object.controller, view);
    case 'removedFromStack':
      if (t.stack[e.object.id] !== undefined) {
        delete t.stack[e.object.id];
        add(t.graveyard, e.object.controller, e.object.id);
      }
      return [];
    case 'combatDamage':
      combatDamage(t, e.creatures, view);
      return [];
    case 'cleanup':
      t.damage = {};
      return [];
    case 'playerLeft': // 800.4a: their permanents leave with them
      return t.battlefield.filter((p) => p.controller === e.player).flatMap((p) => leave(t, p.id, view));
    case 'gameOver':
      t.winners = [...e.winners];
      return [];
    default:
      return [];
  }
}

/** The host: its table, staged while a send is in progress, and its hooks. */
export class StagedHost {
  table: Table;
  /** What the send in progress carried out: committed or discarded when it settles. */
  private staged: Table | null = null;
  /** Whether `settled` was called for the send in progress. */
  private settledNow = false;

  constructor(table: Table) {
    this.table = table;
  }

  /** The checkpoint hook: carry out `pending` on the staged table, then report SBAs, triggers and host events. */
  readonly checkpoint = (view: TurnView, pending: EmittedEvent[]): CheckpointResult | undefined => {
    const t = (this.staged ??= copy(this.table));
    const events: HostEvent[] = t.queued.splice(0);
    const triggers: { id: string; controller: string }[] = [];
    for (const e of pending) {
      const fresh = (e.seq ?? 0) > t.seq;
      events.push(...carryOut(t, e, view));
      if (fresh && e.type === 'stepBegan' && e.step === 'draw') {
        for (const mine of t.battlefield.filter((p) => cardOf(p.id)?.name === 'Howling Mine' && view.players.includes(p.controller))) {
          triggers.push({ id: `${mine.id}/trigger#${t.next++}`, controller: mine.controller });
        }
      }
    }
    // State-based actions (704.5a, b, g): players at 0 life or who drew from an empty library lose; creatures with lethal damage die.
    const dead = t.battlefield.filter((p) => cardOf(p.id)?.kind === 'creature' && (t.damage[p.id] ?? 0) >= toughness(cardOf(p.id)));
    for (const p of dead) events.push(...leave(t, p.id, view));
    const losers = view.players.filter((p) => (t.life[p] ?? 0) <= 0 || t.decked.includes(p));
    for (const p of losers) events.push({ type: 'LOSE', player: p, reason: (t.life[p] ?? 0) <= 0 ? 'life total 0 or less (CR 704.5a)' : 'drew from an empty library (CR 704.5b)' });
    // The hands the host holds are what the engine counts.
    for (const p of view.players) if (list(t.hand, p).length !== view.handSizes[p]) events.push({ type: 'HAND_SIZE', player: p, size: list(t.hand, p).length });
    const sba = dead.length > 0 || losers.length > 0;
    return events.length > 0 || triggers.length > 0 || sba ? { events, triggers, stateBasedActions: sba } : undefined;
  };

  /** `hooks.settled`: commit what the send carried out, or drop it. */
  readonly settled = ({ ok }: { ok: boolean }): void => {
    this.settledNow = true;
    if (ok && this.staged !== null) this.table = this.staged;
    this.staged = null;
  };

  /**
   * Sends a player's event: what it does to the host's cards is staged with the send (committed
   * when the engine accepts it); then the events it emitted after its last checkpoint are carried
   * out from its result.
   */
  send(game: Game, event: TurnEvent): SendResult {
    this.staged = copy(this.table);
    this.intend(this.staged, event);
    this.settledNow = false;
    const result = game.send(event);
    if (!this.settledNow) this.settled({ ok: result.ok });
    if (result.ok) {
      const fresh = result.events.filter((e) => (e.seq ?? 0) > this.table.seq);
      const view = fresh.length === 0 ? null : game.view();
      for (const e of fresh) {
        this.table.late[e.type] = (this.table.late[e.type] ?? 0) + 1;
        this.table.queued.push(...carryOut(this.table, e, view));
      }
    }
    return result;
  }

  /** What a player's decision does to the host's cards. */
  private intend(t: Table, event: TurnEvent): void {
    if (event.type === 'CAST_SPELL' && list(t.hand, event.player).includes(event.id)) {
      without(t.hand, event.player, event.id);
      t.stack[event.id] = event.player;
    }
    if (event.type === 'PLAY_LAND') {
      const land = list(t.hand, event.player).find((id) => cardOf(id)?.kind === 'land');
      if (land !== undefined) {
        without(t.hand, event.player, land);
        t.battlefield = [...t.battlefield, { id: land, controller: event.player }];
      }
    }
    if (event.type === 'BOTTOM') {
      const hand = list(t.hand, event.player);
      add(t.library, event.player, ...hand.slice(0, event.count));
      t.hand[event.player] = hand.slice(event.count);
    }
  }

  /** The creatures a player controls. */
  creatures(player: string): Permanent[] {
    return this.table.battlefield.filter((p) => p.controller === player && cardOf(p.id)?.kind === 'creature');
  }
}
