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
