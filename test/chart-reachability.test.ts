/**
 * The chart's shape that makes every transition reachable in every configuration (see
 * docs/model-based-testing.md) keeps the rules: the starting player's skipped first draw
 * (CR 103.8a), 'classic' combat without attackers, a skipped combat phase (CR 614.10), and
 * the end of the game when one player is left (CR 104.2a).
 */
import { describe, expect, it } from 'vitest';
import type { EmittedEvent } from '../machines/turn.types.js';
import { createGame, type Game } from '../src/game.js';

function passUntil(game: Game, step: string): void {
  for (let i = 0; i < 100 && game.view().step !== step; i++) {
    const a = game.view().awaiting;
    if (a === null) throw new Error('the game is over');
    if (a.kind === 'priority') game.send({ type: 'PASS_PRIORITY', player: a.player });
    else if (a.kind === 'declareAttackers') game.send({ type: 'DECLARE_ATTACKERS', player: a.player, attackers: [] });
    else if (a.kind === 'declareBlockers') game.send({ type: 'DECLARE_BLOCKERS', player: a.player, blockers: [] });
    else game.send({ type: 'DISCARD', player: a.player, count: a.count ?? 0 });
  }
}

function stepsBegun(events: EmittedEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'stepBegan' ? [e.step] : []));
}

describe('chart reachability keeps the rules', () => {
  it('103.8a: the starting player of a two-player game skips the first draw step, recorded as 103.8a', () => {
    const game = createGame({ players: ['A', 'B'] });
    const events: EmittedEvent[] = [];
    game.on('*', (e) => events.push(e));
    passUntil(game, 'main');
    expect(stepsBegun(events)).toEqual(['main']);
    expect(game.view().skippedThisTurn).toEqual([{ phase: 'beginning', step: 'draw', rule: '103.8a' }]);
    expect(game.view().handSizes.A).toBe(7);
  });

  it("508.8 'classic': no attackers skips the rest of the declare attackers step, straight to end of combat", () => {
    const game = createGame({ players: ['A', 'B'], rules: 'classic' });
    passUntil(game, 'declareAttackers');
    const events: EmittedEvent[] = [];
    game.on('*', (e) => events.push(e));
    expect(game.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [] })).toEqual({ ok: true });
    expect(game.view()).toMatchObject({ step: 'endOfCombat', priority: 'A' });
    expect(stepsBegun(events)).toEqual(['endOfCombat']);
  });

  it("614.10 'classic': a skipped combat phase stays skipped to its end, with no attackers declared", () => {
    const game = createGame({ players: ['A', 'B'], rules: 'classic' });
    game.send({ type: 'SKIP_NEXT', player: 'A', what: 'combat' });
    const events: EmittedEvent[] = [];
    game.on('*', (e) => events.push(e));
    passUntil(game, 'main');
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    expect(game.view()).toMatchObject({ phase: 'postcombatMain', step: 'main' });
    expect(stepsBegun(events)).toEqual(['main', 'main']);
    expect(game.view().skippedThisTurn).toContainEqual({ phase: 'combat', rule: '614.10' });
  });

  it('104.2a: a concession that leaves one player ends the game at once, with nothing else emitted', () => {
    const game = createGame({ players: ['A', 'B'] });
    game.send({ type: 'ADD_MANA', player: 'A', amount: 2 });
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    const events: EmittedEvent[] = [];
    game.on('*', (e) => events.push(e));
    expect(game.send({ type: 'CONCEDE', player: 'B' })).toEqual({ ok: true });
    expect(events).toEqual([
      { type: 'playerLeft', player: 'B' },
      { type: 'gameOver', winners: ['A'] },
    ]);
    expect(game.persist()).toMatchObject({ status: 'done', state: 'gameOver' });
    expect(game.view()).toMatchObject({ priority: null, awaiting: null, gameOver: { winners: ['A'] } });
  });

  it('800.4j: with three players the active player can leave and the turn goes on', () => {
    const game = createGame({ players: ['A', 'B', 'C'] });
    passUntil(game, 'declareAttackers');
    expect(game.send({ type: 'CONCEDE', player: 'A' })).toEqual({ ok: true });
    expect(game.view()).toMatchObject({ activePlayer: null, step: 'declareAttackers', priority: 'B', gameOver: null });
  });
});
