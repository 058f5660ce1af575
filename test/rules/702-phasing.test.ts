/** Phasing in the untap step (CR 502.1, 703.4a), and what phased out under a player who has left the game (702.26n). */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type Game, type GameOptions, type TurnView } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';

/** A game that keeps what it emits, played with the plainest answers. */
function game(options: GameOptions) {
  const g = createGame(options);
  const emitted: EmittedEvent[] = [];
  g.on('*', (e) => void emitted.push(e));
  return watched(g, emitted);
}

function watched(g: Game, emitted: EmittedEvent[]) {
  const t = {
    g,
    send(event: unknown) {
      const r = g.send(event);
      expect(r, JSON.stringify(event)).toMatchObject({ ok: true });
    },
    /** Plays on until turn `turn`'s upkeep (the untap step taken, or passed over). */
    until(turn: number) {
      for (let i = 0; i < 500 && !(g.view().turn === turn && g.view().step === 'upkeep'); i++) t.send(plainestAnswer(g.view()));
      expect(g.view()).toMatchObject({ turn, step: 'upkeep' });
      return g.view();
    },
    /** The untap step's events of each turn from here to `turn`'s upkeep: `turnBegan` (whose turn), then `phasing` and `untap` (whose permanents). */
    untapStepsUntil(turn: number): string[] {
      const from = emitted.length;
      t.until(turn);
      return emitted.slice(from).flatMap((e) => (e.type === 'turnBegan' ? [`turn ${e.turn} ${e.activePlayer}:`] : e.type === 'phasing' || e.type === 'untap' ? [`${e.type} ${e.player}`] : []));
    },
  };
  return t;
}

describe('what phased out under a player who has left the game phases in (CR 702.26n)', () => {
  it('702.26n, 800.4m: in the untap step after their next turn would have begun, after the active player, once', () => {
    const t = game({ players: ['A', 'B', 'C'] });
    t.send({ type: 'CONCEDE', player: 'B' });
    // B's turn would have begun after A's turn 1: C's turn 2 takes its place.
    expect(t.untapStepsUntil(5)).toEqual([
      'turn 2 C:', 'phasing C', 'phasing B', 'untap C',
      'turn 3 A:', 'phasing A', 'untap A',
      'turn 4 C:', 'phasing C', 'untap C',
      'turn 5 A:', 'phasing A', 'untap A',
    ]);
  });

  it('702.26n: a player who leaves during their own turn: a whole round later, when their next turn would have begun', () => {
    const t = game({ players: ['A', 'B', 'C'] });
    t.until(2);
    t.send({ type: 'CONCEDE', player: 'B' });
    expect(t.untapStepsUntil(5)).toEqual([
      'turn 3 C:', 'phasing C', 'untap C',
      'turn 4 A:', 'phasing A', 'untap A',
      'turn 5 C:', 'phasing C', 'phasing B', 'untap C',
    ]);
  });

  it("800.4m, 500.7: another player's extra turn does not stand for the departed player's turn", () => {
    const t = game({ players: ['A', 'B', 'C'] });
    t.send({ type: 'ADD_EXTRA_TURN', player: 'A' });
    t.send({ type: 'CONCEDE', player: 'B' });
    expect(t.untapStepsUntil(3)).toEqual(['turn 2 A:', 'phasing A', 'untap A', 'turn 3 C:', 'phasing C', 'phasing B', 'untap C']);
  });

  it('702.26m, 614.10: a skipped untap step is not taken: they phase in during the next untap step that is', () => {
    const t = game({ players: ['A', 'B', 'C'] });
    t.send({ type: 'ADD_EFFECT', id: 'stasis', effect: { kind: 'skip', what: 'untap', players: ['C'] } });
    t.send({ type: 'CONCEDE', player: 'B' });
    expect(t.untapStepsUntil(4)).toEqual(['turn 2 C:', 'turn 3 A:', 'phasing A', 'phasing B', 'untap A', 'turn 4 C:']);
  });

  it('several players who left: each as their own next turn would have begun; together, after the active player, in seat order', () => {
    const t = game({ players: ['A', 'B', 'C', 'D', 'E', 'F'] });
    // C leaves first, then B, both in A's turn 1: the turns of both would have begun before D's turn 2.
    t.send({ type: 'CONCEDE', player: 'C' });
    t.send({ type: 'CONCEDE', player: 'B' });
    expect(t.untapStepsUntil(2)).toEqual(['turn 2 D:', 'phasing D', 'phasing B', 'phasing C', 'untap D']);
    // F leaves in D's turn 2, E in their own turn 3: F's next turn would have begun after E's turn 3 (A's turn 4 takes its place), E's after A's turn 4 and D's turn 5.
    t.send({ type: 'CONCEDE', player: 'F' });
    t.until(3);
    t.send({ type: 'CONCEDE', player: 'E' });
    expect(t.untapStepsUntil(6)).toEqual(['turn 4 A:', 'phasing A', 'phasing F', 'untap A', 'turn 5 D:', 'phasing D', 'untap D', 'turn 6 A:', 'phasing A', 'phasing E', 'untap A']);
  });

  it('805.4: with shared team turns a player who left while their team plays on phases in with their team, in its next untap step', () => {
    // Archenemy: the heroes H1, H2, H3 share their turns; H2 leaves during the heroes' turn 2.
    const t = game({ players: ['X', 'H1', 'H2', 'H3'], variant: 'archenemy', teams: [{ id: 'boss', players: ['X'] }, { id: 'heroes', players: ['H1', 'H2', 'H3'] }] });
    t.until(2);
    t.send({ type: 'CONCEDE', player: 'H2' });
    // Not in the boss's turn, which goes past H2's seat: in the heroes' next one, after the players taking it.
    expect(t.untapStepsUntil(4)).toEqual([
      'turn 3 X:', 'phasing X', 'untap X',
      'turn 4 H1:', 'phasing H1', 'phasing H3', 'phasing H2', 'untap H1', 'untap H3',
    ]);
  });

  it('persisted while it waits (`context.waitingToPhaseIn`), it restores and goes on as it would have', () => {
    const t = game({ players: ['A', 'B', 'C'] });
    t.send({ type: 'CONCEDE', player: 'B' });
    const saved = JSON.parse(JSON.stringify(t.g.persist()));
    expect(saved.context.waitingToPhaseIn).toEqual([{ player: 'B', due: false }]);
    const emitted: EmittedEvent[] = [];
    const restored = restoreGame(saved);
    restored.on('*', (e) => void emitted.push(e));
    expect(watched(restored, emitted).untapStepsUntil(3)).toEqual(['turn 2 C:', 'phasing C', 'phasing B', 'untap C', 'turn 3 A:', 'phasing A', 'untap A']);
    // Nothing waits any more: the snapshot is the one of a game where nobody left before.
    expect(restored.persist().context?.waitingToPhaseIn).toBeUndefined();
  });

  it('a player who leaves before turn 1 has had nothing phase out (CR 103): nothing waits', () => {
    const g = createGame({ players: ['A', 'B', 'C'], pregame: true });
    const chooser = (g.view() as TurnView).awaiting?.player as string;
    const leaver = ['A', 'B', 'C'].find((p) => p !== chooser) as string;
    expect(g.send({ type: 'CONCEDE', player: leaver }).ok).toBe(true);
    expect(g.persist().context?.waitingToPhaseIn).toBeUndefined();
  });
});
