/**
 * An example table: 2-4 seats at one screen, each with its priority and legal actions as
 * buttons, the stack, the schedule, stops per seat with the next stop, the event log, and undo
 * by restoring an earlier `persist()`. It uses only the package's public API.
 */
import { useEffect, useRef, useState } from 'react';
import { createGame, restoreGame, type EmittedEvent, type Game, type Persisted, type TurnEvent } from 'mtg-turn-engine';
import { useGame } from 'mtg-turn-engine/react';
import { Seat } from './Seat.tsx';

const SEATS = ['Alice', 'Bob', 'Carol', 'Dave'];

/** One line of the event log. */
export interface LogLine {
  kind: 'sent' | 'refused' | 'emitted';
  text: string;
}

interface Table {
  game: Game;
  /** persist() before each accepted event, for undo. */
  history: { persisted: Persisted; log: number }[];
  log: LogLine[];
}

function newTable(players: number): Table {
  const game = createGame({ players: SEATS.slice(0, players), seed: 7 });
  return { game, history: [], log: [{ kind: 'emitted', text: `new game: ${SEATS.slice(0, players).join(', ')}` }] };
}

function describe(event: TurnEvent | EmittedEvent): string {
  const { type, ...rest } = event;
  const details = Object.entries(rest)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return details ? `${type} ${details}` : type;
}

export function App() {
  const [table, setTable] = useState<Table>(() => newTable(2));
  const { game } = table;
  const view = useGame(game);
  const logRef = useRef<HTMLOListElement>(null);
  // The log follows the game: its newest line stays in sight.
  useEffect(() => {
    const log = logRef.current;
    if (log !== null) log.scrollTop = log.scrollHeight;
  }, [table.log]);

  const send = (event: TurnEvent) => {
    const persisted = game.persist();
    const result = game.send(event);
    setTable((t) => {
      if (!result.ok) return { ...t, log: [...t.log, { kind: 'refused', text: `${describe(event)}: ${result.error.code} ${result.error.message}` }] };
      const lines: LogLine[] = [{ kind: 'sent', text: describe(event) }, ...result.events.map((e): LogLine => ({ kind: 'emitted', text: `  ${describe(e)}` }))];
      return { ...t, history: [...t.history, { persisted, log: t.log.length }], log: [...t.log, ...lines] };
    });
  };

  const undo = () => {
    const last = table.history.at(-1);
    if (last === undefined) return;
    setTable({ game: restoreGame(last.persisted), history: table.history.slice(0, -1), log: table.log.slice(0, last.log) });
  };


  return (
    <>
      <header>
        <h1>mtg-turn-engine · table</h1>
        {[2, 3, 4].map((n) => (
          <button key={n} data-testid={`new-${n}`} onClick={() => setTable(newTable(n))}>
            New {n}-player game
          </button>
        ))}
        <button data-testid="undo" onClick={undo} disabled={table.history.length === 0}>
          Undo
        </button>
        <span className="status" data-testid="status">
          {view.gameOver !== null
            ? `game over: ${view.gameOver.draw ? 'a draw' : `${view.gameOver.winners.join(', ')} won`}`
            : `turn ${view.turn} · ${view.activePlayer ?? '—'} · ${view.phase} / ${view.step}`}
        </span>
      </header>
      <main>
        <div className="seats">
          {view.players.map((player) => (
            <Seat key={player} game={game} player={player} send={send} />
          ))}
        </div>
        <div className="side">
          <section>
            <h3>Stack</h3>
            <ol data-testid="stack">
              {view.stack.map((o) => (
                <li key={o.id}>
                  {o.id} ({o.kind}, {o.controller})
                </li>
              ))}
            </ol>
            {view.stack.length === 0 && <p>empty</p>}
          </section>
          <section>
            <h3>Schedule</h3>
            <ul data-testid="schedule">
              {view.schedule.steps.map((s, i) => (
                <li key={`s${i}`}>
                  {s.step}
                  {s.skipped ? ' (skipped)' : ''}
                </li>
              ))}
              {view.schedule.phases.map((p, i) => (
                <li key={`p${i}`}>
                  {p.phase} phase{p.skipped ? ' (skipped)' : ''}
                </li>
              ))}
              {view.schedule.turns.slice(0, 3).map((t, i) => (
                <li key={`t${i}`}>
                  {t.extra ? 'extra turn' : 'turn'} of {t.player}
                  {t.skipped ? ' (skipped)' : ''}
                </li>
              ))}
            </ul>
          </section>
          <section>
            <h3>Log</h3>
            <ol className="log" data-testid="log" ref={logRef}>
              {table.log.map((line, i) => (
                <li key={i} data-kind={line.kind}>
                  {line.text}
                </li>
              ))}
            </ol>
          </section>
        </div>
      </main>
    </>
  );
}
