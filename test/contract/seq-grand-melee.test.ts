/**
 * CONTRACT v3 "Every event exactly once" in Grand Melee (CR 807): several turn markers take
 * steps in one send, and each marker's checkpoint is shown only its own turn's `pending`.
 * Numbers must still follow the order the events are emitted (1, 2, 3, ... with no gap and no
 * repeat), and the hook must never be shown an event that is not emitted (a marker following a
 * player who left echoes `playerLeft`; the echo is dropped and must not reach the host either).
 */
import { describe, expect, it } from 'vitest';
import { createGame, type EmittedEvent, type TurnEvent } from '../../src/index.js';
import { seededRandom } from '../../src/simulation.js';
import { allModules } from '../../src/allModules.js';

function play(seed: number): { heard: EmittedEvent[]; shown: EmittedEvent[] } {
  const r = seededRandom(seed);
  const players = Array.from({ length: 10 + (seed % 5) }, (_, i) => `P${i}`);
  const heard: EmittedEvent[] = [];
  const shown: EmittedEvent[] = [];
  let serial = 0;
  const game = createGame({ use: allModules,
    players,
    variant: 'grandMelee',
    hooks: {
      checkpoint: (_view, pending) => {
        shown.push(...pending);
        // Now and then a trigger: its controller may concede later, so it is removed from a stack of another marker.
        return r() < 0.05 ? { triggers: [{ id: `t#${serial++}`, controller: players[Math.floor(r() * players.length)] as string }] } : undefined;
      },
    },
    listeners: { '*': (e) => heard.push(e) },
  });
  for (let i = 0; i < 400 && game.view().gameOver === null; i++) {
    const actions = game.legalActions().filter((a) => a.choose.length === 0);
    if (actions.length === 0) break;
    const { choose: _, ...event } = actions[Math.floor(r() * actions.length)] as (typeof actions)[number];
    expect(game.send(event as TurnEvent).ok).toBe(true);
  }
  return { heard, shown };
}

describe('seq in Grand Melee with a checkpoint hook (CONTRACT v3, CR 807)', () => {
  it('numbers the events of every send in the order they are emitted: no gap, no repeat, over 40 games with concessions', () => {
    for (let seed = 0; seed < 40; seed++) {
      const { heard } = play(seed);
      expect(heard.length).toBeGreaterThan(0);
      const wrong = heard.findIndex((e, i) => e.seq !== i + 1);
      expect(wrong, `game ${seed}: seq ${heard.slice(Math.max(0, wrong - 2), wrong + 2).map((e) => e.seq).join(', ')}`).toBe(-1);
    }
  });

  it('shows the hook only events that are emitted, each with the seq it is emitted with (no echo of a player leaving)', () => {
    for (let seed = 0; seed < 40; seed++) {
      const { heard, shown } = play(seed);
      const bySeq = new Map(heard.map((e) => [e.seq, e]));
      const strays = shown.filter((e) => JSON.stringify(bySeq.get(e.seq)) !== JSON.stringify(e));
      expect({ seed, strays }).toEqual({ seed, strays: [] });
    }
  });
});
