/**
 * Rules eras as data (issue 12): the side-by-side table of docs/rules.md is generated from the era
 * records, and each difference is read from them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERAS, eraTable } from '../../src/rules/eras.js';

describe('rules eras (CR 500.5, 509.2 of 2009-2024, classic 300.3, 310.4)', () => {
  it('the table of docs/rules.md is the table generated from the era data', () => {
    const doc = readFileSync(resolve(import.meta.dirname, '../../docs/rules.md'), 'utf8');
    const between = doc.split('<!-- era-table:start -->')[1]?.split('<!-- era-table:end -->')[0]?.trim();
    expect(between).toBe(eraTable());
  });

  it('has the three eras, each a record of the same fields', () => {
    expect(Object.keys(ERAS)).toEqual(['current', 'm10', 'classic']);
    const fields = Object.keys(ERAS.current).sort();
    for (const era of Object.values(ERAS)) expect(Object.keys(era).sort()).toEqual(fields);
    expect(ERAS.m10.damageAssignmentOrder && !ERAS.current.damageAssignmentOrder).toBe(true);
    expect(ERAS.classic).toMatchObject({ manaEmpties: 'phase', manaBurn: true, combatDamageOnStack: true, noAttackersSkipsRestOfStep: true });
  });
});
