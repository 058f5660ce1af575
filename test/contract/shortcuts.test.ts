/**
 * Shortcuts (CONTRACT v3, "Playing between people", "Shortcuts"; issue 24 point 5), sentence by
 * sentence: the proposal, the vote (`awaiting.kind 'shortcut'`), every pass up to the agreed point
 * in one send (autoPass reason 'shortcut'), stopping early where anything goes on the stack or a
 * declaration is due; legalActions, persistence, recordings and private seats. The rules of CR 732
 * themselves are test/rules/732-taking-shortcuts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createGame, fillAction, replayGame, restoreGame, type CheckpointResult, type EmittedEvent, type Game, type SeatEvent, type TurnEvent } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';

function accepted(game: Game, event: TurnEvent): EmittedEvent[] {
  const result = game.send(event);
  if (!result.ok) throw new Error(`${JSON.stringify(event)} refused: ${result.error.message}`);
  return result.events;
}

const refusal = (game: Game, event: TurnEvent) => {
  const result = game.send(event);
  return result.ok ? 'accepted' : result.error;
};

/** A 2-player game in turn 1's main phase, A holding priority. */
function inMain(options: Parameters<typeof createGame>[0] = { players: ['A', 'B'] }): Game {
  const game = createGame({ use: allModules, ...options });
  accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
  accepted(game, { type: 'PASS_PRIORITY', player: 'B' });
  return game;
}

describe('PROPOSE_SHORTCUT: each other player is awaited, then every player passes up to the agreed point in one send', () => {
  it("awaiting.kind 'shortcut' with player, proposer and until; the accepting send passes for everyone (autoPass reason 'shortcut') and is one version", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    expect(accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'main' } })).toEqual([]);
    expect(game.view().awaiting).toEqual({ kind: 'shortcut', player: 'B', proposer: 'A', until: { step: 'main' } });
    expect(game.view().priority).toBe('A');
    const version = game.view().version;
    const events = accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(events.map((e) => (e.type === 'autoPass' ? `${e.type}:${e.player}:${e.step}:${e.reason}` : e.type))).toEqual([
      'autoPass:A:upkeep:shortcut',
      'autoPass:B:upkeep:shortcut',
      'stepBegan',
      'loreCounters',
      'visitAttractions',
    ]);
    expect(game.view()).toMatchObject({ version: version + 1, step: 'main', awaiting: { kind: 'priority', player: 'A' } });
  });

  it('stops early where a trigger from the checkpoint goes on the stack', () => {
    // The host's card triggers at the beginning of combat.
    const checkpoint = (_view: unknown, pending: EmittedEvent[]): CheckpointResult | undefined =>
      pending.some((e) => e.type === 'stepBegan' && e.step === 'beginningOfCombat') ? { triggers: [{ id: 'lurking', controller: 'B' }] } : undefined;
    const game = inMain({ players: ['A', 'B'], hooks: { checkpoint } });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    const events = accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(game.view()).toMatchObject({ step: 'beginningOfCombat', stack: [{ id: 'lurking', controller: 'B', kind: 'trigger' }], awaiting: { kind: 'priority', player: 'A' } });
    expect(events.filter((e) => e.type === 'autoPass').map((e) => e.step)).toEqual(['main', 'main']);
  });

  it('stops early where a declaration is due: attackers', () => {
    const game = inMain();
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(game.view().awaiting).toEqual({ kind: 'declareAttackers', player: 'A', defenders: ['B'] });
  });

  it('stops early where any other decision is due: a discard in the cleanup step', () => {
    const game = inMain();
    accepted(game, { type: 'HAND_SIZE', player: 'A', size: 9 });
    while (game.view().awaiting?.kind === 'priority') accepted(game, { type: 'PASS_PRIORITY', player: game.view().priority as string });
    accepted(game, { type: 'DECLARE_ATTACKERS', player: 'A', attackers: [] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { turn: 2, step: 'upkeep' } });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(game.view()).toMatchObject({ turn: 1, step: 'cleanup', awaiting: { kind: 'discard', player: 'A', count: 2 } });
  });

  it('no decision is made while it is voted on; host events are, and one that moves the game on ends the proposal', () => {
    const game = inMain();
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    expect(refusal(game, { type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b', message: expect.stringMatching(/^B is asked about A's shortcut first/) });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b' });
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 1 });
    expect(game.view().awaiting?.kind).toBe('shortcut');
    accepted(game, { type: 'PUT_ON_STACK', object: { id: 'x', controller: 'B', kind: 'ability' } });
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
    expect(refusal(game, { type: 'ACCEPT_SHORTCUT', player: 'B' })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b', message: expect.stringMatching(/no shortcut awaits an answer/) });
  });

  it('an undo request waits for the vote, and a proposal for an undo vote', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'consent' } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a', speed: 'instant' });
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^B is asked to accept A's undo first/) });
    accepted(game, { type: 'ACCEPT_UNDO', player: 'B' });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'main' } });
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 0 })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2b' });
    // A taken shortcut is a pass by every player: no undo goes back past it.
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(game.view().undo?.A).toEqual({ to: null, requestsLeft: 2 });
  });

  it('is not taken in Grand Melee, where several turns run at once (ILLEGAL_ACTION)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], variant: 'grandMelee' });
    const holder = game.view().priority as string;
    expect(refusal(game, { type: 'PROPOSE_SHORTCUT', player: holder, until: { step: 'end' } })).toMatchObject({ code: 'ILLEGAL_ACTION', rule: '732.2a', message: expect.stringMatching(/Grand Melee/) });
  });
});

describe('legalActions during a proposal', () => {
  it("the awaited player's ACCEPT_SHORTCUT and SHORTEN_SHORTCUT (until to choose; the proposed point is accepted), everyone's concession", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'main' } });
    const listed = game.legalActions();
    expect(listed).toEqual([
      { type: 'CONCEDE', player: 'A', choose: [] },
      { type: 'ACCEPT_SHORTCUT', player: 'B', choose: [] },
      { type: 'SHORTEN_SHORTCUT', player: 'B', choose: ['until'] },
      { type: 'CONCEDE', player: 'B', choose: [] },
    ]);
    const shorten = listed.find((a) => a.type === 'SHORTEN_SHORTCUT');
    if (shorten?.type !== 'SHORTEN_SHORTCUT') throw new Error('listed');
    expect(game.check(fillAction(shorten, { until: { step: 'main' } }))).toEqual({ ok: true });
  });

  it('PROPOSE_SHORTCUT is not listed (its point is the player\'s to describe, as a YIELD\'s); check() answers it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    expect(game.legalActions().some((a) => (a.type as string) === 'PROPOSE_SHORTCUT')).toBe(false);
    expect(game.check({ type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } })).toEqual({ ok: true });
  });
});

describe('served (CONTRACT v3, "Serving games"): who may send them', () => {
  it("a player's client proposes and answers shortcuts and undo requests for its own seat; MARK_IRREVERSIBLE is the host's", async () => {
    const { authorize } = await import('../../src/server/authorize.js');
    const view = { decidedBy: { A: 'A', B: 'B' } };
    const own: TurnEvent[] = [
      { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } },
      { type: 'ACCEPT_SHORTCUT', player: 'A' },
      { type: 'SHORTEN_SHORTCUT', player: 'A', until: { step: 'main' } },
      { type: 'UNDO', player: 'A', to: 0 },
      { type: 'ACCEPT_UNDO', player: 'A' },
      { type: 'DECLINE_UNDO', player: 'A' },
    ];
    for (const event of own) expect(authorize('A', event, view), event.type).toMatchObject({ ok: true });
    for (const event of own) expect(authorize('B', event, view), event.type).toMatchObject({ ok: false, error: { rule: '723.5' } });
    expect(authorize('A', { type: 'MARK_IRREVERSIBLE' }, view)).toMatchObject({ ok: false, error: { rule: 'host' } });
  });
});

describe('persisted, recorded, and shown to every seat', () => {
  it('a proposal is persisted while it is voted on (and only then) and taken alike after restoreGame', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    expect(game.persist()).not.toHaveProperty('shortcut');
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    accepted(game, { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'draw', player: 'C' } });
    const saved = JSON.parse(JSON.stringify(game.persist()));
    expect(saved.shortcut).toEqual({ proposer: 'A', until: { step: 'draw', player: 'C' }, asked: ['C'] });
    const copy = restoreGame(saved, { use: allModules });
    expect(copy.view()).toEqual(game.view());
    for (const g of [game, copy]) accepted(g, { type: 'ACCEPT_SHORTCUT', player: 'C' });
    expect(copy.view()).toEqual(game.view());
    expect(game.persist()).not.toHaveProperty('shortcut');
    const spoilt = { ...saved, shortcut: { ...saved.shortcut, proposer: 'B' } };
    expect(() => restoreGame(spoilt, { use: allModules })).toThrow(/^shortcut\.proposer: B cannot propose a shortcut/);
  });

  it('replayGame takes the recorded shortcut to the same view', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], record: true, hooks: { checkpoint: () => undefined } });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'main' } });
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    const replayed = replayGame(game.recording(), { use: allModules });
    expect(replayed.view()).toEqual(game.view());
    expect(replayed.persist()).toEqual(game.persist());
  });

  it('the proposal is public (it is awaited); the reason of each automatic pass is shown to its own seat only', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'] });
    const toA: SeatEvent[] = [];
    game.on('autoPass', (e) => toA.push(e), { seat: 'A' });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'main' } });
    expect(game.view({ seat: 'A' }).awaiting).toEqual(game.view().awaiting);
    expect(game.view({ spectator: true }).awaiting).toEqual(game.view().awaiting);
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    expect(toA).toEqual([
      { type: 'autoPass', player: 'A', turn: 1, step: 'upkeep', reason: 'shortcut', seq: 6 },
      { type: 'autoPass', player: 'B', turn: 1, step: 'upkeep', seq: 7 },
    ]);
  });
});

describe('nextStop during a vote (CONTRACT v3: what is awaited now, the vote, is answered first with the plainest answer)', () => {
  /** Where the game asks `player` next once the vote is answered the plainest way (a shortcut accepted by all, an undo declined). */
  function afterPlainestAnswers(game: Game, player: string) {
    const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    for (let a = copy.view().awaiting; a?.kind === 'shortcut' || a?.kind === 'undoConsent'; a = copy.view().awaiting) {
      accepted(copy, { type: a.kind === 'shortcut' ? 'ACCEPT_SHORTCUT' : 'DECLINE_UNDO', player: a.player });
    }
    const v = copy.view();
    const a = v.awaiting;
    if (a !== null && (v.decidedBy[a.player] ?? a.player) === player) return { turn: v.turn, activePlayer: v.activePlayer, phase: v.phase, step: v.step, awaiting: a };
    return copy.nextStop(player);
  }

  it("a shortcut voted on: each player's next stop is past the shortcut, as if everyone accepted (CR 732.2c)", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'] });
    accepted(game, { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } });
    expect(game.view().awaiting).toMatchObject({ kind: 'shortcut', player: 'B' });
    // The shortcut stops early where a declaration is due (A's attackers, this turn): A's next stop, not one a turn later.
    expect(game.nextStop('A')).toMatchObject({ turn: 1, step: 'declareAttackers', awaiting: { kind: 'declareAttackers', player: 'A' } });
    // C is asked after B (accepting, the plainest answer, asks the next player: CR 732.2b): C's next stop is that vote, and anyone's.
    const cVotes = { turn: 1, activePlayer: 'A', phase: 'beginning', step: 'upkeep', awaiting: { kind: 'shortcut', player: 'C', proposer: 'A', until: { step: 'end' } } };
    expect(game.nextStop('C')).toEqual(cVotes);
    expect(game.nextStop()).toEqual(cVotes);
    for (const p of ['A', 'B']) expect(game.nextStop(p), p).toEqual(afterPlainestAnswers(game, p));
    accepted(game, { type: 'ACCEPT_SHORTCUT', player: 'B' });
    for (const p of ['A', 'B', 'C']) expect(game.nextStop(p), p).toEqual(afterPlainestAnswers(game, p));
  });

  it("an undo request voted on: the requester's own decision, awaited by the turn behind the vote, is their next stop", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'consent' } });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'B' });
    accepted(game, { type: 'CAST_SPELL', player: 'B', id: 'b1', speed: 'instant' });
    // From now on B is asked only in the end step of others' turns (and wherever the stack holds something).
    accepted(game, { type: 'SET_STOPS', player: 'B', stops: [{ step: 'end', turn: 'others' }] });
    accepted(game, { type: 'UNDO', player: 'B', to: 1 });
    expect(game.view().awaiting).toMatchObject({ kind: 'undoConsent', player: 'A', requester: 'B' });
    // Declined, the game is as it is: B holds priority with the spell on the stack, and is asked there.
    expect(game.nextStop('B')).toEqual({ turn: 1, activePlayer: 'A', phase: 'beginning', step: 'upkeep', awaiting: { kind: 'priority', player: 'B' } });
    for (const p of ['A', 'B']) expect(game.nextStop(p), p).toEqual(afterPlainestAnswers(game, p));
  });
});
