/**
 * Undo with a policy (CONTRACT v3, "Playing between people", "Undo"; issue 24 point 3), sentence
 * by sentence: the option, each boundary of `view().undo[player].to` (each with its own test),
 * 'own' and 'consent', a decline, `maxPerTurn`, `undone` and the restored view, persistence,
 * recordings, private seats and legalActions.
 */
import { describe, expect, it } from 'vitest';
import { createGame, recordingToScenario, replayGame, restoreGame, runScenario, TurnEngineError, type CheckpointResult, type EmittedEvent, type Game, type GameOptions, type TurnEvent, type TurnView } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';

const own = { mode: 'own' } as const;
const consent = { mode: 'consent' } as const;

function accepted(game: Game, event: TurnEvent): EmittedEvent[] {
  const result = game.send(event);
  if (!result.ok) throw new Error(`${JSON.stringify(event)} refused: ${result.error.message}`);
  return result.events;
}

/** Answers plainly (passes, no attackers, no blockers) until the game reaches `step` of `turn`. */
function playTo(game: Game, turn: number, step: TurnView['step']): void {
  for (let i = 0; i < 500; i++) {
    const v = game.view();
    if (v.turn === turn && v.step === step && v.awaiting?.kind === 'priority') return;
    const a = v.awaiting;
    if (a === null) throw new Error('the game is over');
    accepted(game, a.kind === 'declareAttackers' ? { type: 'DECLARE_ATTACKERS', player: a.player, attackers: [] } : a.kind === 'declareBlockers' ? { type: 'DECLARE_BLOCKERS', player: a.player, blockers: [] } : { type: 'PASS_PRIORITY', player: a.player });
  }
  throw new Error(`never reached turn ${turn} ${step}`);
}

/** The earliest version `player` may return to; the current one when nothing can be undone (view().undo's `to` is null then). */
const horizon = (game: Game, player: string) => game.view().undo?.[player]?.to ?? game.view().version;
/** The versions `player` may return to now, oldest first: the host's legalActions lists them (the view shows only the earliest). */
const versions = (game: Game, player: string) => game.legalActions(player).flatMap((a) => (a.type === 'UNDO' ? [a.to] : [])).sort((x, y) => x - y);
const refusal = (game: Game, event: TurnEvent) => {
  const result = game.send(event);
  return result.ok ? 'accepted' : result.error;
};

describe('the undo option (CONTRACT v3: createGame({ undo: { mode, maxPerTurn? } }), default none)', () => {
  it('a game without it persists exactly as before: no undo field, no view.undo, UNDO refused', () => {
    const plain = createGame({ use: allModules, players: ['A', 'B'], seed: 1 });
    const none = createGame({ use: allModules, players: ['A', 'B'], seed: 1, undo: { mode: 'none' } });
    for (const game of [plain, none]) {
      accepted(game, { type: 'CAST_SPELL', player: 'A', id: 's', speed: 'instant' });
      expect(game.persist()).not.toHaveProperty('undo');
      expect(game.view().undo).toBeNull();
      expect(refusal(game, { type: 'UNDO', player: 'A', to: 0 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/no undo/) });
    }
    expect(JSON.stringify(none.persist())).toBe(JSON.stringify(plain.persist()));
  });

  it.each([
    [{ mode: 'always' }, /^options\.undo\.mode: must be one of 'none', 'own', 'consent'/],
    [{ mode: 'own', maxPerTurn: -1 }, /^options\.undo\.maxPerTurn: must be an integer from 0/],
    [{ mode: 'own', maxPerTurn: 1.5 }, /^options\.undo\.maxPerTurn: /],
    [{}, /^options\.undo\.mode: /],
    ['own', /^options\.undo: /],
  ])('bad options are INVALID_OPTIONS naming the field: %j', (undo, message) => {
    const make = () => createGame({ use: allModules, players: ['A', 'B'], undo } as unknown as GameOptions);
    expect(make).toThrow(TurnEngineError);
    expect(make).toThrow(message);
  });

  it('view().undo (CONTRACT v4) has one entry per player in the game: { to, requestsLeft }, to null when nothing can be undone, requestsLeft from maxPerTurn (default 3)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    expect(game.view().undo).toEqual({ A: { to: null, requestsLeft: 3 }, B: { to: null, requestsLeft: 3 } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 's1', speed: 'instant' });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 's2', speed: 'instant' });
    expect(game.view().undo).toEqual({ A: { to: 0, requestsLeft: 3 }, B: { to: null, requestsLeft: 3 } });
    expect(versions(game, 'A')).toEqual([0, 1]);
    accepted(game, { type: 'UNDO', player: 'A', to: 1 });
    expect(game.view().undo?.A).toEqual({ to: 0, requestsLeft: 2 });
    // Without a limit (maxPerTurn: null) requestsLeft is null.
    const unlimited = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'own', maxPerTurn: null } });
    expect(unlimited.view().undo?.A).toEqual({ to: null, requestsLeft: null });
  });
});

describe('the horizon: never before ... (CONTRACT v3, view().undo[player].to), each boundary', () => {
  it("another player's decision: B casts a spell; A may no longer return before it, B may", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' }); // v1
    expect(horizon(game, 'A')).toBe(0);
    accepted(game, { type: 'CAST_SPELL', player: 'B', id: 'b1', speed: 'instant' }); // v2
    expect(horizon(game, 'A')).toBe(2);
    expect(versions(game, 'B')).toEqual([1]);
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 1 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/horizon/) });
  });

  it("a pass by another player, alone: B's automatic pass with an empty stack bounds A, nothing else in the send does", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: own });
    accepted(game, { type: 'SET_STOPS', player: 'B', stops: [{ step: 'end', turn: 'any' }] }); // v1
    const events = accepted(game, { type: 'PASS_PRIORITY', player: 'A' }); // v2: B passes automatically, C holds priority
    expect(events).toEqual([expect.objectContaining({ type: 'autoPass', player: 'B', reason: 'noStop' })]);
    expect(game.view().priority).toBe('C');
    expect(horizon(game, 'A')).toBe(2);
    // C, who passed nothing and decided nothing, is bounded too (A's pass, B's pass).
    expect(horizon(game, 'C')).toBe(2);
  });

  it('the start of the current turn: the player whose pass began the turn may not return before it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    playTo(game, 1, 'end');
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    const last = game.view().version;
    expect(horizon(game, 'B')).toBeLessThan(last + 1);
    const events = accepted(game, { type: 'PASS_PRIORITY', player: 'B' }); // turn 2 begins, B's upkeep
    expect(events.some((e) => e.type === 'turnBegan')).toBe(true);
    expect(game.view().turn).toBe(2);
    expect(game.view().undo).toEqual({ A: { to: null, requestsLeft: 3 }, B: { to: null, requestsLeft: 3 } });
    expect([horizon(game, 'A'), horizon(game, 'B')]).toEqual([last + 1, last + 1]);
  });

  it('a random result: the planar die (the seeded generator) bounds even the player who rolled it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], variant: 'planechase', undo: own });
    playTo(game, 1, 'main');
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 1 });
    const before = game.view().version;
    expect(versions(game, 'A')).toContain(before - 1);
    const events = accepted(game, { type: 'ROLL_PLANAR_DIE', player: 'A' });
    expect(events.some((e) => e.type === 'planarDie')).toBe(true);
    expect(horizon(game, 'A')).toBe(before + 1);
  });

  it('an emitted draw: the player whose pass began the draw step may not return before it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    playTo(game, 2, 'upkeep'); // B's turn
    accepted(game, { type: 'PASS_PRIORITY', player: 'B' });
    const events = accepted(game, { type: 'PASS_PRIORITY', player: 'A' }); // the draw step: B draws
    expect(events).toContainEqual(expect.objectContaining({ type: 'draw', player: 'B' }));
    expect(horizon(game, 'A')).toBe(game.view().version);
  });

  it('an emitted drawHand: a mulligan bounds the player who took it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], pregame: true, seed: 3, undo: own });
    const chooser = game.view().awaiting?.player as string;
    accepted(game, { type: 'CHOOSE_STARTING_PLAYER', player: chooser, starting: 'A' });
    expect(game.view().awaiting).toMatchObject({ kind: 'mulligan', player: 'A' });
    const events = accepted(game, { type: 'MULLIGAN', player: 'A' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'drawHand', player: 'A' }));
    expect(horizon(game, 'A')).toBe(game.view().version);
  });

  it('an emitted resolve: the player whose pass resolved the spell may not return before it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    expect(versions(game, 'B')).toEqual([]);
    accepted(game, { type: 'ADD_MANA', player: 'B', amount: 1 }); // B's mana: B may take it back
    expect(versions(game, 'B')).toEqual([2]);
    const events = accepted(game, { type: 'PASS_PRIORITY', player: 'B' });
    expect(events).toContainEqual(expect.objectContaining({ type: 'resolve' }));
    expect(horizon(game, 'B')).toBe(game.view().version);
  });

  it('a checkpoint whose hook returned anything (and not one that returned nothing)', () => {
    // The hook reports what it is given once (a call that reports anything is followed by another, CR 704.3).
    let report: CheckpointResult | undefined;
    const checkpoint = () => {
      const r = report;
      report = undefined;
      return r;
    };
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own, hooks: { checkpoint } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' }); // the hook reports nothing
    expect(horizon(game, 'A')).toBe(0);
    report = { events: [{ type: 'HAND_SIZE', player: 'A', size: 6 }] };
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' });
    expect(horizon(game, 'A')).toBe(2);
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 1 })).toMatchObject({ code: 'ILLEGAL_ACTION' });
  });

  it("the host event { type: 'MARK_IRREVERSIBLE' } (a reveal)", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    expect(versions(game, 'A')).toEqual([0]);
    accepted(game, { type: 'MARK_IRREVERSIBLE' });
    expect(game.view().undo).toEqual({ A: { to: null, requestsLeft: 3 }, B: { to: null, requestsLeft: 3 } });
    expect(game.view().version).toBe(2);
    // Accepted, and changing nothing else, in a game without undo too.
    const plain = createGame({ use: allModules, players: ['A', 'B'] });
    const before = plain.view();
    expect(accepted(plain, { type: 'MARK_IRREVERSIBLE' })).toEqual([]);
    expect(plain.view()).toEqual({ ...before, version: 1 });
  });

  it('MARK_IRREVERSIBLE is a host event everywhere: accepted without the table module (it changes nothing), and from a checkpoint hook (a point no undo goes back past)', () => {
    const bare = createGame({ players: ['A', 'B'] });
    const before = bare.view();
    expect(accepted(bare, { type: 'MARK_IRREVERSIBLE' })).toEqual([]);
    expect(bare.view()).toEqual({ ...before, version: 1 });
    let reveal = false;
    const hooks = { checkpoint: () => (reveal ? ((reveal = false), { events: [{ type: 'MARK_IRREVERSIBLE' } as const] }) : undefined) };
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own, hooks });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    expect(versions(game, 'A')).toEqual([0]);
    reveal = true;
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' });
    expect(reveal).toBe(false);
    expect(game.view().undo?.A?.to).toBeNull();
    expect(game.view().stack.map((o) => o.id)).toEqual(['a1', 'a2']);
    // Without a table the hook's MARK_IRREVERSIBLE changes nothing either.
    reveal = true;
    const plain = createGame({ players: ['A', 'B'], hooks });
    accepted(plain, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    expect(reveal).toBe(false);
    expect(plain.view().stack.map((o) => o.id)).toEqual(['a1']);
  });
});

describe("UNDO with 'own': the game returns to version `to` at once", () => {
  it("a version another player's setting made (no undo point for others) names the state before it: accepted, as `to >= undo[player].to` says", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' }); // v1
    accepted(game, { type: 'SET_STOPS', player: 'B', stops: [{ step: 'end', turn: 'any' }] }); // v2: B's own setting
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' }); // v3
    // Not listed (it would tell A that B changed a setting), but a state of the game's line.
    expect(versions(game, 'A')).toEqual([0, 1]);
    const events = accepted(game, { type: 'UNDO', player: 'A', to: 2 });
    expect(events).toEqual([{ type: 'undone', toVersion: 2, toSeq: expect.any(Number), seq: expect.any(Number) }]);
    expect(game.view().stack.map((o) => o.id)).toEqual(['a1']);
    // B's stops stand; the versions an undo took back are refused, saying so.
    expect(game.view().stops.B).toEqual([{ step: 'end', turn: 'any' }]);
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 3 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/not before the current state|an undo took it back/) });
  });

  it('emits undone { toVersion, toSeq }; the view equals the one at that version, but for version and seq (they go on) and the request counted', () => {
    const views: TurnView[] = [];
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own, listeners: { '*': () => undefined } });
    views.push(game.view());
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 3 });
    views.push(game.view());
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    views.push(game.view());
    accepted(game, { type: 'SPEND_MANA', player: 'A', amount: 2 });
    const at = game.view();
    const events = accepted(game, { type: 'UNDO', player: 'A', to: 1 });
    expect(events).toEqual([{ type: 'undone', toVersion: 1, toSeq: views[1]!.seq, seq: at.seq + 1 }]);
    const now = game.view();
    expect(now.version).toBe(at.version + 1);
    expect(now.seq).toBe(at.seq + 1);
    const was = views[1]!;
    expect({ ...now, version: was.version, seq: was.seq, undo: { ...now.undo, A: { ...now.undo!.A!, requestsLeft: 3 } } }).toEqual(was);
    expect(now.undo?.A?.requestsLeft).toBe(2);
    expect(now.manaPool.A).toBe(3);
    expect(now.stack).toEqual([]);
  });

  it('refuses a version before the horizon, the current state, and one undone (ILLEGAL_ACTION naming the field)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' }); // v1
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' }); // v2
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 2 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^event\.to: 2 is not before the current state/) });
    expect(refusal(game, { type: 'UNDO', player: 'B', to: 0 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^event\.to: 0 is before B's horizon, version 2 \(view\.undo\.B\.to = null\)/) });
    expect(refusal(game, { type: 'UNDO', player: 'B', to: 2 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^B has nothing to undo/) });
    accepted(game, { type: 'UNDO', player: 'A', to: 0 }); // v3: back at version 0
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a3', speed: 'instant' }); // v4
    // Version 3, the undo's, is version 0's state under the number the players saw it by; 1 and 2 were undone.
    expect(versions(game, 'A')).toEqual([0, 3]);
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 1 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^event\.to: version 1 is not a state of the game's line/) });
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 3.5 } as TurnEvent)).toMatchObject({ code: 'INVALID_EVENT', message: expect.stringMatching(/^UNDO: event\.to: must be an integer/) });
    expect(refusal(game, { type: 'UNDO', player: 'Z', to: 0 })).toMatchObject({ code: 'INVALID_EVENT', message: "event.player: 'Z' is not a player of this game" });
  });

  it("an undo restores the horizons of the version it returns to (another player's may reach back again)", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' }); // v1: B holds priority
    accepted(game, { type: 'CAST_SPELL', player: 'B', id: 'b1', speed: 'instant' }); // v2: A bounded at 2
    expect(horizon(game, 'A')).toBe(2);
    accepted(game, { type: 'UNDO', player: 'B', to: 1 }); // B takes back the spell
    expect(game.view().undo?.A).toEqual({ to: 0, requestsLeft: 3 });
    expect(versions(game, 'A')).toEqual([0]);
    expect(versions(game, 'B')).toEqual([]);
    accepted(game, { type: 'UNDO', player: 'A', to: 0 }); // and A their pass
    expect(game.view().priority).toBe('A');
  });

  it("a version an undo made is a `to` like any other (CONTRACT: 'returns to version to ... if to >= undo[player].to'), kept through persist and restore", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'own', maxPerTurn: 5 } });
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 2 }); // v1
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' }); // v2
    accepted(game, { type: 'UNDO', player: 'A', to: 1 }); // v3: version 1's state again
    const afterUndo = game.view();
    expect(afterUndo.version).toBe(3);
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' }); // v4
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a3', speed: 'instant' }); // v5
    expect(versions(game, 'A')).toEqual([0, 1, 3, 4]);
    const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(versions(copy, 'A')).toEqual([0, 1, 3, 4]);
    for (const g of [game, copy]) {
      const seq = g.view().seq;
      const events = accepted(g, { type: 'UNDO', player: 'A', to: 3 });
      // The host returns its state to what it was after the event the game had reached at version 3: the `undone` of that undo.
      expect(events).toEqual([{ type: 'undone', toVersion: 3, toSeq: afterUndo.seq, seq: seq + 1 }]);
      expect({ ...g.view(), version: 3, seq: afterUndo.seq, undo: null }).toEqual({ ...afterUndo, undo: null });
      expect(g.view().stack).toEqual([]);
      expect(g.view().manaPool.A).toBe(2);
      // Both names of the state stay: 1, and 3 and 6 (the undos'); undoing to one of them now changes nothing the view shows but the numbers.
      accepted(g, { type: 'CAST_SPELL', player: 'A', id: 'a4', speed: 'instant' }); // v7
      expect(versions(g, 'A')).toEqual([0, 1, 3, 6]);
      expect(refusal(g, { type: 'UNDO', player: 'A', to: 4 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^event\.to: version 4 is not a state of the game's line/) });
    }
  });

  it('refuses a snapshot whose undo history names a version an undo made out of order (INVALID_SNAPSHOT naming undo.history[i].also)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' }); // v1
    accepted(game, { type: 'UNDO', player: 'A', to: 0 }); // v2
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' }); // v3
    const saved = JSON.parse(JSON.stringify(game.persist()));
    expect(saved.undo.history[0].also).toEqual([{ version: 2, seq: expect.any(Number) }]);
    for (const also of [[{ version: 0, seq: 0 }], [{ version: 3, seq: 0 }], [{ version: 2, seq: 99 }], [{ version: 2, seq: 0 }, { version: 2, seq: 0 }], [2]]) {
      const tampered = structuredClone(saved);
      tampered.undo.history[0].also = also;
      expect(() => restoreGame(tampered, { use: allModules }), JSON.stringify(also)).toThrow(/undo\.history\[0\]\.also/);
    }
  });
});

describe("UNDO with 'consent': each other player in turn order is awaited", () => {
  function threePlayers(): Game {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: consent });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' }); // v1
    return game;
  }

  it("awaiting.kind 'undoConsent' with player, requester and to; ACCEPT_UNDO from each in turn order; then the undo", () => {
    const game = threePlayers();
    expect(accepted(game, { type: 'UNDO', player: 'A', to: 0 })).toEqual([]);
    expect(game.view().awaiting).toEqual({ kind: 'undoConsent', player: 'B', requester: 'A', to: 0 });
    expect(game.view().priority).toBe('A');
    expect(game.view().undo?.A?.requestsLeft).toBe(2);
    expect(refusal(game, { type: 'ACCEPT_UNDO', player: 'C' })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^B is asked/) });
    expect(accepted(game, { type: 'ACCEPT_UNDO', player: 'B' })).toEqual([]);
    expect(game.view().awaiting).toEqual({ kind: 'undoConsent', player: 'C', requester: 'A', to: 0 });
    const events = accepted(game, { type: 'ACCEPT_UNDO', player: 'C' });
    expect(events).toEqual([expect.objectContaining({ type: 'undone', toVersion: 0 })]);
    expect(game.view().stack).toEqual([]);
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
  });

  it('one decline ends the request; the game goes on as it was', () => {
    const game = threePlayers();
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    accepted(game, { type: 'DECLINE_UNDO', player: 'B' });
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
    expect(game.view().stack).toHaveLength(1);
    expect(refusal(game, { type: 'ACCEPT_UNDO', player: 'C' })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/no undo request awaits an answer/) });
  });

  it("no decision is made while a vote is pending; the host's events are", () => {
    const game = threePlayers();
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    expect(refusal(game, { type: 'PASS_PRIORITY', player: 'A' })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/B is asked to accept A's undo first/) });
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 0 })).toMatchObject({ code: 'ILLEGAL_ACTION' });
    accepted(game, { type: 'ADD_MANA', player: 'C', amount: 1 });
    expect(game.view().awaiting?.kind).toBe('undoConsent');
    // A point of no return while the vote is pending ends the request.
    accepted(game, { type: 'MARK_IRREVERSIBLE' });
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
  });

  it('the vote is public: every seat and spectators see it awaited', () => {
    const game = threePlayers();
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    for (const viewer of [{ seat: 'A' }, { seat: 'C' }, { spectator: true as const }]) expect(game.view(viewer).awaiting).toEqual(game.view().awaiting);
  });

  it('legalActions lists ACCEPT_UNDO and DECLINE_UNDO for the awaited player only, and nothing but concessions for the others', () => {
    const game = threePlayers();
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    expect(game.legalActions()).toEqual([
      { type: 'CONCEDE', player: 'A', choose: [] },
      { type: 'DECLINE_UNDO', player: 'B', choose: [] },
      { type: 'ACCEPT_UNDO', player: 'B', choose: [] },
      { type: 'CONCEDE', player: 'B', choose: [] },
      { type: 'CONCEDE', player: 'C', choose: [] },
    ]);
  });

  it("CONTRACT v4: the asked player's clock runs while they are asked (v3 paused every clock), and time spent stays spent", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: consent, clock: { initialMs: 60_000, onTimeout: 'lose' } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant', at: 1_000 }); // the clocks start
    accepted(game, { type: 'UNDO', player: 'A', to: 0, at: 5_000 }); // A thought for 4 s
    expect(game.view().clocks).toMatchObject({ A: { msLeft: 56_000, running: false }, B: { msLeft: 60_000, running: true } });
    accepted(game, { type: 'TICK', at: 25_000 });
    expect(game.view().clocks).toMatchObject({ A: { msLeft: 56_000 }, B: { msLeft: 40_000, running: true } });
    accepted(game, { type: 'ACCEPT_UNDO', player: 'B', at: 30_000 });
    // Back at version 0, A's clock runs again from where it was: the 4 s stay spent, and B's 25 s too.
    expect(game.view().stack).toEqual([]);
    expect(game.view().clocks).toMatchObject({ A: { msLeft: 56_000, running: true }, B: { msLeft: 35_000, running: false } });
    accepted(game, { type: 'TICK', at: 31_000 });
    expect(game.view().clocks?.A?.msLeft).toBe(55_000);
  });

  it('an undo takes back the increments of the decisions it undid: a decision and its undo gain no time, however often', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'own', maxPerTurn: null }, clock: { initialMs: 60_000, incrementMs: 10_000, onTimeout: 'lose' } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a0', speed: 'instant', at: 0 }); // the clocks start (A's first decision gains 10 s)
    const start = game.view().version;
    const before = game.view().clocks?.A?.msLeft as number;
    for (let i = 0; i < 5; i++) {
      accepted(game, { type: 'CAST_SPELL', player: 'A', id: `a${i + 1}`, speed: 'instant', at: 2_000 * i + 1_000 }); // 1 s thought, +10 s
      expect(game.view().clocks?.A?.msLeft).toBe(before - 2_000 * i - 1_000 + 10_000);
      accepted(game, { type: 'UNDO', player: 'A', to: start, at: 2_000 * i + 2_000 }); // taken back: the 10 s go, the 2 s stay spent
      expect(game.view().clocks?.A?.msLeft).toBe(before - 2_000 * (i + 1));
    }
    // Persisted and restored, the log of the turn's increments goes with the clocks.
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'b', speed: 'instant', at: 11_000 });
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    for (const g of [game, restored]) accepted(g, { type: 'UNDO', player: 'A', to: start, at: 12_000 });
    expect(restored.view().clocks).toEqual(game.view().clocks);
    expect(game.view().clocks?.A?.msLeft).toBe(before - 12_000);
  });

  it('a clock whose time was an undone increment runs out at the undo (onTimeout: the player loses)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'own', maxPerTurn: null }, clock: { initialMs: 5_000, incrementMs: 10_000, onTimeout: 'lose' } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a0', speed: 'instant', at: 0 });
    const start = game.view().version;
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant', at: 14_000 }); // 1 s left, +10 s
    const events = accepted(game, { type: 'UNDO', player: 'A', to: start, at: 20_000 }); // 5 s left without the increment: none
    expect(events.map((e) => e.type)).toEqual(['undone', 'playerLeft', 'removedFromStack', 'gameOver']);
    expect(game.view().clocks?.A).toMatchObject({ msLeft: 0, flagged: true });
  });

  it('refuses a snapshot whose log of increments contradicts it (a clock it lacks, versions out of order or to come)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own, clock: { initialMs: 60_000, incrementMs: 1_000, onTimeout: 'lose' } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a0', speed: 'instant', at: 0 });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant', at: 1 });
    const saved = JSON.parse(JSON.stringify(game.persist())) as { version: number; time: { clock: { earned: { version: number; unit: string }[] } } };
    expect(saved.time.clock.earned).toEqual([
      { version: 1, unit: 'A' },
      { version: 2, unit: 'A' },
    ]);
    const bad = (earned: unknown) => ({ ...saved, time: { ...saved.time, clock: { ...saved.time.clock, earned } } });
    for (const [earned, field] of [
      [[{ version: 2, unit: 'Z' }], 'earned[0].unit'],
      [[{ version: 2, unit: 'A' }, { version: 1, unit: 'A' }], 'earned[1].version'],
      [[{ version: saved.version + 1, unit: 'A' }], 'earned[0].version'],
    ] as const) {
      expect(() => restoreGame(bad(earned), { use: allModules })).toThrow(expect.objectContaining({ code: 'INVALID_SNAPSHOT', message: expect.stringContaining(`time.clock.${field}`) }));
    }
  });

  it('exposes the pending vote for the clocks (its deadline null: a request in a game that saw no `at` never expires)', async () => {
    const { shellAccess } = await import('../../src/game/shell.js');
    const game = threePlayers();
    expect(shellAccess(game)?.pendingVote()).toBeNull();
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    expect(shellAccess(game)?.pendingVote()).toEqual({ kind: 'undoConsent', player: 'B', deadline: null });
  });
});

describe('maxPerTurn: more requests of one player in a turn are ILLEGAL_ACTION naming the limit', () => {
  it('counts every request (accepted, declined) through the undo, and afresh each turn', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'consent', maxPerTurn: 2 } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    accepted(game, { type: 'DECLINE_UNDO', player: 'B' });
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    accepted(game, { type: 'ACCEPT_UNDO', player: 'B' });
    expect(game.view().undo?.A?.requestsLeft).toBe(0);
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' });
    expect(refusal(game, { type: 'UNDO', player: 'A', to: game.view().version - 1 })).toEqual({
      code: 'ILLEGAL_ACTION',
      message: 'A has made 2 undo requests this turn, the limit (undo.maxPerTurn = 2)',
    });
    expect(game.legalActions('A').some((a) => a.type === 'UNDO')).toBe(false);
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    accepted(game, { type: 'PASS_PRIORITY', player: 'B' });
    playTo(game, 2, 'upkeep');
    expect(game.view().undo?.A?.requestsLeft).toBe(2);
  });
});

describe('CONTRACT v4: undo cannot stall a table (issue 31 point 3)', () => {
  const clock = { initialMs: 600_000, onTimeout: 'lose' } as const;

  /** A, B and C; A cast a spell at 1000 and asks at 2000 to take it back: B is asked. */
  function asked(options: Partial<GameOptions> = {}): Game {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: consent, ...options });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant', at: 1000 });
    accepted(game, { type: 'UNDO', player: 'A', to: 0, at: 2000 });
    expect(game.view().awaiting).toMatchObject({ kind: 'undoConsent', player: 'B' });
    return game;
  }

  it('maxPerTurn defaults to 3', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    for (let i = 0; i < 3; i++) {
      accepted(game, { type: 'ADD_MANA', player: 'A', amount: 1 });
      accepted(game, { type: 'UNDO', player: 'A', to: versions(game, 'A').at(-1) as number });
    }
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 1 });
    expect(game.view().undo?.A).toEqual({ to: 0, requestsLeft: 0 });
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 0 })).toEqual({ code: 'ILLEGAL_ACTION', message: 'A has made 3 undo requests this turn, the limit (undo.maxPerTurn = 3)' });
  });

  it("undos in 'own' mode count toward maxPerTurn as requests do", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: { mode: 'own', maxPerTurn: 1 } });
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 1 });
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 1 });
    expect(game.view().undo?.A?.requestsLeft).toBe(0);
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 1 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/undo\.maxPerTurn = 1/) });
  });

  it('with clocks, a request not answered within undo.answerMs (default 30,000) of its at is declined for the player asked by a TICK, as their DECLINE_UNDO; nextDeadline names it', () => {
    const game = asked({ clock });
    const declined = asked({ clock });
    expect(game.nextDeadline()).toEqual({ player: 'B', at: 32_000 });
    expect(accepted(game, { type: 'TICK', at: 31_999 })).toEqual([]);
    expect(game.view().awaiting?.kind).toBe('undoConsent');
    const events = accepted(game, { type: 'TICK', at: 32_000 });
    // B declining in time emits the same (nothing) and leaves the same game, but for the clocks.
    const answered = accepted(declined, { type: 'DECLINE_UNDO', player: 'B', at: 31_999 });
    expect(events).toEqual(answered);
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
    expect(game.view().stack).toHaveLength(1);
    expect({ ...game.view(), version: 0, clocks: null }).toEqual({ ...declined.view(), version: 0, clocks: null });
    // At the deadline the request was declined first: B's answer is refused, naming that none awaits one.
    expect(refusal(asked({ clock }), { type: 'DECLINE_UNDO', player: 'B', at: 32_000 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/no undo request awaits an answer/) });
  });

  it("the asked player's clock runs while they are asked: an unanswered request never stops time", () => {
    const game = asked({ clock });
    expect(game.view().clocks).toMatchObject({ A: { running: false }, B: { running: true }, C: { running: false } });
    accepted(game, { type: 'TICK', at: 12_000 });
    expect(game.view().clocks?.B?.msLeft).toBe(590_000);
  });

  it('any later send carrying at past the deadline declines it first, as a step of its own; the send is then gated against the game as it is', () => {
    const game = asked({ clock, undo: { mode: 'consent', answerMs: 5000 } });
    expect(game.nextDeadline()).toEqual({ player: 'B', at: 7000 });
    const version = game.view().version;
    // A may act again: the request was declined at 7000.
    accepted(game, { type: 'PASS_PRIORITY', player: 'A', at: 8000 });
    expect(game.view().version).toBe(version + 2);
    expect(game.view().priority).toBe('B');
  });

  it('without clocks, answerMs counts from the at of the request to the at of a later send or TICK', () => {
    const game = asked({ undo: { mode: 'consent', answerMs: 5000 } });
    expect(game.nextDeadline()).toEqual({ player: 'B', at: 7000 });
    accepted(game, { type: 'ADD_MANA', player: 'C', amount: 1, at: 6000 });
    expect(game.view().awaiting?.kind).toBe('undoConsent');
    accepted(game, { type: 'TICK', at: 7000 });
    expect(game.view().awaiting).toEqual({ kind: 'priority', player: 'A' });
  });

  it('with no at at all, a request never expires', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: consent });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    expect(game.nextDeadline()).toBeNull();
    expect(game.persist().undo?.vote).not.toHaveProperty('since');
  });

  it('the deadline is persisted: a restored request expires at the same time', () => {
    const game = asked({ clock });
    const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(copy.nextDeadline()).toEqual({ player: 'B', at: 32_000 });
    accepted(copy, { type: 'TICK', at: 40_000 });
    accepted(game, { type: 'TICK', at: 40_000 });
    expect(copy.view()).toEqual(game.view());
    expect(copy.view().awaiting?.kind).toBe('priority');
  });

  it('a request while any other player still in the game is away (grace or not) is refused ILLEGAL_ACTION naming them; legalActions lists none', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: consent, away: { graceMs: 60_000, then: 'wait' } });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant', at: 1000 });
    accepted(game, { type: 'SET_SEAT_STATUS', player: 'C', status: 'away', at: 1500 });
    const before = JSON.stringify(game.persist());
    expect(refusal(game, { type: 'UNDO', player: 'A', to: 0, at: 2000 })).toMatchObject({ code: 'ILLEGAL_ACTION', message: expect.stringMatching(/^C is away/) });
    expect(JSON.stringify(game.persist())).toBe(before);
    expect(game.legalActions('A').some((a) => a.type === 'UNDO')).toBe(false);
    accepted(game, { type: 'SET_SEAT_STATUS', player: 'C', status: 'connected', at: 2500 });
    expect(game.legalActions('A')).toContainEqual({ type: 'UNDO', player: 'A', to: 0, choose: [] });
    accepted(game, { type: 'UNDO', player: 'A', to: 0, at: 3000 });
  });

  it('bad answerMs and maxPerTurn are INVALID_OPTIONS naming the field', () => {
    for (const [undo, message] of [
      [{ mode: 'consent', answerMs: 0 }, /^options\.undo\.answerMs: /],
      [{ mode: 'consent', answerMs: 'soon' }, /^options\.undo\.answerMs: /],
      [{ mode: 'consent', maxPerTurn: 'many' }, /^options\.undo\.maxPerTurn: /],
    ] as const) {
      expect(() => createGame({ use: allModules, players: ['A', 'B'], undo } as unknown as GameOptions)).toThrow(message);
    }
  });
});

describe("no leak through undo (issue 33): a player's own settings are no undo point for others, and no undo takes them back", () => {
  it("C's SET_STOPS and YIELD change no other seat's view of undo, nor the UNDOs listed", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    const seatViews = () => ['A', 'B'].map((seat) => game.view({ seat }).undo);
    const before = seatViews();
    const listed = versions(game, 'A');
    accepted(game, { type: 'SET_STOPS', player: 'C', stops: [{ step: 'end', turn: 'any' }] });
    accepted(game, { type: 'YIELD', player: 'C', until: 'endOfTurn' });
    expect(seatViews()).toEqual(before);
    expect(versions(game, 'A')).toEqual(listed);
  });

  it("another player's undo does not take back C's settings", () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: own });
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 1 }); // v1
    accepted(game, { type: 'SET_STOPS', player: 'C', stops: [{ step: 'end', turn: 'any' }] }); // v2
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    expect(game.view().manaPool.A).toBe(0);
    expect(game.view().stops.C).toEqual([{ step: 'end', turn: 'any' }]);
    expect(JSON.stringify(restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules }).view())).toBe(JSON.stringify(game.view()));
  });
});

describe('legalActions lists UNDO exactly when send accepts it', () => {
  it('one template per version the player may return to (the latest first), each accepted; none when a vote is pending', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: consent });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' });
    const undos = game.legalActions('A').filter((a) => a.type === 'UNDO');
    expect(undos).toEqual([
      { type: 'UNDO', player: 'A', to: 1, choose: [] },
      { type: 'UNDO', player: 'A', to: 0, choose: [] },
    ]);
    for (const a of undos) expect(game.check({ type: 'UNDO', player: a.player, to: a.to })).toEqual({ ok: true });
    expect(game.legalActions('B').filter((a) => a.type === 'UNDO')).toEqual([]);
    expect(game.check({ type: 'UNDO', player: 'B', to: 0 }).ok).toBe(false);
  });
});

describe('everything is persisted: the states back to the horizon survive persist() and restoreGame', () => {
  it('a restored game undoes as the original does, to the same view; mid-vote too', () => {
    const game = createGame({ use: allModules, players: ['A', 'B', 'C'], undo: consent, seed: 5 });
    accepted(game, { type: 'ADD_MANA', player: 'A', amount: 2 });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    const saved = JSON.parse(JSON.stringify(game.persist()));
    const copy = restoreGame(saved, { use: allModules });
    expect(copy.view()).toEqual(game.view());
    expect(copy.legalActions()).toEqual(game.legalActions());
    for (const g of [game, copy]) accepted(g, { type: 'UNDO', player: 'A', to: 1 });
    const midVote = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(midVote.view()).toEqual(game.view());
    for (const g of [game, copy, midVote]) {
      accepted(g, { type: 'ACCEPT_UNDO', player: 'B' });
      accepted(g, { type: 'ACCEPT_UNDO', player: 'C' });
    }
    expect(copy.view()).toEqual(game.view());
    expect(midVote.view()).toEqual(game.view());
    expect(JSON.stringify(copy.persist())).toBe(JSON.stringify(game.persist()));
    expect(game.view().manaPool.A).toBe(2);
  });

  it('refuses a persisted undo record that contradicts itself or the game (INVALID_SNAPSHOT naming the field)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    const good = JSON.parse(JSON.stringify(game.persist()));
    const spoilt = (change: (p: { undo: { history: { version: number; horizons: Record<string, number>; game?: unknown }[]; mode: string } }) => void) => {
      const copy = structuredClone(good);
      change(copy);
      try {
        restoreGame(copy, { use: allModules });
        return 'restored';
      } catch (err) {
        return (err as TurnEngineError).code + ': ' + (err as Error).message;
      }
    };
    expect(spoilt((p) => (p.undo.mode = 'sometimes'))).toMatch(/^INVALID_SNAPSHOT: undo\.mode: /);
    expect(spoilt((p) => (p.undo.history[1]!.version = 0))).toMatch(/^INVALID_SNAPSHOT: undo\.history\[1\]\.version: /);
    expect(spoilt((p) => (p.undo.history[0]!.horizons.A = 7))).toMatch(/^INVALID_SNAPSHOT: undo\.history\[0\]\.horizons\.A: /);
    expect(spoilt((p) => delete p.undo.history[0]!.game)).toMatch(/^INVALID_SNAPSHOT: undo\.history\[0\]\.game: is missing/);
    expect(spoilt((p) => ((p.undo.history[0]!.game as { state: string }).state = 'nowhere'))).toMatch(/^INVALID_SNAPSHOT: undo\.history\[0\]\.game: /);
    expect(spoilt(() => undefined)).toBe('restored');
  });
});

describe('recordings: an UNDO in a recorded game replays to the same views', () => {
  it('replayGame shows the same view and persist() after the undo; the recording as a scenario passes', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: consent, record: true, seed: 9 });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    accepted(game, { type: 'UNDO', player: 'A', to: 0 });
    accepted(game, { type: 'ACCEPT_UNDO', player: 'B' });
    accepted(game, { type: 'PASS_PRIORITY', player: 'A' });
    const replayed = replayGame(game.recording(), { use: allModules });
    expect(replayed.view()).toEqual(game.view());
    expect(replayed.persist()).toEqual(game.persist());
    const atVote = replayGame(game.recording(), { use: allModules, until: 2 });
    expect(atVote.view().awaiting).toEqual({ kind: 'undoConsent', player: 'B', requester: 'A', to: 0 });
    // As a scenario: its setup keeps the undo option, and it passes.
    const scenario = recordingToScenario(game.recording());
    expect(scenario.setup.undo).toEqual({ mode: 'consent' });
    expect(runScenario(scenario)).toEqual({ ok: true, failures: [] });
  });
});

describe('a checkpoint hook cannot return an undo request', () => {
  it('UNDO in the result is HOOK_FAILED naming it', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], undo: own });
    accepted(game, { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' });
    const report = { events: [{ type: 'UNDO', player: 'A', to: 0 }] } as CheckpointResult;
    const hooked = restoreGame(game.persist(), { use: allModules, hooks: { checkpoint: () => report } });
    const result = hooked.send({ type: 'CAST_SPELL', player: 'A', id: 'a2', speed: 'instant' });
    expect(result).toMatchObject({ ok: false, error: { code: 'HOOK_FAILED', message: expect.stringMatching(/result\.events\[0\]: UNDO is the table's: send it with game.send/) } });
  });
});
