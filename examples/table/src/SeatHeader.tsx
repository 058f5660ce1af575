/**
 * The header of a served table's page (the networked table and the example card table): the
 * page's title, which seat this page plays (or that it watches), the game's status with its
 * version, what the page adds (`children`), and the connection's status.
 */
import type { ReactNode } from 'react';
import type { Table, TableStatus } from 'mtg-turn-engine/client';

export function SeatHeader(props: { title: string; table: Table; seat: string | null; version: number; status: string; connection: TableStatus; children?: ReactNode }) {
  return (
    <header>
      <h1>{props.title}</h1>
      <span data-testid="me" title={`game ${props.table.gameId}`}>
        {props.seat === null ? 'watching' : `playing ${props.seat}`}
      </span>
      <span className="status" data-testid="status" data-version={props.version}>
        {props.status}
      </span>
      {props.children}
      <span className="right" data-testid="connection" data-status={props.connection}>
        {props.connection}
      </span>
    </header>
  );
}
