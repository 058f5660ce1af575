/**
 * The zones of the card table: a battlefield (one player's permanents, with this seat's taps,
 * attackers and blockers) and this seat's hand (its lands to play and spells to cast, each with
 * its target). Every card carries `data-card` (its id) and its name.
 */
import { useState } from 'react';
import type { TurnEvent, TurnView } from 'mtg-turn-engine';
import type { CastData, ExampleSeatView } from '../definition.ts';

/** What this seat sends: a decision of the engine (with its card `data`), or a card action (CONTRACT v4, "Card actions"). */
export type Sent = TurnEvent | { type: 'CARD_ACTION'; player: string; action: string; data?: unknown };

/** What this seat may do now, and its choices in progress; null on a zone that is not this seat's. */
export interface Plays {
  /** This seat holds priority. */
  priority: boolean;
  /** ... in its own main phase with an empty stack (CR 307.1). */
  sorcery: boolean;
  /** ... and may still play a land this turn (CR 305.2). */
  land: boolean;
  /** Its mana pool. */
  pool: number;
  /** What it is asked to declare now. */
  declaring: 'attackers' | 'blockers' | 'discard' | null;
  attackers: Set<string>;
  setAttackers(next: Set<string>): void;
  blocks: Record<string, string>;
  setBlocks(next: Record<string, string>): void;
  discards: Set<string>;
  setDiscards(next: Set<string>): void;
  send(...events: Sent[]): Promise<boolean>;
}

type Permanent = ExampleSeatView['battlefield'][number];
type InHand = NonNullable<ExampleSeatView['hand']>[number];
type Target = NonNullable<CastData['target']>;

const toggled = (set: Set<string>, id: string, on: boolean): Set<string> => {
  const next = new Set(set);
  if (on) next.add(id);
  else next.delete(id);
  return next;
};

/** One player's permanents: lands, then creatures. */
export function Battlefield({ permanents, view, seen, player, plays }: { permanents: Permanent[]; view: TurnView; seen: ExampleSeatView | null; player: string; plays: Plays | null }) {
  const lands = permanents.filter((p) => p.type === 'land');
  const creatures = permanents.filter((p) => p.type === 'creature');
  const attacking = (view.combat?.attackers ?? []).filter((a) => a.defender === player);
  const name = (id: string) => seen?.battlefield.find((p) => p.id === id)?.name ?? id;
  const card = (p: Permanent) => (
    <li key={p.id} className="card" data-card={p.id} data-tapped={String(p.tapped)} data-type={p.type}>
      <span className="name">{p.name}</span>
      {p.type === 'creature' && (
        <span className="pt">
          {p.power}/{p.toughness}
          {p.damage > 0 ? ` (${p.damage} dmg)` : ''}
        </span>
      )}
      {p.tapped && <span className="tag">tapped</span>}
      {p.sick && p.type === 'creature' && <span className="tag">new</span>}
      {plays !== null && p.type === 'land' && !p.tapped && (
        <button data-action="CARD_ACTION" data-card={p.id} onClick={() => void plays.send({ type: 'CARD_ACTION', player, action: 'tap', data: { card: p.id } })}>
          Tap for mana
        </button>
      )}
      {plays?.declaring === 'attackers' && p.type === 'creature' && !p.tapped && !p.sick && (
        <label>
          <input type="checkbox" data-attacker={p.id} checked={plays.attackers.has(p.id)} onChange={(e) => plays.setAttackers(toggled(plays.attackers, p.id, e.target.checked))} /> attack
        </label>
      )}
      {plays?.declaring === 'blockers' && p.type === 'creature' && !p.tapped && attacking.length > 0 && (
        <select data-blocker={p.id} value={plays.blocks[p.id] ?? ''} onChange={(e) => {
          const next = { ...plays.blocks };
          if (e.target.value === '') delete next[p.id];
          else next[p.id] = e.target.value;
          plays.setBlocks(next);
        }}>
          <option value="">no block</option>
          {attacking.map((a) => (
            <option key={a.id} value={a.id}>
              block {name(a.id)}
            </option>
          ))}
        </select>
      )}
    </li>
  );
  return (
    <div className="battlefield" data-testid={`battlefield-${player}`}>
      <ul className="row lands">{lands.map(card)}</ul>
      <ul className="row creatures">{creatures.map(card)}</ul>
      {permanents.length === 0 && <p className="empty">no permanents</p>}
    </div>
  );
}

/** The targets a card may have now (CR 115): Shock any target, Lava Axe a player, Counterspell a spell. */
function targetsOf(kind: InHand['kind'], view: TurnView, seen: ExampleSeatView, player: string): { target: Target; label: string }[] {
  const players = view.players.map((p) => ({ target: { player: p } as Target, label: p }));
  if (kind === 'shock') return [...players.filter((p) => p.label !== player), ...seen.battlefield.filter((p) => p.type === 'creature').map((p) => ({ target: { creature: p.id } as Target, label: `${p.name} (${p.controller})` })), ...players.filter((p) => p.label === player)];
  if (kind === 'lavaAxe') return players.filter((p) => p.label !== player);
  if (kind === 'counterspell') return seen.stack.filter((s) => !s.name.endsWith('(trigger)')).map((s) => ({ target: { spell: s.id } as Target, label: `${s.name} (${s.controller})` }));
  return [];
}

/** This seat's hand: lands to play, spells to cast (tapping the lands the cost needs first). */
export function Hand({ cards, view, seen, player, plays }: { cards: InHand[]; view: TurnView; seen: ExampleSeatView; player: string; plays: Plays | null }) {
  const [chosen, setChosen] = useState<Record<string, number>>({});
  const untapped = seen.battlefield.filter((p) => p.controller === player && p.type === 'land' && !p.tapped);
  const cast = (c: InHand, target: Target | undefined) => {
    if (plays === null) return;
    const need = Math.max(0, c.cost - plays.pool);
    const taps: Sent[] = untapped.slice(0, need).map((land) => ({ type: 'CARD_ACTION', player, action: 'tap', data: { card: land.id } }));
    const data: CastData = { card: c.id };
    if (target !== undefined) data.target = target;
    void plays.send(...taps, { type: 'CAST_SPELL', player, id: `spell-${c.id}`, speed: c.type === 'instant' ? 'instant' : 'sorcery', data } as TurnEvent);
  };
  return (
    <ul className="hand row" data-testid={`hand-${player}`}>
      {cards.map((c) => {
        const targets = targetsOf(c.kind, view, seen, player);
        const needsTarget = c.kind === 'shock' || c.kind === 'lavaAxe' || c.kind === 'counterspell';
        const timely = plays !== null && (c.type === 'instant' ? plays.priority : plays.sorcery);
        const affordable = plays !== null && c.cost <= plays.pool + untapped.length;
        const pick = Math.min(chosen[c.id] ?? 0, Math.max(0, targets.length - 1));
        return (
          <li key={c.id} className="card" data-card={c.id} data-type={c.type}>
            <span className="name">{c.name}</span>
            <span className="cost">{c.type === 'land' ? 'land' : `${c.cost} · ${c.type}`}</span>
            {plays?.land === true && c.type === 'land' && (
              <button data-action="PLAY_LAND" data-card={c.id} onClick={() => void plays.send({ type: 'PLAY_LAND', player, data: { card: c.id } } as TurnEvent)}>
                Play
              </button>
            )}
            {timely && affordable && c.type !== 'land' && (!needsTarget || targets.length > 0) && (
              <>
                {needsTarget && (
                  <select data-target-for={c.id} value={pick} onChange={(e) => setChosen({ ...chosen, [c.id]: Number(e.target.value) })}>
                    {targets.map((t, i) => (
                      <option key={i} value={i}>
                        → {t.label}
                      </option>
                    ))}
                  </select>
                )}
                <button data-action="CAST_SPELL" data-card={c.id} onClick={() => cast(c, needsTarget ? targets[pick]?.target : undefined)}>
                  Cast
                </button>
              </>
            )}
            {plays?.declaring === 'discard' && (
              <label>
                <input type="checkbox" data-discard={c.id} checked={plays.discards.has(c.id)} onChange={(e) => plays.setDiscards(toggled(plays.discards, c.id, e.target.checked))} /> discard
              </label>
            )}
          </li>
        );
      })}
      {cards.length === 0 && <li className="empty">no cards in hand</li>}
    </ul>
  );
}
