/** Land drops with shared team turns: each player of the active team plays their own (CR 805.4c, 305.2). */
import { describe, expect, it } from 'vitest';
import { restoreGame } from '../../src/index.js';
import { play } from '../support/dsl.js';
import { fullSnapshot } from '../support/persisted.js';

const twoHeadedGiant = { players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant' as const, teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] };

describe('land drops with shared team turns (CR 805.4c)', () => {
  it("805.4c: each player on the active team may play a land during the team's turn, one each", () => {
    const t = play(twoHeadedGiant);
    t.passUntil({ step: 'main' });
    t.send({ type: 'PLAY_LAND', player: 'A' });
    t.send({ type: 'PLAY_LAND', player: 'B' });
    t.expectView({ landsPlayed: 2, landsPlayedBy: { A: 1, B: 1, C: 0, D: 0 }, landPlaysAllowed: 1 });
    t.refused({ type: 'PLAY_LAND', player: 'A' }, 'ILLEGAL_ACTION', '305.2');
    expect(t.game.legalActions('B').some((a) => a.type === 'PLAY_LAND')).toBe(false);
    // The other team's players play none: it is not their turn (305.3).
    t.refused({ type: 'PLAY_LAND', player: 'C' }, 'ILLEGAL_ACTION');
  });

  it('805.4c: Archenemy heroes (a team of three) play a land each', () => {
    const t = play({ players: ['E', 'A', 'B', 'C'], variant: 'archenemy', teams: [{ id: 'boss', players: ['E'] }, { id: 'heroes', players: ['A', 'B', 'C'] }] });
    t.passUntil({ turn: 2, step: 'main' });
    for (const p of ['A', 'B', 'C']) t.send({ type: 'PLAY_LAND', player: p });
    t.expectView({ landsPlayed: 3, landsPlayedBy: { E: 0, A: 1, B: 1, C: 1 } });
  });

  it('305.2: a new turn begins with no lands played', () => {
    const t = play(twoHeadedGiant);
    t.passUntil({ step: 'main' });
    t.send({ type: 'PLAY_LAND', player: 'B' });
    t.passUntil({ turn: 2 });
    t.expectView({ landsPlayed: 0, landsPlayedBy: { A: 0, B: 0, C: 0, D: 0 } });
  });

  it("a snapshot of an earlier version (one `landsPlayed` number, the active player's) restores with those lands", () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    t.send({ type: 'PLAY_LAND', player: 'A' });
    const persisted = fullSnapshot(t.game) as unknown as { context: Record<string, unknown> };
    // That version had neither landsPlayedBy nor endedInSend.
    const old = Object.fromEntries(Object.entries(persisted.context).filter(([k]) => k !== 'endedInSend').map(([k, v]) => (k === 'landsPlayedBy' ? ['landsPlayed', 1] : [k, v])));
    const restored = restoreGame({ ...persisted, context: old });
    expect(restored.view()).toEqual(t.game.view());
    expect(restored.persist()).toEqual(t.game.persist());
  });
});
