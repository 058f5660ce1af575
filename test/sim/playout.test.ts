/**
 * Issue 34, CONTRACT v4 "Simulation": `playout(game, { policy?, until?, seed? })` plays a game
 * forward in place: random legal actions by default, a policy's choices, or a card game's bot
 * (any game with `cards({ seat })` and a definition with `bot`); it stops at `until` (a partial
 * view), at the game's end, or at `maxEvents`.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type Game, type TurnView } from '../../src/index.js';
import { playout, stateHash, type CardBot, type Policy } from '../../src/sim/index.js';
import { allModules } from '../../src/allModules.js';

describe('playout (issue 34)', () => {
  it('plays in place to `until` (a partial view), the same for the same seed, differently for another', () => {
    const a = createGame({ players: ['A', 'B'], seed: 1 });
    const b = createGame({ players: ['A', 'B'], seed: 1 });
    const ra = playout(a, { until: { turn: 6 }, seed: 3 });
    const rb = playout(b, { until: { turn: 6 }, seed: 3 });
    expect(ra).toEqual(rb);
    expect(ra).toMatchObject({ stopped: 'until', turn: 6, winners: null });
    expect(a.view().turn).toBe(6);
    expect(stateHash(a)).toBe(stateHash(b));
    const others = [4, 5, 6, 7].map((seed) => {
      const g = createGame({ players: ['A', 'B'], seed: 1 });
      playout(g, { until: { turn: 6 }, seed, explore: 0.2, maxEvents: 3_000 });
      return stateHash(g);
    });
    expect(new Set([stateHash(a), ...others]).size).toBeGreaterThan(1);
  });

  it('matches a partial view field by field (objects in part, the rest whole)', () => {
    const game = createGame({ players: ['A', 'B'], seed: 2 });
    const r = playout(game, { until: { turn: 3, step: 'declareAttackers', awaiting: { kind: 'declareAttackers' } } });
    expect(r.stopped).toBe('until');
    expect(game.view()).toMatchObject({ turn: 3, step: 'declareAttackers', awaiting: { kind: 'declareAttackers' } });
  });

  it('plays to the game end with concessions allowed, and stops at maxEvents', () => {
    const game = createGame({ players: ['A', 'B', 'C'], seed: 4 });
    const r = playout(game, { seed: 4, allowConcede: true, explore: 0.5 });
    expect(r.stopped).toBe('gameOver');
    expect(r.winners).toHaveLength(1);
    const capped = createGame({ players: ['A', 'B'], seed: 4 });
    expect(playout(capped, { maxEvents: 25 })).toMatchObject({ stopped: 'maxEvents', events: 25 });
    expect(capped.view().version).toBe(25);
  });

  it('asks a policy with the view and the legal actions of the player who decides; its refused event stops the playout', () => {
    const seen: string[] = [];
    const policy: Policy = (view, actions, { player, fill }) => {
      expect(actions.length).toBeGreaterThan(0);
      expect(actions.every((a) => a.player === player)).toBe(true);
      seen.push(`${view.turn}:${player}`);
      const pass = actions.find((a) => a.type === 'PASS_PRIORITY') ?? (actions[0] as (typeof actions)[number]);
      return fill(pass);
    };
    const game = createGame({ players: ['A', 'B'], seed: 1 });
    expect(playout(game, { policy, until: { turn: 3 } }).stopped).toBe('until');
    expect(seen.length).toBeGreaterThan(4);
    const refused = playout(game, { policy: () => ({ type: 'PASS_PRIORITY', player: 'nobody' }) });
    expect(refused.stopped).toBe('refused');
    expect(refused.error?.code).toBe('INVALID_EVENT');
    expect(playout(game, { policy: () => undefined }).stopped).toBe('policy');
  });

  it("uses a card game's bot: the definition's bot(view, seen, player, random), seen being the player's cards view", () => {
    const inner = createGame({ players: ['A', 'B'], seed: 1 });
    const calls: { player: string; seen: unknown }[] = [];
    const bot: CardBot = (view: TurnView, seen, player, random) => {
      calls.push({ player, seen });
      expect(random.int(3)).toBeLessThan(3);
      expect(random.shuffle([1, 2, 3]).sort()).toEqual([1, 2, 3]);
      return view.awaiting?.kind === 'priority' ? { type: 'PASS_PRIORITY', player } : undefined;
    };
    // What mtg-turn-engine/cards gives a host, as playout reads it: a Game with cards({ seat }) and its definition.
    const cardGame = Object.assign(Object.create(null) as object, {
      definition: { bot },
      cards: ({ seat }: { seat: string }) => ({ hand: `${seat}'s hand` }),
      view: () => inner.view(),
      send: (e: unknown) => inner.send(e),
      legalActions: (p?: string) => inner.legalActions(p),
    }) as unknown as Game;
    expect(playout(cardGame, { until: { turn: 3 }, seed: 1 }).stopped).toBe('until');
    expect(calls.length).toBeGreaterThan(4);
    for (const c of calls) expect(c.seen).toEqual({ hand: `${c.player}'s hand` });
    expect(new Set(calls.map((c) => c.player))).toEqual(new Set(['A', 'B']));
  });

  it('plays Grand Melee through the general path (each turn marker awaiting a decision in turn)', () => {
    const game = createGame({ players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], variant: 'grandMelee', seed: 1, use: allModules });
    const r = playout(game, { until: { turn: 2 }, seed: 2, maxEvents: 5_000 });
    expect(r.stopped).toBe('until');
  });

  it('refuses bad options naming the field, playing nothing', () => {
    const game = createGame({ players: ['A', 'B'], seed: 1 });
    expect(() => playout(game, { until: 3 as never })).toThrow(/options\.until/);
    expect(() => playout(game, { policy: 'first' as never })).toThrow(/options\.policy/);
    expect(() => playout(game, { seed: Number.NaN })).toThrow(/options\.seed/);
    expect(() => playout(game, { maxEvents: -1 })).toThrow(/options\.maxEvents/);
    expect(() => playout(game, { explore: 2 })).toThrow(/options\.explore/);
    expect(() => playout({} as Game)).toThrow(/game/);
    expect(game.view().version).toBe(0);
  });
});
