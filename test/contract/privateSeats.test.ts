/**
 * Private seats (CONTRACT v3, "Playing between people", and the Game table's row `view({ seat })
 * / view({ spectator: true }), getSnapshot(...), on(type, listener, { seat } | { spectator: true })`;
 * issue 24 point 1), sentence by sentence. The property over random games of every setup is
 * test/properties/privateSeats.property.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type EmittedEvent, type Game, type SeatEvent, type SeatOptions, type Stop } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';

/** alice wants to be asked in upkeeps and main phases; bob only in his own main phases and in alice's end step (docs/stops.md). */
function withStops(): Game {
  const game = createGame({ use: allModules, players: ['alice', 'bob'] });
  game.send({ type: 'SET_STOPS', player: 'alice', stops: ALICE });
  game.send({ type: 'SET_STOPS', player: 'bob', stops: [{ step: 'main', turn: 'own' }, { step: 'end', turn: 'others' }] });
  return game;
}

/** Every event each viewer receives, from now on. */
function listen(game: Game, viewers: Record<string, SeatOptions | undefined>): Record<string, (EmittedEvent | SeatEvent)[]> {
  const got: Record<string, (EmittedEvent | SeatEvent)[]> = {};
  for (const [name, viewer] of Object.entries(viewers)) {
    const list: (EmittedEvent | SeatEvent)[] = (got[name] = []);
    if (viewer === undefined) game.on('*', (e) => list.push(e));
    else game.on('*', (e) => list.push(e), viewer);
  }
  return got;
}

const ALICE = [{ step: 'upkeep', turn: 'any' }, { step: 'main', turn: 'any' }] as const satisfies Stop[];

const autoPasses = (events: (EmittedEvent | SeatEvent)[]) => events.filter((e) => e.type === 'autoPass');

describe('private seats (CONTRACT v3, "Playing between people")', () => {
  it("a seat sees everything but another player's private fields: their stops (null)", () => {
    const game = withStops();
    const full = game.view();
    const alice = game.view({ seat: 'alice' });
    expect(alice.stops).toEqual({ alice: ALICE, bob: null });
    expect(game.view({ seat: 'bob' }).stops).toEqual({ alice: null, bob: full.stops.bob });
    // Everything else is the host's view.
    expect({ ...alice, stops: full.stops }).toEqual(full);
  });

  it('without the option, the full view (for the host)', () => {
    const game = withStops();
    expect(game.view().stops).toEqual({ alice: ALICE, bob: [{ step: 'main', turn: 'own' }, { step: 'end', turn: 'others' }] });
    expect(game.view(undefined)).toEqual(game.view());
    expect(game.getSnapshot().stops.bob).not.toBeNull();
  });

  it("a spectator sees no player's private fields", () => {
    const game = withStops();
    expect(game.view({ spectator: true }).stops).toEqual({ alice: null, bob: null });
    const got = listen(game, { spectator: { spectator: true }, host: undefined });
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(autoPasses(got.host!).length).toBeGreaterThan(0);
    expect(autoPasses(got.spectator!).every((e) => !('reason' in e))).toBe(true);
  });

  it("the reason of automatic passes made for another player is not shown: their autoPass events arrive without reason (CR 117.4: a pass is a pass)", () => {
    const game = withStops();
    const got = listen(game, { alice: { seat: 'alice' }, bob: { seat: 'bob' }, host: undefined });
    const result = game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(result.ok).toBe(true);
    // bob has no stop in alice's upkeep: he passed automatically.
    const host = autoPasses(got.host!);
    expect(host).toEqual([expect.objectContaining({ type: 'autoPass', player: 'bob', reason: 'noStop' })]);
    // alice receives the pass, as a plain pass; bob, whose pass it is, and the host get the reason.
    const { reason: _reason, ...plain } = host[0] as Extract<EmittedEvent, { type: 'autoPass' }>;
    expect(autoPasses(got.alice!)).toEqual([plain]);
    expect(autoPasses(got.bob!)).toEqual(host);
    // The same events, in the same order, with the same seq.
    expect(got.alice!.map((e) => [e.type, e.seq])).toEqual(got.host!.map((e) => [e.type, e.seq]));
    // `send` returns the host's events.
    expect(result.ok && result.events.filter((e) => e.type === 'autoPass')).toEqual(host);
  });

  it("another player's yields are not shown: the passes a yield makes reach other seats as plain passes", () => {
    const game = createGame({ use: allModules, players: ['alice', 'bob'] });
    const got = listen(game, { alice: { seat: 'alice' }, bob: { seat: 'bob' }, host: undefined });
    game.send({ type: 'YIELD', player: 'bob', until: 'endOfTurn' });
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(autoPasses(got.host!)).toEqual([expect.objectContaining({ player: 'bob', reason: 'yield' })]);
    expect(autoPasses(got.bob!)).toEqual([expect.objectContaining({ player: 'bob', reason: 'yield' })]);
    expect(autoPasses(got.alice!)).toEqual([expect.not.objectContaining({ reason: expect.anything() })]);
    expect(autoPasses(got.alice!)[0]).toMatchObject({ type: 'autoPass', player: 'bob' });
    // No view shows a yield.
    expect(JSON.stringify(game.view({ seat: 'alice' }))).not.toContain('yield');
  });

  it("the host's reason ('host', hooks.autoPass) is not shown to other seats either", () => {
    const game = createGame({ use: allModules, players: ['alice', 'bob'], hooks: { autoPass: (_view, player) => player === 'bob' } });
    const got = listen(game, { alice: { seat: 'alice' }, bob: { seat: 'bob' } });
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(autoPasses(got.bob!)).toEqual([expect.objectContaining({ player: 'bob', reason: 'host' })]);
    expect(autoPasses(got.alice!).some((e) => 'reason' in e)).toBe(false);
    expect(autoPasses(got.alice!).length).toBe(1);
  });

  it('getSnapshot({ seat }): deeply frozen, the same object until the next accepted event, one per seat', () => {
    const game = withStops();
    const alice = game.getSnapshot({ seat: 'alice' });
    expect(Object.isFrozen(alice) && Object.isFrozen(alice.stops) && Object.isFrozen(alice.stops.alice)).toBe(true);
    expect(game.getSnapshot({ seat: 'alice' })).toBe(alice);
    expect(game.getSnapshot({ seat: 'bob' })).not.toBe(alice);
    expect(game.getSnapshot({ spectator: true })).toBe(game.getSnapshot({ spectator: true }));
    expect(alice).toEqual(game.view({ seat: 'alice' }));
    // A refused event changes nothing: the same object.
    expect(game.send({ type: 'PASS_PRIORITY', player: 'bob' }).ok).toBe(false);
    expect(game.getSnapshot({ seat: 'alice' })).toBe(alice);
    // An accepted one: a new object.
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(game.getSnapshot({ seat: 'alice' })).not.toBe(alice);
    expect(game.getSnapshot({ seat: 'alice' }).version).toBe(alice.version + 1);
  });

  it("view({ seat }) is a fresh object: mutating it changes nothing, nor any seat's snapshot", () => {
    const game = withStops();
    const snapshot = game.getSnapshot({ seat: 'bob' });
    const view = game.view({ seat: 'bob' });
    view.stops.bob = null;
    view.stops.alice = [{ step: 'draw', turn: 'own' }];
    expect(game.view({ seat: 'bob' }).stops).toEqual({ alice: null, bob: [{ step: 'main', turn: 'own' }, { step: 'end', turn: 'others' }] });
    expect(game.getSnapshot({ seat: 'bob' })).toBe(snapshot);
    expect(game.view().stops.alice).toEqual(ALICE);
  });

  it('a player who left keeps their seat: they may still look as that seat', () => {
    const game = createGame({ use: allModules, players: ['alice', 'bob', 'carol'] });
    game.send({ type: 'SET_STOPS', player: 'carol', stops: [{ step: 'end', turn: 'any' }] });
    const got = listen(game, { bob: { seat: 'bob' } });
    game.send({ type: 'CONCEDE', player: 'bob' });
    expect(game.view().players).toEqual(['alice', 'carol']);
    const bob = game.view({ seat: 'bob' });
    expect(bob.stops).toEqual({ alice: null, carol: null });
    expect(game.getSnapshot({ seat: 'bob' }).players).toEqual(['alice', 'carol']);
    // Their listener goes on receiving the game's events.
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(got.bob!.some((e) => e.type === 'autoPass' && e.player === 'carol' && !('reason' in e))).toBe(true);
  });

  it('a restored game knows its seats, players who left included', () => {
    const game = createGame({ use: allModules, players: ['alice', 'bob', 'carol'] });
    game.send({ type: 'CONCEDE', player: 'carol' });
    const restored = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(restored.view({ seat: 'carol' })).toEqual(game.view({ seat: 'carol' }));
    expect(() => restored.view({ seat: 'dave' })).toThrow(/options\.seat/);
  });

  it('shared team turns (CR 805.5): a team\'s automatic pass reaches the other members and the other team without reason', () => {
    const teams = [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }];
    const game = createGame({ use: allModules, players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams });
    for (const p of ['C', 'D']) game.send({ type: 'SET_STOPS', player: p, stops: [{ step: 'main', turn: 'own' }] });
    const got = listen(game, { A: { seat: 'A' }, B: { seat: 'B' }, C: { seat: 'C' }, D: { seat: 'D' }, host: undefined });
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    const host = autoPasses(got.host!);
    expect(host.length).toBeGreaterThan(0);
    for (const e of host) if (e.type === 'autoPass') expect(e.player).toBe('C'); // the team's primary player
    expect(autoPasses(got.C!)).toEqual(host);
    for (const seat of ['A', 'B', 'D']) expect(autoPasses(got[seat]!).some((e) => 'reason' in e), seat).toBe(false);
    expect(game.view({ seat: 'D' }).stops).toEqual({ A: null, B: null, C: null, D: [{ step: 'main', turn: 'own' }] });
  });

  it("Grand Melee (CR 807): each seat's view has every turn marker's turn and only its own stops", () => {
    const players = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
    const game = createGame({ use: allModules, players, variant: 'grandMelee' });
    for (const p of players) game.send({ type: 'SET_STOPS', player: p, stops: [{ step: 'main', turn: 'own' }] });
    const view = game.view({ seat: 'F' });
    expect(view.turns).toEqual(game.view().turns);
    expect(Object.entries(view.stops).filter(([, s]) => s !== null).map(([p]) => p)).toEqual(['F']);
    expect(game.getSnapshot({ seat: 'F' }).turns).toEqual(view.turns);
  });

  it('on(type, listener, { seat }) filters one type too, and unsubscribes', () => {
    const game = withStops();
    const seen: SeatEvent[] = [];
    const host: EmittedEvent[] = [];
    game.on('autoPass', (e) => host.push(e));
    const off = game.on('autoPass', (e) => seen.push(e), { seat: 'alice' });
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(seen.length).toBe(1);
    expect(seen[0]).toMatchObject({ type: 'autoPass', player: 'bob' });
    expect('reason' in seen[0]!).toBe(false);
    off();
    game.send({ type: 'PASS_PRIORITY', player: 'alice' });
    expect(host.length).toBeGreaterThan(1); // bob passed again, from alice's main phase on
    expect(seen.length).toBe(1);
  });

  describe('options that name no seat of the game: INVALID_OPTIONS naming the field (never the full view)', () => {
    const bad: [unknown, RegExp][] = [
      [{ seat: 'dave' }, /options\.seat: "dave" is not a player of this game \(its players: alice, bob\)/],
      [{ seat: 7 }, /options\.seat must be a player id/],
      [{ seat: undefined }, /options\.seat must be a player id/],
      [{}, /options must be \{ seat \} or \{ spectator: true \}/],
      [{ player: 'alice' }, /options\.player is not an option/],
      [{ seat: 'alice', spectator: true }, /options\.seat and options\.spectator/],
      [{ spectator: false }, /options\.spectator must be true/],
      [null, /options must be/],
      ['alice', /options must be/],
    ];
    for (const [options, message] of bad) {
      it(`${JSON.stringify(options) ?? 'undefined'}`, () => {
        const game = withStops();
        const before = JSON.stringify(game.persist());
        for (const [method, call] of [
          ['view', () => game.view(options as SeatOptions)],
          ['getSnapshot', () => game.getSnapshot(options as SeatOptions)],
          ['on', () => game.on('*', () => undefined, options as SeatOptions)],
        ] as const) {
          expect(call, method).toThrow(expect.objectContaining({ name: 'TurnEngineError', code: 'INVALID_OPTIONS', message: expect.stringMatching(message) }));
          expect(call, method).toThrow(new RegExp(`^${method}: `));
        }
        expect(JSON.stringify(game.persist())).toBe(before);
      });
    }
  });
});
