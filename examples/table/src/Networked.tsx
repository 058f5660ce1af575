/**
 * The networked table: one seat of a game the server keeps (`?game=ID&seat=P&token=T`, as the
 * lobby links it), joined with `connectTable` of `mtg-turn-engine/client`. The same seats,
 * stack, schedule and log as the local table, read with the same hooks (`useGame` takes the
 * table as it takes a Game); this tab plays its own seat, the other seats are played from
 * theirs, and every move shows here as the server sends it. A card game (the server sends a card
 * view: `npm start`'s example cards) is shown by the card table (examples/cards/page).
 */
import { useEffect, useState } from 'react';
import type { TurnEvent } from 'mtg-turn-engine';
import { connectTable, type Table, type TableStatus } from 'mtg-turn-engine/client';
import { useGame } from 'mtg-turn-engine/react';
import { CardTable } from '../../cards/page/CardTable.tsx';
import { Seat } from './Seat.tsx';
import { Side } from './Side.tsx';
import type { Join } from './join.ts';
import { SeatHeader } from './SeatHeader.tsx';
import { describe, statusOf, type LogLine } from './source.ts';


export function Networked({ join }: { join: Join }) {
  const [table, setTable] = useState<Table | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let opened: Table | null = null;
    let gone = false;
    connectTable(location.origin, join).then(
      (t) => {
        if (gone) void t.close();
        else setTable((opened = t));
      },
      (err: unknown) => setFailure(err instanceof Error ? err.message : String(err)),
    );
    return () => {
      gone = true;
      void opened?.close();
    };
  }, [join.gameId, 'seat' in join ? join.seat : null, 'token' in join ? join.token : null]);

  if (table === null) {
    return (
      <header>
        <h1>mtg-turn-engine · table</h1>
        <span className="status" data-testid="connection">
          {failure === null ? `joining game ${join.gameId} as ${'seat' in join ? join.seat : 'a spectator'}…` : `could not join: ${failure}`}
        </span>
      </header>
    );
  }
  const seat = 'seat' in join ? join.seat : null;
  return table.cards() !== null ? <CardTable table={table} seat={seat} /> : <Playing table={table} seat={seat} />;
}

/** The table as its seat plays it (a spectator, `seat` null, only watches: no seat's controls). */
function Playing({ table, seat }: { table: Table; seat: string | null }) {
  const view = useGame(table);
  const [status, setStatus] = useState<TableStatus>(table.status);
  const [log, setLog] = useState<LogLine[]>([{ kind: 'emitted', text: `joined game ${table.gameId} as ${seat ?? 'a spectator'}` }]);
  useEffect(() => table.onStatus(setStatus), [table]);
  // Every event the server sends this seat, the other seats' moves included.
  useEffect(() => table.on('*', (e) => setLog((l) => [...l, { kind: 'emitted', text: `  ${describe(e)}` }])), [table]);

  const send = (event: TurnEvent) => {
    setLog((l) => [...l, { kind: 'sent', text: describe(event) }]);
    void table.send(event).then((result) => {
      if (!result.ok) setLog((l) => [...l, { kind: 'refused', text: `${describe(event)}: ${result.error.code} ${result.error.message}` }]);
    });
  };

  return (
    <>
      <SeatHeader title="table" table={table} seat={seat} version={view.version} status={statusOf(view)} connection={status} />
      <main>
        <div className="seats">
          {view.players.map((player) => (
            <Seat key={player} game={table} player={player} send={send} own={player === seat} />
          ))}
        </div>
        <Side view={view} log={log} />
      </main>
    </>
  );
}
