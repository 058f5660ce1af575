import { describe, expect, it } from 'vitest';
import { LEGALITY, PARSERS, PLAYER_FIELDS, READS_AWAITING } from '../../src/events/index.js';
import { EVENT_TYPES } from '../../src/schemas.js';

/** The name of a row's second parameter (what the game awaits), or null when it takes none. */
function awaitingParameter(row: (...args: never[]) => unknown): string | null {
  const params = /^\s*\(([^)]*)\)/.exec(row.toString())?.[1] ?? '';
  const names = params.split(',').map((p) => p.trim()).filter((p) => p !== '');
  return names[1] ?? null;
}

describe('legality table: the rows that read what the game awaits (the gate works it out only for them)', () => {
  it('READS_AWAITING lists exactly the rows that use their awaiting argument', () => {
    const reading = Object.entries(LEGALITY)
      .filter(([, row]) => {
        const name = awaitingParameter(row as (...args: never[]) => unknown);
        return name !== null && !name.startsWith('_');
      })
      .map(([type]) => type)
      .sort();
    expect(reading).toEqual([...READS_AWAITING].sort());
  });

  it('every event type of the contract has a row', () => {
    for (const type of EVENT_TYPES) expect(LEGALITY, type).toHaveProperty(type);
  });

  it("the gate's tables by event type have no prototype (looked up by a changing key at every event that leaves the lane: V8 is faster at it so)", () => {
    for (const table of [LEGALITY, PLAYER_FIELDS, PARSERS]) expect(Object.getPrototypeOf(table)).toBeNull();
  });
});
