/**
 * The gate's lane for PASS_PRIORITY (src/gate.ts `gateEvent`): the event most games send most
 * is parsed and checked in one pass. The lane may only accept what the full gate accepts
 * (CR 117.3d: the player holding priority passes; 723.5: nobody else decides for them), and
 * build the same event; whatever it declines, the full gate refuses or accepts with its own
 * message. Checked over random games of every setup, at every state they reach.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledGame } from '../support/logics.js';
import { turnPlan } from '../../src/compiled/plan.js';
import { snapshotOf } from '../../src/compiled/runtime.js';
import { fullGate, gateEvent } from '../../src/gate.js';
import { singleLogic } from '../../src/logic/single.js';
import { createGame } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { fill, setupArb, sharesTurns } from '../properties/harness.js';
import { assertProperty } from '../properties/seeds.js';

/** PASS_PRIORITY as hosts, typos and hostile clients send it. */
function candidates(seats: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const p of seats) {
    out.push({ type: 'PASS_PRIORITY', player: p });
    out.push({ type: 'PASS_PRIORITY', player: p, by: p });
    out.push({ type: 'PASS_PRIORITY', player: p, by: undefined });
    out.push({ type: 'PASS_PRIORITY', player: p, extra: 1 });
    out.push(Object.assign([], { type: 'PASS_PRIORITY', player: p }));
    out.push(Object.create({ type: 'PASS_PRIORITY', player: p }));
  }
  out.push({ type: 'PASS_PRIORITY', player: 'nobody' }, { type: 'PASS_PRIORITY', player: '' }, { type: 'PASS_PRIORITY', player: 'toString' }, { type: 'PASS_PRIORITY' }, { type: 'PASS_PRIORITY', player: 7 });
  out.push(
    new Proxy(
      {},
      {
        get() {
          throw new Error('hostile');
        },
      },
    ),
  );
  return out;
}

describe('gate: the PASS_PRIORITY lane (CR 117.3d, 723.5)', () => {
  it('accepts exactly what the full gate accepts, with the same event, in every state random games reach', () => {
    assertProperty(
      fc.property(setupArb.filter((o) => o.variant !== 'grandMelee'), (options) => {
        const r = seededRandom(options.seed);
        const game = createGame(options) as CompiledGame;
        let accepted = 0;
        for (let i = 0; i < 120 && game.view().gameOver === null; i++) {
          const snapshot = snapshotOf(turnPlan, game.state);
          for (const raw of candidates(snapshot.context.seats)) {
            const lane = gateEvent(snapshot, raw);
            const full = fullGate(snapshot, raw);
            expect(lane).toStrictEqual(full);
            // The logic's lane, which the shell takes before the gate without looking for a refusal: it only accepts.
            const logicLane = singleLogic.lane?.(game.state, raw);
            if (logicLane !== undefined) expect(logicLane).toStrictEqual(full);
            if (!('error' in lane)) {
              expect(Object.keys(lane)).toEqual(Object.keys(full));
              accepted++;
            }
          }
          const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
          const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
          const action = pass !== undefined && r() < 0.7 ? pass : (actions[Math.floor(r() * actions.length)] ?? pass);
          if (action === undefined) break;
          expect(game.send(fill(action, game.view(), r, i, sharesTurns(options))).ok).toBe(true);
        }
        // Games pass priority: the lane was taken, not only declined.
        expect(accepted).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });
});
