/**
 * Recorded games (CONTRACT v3, "Recordings"; issue 23): `createGame({ record: true })` and
 * `restoreGame(p, { record: true })` keep every accepted send's event and every answer the hooks
 * gave; `game.recording()` is that JSON; `replayGame` reproduces the game with no hook (views,
 * emitted events, `seq`, `persist()` at every version), stops at `until` (from the nearest
 * snapshot, kept every 256 versions), reports the first drift of hooks given, and refuses bad
 * recordings with INVALID_RECORDING naming the field.
 */
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createGame, replayGame, restoreGame, type CheckpointResult, type EmittedEvent, type Game, type GameOptions, type Recording, type TurnView } from '../../src/index.js';
import { hookRuntime } from '../../src/hookAdapter.js';
import { initialContext } from '../../machines/turn.effects.js';
import { toInput } from '../../src/game/create.js';
import { RecordedAnswers } from '../../src/recording/replay.js';
import { newTape } from '../../src/recording/tape.js';
import { concreteEvent, seededRandom } from '../../src/simulation.js';
import { actorOf } from '../../src/xstate.js';
import { allModules } from '../../src/allModules.js';

/** A checkpoint hook that answers from what it is shown alone: a trigger as each upkeep begins, state-based actions in some cleanups, mana in draw steps. */
function cardsHook(view: TurnView, pending: EmittedEvent[]): CheckpointResult | undefined {
  if (view.priority !== null && pending.some((e) => e.type === 'stepBegan' && e.step === 'upkeep')) return { triggers: [{ id: `up${view.turn}`, controller: view.priority }] };
  if (view.step === 'cleanup' && view.priority === null && view.turn % 2 === 0 && view.seq % 3 === 0) return { stateBasedActions: true };
  if (view.step === 'draw' && view.priority !== null && view.manaPool[view.priority] === 0) return { events: [{ type: 'ADD_MANA', player: view.priority, amount: 1 }] };
  return undefined;
}

/** What a host sees at every version: the view, the events of the send that made it, persist(). */
interface Seen {
  views: string[];
  events: EmittedEvent[][];
  persisted: unknown[];
}

function watch(game: Game, start: EmittedEvent[]): Seen {
  const seen: Seen = { views: [], events: [start], persisted: [] };
  const take = () => {
    seen.views.push(JSON.stringify(game.view()));
    seen.persisted.push(JSON.parse(JSON.stringify(game.persist())));
  };
  take();
  game.subscribe(take);
  return seen;
}

/** Plays `sends` random legal actions (and host events, and refused input) on a recorded game. */
function play(options: GameOptions, sends: number, seed = 1): { game: Game; seen: Seen } {
  const start: EmittedEvent[] = [];
  const game = createGame({ use: allModules, ...options, record: true, listeners: { '*': (e) => void start.push(e) } });
  const seen = watch(game, [...start]);
  const random = seededRandom(seed);
  for (let i = 0; i < sends && game.view().gameOver === null; i++) {
    const view = game.view();
    const roll = random();
    let event: unknown;
    if (roll < 0.05) event = { type: 'PASS_PRIORITY', player: 'nobody' };
    else if (roll < 0.1) event = { type: 'TRIGGER', triggers: [{ id: `t${i}`, controller: view.players[0] }] };
    else {
      const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE' && a.player === view.awaiting?.player);
      const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
      const choice = pass !== undefined && random() < 0.8 ? pass : actions[Math.floor(random() * actions.length)];
      if (choice === undefined) break;
      event = concreteEvent(choice, view, random, i);
    }
    const result = game.send(event as never);
    if (result.ok) seen.events.push(result.events);
  }
  return { game, seen };
}


describe('createGame({ record: true }) and game.recording() (CONTRACT v3, "Recordings")', () => {
  it('keeps every accepted send, the answers of the hook in order, and the options with the seed drawn', () => {
    const calls: CheckpointResult[] = [];
    const game = createGame({ use: allModules,
      players: ['A', 'B'],
      record: true,
      hooks: {
        checkpoint: (view, pending) => {
          const out = cardsHook(view, pending) ?? {};
          calls.push(out);
          return out;
        },
      },
    });
    expect(game.send({ type: 'PASS_PRIORITY', player: 'B' }).ok).toBe(false); // refused: not recorded
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(game.send({ type: 'ADD_MANA', player: 'B', amount: 2 }).ok).toBe(true);
    const rec = game.recording();
    expect(Object.keys(rec)).toEqual(['format', 'engine', 'from', 'options', 'hooks', 'use', 'inputs', 'snapshots']);
    // CONTRACT v4: a recording names the modules its game had.
    expect(rec.use).toEqual(['table', 'grandMelee']);
    expect(rec.format).toBe('mtg-turn-engine/recording@1');
    expect(rec.engine).toBe('mtg-turn-engine');
    expect(rec.from).toBe('options');
    expect(rec.options).toEqual({ players: ['A', 'B'], seed: expect.any(Number) });
    expect(rec.hooks).toEqual({ checkpoint: true, autoPass: false });
    expect(rec.inputs.map((i) => i.event)).toEqual([undefined, { type: 'PASS_PRIORITY', player: 'A' }, { type: 'ADD_MANA', player: 'B', amount: 2 }]);
    // Every answer, in order, one input after the other (createGame's own first): empty results are `{}`.
    const answers = rec.inputs.flatMap((i) => i.results ?? []);
    expect(answers).toEqual(calls.slice(0, answers.length).map((c) => JSON.parse(JSON.stringify(c))));
    expect(rec.inputs[0]?.results?.[0]).toEqual({ triggers: [{ id: 'up1', controller: 'A' }] });
    expect(rec.snapshots).toEqual([]);
    expect(JSON.parse(JSON.stringify(rec))).toEqual(rec);
  });

  it('hands out a fresh copy each time; a game without `record` has none (INVALID_OPTIONS naming options.record)', () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], record: true });
    const a = game.recording();
    (a.inputs as unknown[]).push('changed');
    expect(game.recording().inputs).toHaveLength(1);
    const plain = createGame({ use: allModules, players: ['A', 'B'] });
    expect(() => plain.recording()).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.record') }));
    expect(() => createGame({ use: allModules, players: ['A', 'B'], record: 'yes' as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.record') }));
    expect(() => restoreGame(plain.persist(), { use: allModules, record: 1 as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.record') }));
  });

  it("records the events sent to the game's XState actor too (one route for every accepted event)", () => {
    const game = createGame({ use: allModules, players: ['A', 'B'], record: true });
    actorOf(game).send({ type: 'PASS_PRIORITY', player: 'A' });
    actorOf(game).send({ type: 'PASS_PRIORITY', player: 'A' }); // refused (B holds priority): not recorded
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    expect(game.recording().inputs.map((i) => i.event)).toEqual([undefined, { type: 'PASS_PRIORITY', player: 'A' }, { type: 'PASS_PRIORITY', player: 'B' }]);
    expect(replayGame(game.recording(), { use: allModules }).view()).toEqual(game.view());
  });

  it('keeps persist() every 256 versions', () => {
    const { game, seen } = play({ players: ['A', 'B'], seed: 5, hooks: { checkpoint: cardsHook } }, 700);
    const rec = game.recording();
    const last = game.view().version;
    expect(last).toBeGreaterThanOrEqual(512);
    expect(rec.snapshots.map((s) => s.version)).toEqual([256, 512]);
    for (const s of rec.snapshots) expect(s.persisted).toEqual(seen.persisted[s.version]);
  });

  it('a restored game records from its restore, with the persisted game in place of the options; a fork records when asked', () => {
    const first = createGame({ use: allModules, players: ['A', 'B', 'C'], seed: 3 });
    first.send({ type: 'PASS_PRIORITY', player: 'A' });
    const persisted = JSON.parse(JSON.stringify(first.persist()));
    const game = restoreGame(persisted, { use: allModules, record: true });
    game.send({ type: 'PASS_PRIORITY', player: 'B' });
    const rec = game.recording();
    expect(rec.from).toBe('persisted');
    expect(rec.options).toEqual(persisted);
    expect(rec.inputs).toEqual([{}, { event: { type: 'PASS_PRIORITY', player: 'B' } }]);
    expect(replayGame(rec, { use: allModules }).view()).toEqual(game.view());
    const fork = game.fork({ record: true });
    fork.send({ type: 'PASS_PRIORITY', player: 'C' });
    expect(fork.recording().options).toEqual(game.persist());
    expect(() => game.fork().recording()).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});

describe('replayGame(recording, options?) (CONTRACT v3, "Recordings")', () => {
  it('reproduces the game with no hook: the same views, emitted events, seq and persist() at every version', () => {
    const { game, seen } = play({ players: ['A', 'B', 'C'], seed: 11, hooks: { checkpoint: cardsHook } }, 400, 2);
    const rec = JSON.parse(JSON.stringify(game.recording())) as Recording;
    const current: EmittedEvent[] = [];
    const replayed = replayGame(rec, { use: allModules, listeners: { '*': (e) => void current.push(e) } });
    // The listeners saw every event; replayed step by step, every version shows the original's.
    const all = seen.events.flat();
    expect(current).toEqual(all);
    for (let v = 0; v < seen.views.length; v += 37) {
      const at = replayGame(rec, { use: allModules, until: v });
      expect(JSON.stringify(at.view())).toBe(seen.views[v]);
      expect(at.view().seq).toBe(JSON.parse(seen.views[v] as string).seq);
      expect(isDeepStrictEqual(JSON.parse(JSON.stringify(at.persist())), seen.persisted[v])).toBe(true);
    }
    expect(JSON.stringify(replayed.persist())).toBe(JSON.stringify(game.persist()));
    expect(replayed.replay.drift).toBeNull();
  });

  it('Grand Melee: a TRIGGER keeps the turn marker each trigger names (CR 807.5b), so each goes on the same stack in the replay', () => {
    const players = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
    const game = createGame({ use: allModules, players, variant: 'grandMelee', seed: 5, record: true });
    // Both markers' turns run, E's among them: a trigger of E's goes on that turn's stack unless it names the other marker.
    const turns = game.view().turns ?? [];
    expect(turns.map((t) => t.activePlayer)).toEqual(['A', 'E']);
    const named = (turns[0] as { turnMarker: number }).turnMarker;
    expect(game.send({ type: 'TRIGGER', triggers: [{ id: 'far', controller: 'E', turnMarker: named }] }).ok).toBe(true);
    const rec = game.recording();
    expect(rec.inputs[1]?.event).toEqual({ type: 'TRIGGER', triggers: [{ id: 'far', controller: 'E', turnMarker: named }] });
    const replayed = replayGame(rec, { use: allModules });
    expect(replayed.view().turns?.find((t) => t.turnMarker === named)?.stack.map((o) => o.id)).toEqual(['far']);
    expect(JSON.stringify(replayed.view())).toBe(JSON.stringify(game.view()));
  });

  it('calls no hook: the recorded answers stand in, and the game then plays on live with the hooks given', () => {
    let called = 0;
    const counting = (view: TurnView, pending: EmittedEvent[]) => (called++, cardsHook(view, pending));
    const { game } = play({ players: ['A', 'B'], seed: 4, hooks: { checkpoint: counting } }, 120);
    const rec = game.recording();
    called = 0;
    const replayed = replayGame(rec, { use: allModules });
    expect(called).toBe(0);
    expect(replayed.view()).toEqual(game.view());
    // Afterwards, it is a game like any other: sends are accepted as the original's would be.
    const next = replayed.legalActions().find((a) => a.type === 'PASS_PRIORITY');
    if (next !== undefined) {
      const { choose: _c, ...event } = next;
      expect(replayed.send(event as never)).toEqual(game.send(event as never));
    }
  });

  it('stops at `until`, refusing a version the recording does not hold (INVALID_OPTIONS naming options.until)', () => {
    const { game, seen } = play({ players: ['A', 'B'], seed: 8 }, 30);
    const rec = game.recording();
    expect(JSON.stringify(replayGame(rec, { use: allModules, until: 0 }).view())).toBe(seen.views[0]);
    expect(JSON.stringify(replayGame(rec, { use: allModules, until: 12 }).view())).toBe(seen.views[12]);
    for (const until of [-1, rec.inputs.length, 1.5, '3']) {
      expect(() => replayGame(rec, { use: allModules, until: until as number })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.until') }));
    }
  });

  it('seeks from the nearest snapshot: the inputs before it are not read', () => {
    const { game, seen } = play({ players: ['A', 'B'], seed: 5, hooks: { checkpoint: cardsHook } }, 600);
    const rec = game.recording();
    expect(rec.snapshots.length).toBeGreaterThan(0);
    const snapshot = rec.snapshots[rec.snapshots.length - 1]!.version;
    // Every input before the snapshot made unreadable: a seek past it still replays; one from the start cannot.
    const cut = { ...rec, inputs: rec.inputs.map((input, i) => (i > 0 && i <= snapshot ? { event: { type: 'NOT_AN_EVENT' } } : input)) } as unknown as Recording;
    const until = game.view().version;
    expect(JSON.stringify(replayGame(cut, { use: allModules, until }).view())).toBe(seen.views[until]);
    expect(() => replayGame(cut, { use: allModules, until: snapshot - 1 })).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: expect.stringMatching(/^recording\.inputs\[\d+\]\.event: the recorded send was refused: INVALID_EVENT/) }));
    expect(() => replayGame(cut, { use: allModules, until, listeners: {} })).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: expect.stringContaining('recording.inputs[1].event') }));
  });

  it('with hooks given, calls them and reports the first drift { version, recorded, got }, using the recorded answers', () => {
    const { game } = play({ players: ['A', 'B'], seed: 6, hooks: { checkpoint: cardsHook } }, 150);
    const rec = game.recording();
    // The same hook: no drift.
    expect(replayGame(rec, { use: allModules, hooks: { checkpoint: cardsHook } }).replay.drift).toBeNull();
    // A hook that forgets the upkeep triggers of turn 3 and later.
    const forgetful = (view: TurnView, pending: EmittedEvent[]) => (view.turn >= 3 && view.step === 'upkeep' ? undefined : cardsHook(view, pending));
    const seenBy: number[] = [];
    const replayed = replayGame(rec, { use: allModules, hooks: { checkpoint: (view, pending) => (seenBy.push(view.version), forgetful(view, pending)) } });
    expect(seenBy.length).toBeGreaterThan(0);
    const drift = replayed.replay.drift;
    expect(drift).toMatchObject({ hook: 'checkpoint', recorded: { triggers: [{ id: 'up3' }] }, got: {} });
    expect(drift?.version).toBe(rec.inputs.findIndex((i) => i.results?.some((r) => typeof r === 'object' && r.triggers?.[0]?.id === 'up3')) - 1);
    // The recorded answers were used: the game is the original's.
    expect(replayed.view()).toEqual(game.view());
    // A hook that throws is drift too, with its error.
    const failing = replayGame(rec, { use: allModules, hooks: { checkpoint: () => { throw new Error('lost the deck'); } } });
    expect(failing.replay.drift?.got).toEqual({ error: 'the checkpoint hook threw: lost the deck' });
    expect(failing.view()).toEqual(game.view());
  });

  it('refuses what is not a recording, or does not replay, with INVALID_RECORDING naming the field', () => {
    const { game } = play({ players: ['A', 'B'], seed: 7, hooks: { checkpoint: cardsHook } }, 40);
    const rec = game.recording();
    const withInput = (i: number, input: unknown) => ({ ...rec, inputs: rec.inputs.map((x, j) => (j === i ? input : x)) });
    const withResults = rec.inputs.findIndex((i, j) => j > 0 && (i.results?.length ?? 0) > 0);
    const bad: [unknown, string][] = [
      [null, 'recording: expected an object'],
      [{ ...rec, format: 'other@1' }, 'recording.format'],
      [{ ...rec, engine: 3 }, 'recording.engine'],
      [{ ...rec, from: 'nowhere' }, 'recording.from'],
      [{ ...rec, options: [] }, 'recording.options'],
      [{ ...rec, options: { players: ['A'] } }, 'recording.options: options.players'],
      [{ ...rec, hooks: { checkpoint: 'yes', autoPass: false } }, 'recording.hooks.checkpoint'],
      [{ ...rec, inputs: [] }, 'recording.inputs'],
      [{ ...rec, snapshots: {} }, 'recording.snapshots'],
      [{ ...rec, snapshots: [{ version: 9999, persisted: {} }] }, 'recording.snapshots[0].version'],
      [withInput(0, { event: { type: 'PASS_PRIORITY', player: 'A' } }), 'recording.inputs[0]'],
      [withInput(1, 'PASS'), 'recording.inputs[1]'],
      [withInput(1, { event: { type: 'PASS_PRIORITY', player: 'B' } }), 'recording.inputs[1].event: the recorded send was refused: ILLEGAL_ACTION'],
      [withInput(withResults, { event: rec.inputs[withResults]?.event }), `recording.inputs[${withResults}].results: the engine asked the checkpoint hook`],
      [withInput(withResults, { ...rec.inputs[withResults], results: [...(rec.inputs[withResults]?.results ?? []), {}] }), `recording.inputs[${withResults}].results: 1 answer(s)`],
      [withInput(withResults, { ...rec.inputs[withResults], results: [true, ...(rec.inputs[withResults]?.results ?? []).slice(1)] }), `recording.inputs[${withResults}].results[0]: the engine asked the checkpoint hook here`],
      [withInput(withResults, { ...rec.inputs[withResults], results: [{ triggers: [{ id: 'x', controller: 'Z' }] }, ...(rec.inputs[withResults]?.results ?? []).slice(1)] }), `recording.inputs[${withResults}].results[0]: result.triggers[0].controller`],
    ];
    for (const [value, message] of bad) {
      expect(() => replayGame(value, { use: allModules }), message).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: expect.stringContaining(message) }));
    }
    expect(() => replayGame(rec, null as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    expect(() => replayGame(rec, { use: allModules, hooks: { checkpoint: 3 as never } })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS', message: expect.stringContaining('options.hooks.checkpoint') }));
  });

  it('refuses a snapshot that is not a persisted game (INVALID_RECORDING naming it)', () => {
    const { game } = play({ players: ['A', 'B'], seed: 5 }, 300);
    const rec = game.recording();
    const broken = { ...rec, snapshots: [{ version: 256, persisted: { ...rec.snapshots[0]!.persisted, context: { turn: -1 } } }] };
    expect(() => replayGame(broken, { use: allModules, until: 270 })).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: expect.stringContaining('recording.snapshots[0].persisted: INVALID_SNAPSHOT') }));
  });
});

describe('the answers of hooks.autoPass are recorded and replayed (the hook adapter, its tape and the recorded answers)', () => {
  const ctx = () => initialContext(toInput({ players: ['A', 'B'], seed: 1 }));

  it('writes each answer to the log while a send records; nextStop\'s look ahead asks the hook unrecorded', () => {
    const tape = newTape();
    const answers = [true, false, true];
    let i = 0;
    const runtime = hookRuntime({ autoPass: () => answers[i++] === true }, () => 0, tape);
    tape.log = [];
    expect([runtime?.autoPass?.(ctx(), 'A'), runtime?.autoPass?.(ctx(), 'B'), runtime?.autoPass?.(ctx(), 'A')]).toEqual(answers);
    expect(tape.log).toEqual(answers);
    expect(tape.lookAhead?.(ctx(), 'A')).toBe(false);
    expect(tape.log).toHaveLength(3);
  });

  it('reads them back in a replay, in order, comparing the hook given (the first difference is the drift)', () => {
    const source = new RecordedAnswers({ checkpoint: false, autoPass: true });
    const replaying = hookRuntime({ autoPass: () => true }, () => 7, newTape(source));
    expect(replaying?.check).toBeUndefined();
    source.begin(3, { results: [true, false] });
    expect([replaying?.autoPass?.(ctx(), 'A'), replaying?.autoPass?.(ctx(), 'B')]).toEqual([true, false]);
    source.end();
    expect(source.drifted).toEqual({ version: 7, hook: 'autoPass', recorded: false, got: true });
    expect(() => replaying?.autoPass?.(ctx(), 'A')).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: expect.stringContaining('recording.inputs[3].results: the engine asked the autoPass hook a 3rd time') }));
    source.begin(4, { results: [{}] });
    expect(() => replaying?.autoPass?.(ctx(), 'A')).toThrow(expect.objectContaining({ code: 'INVALID_RECORDING', message: 'recording.inputs[4].results[0]: the engine asked the autoPass hook here; the recording has an object, not a boolean' }));
    // A recorded game without hooks.autoPass was never asked: its answers are "ask the player".
    const none = new RecordedAnswers({ checkpoint: false, autoPass: false });
    none.begin(1, {});
    expect(hookRuntime(undefined, () => 0, newTape(none))).toBeUndefined();
    expect(hookRuntime({ autoPass: () => false }, () => 0, newTape(none))?.autoPass?.(ctx(), 'A')).toBe(false);
    none.end();
    expect(none.drifted).toBeNull();
  });
});
