// @vitest-environment jsdom
/// <reference lib="dom" />
/**
 * CONTRACT v3, "Serving games": `mtg-turn-engine/react`'s hooks take a remote table as they take
 * a Game: a component over `connectTable`'s table re-renders when the server's update arrives,
 * with the seat's frozen view and the decisions it may send.
 */
import './nodeWebSocket.js';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { createElement, type ReactElement } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TurnView } from '../../src/index.js';
import { useGame, useLegalActions } from '../../src/react/index.js';
import type { Table } from '../../src/client/index.js';
import type { TableServer } from '../../src/server/index.js';
import { join, startServer } from './harness.js';

afterEach(cleanup);

function Seat({ table, views }: { table: Table; views: TurnView[] }): ReactElement {
  const view = useGame(table);
  const actions = useLegalActions(table);
  views.push(view);
  return createElement('p', { 'data-testid': `seat-${table.seat}` }, `v${view.version} ${view.step} ${view.priority}: ${actions.map((a) => a.type).join(' ')}`);
}

describe('useGame over a remote table (CONTRACT v3, "Serving games")', () => {
  let server: TableServer;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await startServer());
  });
  afterAll(async () => {
    await server.close();
  });

  it('renders the seat view and its legal actions, and re-renders when the server sends an update', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 9 });
    const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    const views: TurnView[] = [];
    render(createElement(Seat, { table: b, views }));
    expect(screen.getByTestId('seat-B').textContent).toBe('v0 upkeep A: CONCEDE');
    await act(async () => void (await a.send({ type: 'PASS_PRIORITY', player: 'A' })));
    await waitFor(() => expect(screen.getByTestId('seat-B').textContent).toBe('v1 upkeep B: PASS_PRIORITY CAST_SPELL ACTIVATE_ABILITY CONCEDE'));
    expect(views.at(-1)).toBe(b.getSnapshot());
    expect(Object.isFrozen(views.at(-1))).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});
