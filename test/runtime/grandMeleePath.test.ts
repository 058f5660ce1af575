/**
 * Issue 21, point 8: in Grand Melee (CR 807) the work of an event does not grow with the
 * number of turn markers where it needn't. Counted in operations (the times are the bench's:
 * bench/hostPath.ts, `ratios.grandMelee64`):
 *
 * - a pass goes to the turn where its player holds priority without the legality of the
 *   others being worked out (807.5b: it fits only there);
 * - a waiting marker checked again with the same table of markers is not stepped again
 *   (its statechart's guards read only the table and its number, 807.4d);
 * - the pending events of a game whose turns keep none are not gathered into a new list.
 */
import { describe, expect, it } from 'vitest';
import { createGame, type TurnEvent } from '../../src/index.js';
import { GameShell } from '../../src/game/shell.js';
import { grandMeleeLogic } from '../../src/logic/grandMelee.js';
import { markerStepper, tableOf, type Marker } from '../../src/grandMelee/coordinator.js';
import type { MarkerTable } from '../../machines/grandMelee.guards.js';
import type { CompiledState } from '../../src/compiled/runtime.js';
import { allModules } from '../../src/allModules.js';

const PLAYERS = Array.from({ length: 64 }, (_, i) => `P${String(i + 1).padStart(2, '0')}`);

/** A 64-player Grand Melee game (16 turn markers), as its markers. */
function markers(): Marker[] {
  const game = createGame({ use: allModules, players: PLAYERS, variant: 'grandMelee', seed: 1 }) as GameShell<readonly Marker[], unknown>;
  return [...game.state];
}

describe('Grand Melee: what one event costs does not grow with the turn markers (issue 21, point 8)', () => {
  it("a pass reads nothing of the turns where its player does not hold priority but who holds it (the legality of the others' is not worked out)", () => {
    const reads = new Map<number, number>();
    // Each marker's turn counts the reads of its status (what a turn's legality check reads first, and a pass there does not).
    const counted = markers().map((m): Marker => {
      const turn = new Proxy(m.turn, {
        get(target, key, receiver) {
          if (key === 'status') reads.set(m.number, (reads.get(m.number) ?? 0) + 1);
          return Reflect.get(target, key, receiver) as unknown;
        },
      }) as CompiledState;
      return { ...m, turn };
    });
    expect(counted.length).toBe(16);
    const holder = counted[5]?.turn.context.priority as string;
    const game = new GameShell(grandMeleeLogic, counted, 1);
    reads.clear();
    const sent = game.send({ type: 'PASS_PRIORITY', player: holder } as TurnEvent);
    expect(sent.ok).toBe(true);
    // Marker 6 took the pass; marker 1 is where the game's status is read (the first turn).
    expect([...reads.keys()].filter((n) => n !== 6 && n !== 1)).toEqual([]);
  });

  it('a waiting marker checked again with the same table is not stepped again', () => {
    const ms = markers();
    const waiting = { ...(ms[1] as Marker), life: 'waiting' as const };
    const table = tableOf([ms[0] as Marker, waiting, ...ms.slice(2)]);
    let reads = 0;
    const counted: MarkerTable = { ...table, markers: new Proxy(table.markers, { get: (t, k, r) => (reads++, Reflect.get(t, k, r) as unknown) }) };
    const first = markerStepper.next({ value: 'waiting', context: { number: waiting.number } }, { type: 'CHECK', table: counted });
    const after = reads;
    expect(after).toBeGreaterThan(0);
    const again = markerStepper.next({ value: 'waiting', context: { number: waiting.number } }, { type: 'CHECK', table: counted });
    expect(again.value).toBe(first.value);
    expect(reads).toBe(after);
    // Another marker, or another table, is checked.
    markerStepper.next({ value: 'waiting', context: { number: 3 } }, { type: 'CHECK', table: counted });
    expect(reads).toBeGreaterThan(after);
  });

  it('the pending events of turns that keep none are no new list at each send', () => {
    const ms = markers();
    expect(ms.every((m) => m.turn.context.pending.length === 0)).toBe(true);
    expect(grandMeleeLogic.pending(ms)).toBe((ms[0] as Marker).turn.context.pending);
  });
});
