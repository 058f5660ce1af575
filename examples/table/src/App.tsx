/**
 * An example table: 2-4 seats at one screen, each with its priority and legal actions as
 * buttons, the stack, the schedule, stops per seat with the next stop, the event log, and undo
 * by restoring an earlier `persist()`. It uses only the package's public API. "Play over the
 * network" opens the lobby of the server that serves the page (`npm start`): it creates a game
 * there, and each seat is played in its own tab (Networked.tsx).
 */
import { useState } from 'react';
import { createGame, restoreGame, type Game, type Persisted, type TurnEvent } from 'mtg-turn-engine';
import { useGame } from 'mtg-turn-engine/react';
import { Lobby } from './Lobby.tsx';
import { Seat } from './Seat.tsx';
import { Side } from './Side.tsx';
import { describe, statusOf, type LogLine } from './source.ts';

const SEATS = ['Alice', 'Bob', 'Carol', 'Dave'];

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

export function App() {
  const [lobby, setLobby] = useState(false);
  return lobby ? <Lobby back={() => setLobby(false)} /> : <LocalTable openLobby={() => setLobby(true)} />;
}

function LocalTable({ openLobby }: { openLobby: () => void }) {
  const [table, setTable] = useState<Table>(() => newTable(2));
  const { game } = table;
  const view = useGame(game);

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
        <span className="status" data-testid="status" data-version={view.version}>
          {statusOf(view)}
        </span>
        <button className="right" data-testid="lobby-open" onClick={openLobby}>
          Play over the network
        </button>
      </header>
      <main>
        <div className="seats">
          {view.players.map((player) => (
            <Seat key={player} game={game} player={player} send={send} />
          ))}
        </div>
        <Side view={view} log={table.log} />
      </main>
    </>
  );
}
