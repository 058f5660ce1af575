/**
 * CONTRACT v4, "Serving games" (updates carry what changed): the engine says which view fields an
 * accepted send left unchanged (src/viewChanges.ts), and the table server diffs only the others.
 * Whatever it calls unchanged must be: over random games of every variant, each such field of the
 * view after a send deep-equals the field before it.
 */
import { describe, expect, it } from 'vitest';
import type { Game, TurnView } from '../../src/index.js';
import { simulate, type SimulationOptions } from '../../src/simulation.js';
import { VIEW_UNCHANGED } from '../../src/viewChanges.js';

type Asks = { [VIEW_UNCHANGED](): Set<keyof TurnView> | null };

function check(options: SimulationOptions): { sends: number; skipped: number } {
  let game: Game | null = null;
  let before: TurnView | null = null;
  let sends = 0;
  let skipped = 0;
  simulate({
    ...options,
    onStart: (g) => {
      game = g;
      // The first ask starts the game's record of what changed (unknown until the next send).
      expect((g as unknown as Asks)[VIEW_UNCHANGED]()).toBeNull();
      before = g.view();
    },
    onSend: (_event, ok, view) => {
      if (!ok) return;
      const unchanged = (game as unknown as Asks)[VIEW_UNCHANGED]();
      expect(unchanged).not.toBeNull();
      for (const field of unchanged!) expect(view[field], `${field} after version ${before!.version}`).toEqual(before![field]);
      skipped += unchanged!.size;
      sends++;
      before = view;
    },
  });
  return { sends, skipped };
}

describe('the view fields a send leaves unchanged (src/viewChanges.ts)', () => {
  it.each([
    { players: 2, seeds: 6 },
    { players: 4, seeds: 2 },
    { variant: 'twoHeadedGiant' as const, seeds: 2 },
    { variant: 'emperor' as const, seeds: 1 },
    { variant: 'grandMelee' as const, seeds: 1 },
  ])('are unchanged: %o', ({ seeds, ...options }) => {
    let sends = 0;
    let skipped = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const out = check({ ...options, seed, turns: 4, allowConcede: true });
      sends += out.sends;
      skipped += out.skipped;
    }
    expect(sends).toBeGreaterThan(50);
    // Most fields of most sends are known unchanged (the server diffs the rest).
    expect(skipped / sends).toBeGreaterThan(10);
  });
});
