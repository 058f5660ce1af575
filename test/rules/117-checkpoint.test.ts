/** What the checkpoint hook reports, and what it does to priority (CR 117.4, 117.5, 514.3a, 800.4a). */
import { describe, expect, it } from 'vitest';
import { createGame, type CheckpointResult, type TurnView } from '../../src/index.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';
import { actorOf } from '../../src/xstate.js';

/** A game whose hook reports `result` once, the first time `when` holds of the view it is shown. */
function reportingOnce(players: string[], when: (v: TurnView) => boolean, result: CheckpointResult) {
  let once = true;
  return createGame({
    players,
    hooks: {
      checkpoint: (v) => {
        if (!once || !when(v)) return undefined;
        once = false;
        return result;
      },
    },
  });
}

describe('the checkpoint hook and priority (CR 117.4, 117.5)', () => {
  it.each([
    ['state-based actions', { stateBasedActions: true }],
    ['a host event', { events: [{ type: 'HAND_SIZE' as const, player: 'B', size: 7 }] }],
    ['nothing', {}],
  ])('117.4: %s reported as the next player would receive priority leave the passes made so far standing', (_name, result) => {
    const game = reportingOnce(['A', 'B'], (v) => v.priority === 'B', result as CheckpointResult);
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    expect(game.view()).toMatchObject({ step: 'main', priority: 'A' });
  });

  it('117.4: a trigger put on the stack starts a new round of passes, and it resolves when all have passed', () => {
    const game = reportingOnce(['A', 'B'], (v) => v.priority === 'B', { triggers: [{ id: 't1', controller: 'A' }] });
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(game.view()).toMatchObject({ step: 'upkeep', priority: 'B', stack: [{ id: 't1' }] });
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(game.view()).toMatchObject({ step: 'upkeep', priority: 'A', stack: [] });
  });

  it('800.4a: a player who leaves in the check as they would receive priority passes it to the next player in turn order, as the same event sent would', () => {
    const hooked = reportingOnce(['A', 'B', 'C', 'D'], (v) => v.priority === 'C', { events: [{ type: 'LOSE', player: 'C' }] });
    hooked.send({ type: 'PASS_PRIORITY', player: 'A' });
    hooked.send({ type: 'PASS_PRIORITY', player: 'B' });
    const sent = createGame({ players: ['A', 'B', 'C', 'D'] });
    sent.send({ type: 'PASS_PRIORITY', player: 'A' });
    sent.send({ type: 'PASS_PRIORITY', player: 'B' });
    sent.send({ type: 'LOSE', player: 'C' });
    expect(hooked.view().priority).toBe('D');
    expect(sent.view().priority).toBe('D');
    // D's pass ends the step in both: A and B passed already.
    hooked.send({ type: 'PASS_PRIORITY', player: 'D' });
    expect(hooked.view().step).toBe('draw');
  });

  it('514.3a: a host event alone in the cleanup check gives nobody priority; state-based actions do', () => {
    for (const [result, priority] of [
      [{ events: [{ type: 'HAND_SIZE' as const, player: 'B', size: 3 }] }, false],
      [{ stateBasedActions: true }, true],
    ] as const) {
      const game = reportingOnce(['A', 'B'], (v) => v.step === 'cleanup', result as CheckpointResult);
      const seen: string[] = [];
      for (let i = 0; i < 60 && game.view().turn === 1; i++) {
        const v = game.view();
        if (v.step === 'cleanup') seen.push(`${v.step}:${v.priority ?? '-'}`);
        game.send(plainestAnswer(v));
      }
      expect(seen.includes('cleanup:A'), JSON.stringify(result)).toBe(priority);
    }
  });

  it('514.3a: while players have priority in a cleanup step, the schedule lists the cleanup step that follows it', () => {
    const game = reportingOnce(['A', 'B'], (v) => v.step === 'cleanup', { triggers: [{ id: 't', controller: 'A' }] });
    for (let i = 0; i < 60 && game.view().step !== 'end'; i++) game.send(plainestAnswer(game.view()));
    expect(game.view().schedule.steps).toEqual([{ step: 'cleanup', skipped: false }]);
    for (let i = 0; i < 60 && !(game.view().step === 'cleanup' && game.view().priority !== null); i++) game.send(plainestAnswer(game.view()));
    // The trigger on the stack, and after it resolves: another cleanup step comes (514.3a).
    expect(game.view().stack).toHaveLength(1);
    expect(game.view().schedule.steps).toEqual([{ step: 'cleanup', skipped: false }]);
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    expect(game.view()).toMatchObject({ step: 'cleanup', stack: [], priority: 'A' });
    expect(game.view().schedule.steps).toEqual([{ step: 'cleanup', skipped: false }]);
    const began = [game.send({ type: 'PASS_PRIORITY', player: 'A' }), game.send({ type: 'PASS_PRIORITY', player: 'B' })].flatMap((r) => (r.ok ? r.events : []));
    // The next step to begin is that cleanup (then, nobody getting priority in it, the next turn's).
    expect(began.filter((e) => e.type === 'stepBegan').map((e) => (e as { step: string }).step)[0]).toBe('cleanup');
  });
  it('117.5: every call of one check shows as `priority` the player about to receive it, not only the first', () => {
    const seen: string[] = [];
    let script: CheckpointResult[] = [];
    const game = createGame({
      players: ['A', 'B', 'C'],
      orderTriggers: 'players',
      hooks: {
        checkpoint: (v) => {
          seen.push(`${v.priority}/${v.awaiting?.player}`);
          return script.shift();
        },
      },
    });
    game.send({ type: 'CAST_SPELL', player: 'A', id: 'x', speed: 'instant' });
    // A passes: B is about to receive priority; the check reports twice, so it is called three times.
    seen.length = 0;
    script = [{ stateBasedActions: true }, { triggers: [{ id: 't', controller: 'C' }] }];
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(seen).toEqual(['B/B', 'B/B', 'B/B']);
    expect(game.view().priority).toBe('B');
    // B, not the active player, casts (117.3c): B receives priority again.
    seen.length = 0;
    script = [{ stateBasedActions: true }];
    game.send({ type: 'CAST_SPELL', player: 'B', id: 'y', speed: 'instant' });
    expect(seen).toEqual(['B/B', 'B/B']);
    expect(game.view().priority).toBe('B');
    // B, asked to order two triggers (603.3b), leaves instead: the next player in turn order is about to receive priority (800.4a).
    game.send({ type: 'TRIGGER', triggers: [{ id: 'b1', controller: 'B' }, { id: 'b2', controller: 'B' }] });
    seen.length = 0;
    script = [{ stateBasedActions: true }];
    game.send({ type: 'CONCEDE', player: 'B' });
    expect(seen).toEqual(['C/C', 'C/C']);
    expect(game.view().priority).toBe('C');
  });

  it("514.3a, 800.4d: a trigger of a player who left, reported in the cleanup check, is not waiting: nobody gets priority", () => {
    let inject: CheckpointResult | undefined;
    const game = createGame({
      players: ['A', 'B', 'C'],
      hooks: {
        checkpoint: (v) => {
          if (v.step !== 'cleanup') return undefined;
          const out = inject;
          inject = undefined;
          return out;
        },
      },
    });
    game.send({ type: 'CONCEDE', player: 'C' });
    for (let i = 0; i < 60 && game.view().step !== 'end'; i++) game.send(plainestAnswer(game.view()));
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    inject = { triggers: [{ id: 'delayedOfC', controller: 'C' }] };
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    // A drew in a three-player game (103.8a): the discard comes first (514.1), then the check.
    expect(game.view().awaiting).toMatchObject({ kind: 'discard', player: 'A' });
    game.send({ type: 'DISCARD', player: 'A', count: 1 });
    expect(game.view()).toMatchObject({ turn: 2, activePlayer: 'B', stack: [] });
  });
});

describe('the actor sent to directly (CONTRACT "Game": the checks of game.send)', () => {
  it.each([null, undefined, 42, 'PASS_PRIORITY', {}, { type: 'NOPE' }])('drops %j without throwing, and the game goes on', (raw) => {
    const game = createGame({ players: ['A', 'B'] });
    expect(() => actorOf(game).send(raw as never)).not.toThrow();
    expect(game.view().version).toBe(0);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    actorOf(game).send({ type: 'PASS_PRIORITY', player: 'B' });
    // Both passed in the upkeep; the starting player skips the draw step of turn 1 (103.8a).
    expect(game.view().step).toBe('main');
  });
});
