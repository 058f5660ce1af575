/**
 * The table around the turn (src/table/tableLogic.ts `atTable`): without an undo policy it holds
 * nothing of any game, so every game of a turn logic shares one (createGame makes no table
 * logic, with its closures, per game: issue 21's API path); a policy is a game's own.
 */
import { describe, expect, it } from 'vitest';
import { singleLogic } from '../../src/logic/single.js';
import { grandMeleeLogic } from '../../src/logic/grandMelee.js';
import { atTable } from '../../src/table/tableLogic.js';
import { TABLE_READER } from '../../src/table/tableRead.js';
import { createGame, restoreGame } from '../../src/index.js';
import { allModules } from '../../src/allModules.js';

describe('atTable: one table logic per turn logic without an undo policy', () => {
  it('is the same object for every game of a turn logic, and another for each way of restoring', () => {
    expect(atTable(singleLogic, null)).toBe(atTable(singleLogic, null));
    expect(atTable(grandMeleeLogic, null)).not.toBe(atTable(singleLogic, null));
    expect(atTable(singleLogic, null, true, TABLE_READER)).toBe(atTable(singleLogic, null, true, TABLE_READER));
    expect(atTable(singleLogic, null, true, TABLE_READER)).not.toBe(atTable(singleLogic, null, false, TABLE_READER));
    expect(atTable(singleLogic, null, false, TABLE_READER)).not.toBe(atTable(singleLogic, null));
  });

  it('is a game\'s own with an undo policy', () => {
    const policy = { mode: 'own', maxPerTurn: null, answerMs: 30_000 } as const;
    expect(atTable(singleLogic, policy)).not.toBe(atTable(singleLogic, policy));
  });

  it('games sharing it keep their own states', () => {
    const a = createGame({ use: allModules, players: ['A', 'B'], seed: 1 });
    const b = createGame({ use: allModules, players: ['A', 'B'], seed: 1 });
    expect(a.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(b.view().version).toBe(0);
    const restored = restoreGame(JSON.parse(JSON.stringify(a.persist())), { use: allModules });
    expect(restored.view()).toEqual(a.view());
    expect(b.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
    expect(b.view()).toEqual(a.view());
  });
});
