/**
 * Random games of the property harness that failed in `npm run test:soak` (each with the setup
 * and seed that replays it), kept here after their fix. Grand Melee's are in
 * test/rules/807-grand-melee.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { playRandom, type Mix } from './harness.js';

const HOST_HEAVY: Mix = { legal: 45, host: 40, refused: 8, concede: 2, restore: 5 };

describe('soak regressions', () => {
  it('511.3, 724.1d: after END_TURN, a combat of a later turn taken in the same send still ends with its phase (seed 20264049, classic)', () => {
    // END_TURN in turn 1's combat; auto-passes then carried the same send through turn 2's combat,
    // whose phase exit took END_TURN for its event and left the combat open into the ending phase.
    const run = playRandom({ players: ['A', 'B'], rules: 'classic', orderTriggers: 'host', pregame: false, seed: 20264049 }, 300, HOST_HEAVY, true);
    expect(run.accepted).toBeGreaterThan(0);
  });
});
