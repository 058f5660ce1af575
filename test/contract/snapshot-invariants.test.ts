/**
 * restoreGame refuses snapshots whose fields contradict each other (CONTRACT.md "restoreGame",
 * issue 22): each named invariant of src/persistence/invariants.ts, broken in a snapshot of a
 * real game, is INVALID_SNAPSHOT with a message naming the field and what it contradicts; the
 * snapshot before the change restores. Each case was accepted before the invariant existed, and
 * the game it restored got stuck or could not be saved.
 */
import { describe, expect, it } from 'vitest';
import { createGame, restoreGame, TurnEngineError, type Game, type GameOptions } from '../../src/index.js';
import type { PersistedFull } from '../../src/persistence/format.js';
import { fullSnapshot } from '../support/persisted.js';
import { GAME_INVARIANTS, TURN_INVARIANTS } from '../../src/persistence/invariants.js';
import { MAX_COUNT, MAX_RESTORED_TURN } from '../../src/persistence/format.js';
import { plainestAnswer } from '../../src/scenarios/runner.js';
import { allModules } from '../../src/allModules.js';

/** A snapshot in the full form (format 2): every field there to break. */
type Snapshot = PersistedFull & Record<string, unknown>;

function snapshotOf(game: Game): Snapshot {
  return fullSnapshot(game) as Snapshot;
}

/** 'restored', or the refusal's code and message. */
function restoring(snapshot: unknown): string {
  try {
    restoreGame(snapshot, { use: allModules });
    return 'restored';
  } catch (err) {
    if (!(err instanceof TurnEngineError)) throw err;
    return `${err.code}: ${err.message}`;
  }
}

/** A copy of the snapshot changed by `change`. */
function changed(snapshot: Snapshot, change: (s: Snapshot) => void): Snapshot {
  const copy = structuredClone(snapshot);
  change(copy);
  return copy;
}

function played(options: GameOptions, events: unknown[]): Game {
  const game = createGame({ use: allModules, ...options });
  for (const event of events) {
    const r = game.send(event as never);
    if (!r.ok) throw new Error(`${JSON.stringify(event)} refused: ${r.error.message}`);
  }
  return game;
}

const emperorTeams = [
  { id: 'T1', players: ['A', 'B', 'C'] },
  { id: 'T2', players: ['D', 'E', 'F'] },
];
const emperor = () => snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C', 'D', 'E', 'F'], variant: 'emperor', teams: emperorTeams, startingPlayer: 'B' }));
const twoHeadedGiant = () =>
  snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] }));
const TEN = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];
const melee = (players = TEN) => createGame({ use: allModules, players, variant: 'grandMelee', seed: 3 });
/** Two players ordering their triggers (CR 603.3b): A's two triggers wait for A's order, nobody holds priority. */
const ordering = () => snapshotOf(played({ players: ['A', 'B'], orderTriggers: 'players' }, [{ type: 'TRIGGER', triggers: [{ id: 't1', controller: 'A' }, { id: 't2', controller: 'A' }, { id: 't3', controller: 'B' }, { id: 't4', controller: 'B' }] }]));

describe('the invariants are named (issue 22)', () => {
  it('lists every invariant once, by name', () => {
    const names = [...GAME_INVARIANTS, ...TURN_INVARIANTS].map((i) => i.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['grandMeleeHasTurnMarkers', 'turnMarkersMatchPlayers', 'variantMatchesTeams', 'triggerOrderAwaited', 'countersWithinCaps', 'versionWithinCap']),
    );
  });

  it('every snapshot of the fixtures restores as it is', () => {
    for (const s of [emperor(), twoHeadedGiant(), snapshotOf(melee()), ordering()]) expect(restoring(s)).toBe('restored');
  });
});

describe('grandMeleeHasTurnMarkers: turn markers exactly in Grand Melee (CR 807.4)', () => {
  it('a Grand Melee game without its markers', () => {
    const s = snapshotOf(melee());
    expect(restoring(changed(s, (x) => delete x.markers))).toMatch(/^INVALID_SNAPSHOT: markers: a 'grandMelee' game \(context\.variant\)/);
  });
  it('markers on a game of another variant', () => {
    const s = snapshotOf(createGame({ use: allModules, players: ['A', 'B'] }));
    const marker = { number: 1, life: 'takingTurn', removals: 0, state: s.state, context: s.context };
    expect(restoring(changed(s, (x) => (x.markers = [marker as never])))).toMatch(/^INVALID_SNAPSHOT: markers: turn markers exist only in 'grandMelee'.*'freeForAll'/);
  });
});

describe('turnMarkersMatchPlayers: one marker per full four players (CR 807.4a, 807.4e-f)', () => {
  it('more markers than a game of ten players has', () => {
    const s = snapshotOf(melee());
    const third = { ...structuredClone(s.markers![1]!), number: 3 };
    expect(restoring(changed(s, (x) => x.markers!.push(third as never)))).toMatch(/^INVALID_SNAPSHOT: markers(\[2\]\.number)?: /);
  });
  it("markers that stay after players left, their designation for removal undone", () => {
    const game = melee();
    for (const p of ['J', 'I', 'H']) expect(game.send({ type: 'CONCEDE', player: p }).ok).toBe(true);
    const s = snapshotOf(game);
    expect(s.markers!.length).toBe(2);
    expect(s.markers!.reduce((n, m) => n + m.removals, 0)).toBe(1);
    expect(restoring(s)).toBe('restored');
    const undone = changed(s, (x) => x.markers!.forEach((m) => (m.removals = 0)));
    expect(restoring(undone)).toMatch(/^INVALID_SNAPSHOT: markers: 2 turn markers, 0 of them designated for removal, for 7 players in the game: at most 1 may stay/);
  });
  it('every marker designated for removal', () => {
    const s = snapshotOf(melee());
    expect(restoring(changed(s, (x) => x.markers!.forEach((m) => (m.removals = 1))))).toMatch(/^INVALID_SNAPSHOT: markers: 2 designations for removal for 2 turn markers/);
  });
});

describe("settingsAgreeAcrossMarkers: the game's settings are the same in every turn", () => {
  it("a marker's turn with another way of attacking", () => {
    const s = snapshotOf(melee());
    expect(restoring(changed(s, (x) => (x.markers![1]!.context.attack = 'right')))).toMatch(/^INVALID_SNAPSHOT: markers\[1\]\.context\.attack: differs from turn marker 1's/);
  });
});

describe('variantMatchesTeams and teamsPartitionTheSeats: a variant is played by its teams (CR 807.1, 809.1, 810.1, 810.11, 904.2)', () => {
  it('an Emperor game relabelled Archenemy', () => {
    expect(restoring(changed(emperor(), (x) => (x.context.variant = 'archenemy')))).toMatch(/^INVALID_SNAPSHOT: context\.variant: 'archenemy' needs two teams, one of them the archenemy alone \(CR 904\.2\), and context\.teams has teams of 3, 3/);
  });
  it("an Emperor game relabelled Two-Headed Giant: two teams of three are a Three-Headed Giant's (810.11), but not the emperors' ranges of influence", () => {
    expect(restoring(changed(emperor(), (x) => (x.context.variant = 'twoHeadedGiant')))).toMatch(/^INVALID_SNAPSHOT: context\.ranges\.B: differs from the game's range of influence, 1 \(CR 801\.1\)/);
  });
  it('a Two-Headed Giant game whose teams differ in size (810.11)', () => {
    expect(restoring(changed(twoHeadedGiant(), (x) => (x.context.teams = [{ id: 't1', players: ['A', 'B', 'C'] }, { id: 't2', players: ['D'] }])))).toMatch(/^INVALID_SNAPSHOT: context\.variant: 'twoHeadedGiant' needs two teams of two or more players, both the same size \(CR 810\.1, 810\.11\), and context\.teams has teams of 3, 1/);
  });
  it('a Two-Headed Giant game relabelled Emperor', () => {
    expect(restoring(changed(twoHeadedGiant(), (x) => (x.context.variant = 'emperor')))).toMatch(/^INVALID_SNAPSHOT: context\.variant: 'emperor' needs teams of three/);
  });
  it('a player on no team', () => {
    expect(restoring(changed(twoHeadedGiant(), (x) => (x.context.teams![1]!.players = ['C'])))).toMatch(/^INVALID_SNAPSHOT: context\.teams: 'D' of context\.seats is on no team/);
  });
  it('a player on two teams', () => {
    expect(restoring(changed(twoHeadedGiant(), (x) => (x.context.teams![1]!.players = ['C', 'A'])))).toMatch(/^INVALID_SNAPSHOT: context\.teams\[1\]\.players\[1\]: 'A' is on two teams/);
  });
  it("createGame's options say the same rule (Emperor's names the variant, the others' the teams)", () => {
    const options = (players: string, variant: string, teams?: string[]) => ({ players: [...players], variant, ...(teams === undefined ? {} : { teams: teams.map((t, i) => ({ id: `t${i}`, players: [...t] })) }) });
    const refusal = (o: object) => {
      try {
        createGame(o as never);
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    const EMPEROR = "options.variant: 'emperor' needs teams of three or more, all the same size (CR 809.1, 809.6)";
    const GIANT = "options.teams: 'twoHeadedGiant' needs two teams of two or more players, both the same size (CR 810.1, 810.11)";
    const ARCHENEMY = "options.teams: 'archenemy' needs two teams, one of them the archenemy alone (CR 904.2)";
    expect(refusal(options('ABCDEF', 'emperor'))).toBe(EMPEROR);
    expect(refusal(options('ABCDEF', 'emperor', ['ABCD', 'EF']))).toBe(EMPEROR);
    expect(refusal(options('ABCD', 'emperor', ['AB', 'CD']))).toBe(EMPEROR);
    expect(refusal(options('ABCDEF', 'emperor', ['ABC', 'DEF']))).toBe('accepted');
    expect(refusal(options('ABCD', 'twoHeadedGiant'))).toBe(GIANT);
    expect(refusal(options('ABCDE', 'twoHeadedGiant', ['ABC', 'DE']))).toBe(GIANT);
    expect(refusal(options('ABCDEF', 'twoHeadedGiant', ['AB', 'CD', 'EF']))).toBe(GIANT);
    expect(refusal(options('ABCD', 'twoHeadedGiant', ['AB', 'CD']))).toBe('accepted');
    expect(refusal(options('ABCDEF', 'twoHeadedGiant', ['ABC', 'DEF']))).toBe('accepted');
    expect(refusal(options('ABC', 'archenemy'))).toBe(ARCHENEMY);
    expect(refusal(options('ABCD', 'archenemy', ['AB', 'CD']))).toBe(ARCHENEMY);
    expect(refusal(options('ABC', 'archenemy', ['A', 'B', 'C']))).toBe(ARCHENEMY);
    expect(refusal(options('ABC', 'archenemy', ['A', 'BC']))).toBe('accepted');
  });
});

describe('rangesMatchVariant and influenceAsTheTurnBegan: ranges of influence are the game\'s (CR 801.1, 801.2c, 809.3a)', () => {
  it("an emperor's general with the emperor's range", () => {
    expect(restoring(changed(emperor(), (x) => (x.context.ranges!.A = 2)))).toMatch(/^INVALID_SNAPSHOT: context\.ranges: in 'emperor' each emperor's range of influence is 2/);
  });
  it('one player with another range than the game', () => {
    const s = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C', 'D', 'E'], rangeOfInfluence: 1 }));
    expect(restoring(changed(s, (x) => (x.context.ranges!.C = 2)))).toMatch(/^INVALID_SNAPSHOT: context\.ranges\.C: differs from the game's range of influence, 1/);
  });
  it('players within a range of influence that the ranges do not give', () => {
    const s = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C', 'D', 'E'], rangeOfInfluence: 1 }));
    expect(restoring(changed(s, (x) => (x.context.influence!.A = ['A', 'B', 'C'])))).toMatch(/^INVALID_SNAPSHOT: context\.influence\.A: \["A","B","C"\] is not the range of influence/);
  });
});

describe('turnsBelongToUnits: with shared team turns the turn is the team\'s (CR 805.2, 805.4)', () => {
  it("a team listed in another order, so that the turn's owner is no longer its primary player", () => {
    expect(restoring(changed(twoHeadedGiant(), (x) => (x.context.teams![0]!.players = ['B', 'A'])))).toMatch(/^INVALID_SNAPSHOT: context\.turnOwner: 'A' is not the primary player of a team/);
  });
});

describe("turnsBelongToUnits: extra turns and skips are the team's (CR 805.8)", () => {
  const game = () => played({ players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }] }, [{ type: 'ADD_EXTRA_TURN', player: 'D' }, { type: 'SKIP_NEXT', player: 'D', what: 'draw' }]);
  it("the engine keeps them under the team's primary player", () => {
    const s = snapshotOf(game());
    expect(s.context.extraTurns).toEqual([{ player: 'C' }]);
    expect(s.context.skips).toEqual({ C: { draw: 1 } });
  });
  it("an extra turn kept under a player who is not the team's primary player", () => {
    expect(restoring(changed(snapshotOf(game()), (x) => (x.context.extraTurns = [{ player: 'D' }])))).toMatch(/^INVALID_SNAPSHOT: context\.extraTurns\[0\]\.player: 'D' is not the primary player of a team/);
  });
  it("a skip kept under a player who is not the team's primary player", () => {
    expect(restoring(changed(snapshotOf(game()), (x) => (x.context.skips = { D: { draw: 1 } })))).toMatch(/^INVALID_SNAPSHOT: context\.skips\.D: not the primary player of a team/);
  });
});

describe('passedMarkersInGrandMelee: an extra turn left for the next turn is Grand Melee\'s (CR 807.4i)', () => {
  const game = () => played({ players: ['A', 'B', 'C'] }, [{ type: 'ADD_EXTRA_TURN', player: 'B' }]);
  it('the flag on an extra turn of a game without turn markers', () => {
    expect(restoring(snapshotOf(game()))).toBe('restored');
    expect(restoring(changed(snapshotOf(game()), (x) => (x.context.extraTurns = [{ player: 'B', beforeNextTurn: true }])))).toMatch(/^INVALID_SNAPSHOT: context\.extraTurns\[0\]\.beforeNextTurn: only in 'grandMelee' \(CR 807\.4i/);
  });
});

describe('waitingToPhaseInOfDeparted: what waits to phase in is of players who left, each once (CR 702.26n)', () => {
  const game = () => played({ players: ['A', 'B', 'C'] }, [{ type: 'CONCEDE', player: 'B' }]);
  it('a player still in the game, a stranger, or a player twice', () => {
    expect(restoring(snapshotOf(game()))).toBe('restored');
    for (const waiting of [[{ player: 'C', due: true }], [{ player: 'Z', due: false }], [{ player: 'B', due: false }, { player: 'B', due: true }]]) {
      expect(restoring(changed(snapshotOf(game()), (x) => (x.context.waitingToPhaseIn = waiting)))).toMatch(/^INVALID_SNAPSHOT: context\.waitingToPhaseIn: players who left the game after turn 1 began, each once \(CR 702\.26n\)/);
    }
  });
});

describe('pregameBeforeTurnOne: before turn 1 nobody is active (CR 103)', () => {
  it('an active player during the pregame', () => {
    const s = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C'], pregame: true }));
    expect(restoring(changed(s, (x) => (x.context.activePlayer = 'A')))).toMatch(/^INVALID_SNAPSHOT: context\.pregame: before turn 1 there is no active player/);
  });
  it('a chooser of the starting player who may not go first (CR 904.6: the archenemy; 809.4: an emperor): the game would wait for a choice nobody may make', () => {
    const archenemy = snapshotOf(createGame({ use: allModules, players: ['E', 'A', 'B', 'C'], variant: 'archenemy', teams: [{ id: 'boss', players: ['E'] }, { id: 'heroes', players: ['A', 'B', 'C'] }], pregame: true, seed: 5 }));
    expect(archenemy.context.pregame?.chooser).toBe('E');
    expect(restoring(changed(archenemy, (x) => (x.context.pregame!.chooser = 'A')))).toMatch(/^INVALID_SNAPSHOT: context\.pregame\.chooser: 'A' is not among those who may go first in 'archenemy' \("E"; CR 904\.6/);
    const emperor = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C', 'D', 'E', 'F'], variant: 'emperor', teams: emperorTeams, pregame: true, seed: 2 }));
    expect(restoring(changed(emperor, (x) => (x.context.pregame!.chooser = 'A')))).toMatch(/^INVALID_SNAPSHOT: context\.pregame\.chooser: 'A' is not among those who may go first in 'emperor'/);
    expect(restoring(emperor)).toBe('restored');
  });
  it('a player putting cards on the bottom who did not keep', () => {
    const s = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C'], pregame: true }));
    expect(restoring(changed(s, (x) => (x.context.pregame!.bottom = { B: 1 })))).toMatch(/^INVALID_SNAPSHOT: context\.pregame\.bottom\.B: only a player who kept/);
  });
});

describe('emptyTurnsBelowDraw: a game of empty turns is already a draw (CR 104.4b)', () => {
  it('more empty turns in a row than the draw allows', () => {
    const s = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C'] }));
    expect(restoring(changed(s, (x) => (x.context.emptyTurns = 7)))).toMatch(/^INVALID_SNAPSHOT: context\.emptyTurns: 7 turns in a row with everything skipped, past 6/);
    expect(restoring(changed(s, (x) => (x.context.emptyTurns = 6)))).toBe('restored');
  });
});

describe('triggerOrderAwaited: an order of triggers is awaited only where the game waits for it (CR 603.3b)', () => {
  it('the fixture awaits the order of A and then B', () => {
    const game = restoreGame(ordering(), { use: allModules });
    expect(game.view().awaiting).toMatchObject({ kind: 'orderTriggers', player: 'A' });
  });
  it('with the host ordering triggers', () => {
    expect(restoring(changed(ordering(), (x) => (x.context.orderTriggers = 'host')))).toMatch(/^INVALID_SNAPSHOT: context\.triggerOrder: players order their triggers only with context\.orderTriggers 'players'/);
  });
  it('while a player holds priority', () => {
    expect(restoring(changed(ordering(), (x) => (x.context.priority = 'A')))).toMatch(/^INVALID_SNAPSHOT: context\.triggerOrder: nobody holds priority while triggers wait to be ordered/);
  });
  it('in a state that awaits no priority (the declaration of attackers)', () => {
    const s = snapshotOf(played({ players: ['A', 'B'], orderTriggers: 'players' }, [{ type: 'PASS_PRIORITY', player: 'A' }, { type: 'PASS_PRIORITY', player: 'B' }, { type: 'PASS_PRIORITY', player: 'A' }, { type: 'PASS_PRIORITY', player: 'B' }, { type: 'PASS_PRIORITY', player: 'A' }, { type: 'PASS_PRIORITY', player: 'B' }]));
    expect(s.state).toBe('combat.declareAttackers.declaring');
    const moved = changed(s, (x) => (x.context.triggerOrder = ordering().context.triggerOrder));
    expect(restoring(moved)).toMatch(/^INVALID_SNAPSHOT: context\.triggerOrder: triggers wait to be ordered only in a step with priority, and state combat\.declareAttackers\.declaring has none/);
  });
  it('naming a trigger of a player who is not in the game', () => {
    expect(restoring(changed(ordering(), (x) => (x.context.triggerOrder!.batch[0]!.controller = 'Z')))).toMatch(/^INVALID_SNAPSHOT: context\.triggerOrder\.batch\[0\]\.controller: 'Z' is not a player in the game/);
  });
  it('naming a trigger already on the stack', () => {
    const s = changed(ordering(), (x) => (x.context.stack = [{ id: 't1', controller: 'A', kind: 'trigger' }]));
    expect(restoring(s)).toMatch(/^INVALID_SNAPSHOT: context\.triggerOrder\.batch\[0\]\.id: t1 is on the stack or waiting twice/);
  });
  it("an order that is not of the player's triggers", () => {
    expect(restoring(changed(ordering(), (x) => (x.context.triggerOrder!.orders = { A: ['t1', 't3'] })))).toMatch(/^INVALID_SNAPSHOT: context\.triggerOrder\.orders\.A: \["t1", "t3"\]|context\.triggerOrder\.orders\.A: \[/);
  });
  it('every order already given, so that nobody is awaited', () => {
    expect(restoring(changed(ordering(), (x) => (x.context.triggerOrder!.orders = { A: ['t2', 't1'], B: ['t4', 't3'] })))).toMatch(/^INVALID_SNAPSHOT: context\.triggerOrder: nobody has triggers left to order/);
  });
});

describe('countersWithinCaps and versionWithinCap: counts leave room to go on and be saved', () => {
  const s = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C'] }));
  it.each([
    ['version', (x: Snapshot) => (x.version = Number.MAX_SAFE_INTEGER), /^INVALID_SNAPSHOT: version: 9007199254740991 is past MAX_COUNT/],
    ['version', (x: Snapshot) => (x.version = MAX_COUNT + 1), /^INVALID_SNAPSHOT: version: /],
    ['seq', (x: Snapshot) => (x.seq = Number.MAX_SAFE_INTEGER - 1), /^INVALID_SNAPSHOT: seq: 9007199254740990 is past MAX_COUNT/],
    ['context.turn', (x: Snapshot) => (x.context.turn = 2 ** 31 - 1), /^INVALID_SNAPSHOT: context\.turn: 2147483647 is past MAX_RESTORED_TURN/],
    ['context.handSizes', (x: Snapshot) => (x.context.handSizes.A = 1_000_001), /^INVALID_SNAPSHOT: context\.handSizes\.A: 1000001 cards, more than MAX_AMOUNT = 1000000/],
    ['context.manaPool', (x: Snapshot) => (x.context.manaPool.B = Number.MAX_SAFE_INTEGER), /^INVALID_SNAPSHOT: context\.manaPool\.B: /],
    ['context.spellsCast', (x: Snapshot) => (x.context.spellsCast.C = Number.MAX_SAFE_INTEGER), /^INVALID_SNAPSHOT: context\.spellsCast\.C: /],
    ['context.nextObjectId', (x: Snapshot) => (x.context.nextObjectId = Number.MAX_SAFE_INTEGER), /^INVALID_SNAPSHOT: context\.nextObjectId: /],
    ['context.previousTurnSpells', (x: Snapshot) => (x.context.previousTurnSpells = Number.MAX_SAFE_INTEGER), /^INVALID_SNAPSHOT: context\.previousTurnSpells: /],
  ])('%s at its cap', (_field, change, message) => {
    expect(restoring(changed(s, change))).toMatch(message);
  });

  it('the caps themselves restore', () => {
    expect(restoring(changed(s, (x) => ((x.version = MAX_COUNT), (x.context.turn = MAX_RESTORED_TURN), (x.context.handSizes.A = 1_000_000), (x.context.manaPool.B = MAX_COUNT))))).toBe('restored');
  });

  it('counts with room below the caps restore, and the game goes on and is saved', () => {
    const big = changed(s, (x) => {
      x.version = 2 ** 40;
      x.context.turn = 2 ** 29;
      x.context.handSizes.A = 1_000_000;
      x.context.manaPool.B = 2 ** 40;
    });
    const game = restoreGame(big, { use: allModules });
    const turn = game.view().turn;
    for (let i = 0; i < 40; i++) expect(game.send(plainestAnswer(game.view())).ok).toBe(true);
    expect(game.view().turn).toBeGreaterThan(turn);
    expect(restoring(JSON.parse(JSON.stringify(game.persist())))).toBe('restored');
  });

  it('planar die rolls past MAX_AMOUNT, which a pool of mana may pay for, restore (CR 901.9)', () => {
    const s7 = snapshotOf(createGame({ use: allModules, players: ['A', 'B', 'C'], variant: 'planechase' }));
    expect(restoring(changed(s7, (x) => (x.context.planarRolls = 1_000_001)))).toBe('restored');
  });

  it('more lands played than MAX_AMOUNT, which effects may allow, restore (CR 305.2)', () => {
    const lands = changed(s, (x) => {
      x.context.effects = [1, 2].map((n) => ({ id: `e${n}`, effect: { kind: 'landPlays', change: 1_000_000 }, duration: 'endOfTurn', since: 1 }));
      x.context.landsPlayedBy = { A: 1_000_001 };
    });
    expect(restoring(lands)).toBe('restored');
  });
});

describe('a combat whose attacker attacks the active player is refused (CR 508.1b)', () => {
  it('508.1b: context.combat.attackers[i].defender is an opponent, never the active player', () => {
    const game = createGame({ players: ['A', 'B', 'C'] });
    for (let i = 0; i < 30 && game.view().awaiting?.kind !== 'declareAttackers'; i++) game.send({ type: 'PASS_PRIORITY', player: game.view().priority as string });
    game.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'c1', defender: 'B' }, { id: 'c2', defender: 'C' }] });
    const snapshot = snapshotOf(game);
    expect(restoring(changed(snapshot, (s) => ((s.context.combat as { attackers: { defender: string }[] }).attackers[1]!.defender = 'A')))).toMatch(
      /^INVALID_SNAPSHOT: context\.combat\.attackers\[1\]\.defender: not an opponent \(CR 508\.1b\)/,
    );
    expect(restoreGame(snapshot).view()).toEqual(game.view());
  });
});
