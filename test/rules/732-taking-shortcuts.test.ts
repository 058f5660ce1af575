/**
 * CR 732, taking shortcuts (card-agnostic, CONTRACT v3 "Playing between people", "Shortcuts"):
 * 732.2a the player with priority proposes a sequence ending where a player has priority;
 * 732.2b each other player, in turn order, accepts it or shortens it to an earlier point;
 * 732.2c the shortcut is taken: the game advances to the agreed point, where the player who
 * then has priority is asked.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type EmittedEvent, type Game, type TurnEvent } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';

function accepted(game: Game, event: TurnEvent): EmittedEvent[] {
  const result = game.send(event);
  if (!result.ok) throw new Error(`${JSON.stringify(event)} refused: ${result.error.message}`);
  return result.events;
}

const refusal = (game: Game, event: unknown) => {
  const result = game.send(event);
  return result.ok ? 'accepted' : result.error;
};

const where = (game: Game) => {
  const v = game.view();
  return { turn: v.turn, step: v.step, awaiting: v.awaiting };
};

describe('CR 732.2a: the player with priority suggests a shortcut', () => {
  it('from the player holding priority: another player is refused (732.2a)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'B', until: { step: 'end' } })).toEqual({
      code: 'ILLEGAL_ACTION',
      message: 'B cannot propose a shortcut: A holds priority (CR 732.2a: the player with priority proposes)',
      rule: '732.2a',
    });
  });

  it('with an empty stack: a spell on the stack refuses it (732.2a: no conditional actions, each pass would resolve something)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 's', speed: 'instant' });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2a', message: expect.stringMatching(/with objects on the stack/) });
  });

  it('ending where a player has priority: not the untap or cleanup step, a step of the phase named (INVALID_EVENT naming the field)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'untap' } })).toMatchObject({ code: 'INVALID_EVENT', message: expect.stringMatching(/^PROPOSE_SHORTCUT: event\.until\.step: must be a step with priority/) });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'cleanup' } })).toMatchObject({ code: 'INVALID_EVENT' });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { phase: 'combat', step: 'upkeep' } })).toMatchObject({ code: 'INVALID_EVENT', message: expect.stringMatching(/^PROPOSE_SHORTCUT: event\.until\.step: is not a step of the phase given/) });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end', player: 'Z' } })).toMatchObject({ code: 'INVALID_EVENT', message: "event.until.player: 'Z' is not a player of this game" });
  });

  it('a sequence from here on: a point already passed, or a turn over, is refused (732.2a)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    accepted(game, { type: 'PASS_PRIORITY', player: 'B' }); // turn 1's main phase
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 1, step: 'upkeep' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2a', message: expect.stringMatching(/^until: that point of turn 1 has passed/) });
    // Without a turn, the next upkeep: turn 2's.
    expect(game.check({ type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'upkeep' } })).toEqual({ ok: true });
  });

  it('the proposer need not name themselves: the point may be another player\'s priority, in a later turn (732.2a)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 2, step: 'upkeep', player: 'A' } });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    // Turn 1's combat asks A's attackers first (a declaration is due): the shortcut stops there.
    expect(where(game)).toEqual({ turn: 1, step: 'declareAttackers', awaiting: { kind: 'declareAttackers', player: 'A', defenders: ['B'] } });
  });
});

describe('CR 732.2b: each other player, in turn order, accepts or shortens it', () => {
  it('in turn order starting after the player who suggested it (732.2b): B proposes, C then A answer; an answer out of turn is refused', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' }); // B holds priority
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'B', until: { step: 'end' } });
    expect(game.view().awaiting).toEqual({ kind: 'shortcut', player: 'C', proposer: 'B', until: { step: 'end' } });
    expect(refusal(game, { type: 'ACCEPT_SHORTCUT', player: 'A' })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b', message: expect.stringMatching(/^C is asked about B's shortcut now, not A/) });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'C' });
    expect(game.view().awaiting).toMatchObject({ kind: 'shortcut', player: 'A' });
  });

  it('in turn order after the proposer with teams (Two-Headed Giant: the players, not the teams) and with the active player gone (800.4j)', () => {
    const giant = createGame({ use: allModules, players: ['A1', 'A2', 'B1', 'B2'], variant: 'twoHeadedGiant', teams: [{ id: 'A', players: ['A1', 'A2'] }, { id: 'B', players: ['B1', 'B2'] }] });
    const holder = giant.view().priority as string;
    const other = holder === 'A1' ? 'A2' : 'A1';
    // Either member of the team holding priority may propose; B1, B2 then the proposer's teammate answer.
    accepted(giant, { type: 'PROPOSE_SHORTCUT', player: other, until: { step: 'end' } });
    const asked: string[] = [];
    for (let a = giant.view().awaiting; a?.kind === 'shortcut'; a = giant.view().awaiting) {
      asked.push(a.player);
      accepted(giant, { type: 'ACCEPT_SHORTCUT', player: a.player });
    }
    expect(asked).toEqual(other === 'A2' ? ['B1', 'B2', 'A1'] : ['A2', 'B1', 'B2']);
    const gone = createGame({ use: allModules, players: ['A', 'B', 'C', 'D'] });
    accepted(gone, { type: 'CONCEDE', player: 'A' });
    accepted(gone, { type: 'PASS_PRIORITY', player: gone.view().priority as string }); // B passes: C holds priority
    accepted(gone, { type: 'PROPOSE_SHORTCUT', player: 'C', until: { step: 'end' } });
    expect(gone.view().awaiting).toMatchObject({ kind: 'shortcut', player: 'D' });
  });

  it('shortening names an earlier point, which becomes the new ending point', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    accepted(game, { type: 'PASS_PRIORITY', player: 'B' }); // main phase, A holds priority
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end', player: 'B' } });
    const events = accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'beginningOfCombat', player: 'B' } });
    expect(where(game)).toEqual({ turn: 1, step: 'beginningOfCombat', awaiting: { kind: 'priority', player: 'B' } });
    expect(events.filter((e) => e.type === 'autoPass').map((e) => [e.player, e.step])).toEqual([
      ['A', 'main'],
      ['B', 'main'],
      ['A', 'beginningOfCombat'],
    ]);
  });

  it('a later point does not shorten it: refused (732.2b), and the vote stands', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'main' } });
    expect(refusal(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b', message: expect.stringMatching(/comes after the one proposed/) });
    expect(refusal(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { turn: 2, step: 'upkeep' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b' });
    expect(game.view().awaiting).toMatchObject({ kind: 'shortcut', player: 'B', until: { step: 'main' } });
    // The same point is accepted as it is.
    accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'main' } });
    expect(where(game)).toEqual({ turn: 1, step: 'main', awaiting: { kind: 'priority', player: 'A' } });
  });

  it('a shortened point stands for the players asked after (C may shorten it further, not lengthen it back)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'draw', player: 'C' } });
    expect(game.view().awaiting).toEqual({ kind: 'shortcut', player: 'C', proposer: 'A', until: { step: 'draw', player: 'C' } });
    expect(refusal(game, { type: 'SHORTEN_SHORTCUT', player: 'C', until: { step: 'end' } })).toMatchObject({ rule: '732.2b' });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'C' });
    expect(where(game)).toEqual({ turn: 1, step: 'draw', awaiting: { kind: 'priority', player: 'C' } });
  });
});

describe('CR 732.2c: the shortcut is taken; the player who then has priority is asked', () => {
  it('at the agreed point the player is asked, whatever their stops say', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'SET_STOPS', player: 'B', stops: [] }); // B would pass every empty-stack priority
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'upkeep', turn: 1, player: 'B' } });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(where(game)).toEqual({ turn: 1, step: 'upkeep', awaiting: { kind: 'priority', player: 'B' } });
  });
});

/** Plays on with the plainest answers until `stop` holds. */
function playUntil(game: Game, stop: (v: ReturnType<Game['view']>) => boolean): void {
  for (let i = 0; i < 500 && !stop(game.view()); i++) {
    const a = game.view().awaiting;
    if (a?.kind === 'declareAttackers') accepted(game, { type: 'DECLARE_ATTACKERS', player: a.player, attackers: [] });
    else if (a?.kind === 'discard') accepted(game, { type: 'DISCARD', player: a.player, count: a.count });
    else if (a?.kind === 'priority') accepted(game, { type: 'PASS_PRIORITY', player: a.player });
    else throw new Error(`unexpected decision ${JSON.stringify(a)}`);
  }
  if (!stop(game.view())) throw new Error('never reached');
}

/** Every other player accepts the shortcut proposed. */
function everyoneAccepts(game: Game): void {
  for (let a = game.view().awaiting; a?.kind === 'shortcut'; a = game.view().awaiting) accepted(game, { type: 'ACCEPT_SHORTCUT', player: a.player });
}

describe('CR 732.2a, 500.1: a point is where the game first reaches it, as the turn stands', () => {
  it("an extra turn comes next (500.7): turn 2 is A's, and A's priority in its upkeep is the first in it", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'HAND_SIZE', player: 'A', size: 6 }); // no discard in the cleanup step (A draws in turn 1, 103.8c)
    accepted(game, { type: 'ADD_EXTRA_TURN', player: 'A' });
    playUntil(game, (v) => v.step === 'end');
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 2, step: 'upkeep', player: 'C' } });
    // In A's extra turn B passes before C: B's priority is an earlier point, not a later one.
    accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { turn: 2, step: 'upkeep', player: 'B' } });
    expect(refusal(game, { type: 'SHORTEN_SHORTCUT', player: 'C', until: { turn: 2, step: 'upkeep', player: 'C' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b' });
    accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'C', until: { turn: 2, step: 'upkeep', player: 'A' } });
    expect(where(game)).toEqual({ turn: 2, step: 'upkeep', awaiting: { kind: 'priority', player: 'A' } });
    expect(game.view().activePlayer).toBe('A');
  });

  it("a skipped turn is not taken (614.10a): turn 2 is C's, and D's priority in its upkeep is reached", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C', 'D'] });
    accepted(game, { type: 'HAND_SIZE', player: 'A', size: 6 });
    playUntil(game, (v) => v.step === 'end');
    accepted(game, { type: 'SKIP_NEXT', player: 'B', what: 'turn' });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 2, step: 'upkeep', player: 'D' } });
    everyoneAccepts(game);
    expect(where(game)).toEqual({ turn: 2, step: 'upkeep', awaiting: { kind: 'priority', player: 'D' } });
    expect(game.view().activePlayer).toBe('C');
  });

  it('the active player left (800.4j): the next turn is the next player\'s, and a named player is reached in its pass order', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C', 'D'] });
    playUntil(game, (v) => v.step === 'end');
    accepted(game, { type: 'CONCEDE', player: 'A' });
    const holder = game.view().priority as string;
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: holder, until: { turn: 2, step: 'upkeep', player: 'D' } });
    everyoneAccepts(game);
    expect(where(game)).toEqual({ turn: 2, step: 'upkeep', awaiting: { kind: 'priority', player: 'D' } });
    expect(game.view().activePlayer).toBe('B');
  });

  it('a point naming a player who has left is refused (800.4a: they receive priority no more)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'CONCEDE', player: 'C' });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end', player: 'C' } })).toMatchObject({
      code: 'ILLEGAL_ACTION',
      message: expect.stringMatching(/^until\.player: C has left the game/),
    });
  });

  it('an added combat phase after this main phase (500.8) holds the next beginning of combat step', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    playUntil(game, (v) => v.phase === 'postcombatMain');
    accepted(game, { type: 'ADD_EXTRA_COMBAT' });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'beginningOfCombat' } });
    everyoneAccepts(game);
    expect({ ...where(game), phase: game.view().phase }).toEqual({ turn: 1, phase: 'combat', step: 'beginningOfCombat', awaiting: { kind: 'priority', player: 'A' } });
  });

  it('a skipped combat phase (614.10) is no place: the next beginning of combat is next turn\'s; naming this turn, the shortcut ends just after it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'SKIP_NEXT', player: 'A', what: 'combat' });
    const fork = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(fork, { type: 'SKIP_NEXT', player: 'A', what: 'combat' });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'beginningOfCombat' } });
    everyoneAccepts(game);
    expect({ ...where(game), phase: game.view().phase }).toEqual({ turn: 2, phase: 'combat', step: 'beginningOfCombat', awaiting: { kind: 'priority', player: 'B' } });
    accepted(fork, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 1, step: 'beginningOfCombat' } });
    everyoneAccepts(fork);
    expect({ ...where(fork), phase: fork.view().phase }).toEqual({ turn: 1, phase: 'postcombatMain', step: 'main', awaiting: { kind: 'priority', player: 'A' } });
  });

  it('a turn too far ahead is refused naming until.turn', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 5000, step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^until\.turn: a shortcut reaches at most 1000 turns ahead/) });
  });
});

describe('CR 732.2a-c: the shortcut as the game actually goes', () => {
  it('an effect that ends later (611.2b "until your next turn") is looked past where it ends: the point after it is reached', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'ADD_EFFECT', id: 'no-upkeeps', effect: { kind: 'skip', what: 'upkeep' }, duration: 'untilYourNextTurn', controller: 'A' });
    playUntil(game, (v) => v.turn === 2 && v.step === 'end');
    accepted(game, { type: 'HAND_SIZE', player: 'B', size: 0 }); // no discard in B's cleanup
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'B', until: { step: 'upkeep' } });
    everyoneAccepts(game);
    expect(where(game)).toEqual({ turn: 3, step: 'upkeep', awaiting: { kind: 'priority', player: 'A' } });
  });

  it('a turn added while it is taken (a checkpoint returning ADD_EXTRA_TURN, 500.7): the point is where the game first reaches it', () => {
    let fired = false;
    const hooks = { checkpoint: (v: { turn: number; phase: string }) => (!fired && v.turn === 1 && v.phase === 'postcombatMain' ? ((fired = true), { events: [{ type: 'ADD_EXTRA_TURN', player: 'A' } as const] }) : undefined) };
    const game = createGame({ use: allModules, players: ['A', 'B'], hooks });
    accepted(game, { type: 'ADD_EFFECT', id: 'no-combat', effect: { kind: 'skip', what: 'combat' } });
    playUntil(game, (v) => v.step === 'main');
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'upkeep', player: 'B' } });
    everyoneAccepts(game);
    expect(fired).toBe(true);
    expect(where(game)).toEqual({ turn: 2, step: 'upkeep', awaiting: { kind: 'priority', player: 'B' } });
    expect(game.view().activePlayer).toBe('A');
  });

  it('a point a host event puts out of reach during the vote ends it: the game stays where it was (no pass without its event)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'draw' } });
    accepted(game, { type: 'ADD_EFFECT', id: 'no-draws', effect: { kind: 'skip', what: 'draw' } });
    expect(where(game)).toEqual({ turn: 1, step: 'upkeep', awaiting: { kind: 'priority', player: 'A' } });
    expect(refusal(game, { type: 'ACCEPT_SHORTCUT', player: 'B' })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b' });
  });

  it('no decision while it is voted on: a yield that would pass at once is refused (the yield of another player is a setting, taken)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    expect(refusal(game, { type: 'YIELD', player: 'A', until: 'endOfTurn' })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b' });
    accepted(game, { type: 'YIELD', player: 'C', until: 'endOfTurn' });
    expect(game.view().awaiting).toMatchObject({ kind: 'shortcut', player: 'B' });
  });

  it('`by` on a proposal, an answer and an undo request must be the player who decides for them (CR 723.5)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: { mode: 'own' } });
    accepted(game, { type: 'CONTROL_PLAYER', controller: 'A', player: 'B' });
    playUntil(game, (v) => v.turn === 2 && v.step === 'upkeep' && v.priority === 'B');
    for (const by of ['B', 'C']) {
      expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'B', by, until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '723.5', message: `${by} cannot make B's decisions: A does` });
    }
    expect(game.check({ type: 'PROPOSE_SHORTCUT', player: 'B', by: 'A', until: { step: 'end' } })).toEqual({ ok: true });
    expect(refusal(game, { type: 'UNDO', player: 'B', by: 'C', to: 0 })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '723.5' });
  });

  it('restoreGame refuses a vote whose players still to answer are not the last of those in turn order after the proposer', async () => {
    const { restoreGame } = await import('../../src/index.js');
    const game = createGame({ use: allModules, players: ['A', 'B', 'C', 'D'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    const saved = JSON.parse(JSON.stringify(game.persist())) as { shortcut: { asked: string[] } };
    expect(saved.shortcut.asked).toEqual(['B', 'C', 'D']);
    expect(restoreGame(saved, { use: allModules }).view().awaiting).toEqual(game.view().awaiting);
    for (const asked of [['C', 'B', 'D'], ['B', 'C'], ['D', 'C']]) {
      expect(() => restoreGame({ ...saved, shortcut: { ...saved.shortcut, asked } }, { use: allModules })).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringMatching(/^shortcut\.asked: /) }));
    }
  });
});
