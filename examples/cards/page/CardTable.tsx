/**
 * The example card table (issue 32, point 3): one seat of a served game of the example cards
 * (examples/cards/definition.ts), or a spectator. It shows what the seat's card view
 * (`useCards(table)`, the definition's `seatView`) and the turn view hold: this seat's hand and
 * battlefield, the other seat's battlefield and hand COUNT (its cards never reach this page),
 * life totals, the stack and a log with card names, who is away, and why the game ended in words.
 * Only this seat's controls are shown: its cards are played with the definition's decisions and
 * their `data` (a land with `PLAY_LAND { data: { card } }`, a spell with `CAST_SPELL { data: {
 * card, target } }`), lands are tapped with `CARD_ACTION 'tap'`, attackers and blockers chosen on
 * its own creatures. A spectator has no controls and sees no hand.
 */
import { useEffect, useRef, useState } from 'react';
import type { LegalAction, SeatEvent, Stop, TurnEvent, TurnView } from 'mtg-turn-engine';
import type { Table, TableStatus } from 'mtg-turn-engine/client';
import { SeatHeader } from '../../table/src/SeatHeader.tsx';
import { useCards, useGame } from 'mtg-turn-engine/react';
import type { ExampleSeatView } from '../definition.ts';
import { Battlefield, Hand, type Plays, type Sent } from './Zones.tsx';
import { decisionText, endText, eventText, learn, type Names } from './words.ts';
import './cards.css';

/** One line of the log: a text, or an event told in words when shown (with every name this seat has seen by then). */
type Line = { kind: 'refused' | 'emitted'; text: string } | { kind: 'emitted'; event: SeatEvent };

/** The turn and step, or the end. */
function statusOf(view: TurnView): string {
  return view.gameOver !== null ? 'game over' : `turn ${view.turn} · ${view.activePlayer ?? '—'} · ${view.phase} / ${view.step}`;
}

/** The decisions the page has no control of its own for (ordering, the pregame, ...): plain buttons from `legalActions`. */
const HANDLED = new Set(['PASS_PRIORITY', 'CAST_SPELL', 'PLAY_LAND', 'ACTIVATE_ABILITY', 'DECLARE_ATTACKERS', 'DECLARE_BLOCKERS', 'DISCARD', 'CONCEDE', 'SET_STOPS', 'YIELD', 'CARD_ACTION']);

/** The stops of "ask me only in my main phases" (CONTRACT "Stops and auto-pass": with a spell or trigger on the stack the player is asked anyway). */
const QUICK_STOPS: Stop[] = [{ step: 'main', turn: 'own' }];

export function CardTable({ table, seat }: { table: Table; seat: string | null }) {
  const view = useGame(table);
  const seen = useCards<ExampleSeatView | null>(table);
  const [status, setStatus] = useState<TableStatus>(table.status);
  const names = useRef<Names>(new Map()).current;
  learn(names, seen);
  const [log, setLog] = useState<Line[]>([{ kind: 'emitted', text: `joined game ${table.gameId} as ${seat ?? 'a spectator'}` }]);
  useEffect(() => table.onStatus(setStatus), [table]);
  useEffect(
    () =>
      table.on('*', (event) => {
        if (eventText(names, event) !== null) setLog((l) => [...l, { kind: 'emitted', event }]);
      }),
    [table, names],
  );
  const logRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (logRef.current !== null) logRef.current.scrollTop = logRef.current.scrollHeight;
  }, [log]);

  // Sends under way (`data-sending` on the page: a cast is its lands' taps, then the spell).
  const [sending, setSending] = useState(0);
  /** Sends this seat's decisions in order, stopping at the first refusal (shown in the log). */
  const send = async (...events: Sent[]): Promise<boolean> => {
    setSending((n) => n + 1);
    try {
      for (const event of events) {
        const result = await table.send(event as unknown);
        if (!result.ok) {
          setLog((l) => [...l, { kind: 'refused', text: `${decisionText(names, event as never)}: refused: ${result.error.message}` }]);
          return false;
        }
      }
      return true;
    } finally {
      setSending((n) => n - 1);
    }
  };

  const players = view.players.length > 0 ? view.players : Object.keys(seen?.players ?? {});
  const others = players.filter((p) => p !== seat);
  const end = endText(view);
  const spectate = `/?${new URLSearchParams({ game: table.gameId, spectator: '1' }).toString()}`;

  return (
    <div className="card-table" data-testid="card-table" data-sending={String(sending > 0)}>
      <SeatHeader title="example cards" table={table} seat={seat} version={view.version} status={statusOf(view)} connection={status}>
        <a data-testid="spectator-link" href={spectate} target="_blank" rel="noopener noreferrer">
          spectator link
        </a>
      </SeatHeader>
      {end !== null && (
        <p className="game-over" data-testid="game-over">
          {end}
        </p>
      )}
      <main className="cards-main">
        <div className="zones">
          {others.map((p) => (
            <Player key={p} player={p} view={view} seen={seen} own={false} send={send} />
          ))}
          <StackAndCombat view={view} seen={seen} names={names} />
          {seat !== null && players.includes(seat) && <Player player={seat} view={view} seen={seen} own send={send} actions={table.legalActions(seat)} />}
        </div>
        <section className="log-panel">
          <h3>Log</h3>
          <ol className="log" data-testid="log" ref={logRef}>
            {log.map((line, i) => (
              <li key={i} data-kind={line.kind}>
                {'text' in line ? line.text : eventText(names, line.event)}
              </li>
            ))}
          </ol>
        </section>
      </main>
    </div>
  );
}

/** One player's side: life, hand (or its count), library, away status, battlefield; this seat's controls. */
function Player({ player, view, seen, own, send, actions = [] }: { player: string; view: TurnView; seen: ExampleSeatView | null; own: boolean; send: (...events: Sent[]) => Promise<boolean>; actions?: LegalAction[] }) {
  const side = seen?.players[player];
  const away = view.seats?.[player]?.status === 'away';
  const awaiting = view.awaiting !== null && view.awaiting.player === player && view.gameOver === null ? view.awaiting : null;
  const mine = seen?.battlefield.filter((p) => p.controller === player) ?? [];
  const [attackers, setAttackers] = useState<Set<string>>(new Set());
  const [blocks, setBlocks] = useState<Record<string, string>>({});
  const [discards, setDiscards] = useState<Set<string>>(new Set());
  // A new question clears the choices of the last one.
  useEffect(() => {
    setAttackers(new Set());
    setBlocks({});
    setDiscards(new Set());
  }, [awaiting?.kind, view.turn]);

  const plays = ((): Plays | null => {
    if (!own || seen === null || view.gameOver !== null) return null;
    const priority = awaiting?.kind === 'priority' && view.priority === player;
    const sorcery = priority && view.activePlayer === player && view.step === 'main' && view.stack.length === 0;
    return {
      priority,
      sorcery,
      land: sorcery && view.landsPlayed < view.landPlaysAllowed,
      pool: view.manaPool[player] ?? 0,
      declaring: awaiting?.kind === 'declareAttackers' ? 'attackers' : awaiting?.kind === 'declareBlockers' ? 'blockers' : awaiting?.kind === 'discard' ? 'discard' : null,
      attackers,
      setAttackers,
      blocks,
      setBlocks,
      discards,
      setDiscards,
      send,
    };
  })();

  const others = actions.filter((a) => !HANDLED.has(a.type) && a.choose.length === 0);
  return (
    <section className="player" data-testid={`player-${player}`} data-own={String(own)} data-awaited={String(awaiting !== null)}>
      <h2>
        <span>
          {player}
          {own ? ' (you)' : ''}
        </span>
        <span className="life" data-testid={`life-${player}`}>
          ♥ {side?.life ?? '?'}
        </span>
        <span data-testid={`library-${player}`}>library {side?.library ?? '?'}</span>
        <span data-testid={`graveyard-${player}`} title={side?.graveyard.map((c) => c.name).join(', ')}>
          graveyard {side?.graveyard.length ?? 0}
        </span>
        <span data-testid={`mana-${player}`}>mana {view.manaPool[player] ?? 0}</span>
        {view.seats !== null && (
          <span className="presence" data-testid={`away-${player}`} data-away={String(away)}>
            {away ? 'away' : 'here'}
          </span>
        )}
        {awaiting !== null && (
          <span className="awaited" data-testid={`awaiting-${player}`}>
            {awaiting.kind === 'priority' ? 'has priority' : awaiting.kind}
          </span>
        )}
      </h2>
      <Battlefield permanents={mine} view={view} seen={seen} player={player} plays={plays} />
      {own && seen?.hand !== undefined ? (
        <Hand cards={seen.hand} view={view} seen={seen} player={player} plays={plays} />
      ) : (
        <div className="hand hidden" data-testid={`hand-${player}`}>
          hand: <span data-testid={`handcount-${player}`}>{side?.handCount ?? '?'}</span> cards
        </div>
      )}
      {plays !== null && (
        <div className="controls" data-testid="controls">
          {plays.priority && (
            <button data-action="PASS_PRIORITY" onClick={() => void send({ type: 'PASS_PRIORITY', player })}>
              Pass
            </button>
          )}
          {plays.declaring === 'attackers' && (
            <button data-action="DECLARE_ATTACKERS" onClick={() => void send({ type: 'DECLARE_ATTACKERS', player, attackers: [...attackers].map((id) => ({ id, defender: (awaiting as { defenders: string[] }).defenders[0] as string })) })}>
              {attackers.size === 0 ? 'No attack' : `Attack with ${attackers.size}`}
            </button>
          )}
          {plays.declaring === 'blockers' && (
            <button data-action="DECLARE_BLOCKERS" onClick={() => void send({ type: 'DECLARE_BLOCKERS', player, blockers: Object.entries(blocks).map(([id, attacker]) => ({ id, attacker })) })}>
              {Object.keys(blocks).length === 0 ? 'No blocks' : `Block with ${Object.keys(blocks).length}`}
            </button>
          )}
          {plays.declaring === 'discard' && (
            <button
              data-action="DISCARD"
              onClick={() => {
                const count = (awaiting as { count: number }).count;
                const event = { type: 'DISCARD', player, count, ...(discards.size === count ? { data: { cards: [...discards] } } : {}) };
                void send(event as TurnEvent);
              }}
            >
              Discard {(awaiting as { count: number }).count} {discards.size === (awaiting as { count: number }).count ? '(chosen)' : '(the last drawn)'}
            </button>
          )}
          {others.map((a, i) => (
            <button key={i} data-action={a.type} onClick={() => void send(Object.fromEntries(Object.entries(a).filter(([k]) => k !== 'choose')) as TurnEvent)}>
              {a.type}
            </button>
          ))}
          <label className="quick">
            <input
              type="checkbox"
              data-testid="quick-stops"
              checked={(view.stops[player] ?? null) !== null}
              onChange={(e) => void send({ type: 'SET_STOPS', player, stops: e.target.checked ? QUICK_STOPS : null })}
            />{' '}
            ask me only in my main phases (and when a spell is cast)
          </label>
          <button className="concede" data-action="CONCEDE" onClick={() => void send({ type: 'CONCEDE', player })}>
            Concede
          </button>
        </div>
      )}
    </section>
  );
}

/** The stack (top first) with card names and targets, and the combat. */
function StackAndCombat({ view, seen, names }: { view: TurnView; seen: ExampleSeatView | null; names: Names }) {
  const byId = new Map((seen?.stack ?? []).map((s) => [s.id, s]));
  const name = (id: string) => names.get(id) ?? id;
  return (
    <section className="middle">
      <div>
        <h3>Stack</h3>
        <ol data-testid="stack">
          {[...view.stack].reverse().map((o) => {
            const entry = byId.get(o.id);
            const target = entry?.target;
            const on = target === undefined ? '' : 'player' in target ? target.player : 'creature' in target ? name(target.creature) : name(target.spell);
            return (
              <li key={o.id} data-stack={o.id}>
                {entry?.name ?? o.id} ({o.controller}){on === '' ? '' : ` → ${on}`}
              </li>
            );
          })}
        </ol>
        {view.stack.length === 0 && <p className="empty">empty</p>}
      </div>
      {view.combat !== null && (
        <div>
          <h3>Combat</h3>
          <ul data-testid="combat">
            {view.combat.attackers.map((a) => (
              <li key={a.id}>
                {name(a.id)} attacks {a.defender}
                {a.blockedBy.length > 0 ? `, blocked by ${a.blockedBy.map(name).join(', ')}` : a.blocked ? ', blocked' : ''}
              </li>
            ))}
          </ul>
          {view.combat.attackers.length === 0 && <p className="empty">no attackers</p>}
        </div>
      )}
    </section>
  );
}
