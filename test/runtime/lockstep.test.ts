/**
 * Issue 21's lockstep: 2,000 seeded random games of every setup, recorded on the build before
 * the redesign and anew after issue 22's rules corrections (test/runtime/lockstep.ts), replayed
 * on this build: every send's result, view,
 * emitted event, hook call, legal action, nextStop, persist() and fork must hash the same.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { playLockstep, RECORDED } from './lockstep.js';
import { byCount } from '../support/scale.js';

const recorded = (JSON.parse(readFileSync(RECORDED, 'utf8')) as { games: string[] }).games;
/** The first 250 games in `npm test`, all 2,000 in `npm run test:long` (test/support/scale.ts). */
const CHUNK = 250;
const CHUNKS = byCount(1, 2000 / CHUNK);

describe('lockstep with the recorded games (issues 21, 22)', () => {
  it('records 2,000 games', () => {
    expect(recorded).toHaveLength(2000);
  });
  for (let c = 0; c < CHUNKS; c++) {
    it(`games ${c * CHUNK} to ${(c + 1) * CHUNK - 1} show the same views, events and persisted games`, () => {
      const differences: number[] = [];
      for (let n = c * CHUNK; n < (c + 1) * CHUNK; n++) {
        const { hash, sends } = playLockstep(n);
        if (`${sends}:${hash.slice(0, 24)}` !== recorded[n]) differences.push(n);
      }
      expect(differences, `games that differ (replay one with playLockstep(n))`).toEqual([]);
    });
  }
});
