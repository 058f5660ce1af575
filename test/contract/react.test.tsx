// @vitest-environment jsdom
/// <reference lib="dom" />
/**
 * `mtg-turn-engine/react` (CONTRACT "Package"): useGame and useLegalActions in a real React
 * render (React Testing Library over jsdom): a component re-renders after every accepted event
 * and never after a refused one, sees the same frozen view until the game changes, and stops
 * listening when it unmounts.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { createElement, type ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createGame, type Game, type TurnView } from '../../src/index.js';
import { useGame, useLegalActions } from '../../src/react/index.js';

afterEach(cleanup);

function Seat({ game, player, renders, views }: { game: Game; player: string; renders: string[]; views: TurnView[] }): ReactElement {
  const view = useGame(game);
  const actions = useLegalActions(game, player);
  renders.push(`${view.step}:${view.priority}`);
  views.push(view);
  return createElement('p', { 'data-testid': `seat-${player}` }, `${view.phase}/${view.step} ${view.priority === player ? 'priority' : 'waiting'}: ${actions.map((a) => a.type).join(' ')}`);
}

describe('mtg-turn-engine/react', () => {
  it('useGame re-renders after accepted events only, with the frozen view of getSnapshot', () => {
    const game = createGame({ players: ['A', 'B'] });
    const renders: string[] = [];
    const views: TurnView[] = [];
    render(createElement(Seat, { game, player: 'A', renders, views }));
    expect(screen.getByTestId('seat-A').textContent).toBe('beginning/upkeep priority: PASS_PRIORITY CAST_SPELL ACTIVATE_ABILITY CONCEDE');
    const before = renders.length;
    act(() => void game.send({ type: 'PASS_PRIORITY', player: 'B' })); // refused: B does not hold priority
    expect(renders.length).toBe(before);
    act(() => void game.send({ type: 'PASS_PRIORITY', player: 'A' }));
    expect(renders.length).toBe(before + 1);
    expect(screen.getByTestId('seat-A').textContent).toBe('beginning/upkeep waiting: CONCEDE');
    expect(views.at(-1)).toBe(game.getSnapshot());
    expect(Object.isFrozen(views.at(-1))).toBe(true);
  });

  it('useLegalActions lists one player\'s decisions, the same array until the game changes', () => {
    const game = createGame({ players: ['A', 'B'] });
    const seen: unknown[] = [];
    function Probe(): ReactElement {
      const actions = useLegalActions(game, 'B');
      seen.push(actions);
      return createElement('span', {}, actions.map((a) => a.type).join(' '));
    }
    const { rerender } = render(createElement(Probe));
    rerender(createElement(Probe));
    expect(seen[0]).toBe(seen[1]);
    act(() => void game.send({ type: 'PASS_PRIORITY', player: 'A' }));
    expect(seen.at(-1)).not.toBe(seen[0]);
    expect((seen.at(-1) as { type: string }[]).map((a) => a.type)).toContain('PASS_PRIORITY');
  });

  it('unsubscribes when the component unmounts', () => {
    const game = createGame({ players: ['A', 'B'] });
    const renders: string[] = [];
    const { unmount } = render(createElement(Seat, { game, player: 'A', renders, views: [] }));
    unmount();
    const count = renders.length;
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(renders.length).toBe(count);
  });

  it('two seats of one game see the same view; passing moves priority from one to the other', () => {
    const game = createGame({ players: ['A', 'B'] });
    const views: TurnView[] = [];
    render(createElement('div', {}, createElement(Seat, { game, player: 'A', renders: [], views }), createElement(Seat, { game, player: 'B', renders: [], views })));
    act(() => void game.send({ type: 'PASS_PRIORITY', player: 'A' }));
    expect(screen.getByTestId('seat-B').textContent).toContain('priority');
    expect(screen.getByTestId('seat-A').textContent).toContain('waiting');
    expect(views.at(-1)).toBe(views.at(-2));
  });

  it("useGame(game, { seat }): that seat's frozen view (CONTRACT v3, private seats), re-rendered after accepted events only", () => {
    const game = createGame({ players: ['A', 'B'] });
    game.send({ type: 'SET_STOPS', player: 'A', stops: [{ step: 'upkeep', turn: 'any' }, { step: 'main', turn: 'any' }] });
    game.send({ type: 'SET_STOPS', player: 'B', stops: [{ step: 'end', turn: 'any' }] });
    const views: TurnView[] = [];
    function Private({ seat }: { seat: string }): ReactElement {
      // A new options object at every render: the hook keys on who looks.
      const view = useGame(game, { seat });
      views.push(view);
      return createElement('p', { 'data-testid': `private-${seat}` }, JSON.stringify(view.stops));
    }
    const { rerender } = render(createElement(Private, { seat: 'B' }));
    expect(JSON.parse(screen.getByTestId('private-B').textContent ?? '')).toEqual({ A: null, B: [{ step: 'end', turn: 'any' }] });
    expect(views.at(-1)).toBe(game.getSnapshot({ seat: 'B' }));
    rerender(createElement(Private, { seat: 'B' }));
    expect(views.at(-1)).toBe(views.at(-2));
    const count = views.length;
    act(() => void game.send({ type: 'PASS_PRIORITY', player: 'B' })); // refused: B does not hold priority
    expect(views.length).toBe(count);
    act(() => void game.send({ type: 'PASS_PRIORITY', player: 'A' }));
    expect(views.length).toBe(count + 1);
    expect(views.at(-1)).toBe(game.getSnapshot({ seat: 'B' }));
    expect(Object.isFrozen(views.at(-1))).toBe(true);
    rerender(createElement(Private, { seat: 'A' }));
    expect(JSON.parse(screen.getByTestId('private-A').textContent ?? '')).toEqual({ A: [{ step: 'upkeep', turn: 'any' }, { step: 'main', turn: 'any' }], B: null });
  });
});
