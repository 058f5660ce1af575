/**
 * Two-Headed Giant with teams of more than two players (CR 810.11: Three-Headed Giant, ...):
 * two teams of the same size, playing shared team turns (805, 810.2) as with two.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type GameOptions } from '../../src/index.js';
import { play } from '../support/dsl.js';

const A = ['A1', 'A2', 'A3'];
const B = ['B1', 'B2', 'B3'];
const threeHeaded: GameOptions = {
  players: [...A, ...B],
  variant: 'twoHeadedGiant',
  teams: [
    { id: 'a', players: A },
    { id: 'b', players: B },
  ],
  startingPlayer: 'A1',
};

/** The players the emitted events of `type` name, in order. */
const named = (events: EmittedEvent[], type: EmittedEvent['type']) => events.flatMap((e) => (e.type === type && 'player' in e ? [e.player] : []));

describe('Three-Headed Giant: two teams of the same size (CR 810.1, 810.11)', () => {
  const refusal = (teams: string[][]) => {
    try {
      createGame({ players: teams.flat(), variant: 'twoHeadedGiant', teams: teams.map((players, i) => ({ id: `t${i}`, players })) });
    } catch (err) {
      return (err as Error).message;
    }
    return 'accepted';
  };

  it('810.11: two teams of three, or of four, are accepted', () => {
    expect(refusal([A, B])).toBe('accepted');
    expect(refusal([['A1', 'A2', 'A3', 'A4'], ['B1', 'B2', 'B3', 'B4']])).toBe('accepted');
    expect(refusal([['A1', 'A2'], ['B1', 'B2']])).toBe('accepted');
  });

  it('810.1, 810.11: teams of different sizes, more than two teams, or teams of one are refused, naming both rules', () => {
    const GIANT = "options.teams: 'twoHeadedGiant' needs two teams of two or more players, both the same size (CR 810.1, 810.11)";
    expect(refusal([A, ['B1', 'B2']])).toBe(GIANT);
    expect(refusal([['A1', 'A2'], ['B1', 'B2'], ['C1', 'C2']])).toBe(GIANT);
    expect(refusal([['A1'], ['B1']])).toBe(GIANT);
  });

  it('a Three-Headed Giant game persists and restores; a snapshot whose teams differ in size is refused (variantMatchesTeams)', () => {
    const game = createGame(threeHeaded);
    const restored = restoreGame(game.persist());
    expect(restored.view()).toEqual(game.view());
    const saved = JSON.parse(JSON.stringify(game.persist())) as { context: { teams: { players: string[] }[]; seats: string[]; players: string[] } };
    saved.context.teams[1]!.players = ['B1', 'B2'];
    saved.context.teams[0]!.players = [...A, 'B3'];
    expect(() => restoreGame(saved)).toThrowError(/context\.variant: 'twoHeadedGiant' needs two teams of two or more players, both the same size \(CR 810\.1, 810\.11\), and context\.teams has teams of 4, 2/);
  });
});

describe('Three-Headed Giant plays shared team turns (CR 805, 810.2, 810.6, 810.7)', () => {
  it('103.8b, 805.4c, 805.5, 805.10: a team turn of three players: untap, no first draw, lands, priority, attacks and blocks by any member, combat damage', () => {
    const t = play(threeHeaded);
    t.expectView({ turn: 1, activeTeam: 'a', step: 'upkeep', priority: 'A1' });
    // CR 805.5: the team holds priority; A3 passes for it, then the other team holds it and B3 passes for that one.
    t.send({ type: 'PASS_PRIORITY', player: 'A3' });
    t.expectView({ priority: 'B1' });
    t.refused({ type: 'PASS_PRIORITY', player: 'A2' }, 'ILLEGAL_ACTION', '117.3d');
    t.send({ type: 'PASS_PRIORITY', player: 'B3' });
    // CR 103.8b, 810.6: the team that plays first skips the draw step of its first turn.
    t.expectView({ step: 'main' });
    expect(named(t.emitted, 'draw')).toEqual([]);
    // CR 805.4c: each of the three plays a land of their own.
    for (const p of A) t.send({ type: 'PLAY_LAND', player: p });
    t.expectView({ landsPlayedBy: { A1: 1, A2: 1, A3: 1, B1: 0, B2: 0, B3: 0 } });
    t.refused({ type: 'PLAY_LAND', player: 'A2' }, 'ILLEGAL_ACTION', '305.2');
    t.passUntil({ step: 'declareAttackers' });
    // CR 805.10a: the active team attacks; A2 declares for it, at any player of the other team.
    expect(t.view().awaiting).toMatchObject({ kind: 'declareAttackers', defenders: B });
    t.send({ type: 'DECLARE_ATTACKERS', player: 'A2', attackers: [{ id: 'bear', defender: 'B2' }, { id: 'wolf', defender: 'B3', firstStrike: true }] });
    t.pass('A3', 'B2');
    // CR 805.10b: the defending team blocks together; B3 declares two blockers on the bear.
    t.expectView({ step: 'declareBlockers', awaiting: { kind: 'declareBlockers' } });
    t.refused({ type: 'DECLARE_BLOCKERS', player: 'A1', blockers: [] }, 'ILLEGAL_ACTION');
    t.send({ type: 'DECLARE_BLOCKERS', player: 'B3', blockers: [{ id: 'wall', attacker: 'bear' }, { id: 'elf', attacker: 'bear' }] });
    t.clearEmitted();
    t.pass('A1', 'B1');
    // CR 510.4: the first-strike damage step, then the rest.
    t.expectView({ step: 'firstStrikeDamage' });
    t.pass('A2', 'B2');
    t.expectView({ step: 'combatDamage' });
    expect(t.emittedOf('combatDamage')).toEqual([
      { type: 'combatDamage', first: true, creatures: ['wolf'] },
      { type: 'combatDamage', first: false, creatures: ['bear', 'wall', 'elf'] },
    ]);
    t.passUntil({ turn: 2 });
    // The other team's turn: all three untap and draw (805.4c).
    t.expectView({ activeTeam: 'b', activePlayer: 'B1', priority: 'B1' });
    expect(named(t.emitted, 'untap')).toEqual(B);
    t.passUntil({ step: 'main' });
    expect(named(t.emitted, 'draw')).toEqual(B);
  });

  it('805.8: a skipped turn and an extra turn go to the named player\'s team', () => {
    const t = play(threeHeaded);
    // B2's next turn is skipped: team b's next turn.
    t.send({ type: 'SKIP_NEXT', player: 'B2', what: 'turn' });
    t.passUntil({ turn: 2 });
    t.expectView({ activeTeam: 'a', activePlayer: 'A1' });
    // A team's draw in its second turn: each of the three draws (103.8b skips only the first).
    t.passUntil({ step: 'main' });
    expect(named(t.emitted, 'draw')).toEqual(A);
    // An extra turn for B3: team b's, after this one, then b's turn in the rotation.
    t.send({ type: 'ADD_EXTRA_TURN', player: 'B3' });
    t.passUntil({ turn: 3 });
    t.expectView({ activeTeam: 'b', activePlayer: 'B1' });
    expect(t.emittedOf('turnBegan').at(-1)).toMatchObject({ turn: 3, extra: true });
    t.passUntil({ turn: 4 });
    t.expectView({ activeTeam: 'b' });
    expect(t.emittedOf('turnBegan').at(-1)).toMatchObject({ turn: 4, extra: false });
    t.passUntil({ turn: 5 });
    t.expectView({ activeTeam: 'a' });
  });

  it("514.1, 805.7: in cleanup each member of the active team over their maximum hand size discards, each deciding for themselves", () => {
    const t = play(threeHeaded);
    t.passUntil({ step: 'main' });
    t.send({ type: 'HAND_SIZE', player: 'A2', size: 9 });
    t.send({ type: 'HAND_SIZE', player: 'A3', size: 8 });
    t.passUntil({ step: 'cleanup' });
    t.expectView({ awaiting: { kind: 'discard', player: 'A2', count: 2 } });
    // A teammate may not discard for them (810.5: resources are not shared).
    t.refused({ type: 'DISCARD', player: 'A1', count: 2 }, 'ILLEGAL_ACTION');
    t.send({ type: 'DISCARD', player: 'A2', count: 2 });
    t.expectView({ awaiting: { kind: 'discard', player: 'A3', count: 1 } });
    t.send({ type: 'DISCARD', player: 'A3', count: 1 });
    t.passUntil({ turn: 2 });
    t.expectView({ handSizes: { A1: 7, A2: 7, A3: 7 } });
  });

  it('810.8a-b: the team leaves together: one of three concedes, the other team wins', () => {
    const game = createGame(threeHeaded);
    const result = game.send({ type: 'CONCEDE', player: 'B2' });
    expect(result.ok && result.events.flatMap((e) => (e.type === 'playerLeft' ? [e.player] : []))).toEqual(['B2', 'B1', 'B3']);
    expect(game.view().gameOver).toMatchObject({ winners: A, draw: false });
  });
});
