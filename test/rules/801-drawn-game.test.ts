/**
 * A draw with a limited range of influence (CR 801.15, 809.5c): DRAW_GAME naming the effect's
 * controller draws the game for them and the players within their range (as the turn began,
 * 801.2c), who leave it (800.4a); the others play on (104.2a: one player or team left wins).
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type GameOptions, type TurnEvent } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';
import { fullSnapshot } from '../support/persisted.js';

const seats = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));

/** Sends `event` to a new game; the players who left with it, the view after it and the events it emitted. */
function drawing(options: GameOptions, event: TurnEvent, before: TurnEvent[] = []) {
  const game = createGame(options);
  for (const e of before) expect(game.send(e)).toMatchObject({ ok: true });
  const result = game.send(event);
  if (!result.ok) throw new Error(result.error.message);
  const left = result.events.flatMap((e: EmittedEvent) => (e.type === 'playerLeft' ? [`${e.player}:${e.reason}`] : []));
  return { game, left, view: game.view(), events: result.events.map((e) => e.type) };
}

describe('DRAW_GAME with a limited range of influence (CR 801.15)', () => {
  it('801.15: the controller and the players within their range draw and leave; the others play on', () => {
    const { game, left, view, events } = drawing({ players: seats(6), rangeOfInfluence: 1 }, { type: 'DRAW_GAME', player: 'D' });
    expect(left).toEqual(['C:draw', 'D:draw', 'E:draw']);
    expect(events).not.toContain('gameOver');
    expect(view.gameOver).toBeNull();
    expect(view.players).toEqual(['A', 'B', 'F']);
    // The game goes on: A still holds priority in their turn.
    expect(view.priority).toBe('A');
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
  });

  it("801.15, 800.4j: the active player's draw: the turn goes on without them and priority passes on", () => {
    const { left, view } = drawing({ players: seats(6), rangeOfInfluence: 1 }, { type: 'DRAW_GAME', player: 'A' });
    expect(left).toEqual(['A:draw', 'B:draw', 'F:draw']);
    expect(view.gameOver).toBeNull();
    expect(view.activePlayer).toBeNull();
    expect(view.priority).toBe('C');
  });

  it('104.2a: when the draw leaves one player, that player wins', () => {
    const { left, view } = drawing({ players: seats(4), rangeOfInfluence: 1 }, { type: 'DRAW_GAME', player: 'A' });
    expect(left).toEqual(['A:draw', 'B:draw', 'D:draw']);
    expect(view.gameOver).toEqual({ winners: ['C'], draw: false, reasons: { A: 'draw', B: 'draw', D: 'draw' } });
  });

  it('801.15, 104.4a: when every player still in the game is within range, the game is a draw, as without the option', () => {
    const { left, view, events } = drawing({ players: seats(3), rangeOfInfluence: 1 }, { type: 'DRAW_GAME', player: 'B' });
    expect(left).toEqual([]);
    expect(events).toContain('gameOver');
    expect(view.gameOver).toEqual({ winners: [], draw: true, reasons: { A: 'draw', B: 'draw', C: 'draw' } });
  });

  it('801.2c: who is within range is determined as the turn began: a seat emptied this turn brings nobody closer', () => {
    const { left, view } = drawing({ players: seats(6), rangeOfInfluence: 1 }, { type: 'DRAW_GAME', player: 'B' }, [{ type: 'CONCEDE', player: 'C' }]);
    expect(left).toEqual(['A:draw', 'B:draw']);
    expect(view.players).toEqual(['D', 'E', 'F']);
  });

  it('without `player`, or without a limited range, the whole game is a draw (104.4a), as before', () => {
    for (const [options, event] of [
      [{ players: seats(6), rangeOfInfluence: 1 }, { type: 'DRAW_GAME' }],
      [{ players: seats(6) }, { type: 'DRAW_GAME', player: 'D' }],
    ] as const) {
      const { left, view } = drawing(options, event);
      expect(left).toEqual([]);
      expect(view.gameOver).toEqual({ winners: [], draw: true, reasons: Object.fromEntries(seats(6).map((p) => [p, 'draw'])) });
    }
  });

  it("800.4a: `player` must be in the game (ILLEGAL_ACTION naming the field); one who isn't a player is INVALID_EVENT", () => {
    const game = createGame({ players: seats(6), rangeOfInfluence: 1 });
    expect(game.send({ type: 'CONCEDE', player: 'C' }).ok).toBe(true);
    expect(game.send({ type: 'DRAW_GAME', player: 'C' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '800.4a', message: expect.stringContaining('player C has left the game') } });
    expect(game.send({ type: 'DRAW_GAME', player: 'Z' })).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
    expect(game.view().players).toEqual(['A', 'B', 'D', 'E', 'F']);
  });

  it('a game after a partial draw is persisted and restored', () => {
    const { game } = drawing({ players: seats(6), rangeOfInfluence: 1 }, { type: 'DRAW_GAME', player: 'D' });
    const restored = restoreGame(game.persist());
    expect(restored.view()).toEqual(game.view());
    expect(restored.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
  });

  it('801.15 from a checkpoint hook: the same players leave', () => {
    let once = true;
    const game = createGame({
      players: seats(6),
      rangeOfInfluence: 1,
      hooks: {
        checkpoint: (v) => {
          if (!once || v.step !== 'upkeep') return undefined;
          once = false;
          return { events: [{ type: 'DRAW_GAME', player: 'D' }] };
        },
      },
    });
    for (let i = 0; i < 10 && once; i++) game.send({ type: 'PASS_PRIORITY', player: game.view().priority ?? 'A' });
    expect(game.view().players).toEqual(['A', 'B', 'F']);
    expect(game.view().gameOver).toBeNull();
  });

  it('807, 801.15: in Grand Melee (range of influence 1) the draw leaves the game in every turn', () => {
    const game = createGame({ use: allModules, players: seats(10), variant: 'grandMelee', seed: 7 });
    expect(game.send({ type: 'DRAW_GAME', player: 'E' }).ok).toBe(true);
    const view = game.view();
    expect(view.gameOver).toBeNull();
    expect(view.players).toEqual(['A', 'B', 'C', 'G', 'H', 'I', 'J']);
    const markers = fullSnapshot(game).markers ?? [];
    expect(markers.length).toBe(2);
    for (const m of markers) expect(m.context.players).toEqual(view.players);
    expect(restoreGame(game.persist(), { use: allModules }).view()).toEqual(view);
  });
});

describe('Emperor: the game is a draw for a team if it is a draw for its emperor (CR 809.5c)', () => {
  const three = {
    players: ['G1a', 'E1', 'G1b', 'G2a', 'E2', 'G2b', 'G3a', 'E3', 'G3b'],
    variant: 'emperor' as const,
    teams: [
      { id: 't1', players: ['G1a', 'E1', 'G1b'] },
      { id: 't2', players: ['G2a', 'E2', 'G2b'] },
      { id: 't3', players: ['G3a', 'E3', 'G3b'] },
    ],
    startingPlayer: 'E1',
  };

  it("809.5c, 809.3a: an emperor's draw takes their team and the generals within their range (2); the others play on", () => {
    const { left, view } = drawing(three, { type: 'DRAW_GAME', player: 'E1' });
    expect(left.sort()).toEqual(['E1:draw', 'G1a:draw', 'G1b:draw', 'G2a:draw', 'G3b:draw']);
    expect(view.gameOver).toBeNull();
    expect(view.players).toEqual(['E2', 'G2b', 'G3a', 'E3']);
  });

  it("809.5c: a general's draw reaches their emperor (range 1), so their whole team draws, and the opposing general beside them", () => {
    const { left, view } = drawing(three, { type: 'DRAW_GAME', player: 'G1b' });
    expect(left.sort()).toEqual(['E1:draw', 'G1a:draw', 'G1b:draw', 'G2a:draw']);
    expect(view.gameOver).toBeNull();
  });

  it("809.5c, 809.6a: a general whose range holds no emperor draws with the players beside them, and their emperor's team plays on", () => {
    const four = {
      players: ['A1', 'A2', 'A3', 'A4', 'B1', 'B2', 'B3', 'B4'],
      variant: 'emperor' as const,
      teams: [
        { id: 'a', players: ['A1', 'A2', 'A3', 'A4'] },
        { id: 'b', players: ['B1', 'B2', 'B3', 'B4'] },
      ],
      startingPlayer: 'A2',
    };
    // A4, general 3 (range 1): A3 and B1 beside them, neither an emperor.
    const { left, view } = drawing(four, { type: 'DRAW_GAME', player: 'A4' });
    expect(left).toEqual(['A3:draw', 'A4:draw', 'B1:draw']);
    expect(view.players).toEqual(['A1', 'A2', 'B2', 'B3', 'B4']);
    expect(view.gameOver).toBeNull();
  });

  it('104.2a: two teams, an emperor draws with both opposing generals: the other emperor, left alone, wins', () => {
    const two = {
      players: ['g1', 'E1', 'g2', 'h1', 'E2', 'h2'],
      variant: 'emperor' as const,
      teams: [
        { id: 'west', players: ['g1', 'E1', 'g2'] },
        { id: 'east', players: ['h1', 'E2', 'h2'] },
      ],
      startingPlayer: 'E1',
    };
    const { view } = drawing(two, { type: 'DRAW_GAME', player: 'E1' });
    expect(view.gameOver).toMatchObject({ winners: ['E2'], draw: false, reasons: { g1: 'draw', E1: 'draw', g2: 'draw', h1: 'draw', h2: 'draw' } });
  });

  it('without `player` the whole Emperor game is a draw, as before', () => {
    const { view } = drawing(three, { type: 'DRAW_GAME' });
    expect(view.gameOver).toMatchObject({ winners: [], draw: true });
  });
});
