// @vitest-environment jsdom
/// <reference lib="dom" />
/**
 * CONTRACT v4, "Served card games": `useCards(table)` of `mtg-turn-engine/react` renders what the
 * table's seat may see of the cards (its seatView), and re-renders when an update brings a new one.
 */
import './nodeWebSocket.js';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { createElement, type ReactElement } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exampleCards, type ExampleSeatView } from '../../examples/cards/definition.js';
import { useCards } from '../../src/react/index.js';
import type { Table } from '../../src/client/index.js';
import type { TableServer } from '../../src/server/index.js';
import { join, startServer } from './harness.js';

afterEach(cleanup);

function Hand({ table }: { table: Table }): ReactElement {
  const seen = useCards<ExampleSeatView>(table);
  const mana = seen.battlefield.filter((p) => p.tapped).length;
  return createElement('p', { 'data-testid': `hand-${table.seat}` }, `${seen.hand?.length ?? 0} cards, ${mana} tapped`);
}

describe('useCards over a remote table (CONTRACT v4, "Served card games")', () => {
  let server: TableServer;
  let url: string;
  beforeAll(async () => {
    ({ server, url } = await startServer({ cards: exampleCards }));
  });
  afterAll(async () => {
    await server.close();
  });

  it('renders the seat view of the cards and re-renders after an update', async () => {
    const { gameId, tokens } = await server.createGame({ players: ['A', 'B'], seed: 9 });
    const a = await join(url, { gameId, seat: 'A', token: tokens.A as string });
    const b = await join(url, { gameId, seat: 'B', token: tokens.B as string });
    render(createElement(Hand, { table: a }));
    expect(screen.getByTestId('hand-A').textContent).toBe('7 cards, 0 tapped');
    const seen = a.cards() as ExampleSeatView;
    expect(Object.isFrozen(seen)).toBe(true);
    // A's first main phase: pass until A may play a land, then play one (data: the card).
    for (let i = 0; i < 20 && !(a.getSnapshot().step === 'main' && a.getSnapshot().priority === 'A'); i++) {
      const who = a.getSnapshot().priority === 'B' ? b : a;
      await act(async () => void (await who.send({ type: 'PASS_PRIORITY', player: who.seat as string })));
    }
    const land = (a.cards() as ExampleSeatView).hand?.find((c) => c.type === 'land');
    expect(land).toBeDefined();
    let played: unknown;
    await act(async () => void (played = await a.send({ type: 'PLAY_LAND', player: 'A', data: { card: land!.id } } as never)));
    expect(played, JSON.stringify({ played, step: a.getSnapshot().step, priority: a.getSnapshot().priority, turn: a.getSnapshot().turn })).toMatchObject({ ok: true });
    await waitFor(() => expect(screen.getByTestId('hand-A').textContent).toBe('6 cards, 0 tapped'));
    await act(async () => void (await a.send({ type: 'CARD_ACTION', player: 'A', action: 'tap', data: { card: land!.id } } as never)));
    await waitFor(() => expect(screen.getByTestId('hand-A').textContent).toBe('6 cards, 1 tapped'));
    await Promise.all([a.close(), b.close()]);
  });
});
