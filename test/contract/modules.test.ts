/**
 * CONTRACT v4, "Package" ("A browser pays for what it uses"): the table's features and Grand
 * Melee are modules a host passes in `use`. Options, events and snapshots that need a module the
 * game was not given are refused (INVALID_OPTIONS, INVALID_EVENT, INVALID_SNAPSHOT) naming the
 * import; `at` on other events needs no module; fork and replayGame carry the modules on.
 */
import { describe, expect, it } from 'vitest';
import { createGame, replayGame, restoreGame, type Game, type GameOptions } from '../../src/index.js';
import { table } from '../../src/tableEntry.js';
import { grandMelee } from '../../src/variants.js';
import { allModules } from '../../src/allModules.js';

const TABLE = "import { table } from 'mtg-turn-engine/table'";
const VARIANTS = "import { grandMelee } from 'mtg-turn-engine/variants'";
const TEN = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'];

function thrown(make: () => unknown): { code: string; message: string } {
  try {
    make();
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('did not throw');
}

describe('modules a host passes: options that need a module (CONTRACT v4)', () => {
  const cases: [string, Partial<GameOptions>, string][] = [
    ['clock', { clock: { initialMs: 1000, onTimeout: 'lose' } }, TABLE],
    ['undo', { undo: { mode: 'own' } }, TABLE],
    ['away', { away: { graceMs: 1000, then: 'pass' } }, TABLE],
  ];
  for (const [field, options, needed] of cases) {
    it(`options.${field} without the table is INVALID_OPTIONS naming 'mtg-turn-engine/table'`, () => {
      const err = thrown(() => createGame({ players: ['A', 'B'], ...options }));
      expect(err.code).toBe('INVALID_OPTIONS');
      expect(err.message).toContain(`options.${field}:`);
      expect(err.message).toContain(needed);
      expect(createGame({ players: ['A', 'B'], ...options, use: [table] }).view().turn).toBe(1);
    });
  }

  it("variant 'grandMelee' without the variants module is INVALID_OPTIONS naming 'mtg-turn-engine/variants' (CR 807)", () => {
    const err = thrown(() => createGame({ players: TEN, variant: 'grandMelee' }));
    expect(err.code).toBe('INVALID_OPTIONS');
    expect(err.message).toContain('options.variant:');
    expect(err.message).toContain(VARIANTS);
    expect(createGame({ players: TEN, variant: 'grandMelee', use: [grandMelee] }).view().turns?.length).toBe(2);
  });

  it('use: refuses what is not a module, naming the entry', () => {
    expect(thrown(() => createGame({ players: ['A', 'B'], use: 'table' as never })).message).toMatch(/^options\.use: must be a list of modules/);
    expect(thrown(() => createGame({ players: ['A', 'B'], use: [table, {} as never] })).message).toMatch(/^options\.use\[1\]: not a module of the engine/);
    expect(thrown(() => restoreGame(createGame({ players: ['A', 'B'] }).persist(), { use: [null as never] })).code).toBe('INVALID_OPTIONS');
    // A look-alike is not the module.
    expect(thrown(() => createGame({ players: ['A', 'B'], use: [{ module: 'table' } as never] })).message).toBe("options.use[0]: not the engine's table module (import { table } from 'mtg-turn-engine/table')");
  });
});

describe('modules a host passes: events that need the table (CONTRACT v4)', () => {
  const events = [
    { type: 'TICK', at: 1 },
    { type: 'PAUSE_CLOCKS', at: 1 },
    { type: 'RESUME_CLOCKS', at: 1 },
    { type: 'SET_SEAT_STATUS', player: 'B', status: 'away', at: 1 },
    { type: 'UNDO', player: 'A', to: 0 },
    { type: 'ACCEPT_UNDO', player: 'B' },
    { type: 'DECLINE_UNDO', player: 'B' },
    { type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } },
    { type: 'ACCEPT_SHORTCUT', player: 'B' },
    { type: 'SHORTEN_SHORTCUT', player: 'B', until: { step: 'end' } },
  ];
  for (const event of events) {
    it(`${event.type} without the table is INVALID_EVENT naming 'mtg-turn-engine/table', and changes nothing`, () => {
      const game = createGame({ players: ['A', 'B'], seed: 1 });
      const before = JSON.stringify(game.persist());
      const out = game.send(event as never);
      expect(out.ok).toBe(false);
      if (out.ok) return;
      expect(out.error.code).toBe('INVALID_EVENT');
      expect(out.error.message).toContain(TABLE);
      expect(game.check(event as never)).toEqual(out);
      expect(JSON.stringify(game.persist())).toBe(before);
    });
  }

  it('`at` on other events is accepted without the table: it only checks that time does not go back', () => {
    const game = createGame({ players: ['A', 'B'] });
    expect(game.send({ type: 'PASS_PRIORITY', player: 'A', at: 100 }).ok).toBe(true);
    const back = game.send({ type: 'PASS_PRIORITY', player: 'B', at: 99 });
    expect(back.ok).toBe(false);
    if (!back.ok) expect(back.error.message).toContain('is earlier than the last at the game saw');
    expect(game.send({ type: 'PASS_PRIORITY', player: 'B', at: 100 }).ok).toBe(true);
    expect(game.persist().time).toEqual({ at: 100 });
    expect(game.nextDeadline()).toBeNull();
    // The host's clock alone needs no module to restore.
    expect(restoreGame(JSON.parse(JSON.stringify(game.persist()))).send({ type: 'PASS_PRIORITY', player: 'A', at: 50 }).ok).toBe(false);
  });
});

describe('modules a host passes: snapshots that need a module (CONTRACT v4)', () => {
  const persisted = (options: GameOptions) => JSON.parse(JSON.stringify(createGame(options).persist())) as unknown;

  it('a Grand Melee snapshot without the variants module is INVALID_SNAPSHOT naming the import', () => {
    const saved = persisted({ players: TEN, variant: 'grandMelee', use: [grandMelee] });
    const err = thrown(() => restoreGame(saved));
    expect(err.code).toBe('INVALID_SNAPSHOT');
    expect(err.message).toContain(VARIANTS);
    expect(restoreGame(saved, { use: [grandMelee] }).view().turns?.length).toBe(2);
  });

  for (const [what, options] of [
    ['clocks', { clock: { initialMs: 1000, onTimeout: 'lose' } }],
    ['seats', { away: { graceMs: 10, then: 'wait' } }],
    ['undo', { undo: { mode: 'own' } }],
  ] as const) {
    it(`a snapshot with ${what} without the table is INVALID_SNAPSHOT naming the import`, () => {
      const game = createGame({ players: ['A', 'B'], ...options, use: [table] });
      game.send({ type: 'PASS_PRIORITY', player: 'A', at: 5 });
      const saved = JSON.parse(JSON.stringify(game.persist())) as unknown;
      const err = thrown(() => restoreGame(saved));
      expect(err.code).toBe('INVALID_SNAPSHOT');
      expect(err.message).toContain(TABLE);
      expect(restoreGame(saved, { use: [table] }).persist()).toEqual(game.persist());
    });
  }

  it('a shortcut proposed without the table is INVALID_SNAPSHOT naming the import', () => {
    const game = createGame({ players: ['A', 'B'], use: [table] });
    expect(game.send({ type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } }).ok).toBe(true);
    const err = thrown(() => restoreGame(game.persist()));
    expect(err.message).toMatch(/^shortcut: .*mtg-turn-engine\/table/);
  });
});

describe('modules a host passes: fork and replayGame carry them (CONTRACT v4)', () => {
  it('fork() has the modules of its game', () => {
    const game: Game = createGame({ players: ['A', 'B'], use: [table] });
    const fork = game.fork();
    expect(fork.send({ type: 'PROPOSE_SHORTCUT', player: 'A', until: { step: 'end' } }).ok).toBe(true);
    expect(createGame({ players: ['A', 'B'] }).fork().send({ type: 'TICK', at: 1 }).ok).toBe(false);
  });

  it('a recording names its modules; replayGame needs them in `use`', () => {
    const game = createGame({ players: TEN, variant: 'grandMelee', use: [grandMelee, table], record: true, clock: { initialMs: 60_000, onTimeout: 'pass' } });
    game.send({ type: 'TICK', at: 0 });
    game.send({ type: 'TICK', at: 10 });
    const recording = game.recording();
    expect(recording.use).toEqual(['grandMelee', 'table']);
    const err = thrown(() => replayGame(recording, { use: [grandMelee] }));
    expect(err.code).toBe('INVALID_OPTIONS');
    expect(err.message).toContain(TABLE);
    expect(replayGame(recording, { use: allModules }).persist()).toEqual(game.persist());
    // A game without modules records none.
    const plain = createGame({ players: ['A', 'B'], record: true });
    expect(plain.recording().use).toBeUndefined();
    expect(replayGame(plain.recording()).view().turn).toBe(1);
  });
});
