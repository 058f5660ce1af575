/**
 * persist() and restoreGame with the compact format (format 3, src/persistence/compact.ts;
 * CONTRACT "Game": `JSON.parse(JSON.stringify(game.persist()))` restores): in random games of
 * every setup of the lockstep test (test/runtime/lockstep.ts setupOf: every variant and era,
 * with and without the pregame, ranges of influence, players ordering their triggers), the game
 * restored from the JSON of its persist() has the original's view, legal actions, snapshot and
 * future (the same answers, emitted events, views and snapshots for the same events); and
 * nothing the snapshot writes is at its default value.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type Game, type GameOptions, type TurnEvent } from '../../src/index.js';
import { expandPersisted } from '../../src/persistence/compact.js';
import { seededRandom } from '../../src/simulation.js';
import { setupOf } from '../runtime/lockstep.js';
import { fill, hostEvent, playRandom, refusedEvent, sharesTurns } from './harness.js';
import { allModules } from '../../src/allModules.js';

type Json = Record<string, unknown>;

/** The setups of the lockstep test that make a game (a Grand Melee game of six is refused: CR 807.1), three of each kind. */
const SETUPS = Array.from({ length: 27 }, (_, n) => setupOf(n)).filter((s) => {
  try {
    createGame({ use: allModules, ...s });
    return true;
  } catch {
    return false;
  }
});

/** The next event of a game: mostly a legal decision, sometimes a host event or one the engine refuses. */
function nextEvent(game: Game, options: GameOptions, r: () => number, i: number): unknown {
  const view = game.view();
  const roll = r();
  if (roll < 0.15) return hostEvent(view, r, 50_000 + i);
  if (roll < 0.2) return refusedEvent(view, r);
  const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
  if (actions.length === 0) return { type: 'CONCEDE', player: view.players[0] };
  const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
  return fill(pass !== undefined && r() < 0.7 ? pass : actions[Math.floor(r() * actions.length)]!, view, r, 50_000 + i, sharesTurns(options));
}

/** The fields a compact snapshot writes at their default values: leaving one out must change what it is read as. */
function writtenAtDefault(persisted: Json): string[] {
  const full = JSON.stringify(expandPersisted(persisted));
  const without = (path: (string | number)[]) => {
    const copy = structuredClone(persisted);
    const parent = path.slice(0, -1).reduce<Json>((v, k) => v[k] as Json, copy);
    delete parent[path[path.length - 1] as string];
    try {
      return JSON.stringify(expandPersisted(copy));
    } catch (err) {
      // A field without a default (the seats, read by the lists in seat order).
      return String(err);
    }
  };
  const paths: (string | number)[][] = ['seq', 'status'].filter((k) => k in persisted).map((k) => [k]);
  if (persisted.context !== undefined) for (const k of Object.keys(persisted.context as Json)) paths.push(['context', k]);
  for (const [i, m] of ((persisted.markers ?? []) as Json[]).entries()) {
    for (const k of ['life', 'removals'].filter((f) => f in m)) paths.push(['markers', i, k]);
    for (const k of Object.keys(m.context as Json)) paths.push(['markers', i, 'context', k]);
  }
  return paths.filter((p) => without(p) === full).map((p) => p.join('.'));
}

describe('persist() and restoreGame: the compact format restores the same game', () => {
  it('covers every variant', () => {
    expect(new Set(SETUPS.map((s) => s.variant ?? 'freeForAll'))).toEqual(new Set(['freeForAll', 'twoHeadedGiant', 'archenemy', 'emperor', 'grandMelee', 'planechase']));
  });

  it.each(SETUPS.map((s) => [`${s.variant ?? 'freeForAll'} ${s.players.length}p ${s.rules}${s.pregame === true ? ' pregame' : ''} (seed ${s.seed})`, s] as const))(
    '%s: the same view, legal actions, snapshot and future, at every point saved',
    (_name, setup) => {
      const r = seededRandom(setup.seed + 77);
      let { game } = playRandom(setup, Math.floor(r() * 60));
      let saves = 0;
      for (let round = 0; round < 6; round++) {
        const saved = JSON.stringify(game.persist());
        const restored = restoreGame(JSON.parse(saved), { use: allModules });
        saves++;
        expect(restored.view()).toEqual(game.view());
        expect(restored.legalActions()).toEqual(game.legalActions());
        expect(JSON.stringify(restored.persist())).toBe(saved);
        expect(writtenAtDefault(JSON.parse(saved) as Json)).toEqual([]);
        if (game.view().gameOver !== null) break;
        // The same events to both: the same answers, emitted events, views, actions and snapshots.
        const emitted: [EmittedEvent[], EmittedEvent[]] = [[], []];
        game.on('*', (e) => emitted[0].push(e));
        restored.on('*', (e) => emitted[1].push(e));
        for (let k = 0; k < 25 && game.view().gameOver === null; k++) {
          const event = nextEvent(game, setup, r, round * 100 + k);
          const a = game.send(event as TurnEvent);
          expect(restored.send(event as TurnEvent), JSON.stringify(event)).toEqual(a);
          expect(restored.view()).toEqual(game.view());
          expect(restored.legalActions()).toEqual(game.legalActions());
          expect(JSON.stringify(restored.persist())).toBe(JSON.stringify(game.persist()));
        }
        expect(emitted[1]).toEqual(emitted[0]);
        game = restored;
      }
      expect(saves).toBeGreaterThan(0);
    },
  );
});
