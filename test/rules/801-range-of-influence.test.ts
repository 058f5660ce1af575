/**
 * Range of influence and Grand Melee's priority circles (CR 801.2, 807.5a), made linear and
 * remembered by seating (issue 21, point 8): each agrees with the definition it replaced, on
 * seeded random seatings, ranges, stacks and players who left.
 */
import { describe, expect, it } from 'vitest';
import type { PlayerId, StackObject } from '../../src/contract.js';
import type { TurnContext } from '../../src/state.js';
import { attackableOpponents, areOpponents, influenceOf, seatDistance, withinRange } from '../../src/rules/teams.js';
import { priorityPlayers } from '../../src/rules/grandMelee.js';
import { nextPlayerAfter } from '../../src/rules/turnOrder.js';
import { seededRandom } from '../../src/simulation.js';
import { SHARED_FIELDS, sameShared, sharedOf } from '../../src/grandMelee/coordinator.js';

/** The definitions before issue 21: every pair of players looked at. */
const reference = {
  influenceOf(ctx: Pick<TurnContext, 'players' | 'ranges'>): Record<PlayerId, PlayerId[]> | null {
    if (ctx.ranges === null) return null;
    const out: Record<PlayerId, PlayerId[]> = {};
    for (const p of ctx.players) {
      const range = ctx.ranges[p];
      out[p] = ctx.players.filter((q) => range === undefined || seatDistance(ctx, p, q) <= range);
    }
    return out;
  },
  priorityPlayers(ctx: Pick<TurnContext, 'variant' | 'players' | 'influence' | 'turnOwner' | 'stack' | 'seats'>): PlayerId[] {
    const marker = ctx.players.includes(ctx.turnOwner) ? ctx.turnOwner : nextPlayerAfter(ctx, ctx.turnOwner);
    return ctx.players.filter((p) => (marker !== null && withinRange(ctx, p, marker)) || ctx.stack.some((o) => ctx.players.includes(o.controller) && withinRange(ctx, p, o.controller)));
  },
  attackableOpponents(ctx: Pick<TurnContext, 'players' | 'teams' | 'influence' | 'variant'>, player: PlayerId): PlayerId[] {
    return ctx.players.filter((p) => areOpponents(ctx, player, p) && withinRange(ctx, player, p) && (ctx.variant !== 'emperor' || seatDistance(ctx, player, p) === 1));
  },
};

type Random = () => number;
const pick = <T>(r: Random, list: readonly T[]): T => list[Math.floor(r() * list.length)] as T;

/** A random seating: 1 to 20 seats, some players gone, ranges of 1 to 6 (or none, for some), influence fixed when the turn began. */
function seating(r: Random) {
  const seats = Array.from({ length: 1 + Math.floor(r() * 20) }, (_, i) => `P${i}`);
  const ranges: Record<PlayerId, number> = {};
  const one = 1 + Math.floor(r() * 6);
  for (const p of seats) if (r() < 0.9) ranges[p] = r() < 0.7 ? one : 1 + Math.floor(r() * 6);
  const atTurnStart = seats.filter(() => r() < 0.9);
  const players = atTurnStart.filter(() => r() < 0.9);
  return { seats, ranges, atTurnStart, players };
}

describe('range of influence (CR 801.2) remembered by seating (issue 21, point 8)', () => {
  it('influenceOf agrees with the pairwise definition on 2,000 random seatings', () => {
    const r = seededRandom(801);
    for (let i = 0; i < 2000; i++) {
      const { players, ranges } = seating(r);
      expect(influenceOf({ players, ranges }), JSON.stringify({ players, ranges })).toEqual(reference.influenceOf({ players, ranges }));
    }
  });

  it('is the same frozen record for the same seating, made once', () => {
    const players = Array.from({ length: 64 }, (_, i) => `P${i}`);
    const ranges = Object.fromEntries(players.map((p) => [p, 1]));
    const a = influenceOf({ players, ranges });
    expect(influenceOf({ players: [...players], ranges: { ...ranges } })).toBe(a);
    expect(Object.isFrozen(a) && Object.values(a ?? {}).every(Object.isFrozen)).toBe(true);
    expect(influenceOf({ players: players.slice(1), ranges })).not.toBe(a);
    expect(influenceOf({ players, ranges: null })).toBeNull();
  });

  it('priorityPlayers (807.5a) and attackableOpponents (506.2, 801.3) agree with their definitions on 2,000 random turns', () => {
    const r = seededRandom(807);
    for (let i = 0; i < 2000; i++) {
      const { seats, ranges, atTurnStart, players } = seating(r);
      if (players.length === 0) continue;
      const influence = r() < 0.1 ? null : influenceOf({ players: atTurnStart, ranges });
      const stack: StackObject[] = Array.from({ length: Math.floor(r() * 4) }, (_, j) => ({ id: `o${j}`, controller: pick(r, seats), kind: 'spell' }));
      const ctx = { variant: 'grandMelee' as const, seats, players, influence, turnOwner: pick(r, atTurnStart.length > 0 ? atTurnStart : seats), stack, teams: null };
      const what = JSON.stringify(ctx);
      expect(priorityPlayers(ctx), what).toEqual(reference.priorityPlayers(ctx));
      // Asked again (remembered with nothing on the stack): the same answer.
      expect(priorityPlayers(ctx), what).toEqual(reference.priorityPlayers(ctx));
      for (const variant of ['grandMelee', 'freeForAll', 'emperor'] as const) {
        const player = pick(r, players);
        expect(attackableOpponents({ ...ctx, variant }, player), what).toEqual(reference.attackableOpponents({ ...ctx, variant }, player));
      }
    }
  });
});

describe('the Grand Melee coordinator names the shared fields one by one (issue 21, point 8)', () => {
  it('sharedOf copies exactly SHARED_FIELDS, and sameShared tells a change of any one of them', () => {
    const ctx = Object.fromEntries([...SHARED_FIELDS, 'turn', 'stack'].map((k) => [k, { k }])) as unknown as TurnContext;
    const shared = sharedOf(ctx);
    expect(Object.keys(shared).sort()).toEqual([...SHARED_FIELDS].sort());
    expect(sameShared(ctx, shared)).toBe(true);
    for (const k of SHARED_FIELDS) expect(sameShared({ ...ctx, [k]: { k } }, shared), k).toBe(false);
    expect(sameShared({ ...ctx, turn: 2, stack: [] }, shared)).toBe(true);
  });
});
