/**
 * An example table: 2-4 seats at one screen, each with its priority and legal actions as
 * buttons, the stack, the schedule, stops per seat with the next stop, the event log, and undo
 * by restoring an earlier `persist()` ("Take back"); new games may have chess clocks (each
 * seat's shown, the running one highlighted) and the engine's undo with a policy (at each seat,
 * with its horizon; Between.tsx), and every seat may propose a shortcut. It uses only the package's public API. "Play over the network"
 * opens the lobby of the server that serves the page (`npm start`): it creates a game there,
 * and each seat is played in its own tab (Networked.tsx).
 *
 * This page is the host of its local game: in a game with clocks it stamps every event with
 * its clock (`at`, ms) and sends a TICK when `nextDeadline()` falls, so a clock that runs out
 * is seen without anyone acting.
 */
import { useEffect, useRef, useState } from 'react';
import { createGame, restoreGame, type Game, type GameOptions, type Persisted, type TurnEvent } from 'mtg-turn-engine';
import { useGame } from 'mtg-turn-engine/react';
import { table as tableModule } from 'mtg-turn-engine/table';
import { Lobby, lobbyAbout, type LobbyAbout } from './Lobby.tsx';
import { gameOptions, PLAIN, SettingsFields, type TableSettings } from './Settings.tsx';
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

function newTable(players: number, settings: TableSettings = PLAIN): Table {
  const options: GameOptions = { players: SEATS.slice(0, players), seed: 7, ...gameOptions(settings) };
  // CONTRACT v4: clocks and undo are the table module's.
  const game = createGame({ ...options, use: [tableModule] });
  return { game, history: [], log: [{ kind: 'emitted', text: `new game: ${SEATS.slice(0, players).join(', ')}${options.clock === undefined ? '' : `, clocks of ${options.clock.initialMs / 1000} s`}${options.undo === undefined ? '' : `, undo: ${options.undo.mode}`}` }] };
}

/** The host's clock for `at`: never earlier than the last it gave. */
let lastAt = 0;
const hostClock = () => (lastAt = Math.max(lastAt, Date.now()));
/** The event stamped with the host's clock (every event may carry `at`). */
function withAt<E extends TurnEvent>(event: E, at: number): E & { at: number } {
  return { ...event, at };
}

export function App() {
  const [lobby, setLobby] = useState(false);
  const [about, setAbout] = useState<LobbyAbout | null>(null);
  // A server of card games (`npm start`: the example cards) opens at its lobby: the card game is the main page.
  useEffect(() => {
    let gone = false;
    void lobbyAbout().then((found) => {
      if (gone || found === null) return;
      setAbout(found);
      if (found.cards !== null) setLobby(true);
    });
    return () => {
      gone = true;
    };
  }, []);
  return lobby ? <Lobby back={() => setLobby(false)} about={about} /> : <LocalTable openLobby={() => setLobby(true)} />;
}

function LocalTable({ openLobby }: { openLobby: () => void }) {
  const [table, setTable] = useState<Table>(() => newTable(2));
  const [settings, setSettings] = useState<TableSettings>(PLAIN);
  const { game } = table;
  const view = useGame(game);

  const send = (sent: TurnEvent) => {
    // With clocks, every event carries the host's clock: the time since the last is charged to whoever the game waited for.
    const event = game.getSnapshot().clocks === null ? sent : withAt(sent, hostClock());
    const persisted = game.persist();
    const result = game.send(event);
    setTable((t) => {
      if (!result.ok) return { ...t, log: [...t.log, { kind: 'refused', text: `${describe(event)}: ${result.error.code} ${result.error.message}` }] };
      const lines: LogLine[] = [{ kind: 'sent', text: describe(event) }, ...result.events.map((e): LogLine => ({ kind: 'emitted', text: `  ${describe(e)}` }))];
      return { ...t, history: [...t.history, { persisted, log: t.log.length }], log: [...t.log, ...lines] };
    });
  };

  // One timer for the game's next time-out (a clock running out): a TICK then makes the engine look at the time
  // (once for a deadline: a TICK at or after it that changed nothing is not sent again).
  const ticked = useRef(-Infinity);
  useEffect(() => {
    const deadline = game.nextDeadline();
    if (deadline === null || deadline.at <= ticked.current) return;
    const timer = setTimeout(() => {
      ticked.current = hostClock();
      send({ type: 'TICK', at: ticked.current });
    }, Math.max(0, deadline.at - Date.now()) + 5);
    return () => clearTimeout(timer);
  });

  const undo = () => {
    const last = table.history.at(-1);
    if (last === undefined) return;
    setTable({ game: restoreGame(last.persisted, { use: [tableModule] }), history: table.history.slice(0, -1), log: table.log.slice(0, last.log) });
  };

  return (
    <>
      <header>
        <h1>mtg-turn-engine · table</h1>
        {[2, 3, 4].map((n) => (
          <button key={n} data-testid={`new-${n}`} onClick={() => setTable(newTable(n, settings))}>
            New {n}-player game
          </button>
        ))}
        <SettingsFields settings={settings} set={setSettings} prefix="option" />
        <button data-testid="undo" onClick={undo} disabled={table.history.length === 0} title="the page's own undo: restores the game it saved before the last event (the engine's undo, with a policy, is at each seat)">
          Take back
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
