/**
 * Grand Melee (CR 807): turn markers, waiting, removal, extra turns, one stack and one
 * priority per marker, the view, legal actions, nextStop and persistence.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, type Game, type LegalAction, type TurnEngineError } from '../../src/index.js';
import { plainestAnswerTo, plainestFill } from '../../src/legal.js';
import { simulate } from '../../src/simulation.js';
import { DEFAULT_MIX, playRandom } from '../properties/harness.js';
import { actorOf } from '../../src/xstate.js';
import { fullForm, fullSnapshot } from '../support/persisted.js';
import { allModules } from '../../src/allModules.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
const melee = (n = 10, extra: Record<string, unknown> = {}) => createGame({ use: allModules, players: ids(n), variant: 'grandMelee', seed: 7, ...extra });

/** Answers the turn furthest behind with its plainest legal action. */
function step(game: Game): void {
  const view = game.view();
  const turn = (view.turns ?? []).filter((t) => t.awaiting !== null).sort((a, b) => a.turn - b.turn)[0];
  const action = game.legalActions().find((a) => a.player === turn?.awaiting?.player && a.turnMarker === turn?.turnMarker && a.type !== 'CAST_SPELL' && a.type !== 'ACTIVATE_ABILITY' && a.type !== 'PLAY_LAND' && a.type !== 'ROLL_PLANAR_DIE');
  if (action === undefined || turn === undefined) throw new Error('nothing to answer');
  const event = { ...plainestFill(action, turn.awaiting, { stack: turn.stack, pendingTriggers: [] }), turnMarker: turn.turnMarker };
  const result = game.send(event);
  if (!result.ok) throw new Error(`${JSON.stringify(event)}: ${result.error.message}`);
}

/**
 * Plays a Grand Melee game on with the plainest answers, the first running turn's decision first
 * (as nextStop's look ahead does), until `player` (or anyone) is asked for a decision that was not
 * awaited when it began. Where they are asked, as nextStop says it, or null.
 */
function playMeleeUntilAsked(game: Game, player?: string): Record<string, unknown> | null {
  const many = (game.view().turns?.length ?? 1) > 1;
  // The turn furthest behind first, then the lowest marker (as passUntil answers).
  const decisionsOf = (v: ReturnType<Game['view']>) => (v.turns ?? []).filter((t) => !t.waiting && t.awaiting !== null).sort((a, b) => a.turn - b.turn || a.turnMarker - b.turnMarker);
  const pending = new Set(decisionsOf(game.view()).map((t) => t.turnMarker));
  for (let i = 0; i < 5_000; i++) {
    const v = game.view();
    if (v.gameOver !== null) return null;
    const decisions = decisionsOf(v);
    for (const t of decisions) {
      const awaiting = t.awaiting as NonNullable<typeof t.awaiting>;
      if (pending.has(t.turnMarker)) continue;
      if (player === undefined || awaiting.player === player || v.decidedBy[awaiting.player] === player) {
        return { turn: t.turn, activePlayer: t.activePlayer, phase: t.phase, step: t.step, awaiting, ...(many ? { turnMarker: t.turnMarker } : {}) };
      }
    }
    const first = decisions.find((t) => pending.has(t.turnMarker)) ?? decisions[0];
    if (first === undefined) return null;
    pending.delete(first.turnMarker);
    const sent = { ...plainestAnswerTo(first.awaiting as NonNullable<typeof first.awaiting>), turnMarker: first.turnMarker };
    expect(game.send(sent), JSON.stringify(sent)).toMatchObject({ ok: true });
  }
  return null;
}

describe('Grand Melee options (CR 807.1, 807.2)', () => {
  it('807.1: needs ten or more players, each on their own', () => {
    expect(() => melee(9)).toThrowError(/players: 'grandMelee' needs 10 or more players/);
    expect(() => createGame({ use: allModules, players: ids(10), variant: 'grandMelee', teams: [{ id: 'x', players: ids(5) }, { id: 'y', players: ids(10).slice(5) }] })).toThrowError(/teams/);
    expect(() => createGame({ use: allModules, players: ids(10), variant: 'grandMelee', pregame: true })).toThrowError(/pregame/);
  });

  it('807.2a-b: range of influence 1 and attack left by default', () => {
    const game = melee();
    const ctx = fullSnapshot(game).context;
    expect(ctx.attack).toBe('left');
    expect(Object.values(ctx.ranges ?? {})).toEqual(Array(10).fill(1));
  });
});

describe('turn markers (CR 807.4)', () => {
  it('807.4a-b: one marker per full four players; marker 1 to the starting player, the next four seats to the left', () => {
    expect(melee(16).view().turns?.map((t) => t.player)).toEqual(['A', 'E', 'I', 'M']);
    expect(melee(15, { startingPlayer: 'C' }).view().turns?.map((t) => t.player)).toEqual(['C', 'G', 'K']);
    const v = melee(10).view();
    expect(v.turns?.map((t) => [t.turnMarker, t.activePlayer, t.step, t.priority])).toEqual([
      [1, 'A', 'upkeep', 'A'],
      [2, 'E', 'upkeep', 'E'],
    ]);
    expect(v.activePlayer).toBe('A');
  });

  it('807.4: every event emitted while two markers run names its marker', () => {
    const game = melee();
    const seen: unknown[] = [];
    game.on('*', (e) => seen.push(e.turnMarker));
    for (let i = 0; i < 60; i++) step(game);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((m) => m === 1 || m === 2)).toBe(true);
  });

  it('807.4e-g: players leaving reduce the markers: the one nearest the departed on their right is removed', () => {
    const game = melee(12);
    expect(game.view().turns?.length).toBe(3);
    // C leaves: 11 players still have two full fours: marker 1 (A, on C's right) is designated for removal.
    expect(game.send({ type: 'CONCEDE', player: 'C' }).ok).toBe(true);
    expect(game.view().turns?.map((t) => [t.turnMarker, t.removals])).toEqual([
      [1, 1],
      [2, 0],
      [3, 0],
    ]);
    // A's turn runs to its end, then marker 1 is removed rather than passed (807.4g).
    for (let i = 0; i < 400 && game.view().turns?.length === 3; i++) step(game);
    expect(game.view().turns?.map((t) => t.turnMarker)).toEqual([2, 3]);
  });

  it('807.4e: players leaving at once, whose nearest markers on their right differ, designate the lowest-numbered one', () => {
    // Twelve players, C starts: markers 1 (C), 2 (G) and 3 (K). C wins: B and D, in C's range of
    // influence, leave at once (801.14); 10 players keep two markers. On B's right is marker 3
    // (K, going right from B: A, L, K), on D's right marker 1 (C): the lower number is designated.
    const game = melee(12, { startingPlayer: 'C' });
    expect(game.view().turns?.map((t) => [t.turnMarker, t.player])).toEqual([
      [1, 'C'],
      [2, 'G'],
      [3, 'K'],
    ]);
    expect(game.send({ type: 'WIN', player: 'C' }).ok).toBe(true);
    expect(game.view().players).not.toContain('B');
    expect(game.view().players).not.toContain('D');
    expect(game.view().turns?.map((t) => [t.turnMarker, t.removals])).toEqual([
      [1, 1],
      [2, 0],
      [3, 0],
    ]);
  });

  it('807.4i: a player with a marker who takes an extra turn keeps the marker', () => {
    // A (marker 1) ends their turn with marker 2 at E, four seats to the left: no marker too close on either side.
    const game = melee();
    expect(game.send({ type: 'ADD_EXTRA_TURN', player: 'A', id: 'time-walk' }).ok).toBe(true);
    const began: string[] = [];
    game.on('turnBegan', (e) => {
      if (e.turnMarker === 1) began.push(e.activePlayer);
    });
    for (let i = 0; i < 400 && began.length < 2; i++) step(game);
    expect(began).toEqual(['A', 'B']);
  });

  it('807.4i: a marker within three seats on the left: the player keeps the marker and the extra turn waits until the player four seats to their left takes the other marker', () => {
    // C leaves (nine players keep two markers): E, marker 2's holder, is now three seats to A's left (B, D, E).
    const game = melee();
    expect(game.send({ type: 'ADD_EXTRA_TURN', player: 'A', id: 'x' }).ok).toBe(true);
    expect(game.send({ type: 'CONCEDE', player: 'C' }).ok).toBe(true);
    const began: string[] = [];
    game.on('turnBegan', (e) => void began.push(`${e.turnMarker}:${e.activePlayer}${e.extra ? ' (extra)' : ''}`));
    // A's turn ends first (step answers marker 1 first): A keeps marker 1 and waits while E's turn runs.
    for (let i = 0; i < 400 && game.view().turns?.[0]?.waiting !== true; i++) step(game);
    expect(game.view().turns?.map((t) => [t.turnMarker, t.player, t.waiting])).toEqual([
      [1, 'A', true],
      [2, 'E', false],
    ]);
    expect(game.view().turns?.[0]?.schedule.turns[0]).toMatchObject({ player: 'A', extra: true });
    for (let i = 0; i < 400 && began.length < 2; i++) step(game);
    // F, four seats to A's left, takes marker 2; then A's extra turn begins.
    expect(began).toEqual(['2:F', '1:A (extra)']);
  });

  it('807.4i: a marker within three seats on the right: the player passes the marker and takes the extra turn just before their next turn', () => {
    const game = melee();
    const label = (t: { player: string; extra: boolean }) => `${t.player}${t.extra ? ' (extra)' : ''}`;
    // A's turn ends first: marker 1 passes to B, who waits while E (three seats to B's left) takes a turn.
    for (let i = 0; i < 400 && game.view().turns?.[0]?.waiting !== true; i++) step(game);
    expect(game.view().turns?.map((t) => [t.turnMarker, t.player, t.waiting])).toEqual([
      [1, 'B', true],
      [2, 'E', false],
    ]);
    // E gets an extra turn while marker 1 is within three seats on E's right (D, C, B).
    expect(game.send({ type: 'ADD_EXTRA_TURN', player: 'E', id: 'x' }).ok).toBe(true);
    const scheduled = new Map((game.view().turns ?? []).map((t) => [t.turnMarker, t.schedule.turns.slice(0, 5).map(label)]));
    const began = new Map<number, string[]>([[1, []], [2, []]]);
    game.on('turnBegan', (e) => void began.get(e.turnMarker as number)?.push(label({ player: e.activePlayer as string, extra: e.extra })));
    for (let i = 0; i < 5000 && [...began.values()].some((b) => b.length < 5); i++) step(game);
    // E passes marker 2 to F; marker 1 reaches E, who takes the extra turn just before their own.
    expect(began.get(2)?.slice(0, 3)).toEqual(['F', 'G', 'H']);
    expect(began.get(1)).toEqual(['B', 'C', 'D', 'E (extra)', 'E']);
    // Each marker's schedule showed it.
    expect(scheduled.get(1)).toEqual(began.get(1));
    expect(scheduled.get(2)).toEqual(began.get(2));
  });

  it("807.4j: each marker's schedule shows an extra turn where it is taken (the player without a marker takes it just before their next turn, on the marker that reaches them)", () => {
    const game = melee();
    expect(game.send({ type: 'ADD_EXTRA_TURN', player: 'B', id: 'x' }).ok).toBe(true);
    const label = (t: { player: string; extra: boolean }) => `${t.player}${t.extra ? ' (extra)' : ''}`;
    const scheduled = new Map((game.view().turns ?? []).map((t) => [t.turnMarker, t.schedule.turns.slice(0, 3).map(label)]));
    const began = new Map<number, string[]>([[1, []], [2, []]]);
    game.on('turnBegan', (e) => void began.get(e.turnMarker as number)?.push(label({ player: e.activePlayer as string, extra: e.extra })));
    for (let i = 0; i < 3000 && [...began.values()].some((b) => b.length < 3); i++) step(game);
    // Marker 2 never carries B's extra turn; marker 1 takes it when it reaches B, before B's own turn.
    expect(scheduled.get(2)?.some((t) => t.startsWith('B'))).toBe(false);
    expect(scheduled.get(1)).toEqual(began.get(1));
    expect(scheduled.get(2)).toEqual(began.get(2));
    expect(began.get(1)).toContain('B (extra)');
  });
});

describe('stacks and priority (CR 807.5)', () => {
  it('807.5a: only players within range of the marker (or of an object on its stack) get priority', () => {
    const game = melee();
    const circle = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const t = game.view().turns?.[0];
      if (t?.priority) circle.add(t.priority);
      step(game);
    }
    expect([...circle].sort()).toEqual(['A', 'B', 'J']);
  });

  it('807.5b: legalActions names the marker of every decision, and every listed action is accepted', () => {
    const game = melee();
    for (let i = 0; i < 80; i++) {
      const actions = game.legalActions();
      const view = game.view();
      for (const a of actions.filter((x: LegalAction) => x.type !== 'CONCEDE')) {
        expect(a.turnMarker === 1 || a.turnMarker === 2).toBe(true);
        const turn = view.turns?.find((t) => t.turnMarker === a.turnMarker);
        const event = { ...plainestFill(a, turn?.awaiting ?? null, { stack: turn?.stack ?? [], pendingTriggers: [] }), turnMarker: a.turnMarker };
        const fork = game.fork();
        const r = fork.send(event);
        expect(r.ok, JSON.stringify(event) + JSON.stringify(r)).toBe(true);
      }
      step(game);
    }
  });

  it('807.5b: a decision the player could make in two turns without a turnMarker is refused naming 807.5b', () => {
    const game = melee();
    for (const e of [
      { type: 'CAST_SPELL', player: 'A', id: 'a1', speed: 'instant' },
      { type: 'PASS_PRIORITY', player: 'A' },
      { type: 'CAST_SPELL', player: 'B', id: 'b1', speed: 'instant' },
      { type: 'PASS_PRIORITY', player: 'B' },
      { type: 'PASS_PRIORITY', player: 'E' },
      { type: 'PASS_PRIORITY', player: 'F' },
      { type: 'CAST_SPELL', player: 'D', id: 'd1', speed: 'instant' },
      { type: 'PASS_PRIORITY', player: 'D' },
      { type: 'PASS_PRIORITY', player: 'E' },
      { type: 'PASS_PRIORITY', player: 'F' },
    ] as const) expect(game.send(e).ok, JSON.stringify(e)).toBe(true);
    const refused = game.send({ type: 'CAST_SPELL', player: 'C', id: 'c1', speed: 'instant' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ILLEGAL_ACTION', rule: '807.5b' } });
    expect(game.send({ type: 'CAST_SPELL', player: 'C', id: 'c1', speed: 'instant', turnMarker: 2 }).ok).toBe(true);
    expect(game.view().turns?.[1]?.stack.map((o) => o.id)).toEqual(['d1', 'c1']);
    expect(game.send({ type: 'PASS_PRIORITY', player: 'C', turnMarker: 9 })).toMatchObject({ ok: false, error: { code: 'INVALID_EVENT' } });
  });

  it('nextStop looks ahead per marker and names it', () => {
    const game = melee();
    expect(game.nextStop('F')).toMatchObject({ turnMarker: 2, activePlayer: 'E', awaiting: { kind: 'priority', player: 'F' } });
    expect(game.nextStop('B')).toMatchObject({ turnMarker: 1, awaiting: { player: 'B' } });
  });

  it('nextStop answers the decisions awaited now first, looks past the running turns within players + 1 turns, and agrees with playing on', () => {
    const players = ids(10);
    const game = melee();
    // Everyone passes automatically but where they declare: the look ahead crosses turns and markers.
    for (const p of players) expect(game.send({ type: 'SET_STOPS', player: p, stops: [] }).ok).toBe(true);
    for (const p of [...players, undefined]) {
      const predicted = game.nextStop(p);
      const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
      expect(playMeleeUntilAsked(copy, p), `nextStop(${p ?? ''})`).toEqual(predicted);
    }
  });

  it('the actor takes events with the checks of send', () => {
    const game = melee();
    actorOf(game).send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(game.view().turns?.[0]?.priority).toBe('B');
  });
});

describe('persistence of Grand Melee games', () => {
  it('round-trips every marker, a waiting one included, and plays on the same', () => {
    const game = melee();
    for (let i = 0; i < 30 && !game.view().turns?.some((t) => t.waiting); i++) step(game);
    expect(game.view().turns?.some((t) => t.waiting)).toBe(true);
    const copy = restoreGame(JSON.parse(JSON.stringify(game.persist())), { use: allModules });
    expect(copy.view()).toEqual(game.view());
    for (let i = 0; i < 50; i++) {
      step(game);
      step(copy);
    }
    expect(copy.view()).toEqual(game.view());
    expect(copy.persist()).toEqual(game.persist());
  });

  it('refuses inconsistent snapshots with INVALID_SNAPSHOT naming the field', () => {
    // In the full form (format 2): every field of every turn marker written.
    const good = JSON.parse(JSON.stringify(fullSnapshot(simulate({ variant: 'grandMelee', turns: 2, seed: 5 }).game)));
    const refusal = (mutate: (p: typeof good) => void) => {
      const p = structuredClone(good);
      mutate(p);
      try {
        restoreGame(p, { use: allModules });
      } catch (err) {
        return `${(err as TurnEngineError).code}: ${(err as Error).message}`;
      }
      return 'accepted';
    };
    expect(refusal(() => undefined)).toBe('accepted');
    expect(refusal((p) => (p.markers[1].context.manaPool.A = 5))).toMatch(/^INVALID_SNAPSHOT: markers\[1\]\.context\.manaPool: differs/);
    expect(refusal((p) => (p.markers[1].number = 1))).toMatch(/markers\[1\]\.number/);
    expect(refusal((p) => (p.markers[0].life = p.markers[0].life === 'waiting' ? 'takingTurn' : 'waiting'))).toMatch(/markers\[0\]\.life/);
    expect(refusal((p) => (p.context.turn = p.context.turn + 1))).toMatch(/state, context: must be turn marker 1's/);
    expect(refusal((p) => p.markers.push(p.markers[1]))).toMatch(/markers/);
    expect(refusal((p) => (p.markers[1].context.turnOwner = p.markers[0].context.turnOwner))).toMatch(/markers\[1\]/);
  });
});

describe('Grand Melee games found by the soak (each failed before its fix)', () => {
  it("807.4, 807.5: a restored game keeps one set of the game's fields, so a change made in marker 2's turn reaches every turn", () => {
    const game = restoreGame(JSON.parse(JSON.stringify(melee().persist())), { use: allModules });
    expect(game.send({ type: 'HAND_SIZE', player: 'F', size: 3, turnMarker: 2 }).ok).toBe(true);
    expect(game.send({ type: 'CONCEDE', player: 'G' }).ok).toBe(true);
    const persisted = JSON.parse(JSON.stringify(game.persist()));
    for (const m of fullForm(persisted).markers ?? []) {
      expect(m.context.handSizes.F).toBe(3);
      expect(m.context.players).not.toContain('G');
      // Every player in the game has a count; G's spells of this turn stay until it ends (800.4i).
      expect(m.context.players.every((p: string) => p in m.context.spellsCast)).toBe(true);
    }
    expect(() => restoreGame(persisted, { use: allModules })).not.toThrow();
  });

  // Random games of the property harness (legal decisions, host events, players leaving, restores)
  // that failed before: a stuck defender choice with nobody left to choose (803.1a), a WIN whose
  // losers each turn worked out from its own range of influence (801.14), a turn ending with an
  // object the host put on the stack in cleanup (514.3a), a player beginning a second turn while
  // taking one (807.4), and a restored game whose turns no longer shared the game's fields.
  const SOAK_GAMES: [seed: number, players: number, rules: 'current' | 'm10' | 'classic', orderTriggers: 'host' | 'players', hostHeavy: boolean][] = [
    [20261479, 10, 'current', 'players', true],
    [20261501, 10, 'current', 'host', true],
    [20261506, 10, 'm10', 'players', false],
    [20261782, 10, 'classic', 'host', false],
    [20261989, 10, 'current', 'players', true],
    [777095, 12, 'current', 'host', true],
  ];
  it.each(SOAK_GAMES)('seed %i (%i players, %s, orderTriggers %s) plays 300 checked events', (seed, players, rules, orderTriggers, hostHeavy) => {
    const mix = hostHeavy ? { legal: 45, host: 40, refused: 8, concede: 2, restore: 5 } : DEFAULT_MIX;
    const run = playRandom({ players: ids(players), variant: 'grandMelee', rules, orderTriggers, pregame: false, seed }, 300, mix);
    expect(run.accepted).toBeGreaterThan(0);
  });
});
