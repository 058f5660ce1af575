/**
 * CR 732, taking shortcuts (card-agnostic, CONTRACT v3 "Playing between people", "Shortcuts"):
 * 732.2a the player with priority proposes a sequence ending where a player has priority;
 * 732.2b each other player, in turn order, accepts it or shortens it to an earlier point;
 * 732.2c the shortcut is taken: the game advances to the agreed point, where the player who
 * then has priority is asked.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type EmittedEvent, type Game, type TurnEvent } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';

function accepted(game: Game, event: TurnEvent): EmittedEvent[] {
  const result = game.send(event);
  if (!result.ok) throw new Error(`${JSON.stringify(event)} refused: ${result.error.message}`);
  return result.events;
}

const refusal = (game: Game, event: unknown) => {
  const result = game.send(event);
  return result.ok ? 'accepted' : result.error;
};

const where = (game: Game) => {
  const v = game.view();
  return { turn: v.turn, step: v.step, awaiting: v.awaiting };
};

describe('CR 732.2a: the player with priority suggests a shortcut', () => {
  it('from the player holding priority: another player is refused (732.2a)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'B', until: { step: 'end' } })).toEqual({
      code: 'ILLEGAL_ACTION',
      message: 'B cannot propose a shortcut: A holds priority (CR 732.2a: the player with priority proposes)',
      rule: '732.2a',
    });
  });

  it('with an empty stack: a spell on the stack refuses it (732.2a: no conditional actions, each pass would resolve something)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 's', speed: 'instant' });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2a', message: expect.stringMatching(/with objects on the stack/) });
  });

  it('ending where a player has priority: not the untap or cleanup step, a step of the phase named (INVALID_EVENT naming the field)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'untap' } })).toMatchObject({ code: 'INVALID_EVENT', message: expect.stringMatching(/^PROPOSE_SHORTCUT: event\.until\.step: must be a step with priority/) });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'cleanup' } })).toMatchObject({ code: 'INVALID_EVENT' });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { phase: 'combat', step: 'upkeep' } })).toMatchObject({ code: 'INVALID_EVENT', message: expect.stringMatching(/^PROPOSE_SHORTCUT: event\.until\.step: is not a step of the phase given/) });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end', player: 'Z' } })).toMatchObject({ code: 'INVALID_EVENT', message: "event.until.player: 'Z' is not a player of this game" });
  });

  it('a sequence from here on: a point already passed, or a turn over, is refused (732.2a)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    accepted(game, { type: 'PASS_PRIORITY', player: 'B' }); // turn 1's main phase
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 1, step: 'upkeep' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2a', message: expect.stringMatching(/^until: that point of turn 1 has passed/) });
    // Without a turn, the next upkeep: turn 2's.
    expect(game.check({ type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'upkeep' } })).toEqual({ ok: true });
  });

  it('the proposer need not name themselves: the point may be another player\'s priority, in a later turn (732.2a)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 2, step: 'upkeep', player: 'A' } });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    // Turn 1's combat asks A's attackers first (a declaration is due): the shortcut stops there.
    expect(where(game)).toEqual({ turn: 1, step: 'declareAttackers', awaiting: { kind: 'declareAttackers', player: 'A', defenders: ['B'] } });
  });
});

describe('CR 732.2b: each other player, in turn order, accepts or shortens it', () => {
  it('in turn order from the active player: B, then C; an answer out of turn is refused', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' }); // B holds priority
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'B', until: { step: 'end' } });
    expect(game.view().awaiting).toEqual({ kind: 'shortcut', player: 'A', proposer: 'B', until: { step: 'end' } });
    expect(refusal(game, { type: 'ACCEPT_SHORTCUT', player: 'C' })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b', message: expect.stringMatching(/^A is asked about B's shortcut now, not C/) });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'A' });
    expect(game.view().awaiting).toMatchObject({ kind: 'shortcut', player: 'C' });
  });

  it('shortening names an earlier point, which becomes the new ending point', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    accepted(game, { type: 'PASS_PRIORITY', player: 'B' }); // main phase, A holds priority
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end', player: 'B' } });
    const events = accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'beginningOfCombat', player: 'B' } });
    expect(where(game)).toEqual({ turn: 1, step: 'beginningOfCombat', awaiting: { kind: 'priority', player: 'B' } });
    expect(events.filter((e) => e.type === 'autoPass').map((e) => [e.player, e.step])).toEqual([
      ['A', 'main'],
      ['B', 'main'],
      ['A', 'beginningOfCombat'],
    ]);
  });

  it('a later point does not shorten it: refused (732.2b), and the vote stands', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'main' } });
    expect(refusal(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b', message: expect.stringMatching(/comes after the one proposed/) });
    expect(refusal(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { turn: 2, step: 'upkeep' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b' });
    expect(game.view().awaiting).toMatchObject({ kind: 'shortcut', player: 'B', until: { step: 'main' } });
    // The same point is accepted as it is.
    accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'main' } });
    expect(where(game)).toEqual({ turn: 1, step: 'main', awaiting: { kind: 'priority', player: 'A' } });
  });

  it('a shortened point stands for the players asked after (C may shorten it further, not lengthen it back)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'draw', player: 'C' } });
    expect(game.view().awaiting).toEqual({ kind: 'shortcut', player: 'C', proposer: 'A', until: { step: 'draw', player: 'C' } });
    expect(refusal(game, { type: 'SHORTEN_SHORTCUT', player: 'C', until: { step: 'end' } })).toMatchObject({ rule: '732.2b' });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'C' });
    expect(where(game)).toEqual({ turn: 1, step: 'draw', awaiting: { kind: 'priority', player: 'C' } });
  });
});

describe('CR 732.2c: the shortcut is taken; the player who then has priority is asked', () => {
  it('at the agreed point the player is asked, whatever their stops say', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'SET_STOPS', player: 'B', stops: [] }); // B would pass every empty-stack priority
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'upkeep', turn: 1, player: 'B' } });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(where(game)).toEqual({ turn: 1, step: 'upkeep', awaiting: { kind: 'priority', player: 'B' } });
  });
});
