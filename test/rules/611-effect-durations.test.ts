/**
 * CR 611.2b: an effect that lasts "until your next turn" ends as its controller's next turn
 * begins, so it cannot be without a controller. CONTRACT v3: an event that lacks a field another
 * of its fields requires (the `controller` of an 'untilYourNextTurn' effect) is malformed whatever
 * the state: INVALID_EVENT from `send` (even once the game is over), HOOK_FAILED from a hook.
 */
import { describe, expect, it } from 'vitest';
import { createGame } from '../../src/index.js';

const WITHOUT_CONTROLLER = { type: 'ADD_EFFECT', id: 'e1', effect: { kind: 'keepMana' }, duration: 'untilYourNextTurn' } as const;
const MESSAGE = "ADD_EFFECT: event.controller: is required with duration 'untilYourNextTurn' (CR 611.2b)";

describe("611.2b: an 'untilYourNextTurn' effect needs a controller (a schema failure)", () => {
  it('without a controller: INVALID_EVENT naming the field it lacks, and nothing changes', () => {
    const game = createGame({ players: ['A', 'B'] });
    const before = JSON.stringify(game.persist());
    expect(game.send(WITHOUT_CONTROLLER)).toEqual({ ok: false, error: { code: 'INVALID_EVENT', message: MESSAGE } });
    expect(JSON.stringify(game.persist())).toBe(before);
    expect(game.send({ ...WITHOUT_CONTROLLER, controller: 'A' }).ok).toBe(true);
  });

  it('malformed whatever the state: INVALID_EVENT, not GAME_OVER, once the game is over', () => {
    const game = createGame({ players: ['A', 'B'] });
    expect(game.send({ type: 'CONCEDE', player: 'B' }).ok).toBe(true);
    expect(game.send(WITHOUT_CONTROLLER)).toEqual({ ok: false, error: { code: 'INVALID_EVENT', message: MESSAGE } });
    expect(game.send({ ...WITHOUT_CONTROLLER, controller: 'A' })).toMatchObject({ ok: false, error: { code: 'GAME_OVER' } });
  });

  it('returned by the checkpoint hook: HOOK_FAILED with the same message', () => {
    let events: unknown[] = [];
    const game = createGame({ players: ['A', 'B'], hooks: { checkpoint: () => ({ events: events as never }) } });
    events = [WITHOUT_CONTROLLER];
    const result = game.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED', message: expect.stringContaining(`result.events[0]: ${MESSAGE}`) as unknown } });
  });
});

describe('the schedule counts only the skips still in force when each turn comes (CONTRACT: TurnView.schedule)', () => {
  const durations = [
    ['endOfTurn (514.2)', { duration: 'endOfTurn' }],
    ["until B's next turn (611.2b)", { duration: 'untilYourNextTurn', controller: 'B' }],
    ["until B's next upkeep", { duration: { untilStep: 'upkeep', ofPlayer: 'B' } }],
  ] as const;
  it.each(durations)('a skip of C\'s turns lasting %s: C\'s turn after it is taken, and the schedule says so', (_name, timing) => {
    const game = createGame({ players: ['A', 'B', 'C'] });
    expect(game.send({ type: 'ADD_EFFECT', id: 'e', effect: { kind: 'skip', what: 'turn', players: ['C'] }, ...timing } as never).ok).toBe(true);
    const scheduled = game.view().schedule.turns.map((t) => `${t.player}${t.skipped ? ' (skipped)' : ''}`);
    expect(scheduled).toEqual(['B', 'C', 'A', 'B']);
    const taken: string[] = [];
    game.on('turnBegan', (e) => void taken.push(e.activePlayer as string));
    for (let i = 0; i < 400 && taken.length < 3; i++) {
      const v = game.view();
      const a = v.awaiting;
      if (a === null) break;
      game.send(a.kind === 'declareAttackers' ? { type: 'DECLARE_ATTACKERS', player: a.player, attackers: [] } : a.kind === 'discard' ? { type: 'DISCARD', player: a.player, count: a.count } : { type: 'PASS_PRIORITY', player: a.player });
    }
    expect(taken).toEqual(['B', 'C', 'A']);
  });

  it("a skip lasting until removed still marks every one of C's turns", () => {
    const game = createGame({ players: ['A', 'B', 'C'] });
    game.send({ type: 'ADD_EFFECT', id: 'e', effect: { kind: 'skip', what: 'turn', players: ['C'] } });
    expect(game.view().schedule.turns.filter((t) => t.player === 'C').every((t) => t.skipped)).toBe(true);
  });
});
