/**
 * Random games (2-8 players, both rules profiles, any starting player and hand sizes) under
 * a mix of legal actions and junk. Every event is checked by test/properties/monitor.ts:
 * send never throws (CONTRACT.md "Game"), refusals change nothing, the view's invariants
 * hold (CR 117.3, 305.2, 106.4, 800.4a), steps follow the turn table (CR 500.1) and a
 * restored game has the same future.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAOS_WEIGHTS, choicesArb, setupArb } from './arbitraries.js';
import { runGame } from './monitor.js';
import { assertProperty } from './seeds.js';

describe('random games: every event keeps the contract', () => {
  it('send never throws, refusals change nothing, invariants and step order hold (CR 117, 500.1, 800.4)', () => {
    let events = 0;
    assertProperty(
      fc.property(setupArb, choicesArb(60), (setup, choices) => {
        events += runGame(setup, choices).events;
      }),
      { numRuns: 40 },
    );
    expect(events).toBeGreaterThan(1000);
  });

  it('games heavy with host effects and players leaving keep the same contract (CR 614.10, 500.7, 500.8, 800.4)', () => {
    let events = 0;
    assertProperty(
      fc.property(setupArb, choicesArb(60, CHAOS_WEIGHTS), (setup, choices) => {
        events += runGame(setup, choices).events;
      }),
      { numRuns: 25 },
    );
    expect(events).toBeGreaterThan(500);
  });

  it('long two-player games reach many turns with the same checks (CR 500.1, 514.3a)', () => {
    let turns = 0;
    assertProperty(
      fc.property(
        setupArb.filter((s) => s.players.length <= 3),
        fc.array(fc.record({ kind: fc.constant('pass' as const), times: fc.integer({ min: 20, max: 40 }) }), { minLength: 20, maxLength: 40 }),
        choicesArb(30),
        (setup, passes, mixed) => {
          const interleaved = passes.flatMap((p, i) => (mixed[i] ? [p, mixed[i]] : [p]));
          turns = Math.max(turns, runGame(setup, interleaved).turns);
        },
      ),
      { numRuns: 10 },
    );
    expect(turns).toBeGreaterThan(5);
  });
});
