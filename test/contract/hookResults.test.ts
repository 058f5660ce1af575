/**
 * What a checkpoint hook returns (CONTRACT "createGame", hooks.checkpoint; issue 22, point 3):
 * the hook is called synchronously, so a Promise or any other thenable is refused with
 * HOOK_FAILED saying so (not read as "nothing to report"); and an event it returns is refused
 * as the same event sent with `send` is: one naming a player who is not in the game, in any
 * field its record names (a trigger's controller, an attacker's defender, a stack object's
 * controller, an effect's players...), is HOOK_FAILED naming that field. Nothing changes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/contract.js';
import { DECISIONS, PLAYER_FIELDS, type EventType } from '../../src/events/index.js';
import { createGame, TurnEngineError, type Game } from '../../src/index.js';
import { SAMPLE_EVENTS, SAMPLE_PLAYERS, withField, type FieldPath } from '../support/sampleEvents.js';
import { allModules } from '../../src/allModules.js';

/** A game whose checkpoint hook returns whatever `result()` gives. */
function gameWithHook(): { game: Game; returns: (r: () => unknown) => void } {
  let result: () => unknown = () => undefined;
  const game = createGame({ players: SAMPLE_PLAYERS, use: allModules, hooks: { checkpoint: () => result() as never } });
  return { game, returns: (r) => void (result = r) };
}

const stateOf = (game: Game) => JSON.stringify([game.persist(), game.view()]);

/** The refusal of a PASS_PRIORITY whose checkpoint hook returns `result`; the game must be unchanged. */
function refusedWith(result: () => unknown): { code: string; message: string } {
  const { game, returns } = gameWithHook();
  const before = stateOf(game);
  returns(result);
  const r = game.send({ type: 'PASS_PRIORITY', player: 'A' });
  expect(stateOf(game)).toBe(before);
  if (r.ok) throw new Error('the send was accepted');
  return r.error;
}

describe('a hook that returns a Promise or a thenable is HOOK_FAILED: it must be synchronous', () => {
  let unhandled = 0;
  const count = () => void unhandled++;
  beforeEach(() => {
    unhandled = 0;
    process.on('unhandledRejection', count);
  });
  afterEach(() => {
    process.off('unhandledRejection', count);
  });

  it.each([
    ['a resolved Promise of triggers', () => Promise.resolve({ triggers: [{ id: 't', controller: 'A' }] })],
    ['a resolved Promise of nothing', () => Promise.resolve(undefined)],
    ['an async function', async () => ({ stateBasedActions: true })],
    ['a rejected Promise', () => Promise.reject(new Error('late failure'))],
    ['a thenable object', () => ({ then: (ok: (v: unknown) => void) => ok(undefined), triggers: [] })],
    ['a thenable function', () => Object.assign(() => undefined, { then: () => undefined })],
  ])('%s', async (_name, result) => {
    const error = refusedWith(result);
    expect(error.code).toBe('HOOK_FAILED');
    expect(error.message).toContain('must be synchronous');
    // The engine reported the Promise's failure as HOOK_FAILED: it is not an unhandled rejection as well.
    await new Promise((r) => setTimeout(r, 10));
    expect(unhandled).toBe(0);
  });

  it('a result whose `then` cannot be read is HOOK_FAILED', () => {
    const error = refusedWith(() =>
      Object.defineProperty({}, 'then', {
        get: () => {
          throw new Error('trap');
        },
      }),
    );
    expect(error).toEqual({ code: 'HOOK_FAILED', message: expect.stringContaining('result: could not be read (trap)') as unknown });
  });

  it('in createGame: TurnEngineError HOOK_FAILED', () => {
    let err: unknown;
    try {
      createGame({ players: SAMPLE_PLAYERS, hooks: { checkpoint: (async () => undefined) as never } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TurnEngineError);
    expect((err as TurnEngineError).code).toBe('HOOK_FAILED');
    expect((err as TurnEngineError).message).toContain('must be synchronous');
  });
});

/** Each field a host event's record names players in, as a path into its sample event (`triggers[].controller` -> triggers.0.controller). */
const HOST_PLAYER_FIELDS: [EventType, string, FieldPath][] = (Object.keys(SAMPLE_EVENTS) as EventType[])
  .filter((type) => !DECISIONS.has(type))
  .flatMap((type) =>
    PLAYER_FIELDS[type].map((f): [EventType, string, FieldPath] => {
      const path: FieldPath = [f.key];
      if (f.list === 'items') path.push(0);
      if (f.sub !== undefined) path.push(f.sub);
      if (f.list === 'ids') path.push(0);
      return [type, f.path, path];
    }),
  );

describe('an event a hook returns naming a player who is not in the game is refused as send refuses it', () => {
  it('covers every player field of every host event', () => {
    expect(HOST_PLAYER_FIELDS.map(([type, field]) => `${type} ${field}`)).toEqual(
      expect.arrayContaining(['TRIGGER triggers[].controller', 'ADD_ATTACKER defender', 'PUT_ON_STACK object.controller', 'ADD_EFFECT effect.players[]', 'ADD_EFFECT duration.ofPlayer', 'CONTROL_PLAYER controller']),
    );
  });

  it.each(HOST_PLAYER_FIELDS)('%s %s', (type, _field, path) => {
    const event = withField(SAMPLE_EVENTS[type as keyof typeof SAMPLE_EVENTS], path, 'mallory') as unknown as TurnEvent;
    // Sent: INVALID_EVENT naming the field.
    const sent = createGame({ players: SAMPLE_PLAYERS, use: allModules }).send(event);
    expect(sent.ok).toBe(false);
    if (sent.ok) return;
    expect(sent.error.code).toBe('INVALID_EVENT');
    const field = sent.error.message.replace(/^event\./, '');
    // Returned by the hook: HOOK_FAILED with the same message, under result.events[0].
    const returned = refusedWith(() => ({ events: [event] }));
    expect(returned.code).toBe('HOOK_FAILED');
    expect(returned.message).toContain(`result.events[0].${field}`);
  });

  it("the hook's own triggers are checked the same way", () => {
    expect(refusedWith(() => ({ triggers: [{ id: 't1', controller: 'A' }, { id: 't2', controller: 'mallory' }] }))).toEqual({
      code: 'HOOK_FAILED',
      message: "result.triggers[1].controller: 'mallory' is not a player of this game",
    });
  });
});
