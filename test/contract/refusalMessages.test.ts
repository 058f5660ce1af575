/**
 * Every refusal names the field and what it must be (issue 22, point 5; CONTRACT: the message
 * names the field): zod/mini's bare "Invalid input" never reaches a host. Every field of every
 * event record, of createGame's options and of a checkpoint hook's result is given bad values
 * (missing, of each wrong type, out of range, not an integer, not one of the allowed values, too
 * long, an empty or overlong list); each refusal names the field (or the list or object it is
 * in) and says what the field must be: the type, the bound, or the allowed values.
 */
import { describe, expect, it } from 'vitest';
import { createGame, TurnEngineError } from '../../src/index.js';
import { parseEvent } from '../../src/schemas.js';
import { SAMPLE_EVENTS, SAMPLE_PLAYERS, fieldPaths, pathName, withField, type FieldPath } from '../support/sampleEvents.js';
import { allModules } from '../../src/allModules.js';

const REMOVED = Symbol('removed');
const BAD_VALUES: unknown[] = [REMOVED, undefined, null, true, 0, -1, 1.5, Number.NaN, 10_000_000, Number.MAX_SAFE_INTEGER + 2, '', 'bogus', 'x'.repeat(300), [], ['bogus'], {}, { kind: 'bogus' }];

/** What any message must do: no zod default, no fallback; a field, then what it must be. */
function expectDescriptive(message: string, where: string): void {
  expect(message, where).not.toContain('Invalid input');
  expect(message, where).not.toContain('is not valid');
  expect(message, where).toMatch(/^([A-Z_]+: )?(event|options|result)[\w.[\]]*: \S.{8,}/);
}

/** The field a message names: what comes before its first ": " (after the event type). */
const namedField = (message: string) => message.replace(/^[A-Z_]+: /, '').split(': ')[0] as string;

/** Whether the named field is the spoilt one, a field in it, or the list or object it is in. */
const related = (named: string, spoilt: string) => named === spoilt || spoilt.startsWith(`${named}.`) || spoilt.startsWith(`${named}[`) || named.startsWith(`${spoilt}.`) || named.startsWith(`${spoilt}[`);

const spoil = (base: object, path: FieldPath, bad: unknown) => (bad === REMOVED ? withField(base, path, undefined, true) : withField(base, path, bad));

describe('event refusals name the field and what it must be', () => {
  const cases = Object.entries(SAMPLE_EVENTS).flatMap(([type, sample]) => fieldPaths(sample).map((path): [string, FieldPath] => [type, path]));

  it.each(cases.map(([type, path]) => [`${type} ${pathName('event', path)}`, type, path] as const))('%s', (_name, type, path) => {
    let refused = 0;
    for (const bad of BAD_VALUES) {
      const result = parseEvent(spoil(SAMPLE_EVENTS[type as keyof typeof SAMPLE_EVENTS], path, bad));
      if (result.ok) continue;
      refused++;
      const where = `${type} ${pathName('event', path)} = ${String(bad === REMOVED ? 'removed' : JSON.stringify(bad))}: ${result.message}`;
      expect(result.message.startsWith(`${type}: event.`), where).toBe(true);
      expectDescriptive(result.message, where);
      expect(related(namedField(result.message), pathName('event', path)), where).toBe(true);
    }
    // Every field refuses some of the bad values.
    expect(refused).toBeGreaterThan(0);
  });

  it.each([
    [{ type: 'HAND_SIZE', player: 'A', size: -1 }, 'HAND_SIZE: event.size: must be an integer from 0 to 1000000, got -1'],
    [{ type: 'TRIGGER', triggers: [] }, 'TRIGGER: event.triggers: must have at least 1 entry'],
    [{ type: 'ADD_MANA', player: 'A', amount: 1.5 }, 'ADD_MANA: event.amount: must be an integer from 0 to 1000000, got 1.5'],
    [{ type: 'CAST_SPELL', player: 'A', id: 's', speed: 'fast' }, "CAST_SPELL: event.speed: must be one of 'sorcery', 'instant', got 'fast'"],
    [{ type: 'PASS_PRIORITY' }, 'PASS_PRIORITY: event.player: is missing (it must be a string)'],
    [{ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'c', defender: 7 }] }, 'DECLARE_ATTACKERS: event.attackers[0].defender: must be a string, got 7'],
    [{ type: 'SET_STOPS', player: 'A', stops: Array.from({ length: 65 }, () => ({ step: 'upkeep', turn: 'own' })) }, 'SET_STOPS: event.stops: must have at most 64 entries, got a list of 65 entries'],
    [{ type: 'ADD_EFFECT', id: 'e', effect: { kind: 'haste' } }, "ADD_EFFECT: event.effect.kind: must be one of 'skip', 'maxHandSize', 'landPlays', 'spellLimit', 'keepMana', got 'haste'"],
    [{ type: 'ADD_EFFECT', id: 'e', effect: { kind: 'keepMana' }, duration: 'forever' }, "ADD_EFFECT: event.duration: must be one of 'untilRemoved', 'endOfTurn', 'endOfCombat', 'untilYourNextTurn', or an object, got 'forever'"],
    [{ type: 'CONCEDE', player: 'x'.repeat(300) }, 'CONCEDE: event.player: must be at most 256 characters long, got a string of 300 characters'],
  ])('%j: %s', (event, message) => {
    expect(parseEvent(event)).toEqual({ ok: false, message });
  });
});

/** createGame's options with every field given. */
const FULL_OPTIONS = {
  players: ['A', 'B', 'C', 'D'],
  startingPlayer: 'A',
  rules: 'current',
  maxHandSize: 7,
  handSize: 7,
  attack: 'all',
  orderTriggers: 'host',
  pregame: false,
  variant: 'twoHeadedGiant',
  teams: [
    { id: 't1', players: ['A', 'B'] },
    { id: 't2', players: ['C', 'D'] },
  ],
  rangeOfInfluence: 2,
  seed: 1,
};

function optionsMessage(options: unknown): string | null {
  try {
    createGame(options as never);
    return null;
  } catch (err) {
    if (!(err instanceof TurnEngineError)) throw err;
    expect(err.code).toBe('INVALID_OPTIONS');
    return err.message;
  }
}

describe('option refusals name the option and what it must be', () => {
  it.each(fieldPaths(FULL_OPTIONS).map((path) => [pathName('options', path), path] as const))('%s', (_name, path) => {
    let refused = 0;
    for (const bad of BAD_VALUES) {
      const message = optionsMessage(spoil(FULL_OPTIONS, path, bad));
      if (message === null) continue;
      refused++;
      const where = `${pathName('options', path)} = ${String(bad === REMOVED ? 'removed' : JSON.stringify(bad))}: ${message}`;
      expect(message.startsWith('options'), where).toBe(true);
      expectDescriptive(message, where);
    }
    expect(refused).toBeGreaterThan(0);
  });

  it.each([
    [{ players: ['A', 'B'], rules: 'modern' }, "options.rules: must be one of 'current', 'm10', 'classic', got 'modern'"],
    [{ players: ['A', 'B'], maxHandSize: -1 }, 'options.maxHandSize: must be an integer from 0 to 1000000, got -1'],
    [{ players: ['A'] }, 'options.players: needs 2 to 64 players'],
    [{ players: ['A', 'B'], variant: 'commander' }, "options.variant: must be one of 'freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'planechase', 'grandMelee', got 'commander'"],
    [{ players: ['A', 'B'], seed: 'one' }, "options.seed: must be a number, got 'one'"],
  ])('%j: %s', (options, message) => {
    expect(optionsMessage(options)).toBe(message);
  });
});

describe('hook result refusals name the field and what it must be', () => {
  const refusal = (result: unknown) => {
    // Nothing while the game is made, then `result`.
    const answer: { now: unknown } = { now: undefined };
    const game = createGame({ use: allModules, players: SAMPLE_PLAYERS, hooks: { checkpoint: () => answer.now as never } });
    answer.now = result;
    return game.send({ type: 'PASS_PRIORITY', player: 'A' });
  };

  it.each([
    [{ triggers: 'many' }, 'result.triggers: must be a list, got'],
    [{ triggers: [{ id: 't' }] }, 'result.triggers[0].controller: is missing (it must be a string)'],
    [{ stateBasedActions: 'yes' }, "result.stateBasedActions: must be a boolean, got 'yes'"],
    [{ events: [{ type: 'ADD_MANA', player: 'A', amount: -2 }] }, 'result.events[0]: ADD_MANA: event.amount: must be an integer from 0 to 1000000, got -2'],
    [7, 'result: must be an object, got 7'],
  ])('%j', (result, message) => {
    const r = refusal(result);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('HOOK_FAILED');
      expect(r.error.message).toContain(message);
      expectDescriptive(r.error.message.split('; ')[1] as string, JSON.stringify(result));
    }
  });
});
