/**
 * Acceptance of issue 23, "Recorded games": 500 seeded random games of every setup (every
 * variant, era, pregame, trigger ordering and attack option of the lockstep; checkpoint hooks
 * quiet, reporting, returning host events or failing; restores in the middle, each recorded
 * from there), recorded, then replayed with no hook: every version's view, emitted events,
 * `seq` and persist() are the original's (0 differences), `replayGame` to the end and to a
 * version at random (a seek) shows that version, and each game's scenario
 * (`recordingToScenario`) passes through the project's own runner. Longer games cross the
 * snapshots kept every 256 versions.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/simulation.js';
import { differences, playRecorded } from './recordings.js';
import { byCount } from '../support/scale.js';

/** 200 games in `npm test`, the acceptance's 500 in `npm run test:long` (test/support/scale.ts). */
const GAMES = byCount(200, 500);
const CHUNK = 100;

describe('recorded random games replay with no hook, view by view (issue 23)', () => {
  for (let from = 0; from < GAMES; from += CHUNK) {
    it(`games ${from} to ${from + CHUNK - 1}: 0 differences, and their scenarios pass`, () => {
      const found: string[] = [];
      let inputs = 0;
      for (let n = from; n < from + CHUNK; n++) {
        for (const segment of playRecorded(n)) {
          inputs += segment.recording.inputs.length;
          for (const d of differences(segment, seededRandom(n))) found.push(`game ${n} (${segment.recording.from}): ${d}`);
        }
      }
      expect(found).toEqual([]);
      expect(inputs).toBeGreaterThan(CHUNK * 20);
    });
  }

  it('games of 700 sends cross the snapshots: a seek from each shows its version', () => {
    const found: string[] = [];
    let snapshots = 0;
    for (let n = 0; n < 9; n++) {
      for (const segment of playRecorded(5_000 + n, 700, true)) {
        snapshots += segment.recording.snapshots.length;
        for (const d of differences(segment, seededRandom(n), false)) found.push(`game ${5_000 + n}: ${d}`);
      }
    }
    expect(found).toEqual([]);
    expect(snapshots).toBeGreaterThan(5);
  });
});
