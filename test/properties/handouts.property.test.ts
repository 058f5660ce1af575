/**
 * Nothing a host does to what the engine hands it changes the game (issue 22, point 4): the
 * events listeners get (the stack object of `resolve` and `removedFromStack`, the lists of
 * `combatDamage` and `gameOver`), the events `send` returns, the checkpoint hook's view and
 * pending events, the results the hook returned and the events it sent, the views and
 * snapshots. Two games play the same random events with the same hook answers; in one, every
 * listener, the hook and the host mutate everything they were handed, at every level. Both must
 * persist and show the same game after every event.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createGame, type CheckpointResult, type Game, type GameOptions, type TurnView } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, hostEvent, setupArb, sharesTurns } from './harness.js';
import { assertProperty } from './seeds.js';
import { allModules } from '../../src/allModules.js';

/** Changes everything in a value, at every level: strings, numbers, booleans, keys, list entries. Frozen parts are left (their writes throw). */
function vandalise(value: unknown, depth = 0): void {
  if (typeof value !== 'object' || value === null || depth > 8) return;
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const v = o[key];
    vandalise(v, depth + 1);
    try {
      if (typeof v === 'string') o[key] = `${v}-HACKED`;
      else if (typeof v === 'number') o[key] = v + 1000;
      else if (typeof v === 'boolean') o[key] = !v;
    } catch {
      // A frozen part (getSnapshot's view): the write throws, nothing changes.
    }
  }
  try {
    if (Array.isArray(o)) {
      o.push('HACKED');
      o.reverse();
    } else {
      o.hacked = true;
    }
  } catch {
    // Frozen.
  }
}

/** The hook's answer to a check, the same for both games: a trigger after some steps begin, else nothing. */
function answer(pending: readonly { type: string; step?: string }[], calls: number): CheckpointResult | undefined {
  const began = pending.find((e) => e.type === 'stepBegan');
  if (began === undefined || calls % 3 !== 0) return undefined;
  return { triggers: [{ id: `t${calls}`, controller: 'A' }], ...(calls % 2 === 0 ? { events: [{ type: 'ADD_EFFECT', id: `h${calls}`, effect: { kind: 'landPlays', change: 1, players: ['A'] }, duration: 'endOfTurn' }] } : {}) };
}

/** A game whose hook answers as {@link answer}; `hostile`: the hook vandalises its view, its pending events and its earlier results, and every listener its events. */
function makeGame(options: GameOptions, hostile: boolean): Game {
  let calls = 0;
  const returned: unknown[] = [];
  const checkpoint = (view: TurnView, pending: readonly { type: string; step?: string }[]) => {
    const result = answer(pending, calls++);
    if (hostile) {
      vandalise(view);
      vandalise(pending);
      for (const r of returned.splice(0)) vandalise(r);
      if (result !== undefined) returned.push(result);
    }
    return result;
  };
  const game = createGame({ use: allModules, ...options, hooks: { checkpoint } });
  if (hostile) {
    game.on('*', (e) => vandalise(e));
    game.on('resolve', (e) => vandalise(e.object));
    game.on('removedFromStack', (e) => vandalise(e.object));
  }
  return game;
}

/** Only games with a stack and combat: the events with nested parts are theirs (Grand Melee's markers are not needed here). */
const setups = setupArb.filter((s) => s.variant !== 'grandMelee');

describe('what the engine hands out is the host’s: changing it changes nothing in the game', () => {
  it('listeners, the hook and the host vandalise every event, view, result and snapshot: the game persists as its twin does', () => {
    let compared = 0;
    let nested = 0;
    assertProperty(
      fc.property(setups, (setup) => {
        const { seed, ...options } = setup;
        const plain = makeGame({ ...options, seed }, false);
        const hostile = makeGame({ ...options, seed }, true);
        const r = seededRandom(seed + 7);
        for (let i = 0; i < 150 && plain.view().gameOver === null; i++) {
          const view = plain.view();
          const actions = plain.legalActions().filter((a) => a.type !== 'CONCEDE');
          const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
          const event = r() < 0.8 && actions.length > 0 ? fill(pass !== undefined && r() < 0.7 ? pass : (actions[Math.floor(r() * actions.length)] as (typeof actions)[number]), view, r, i, sharesTurns(options)) : hostEvent(view, r, i);
          const sent = structuredClone(event);
          const a = plain.send(event);
          const b = hostile.send(sent);
          expect(b.ok, JSON.stringify(event)).toBe(a.ok);
          // The host vandalises the event it sent, what send returned, the views and the frozen snapshot.
          vandalise(sent);
          if (b.ok) {
            nested += b.events.filter((e) => 'object' in e || 'creatures' in e || 'winners' in e).length;
            vandalise(b.events);
          }
          vandalise(hostile.view());
          vandalise(hostile.getSnapshot());
          vandalise(hostile.legalActions());
          vandalise(hostile.persist());
          expect(JSON.stringify(hostile.persist()), `after ${JSON.stringify(event)}`).toBe(JSON.stringify(plain.persist()));
          expect(hostile.view()).toEqual(plain.view());
          compared++;
        }
      }),
      { numRuns: 25 },
    );
    expect(compared).toBeGreaterThan(1000);
    // Events with nested parts (resolve, removedFromStack, combatDamage, gameOver) were among those vandalised.
    expect(nested).toBeGreaterThan(20);
  });

  it('a listener of removedFromStack that changes the stack object changes neither persist() nor a later getSnapshot()', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    game.send({ type: 'CAST_SPELL', player: 'A', id: 's1', speed: 'instant' });
    game.on('removedFromStack', (e) => {
      e.object.id = 'changed';
      e.object.controller = 'B';
    });
    const result = game.send({ type: 'REMOVE_FROM_STACK', id: 's1' });
    const persisted = JSON.stringify(game.persist());
    expect(persisted).toContain('"removedFromStack"');
    expect(persisted).not.toContain('changed');
    // And the events send returned are the host's too.
    if (result.ok) for (const e of result.events) if (e.type === 'removedFromStack') e.object.id = 'changed again';
    expect(JSON.stringify(game.persist())).toBe(persisted);
  });
});
