/** The planar die of Planechase (CR 901.9) as tests roll it. */
import type { Game } from '../../src/index.js';

/** CR 901.9: the rolls of the planar die by player A, `n` times, as the game emits them (A's pool must pay for them). */
export function rolls(game: Game, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const sent = game.send({ type: 'ROLL_PLANAR_DIE', player: 'A' });
    if (!sent.ok) throw new Error(sent.error.message);
    for (const e of sent.events) if (e.type === 'planarDie') out.push(e.roll);
  }
  return out;
}
