/** The options a new game of the table (local, or from the lobby) may have: chess clocks. */
import type { GameOptions } from 'mtg-turn-engine';

export interface TableSettings {
  /** Each player's time (ms), or null: no clocks. */
  clockMs: number | null;
}

/** The clocks a new game may have. */
export const CLOCKS: readonly (readonly [string, number | null])[] = [
  ['none', null],
  ['10 s (see a time-out)', 10_000],
  ['1 min', 60_000],
  ['5 min', 300_000],
  ['10 min', 600_000],
];

/** The createGame options of the settings (a player whose clock runs out loses). */
export function gameOptions(settings: TableSettings): Pick<GameOptions, 'clock'> {
  return settings.clockMs === null ? {} : { clock: { initialMs: settings.clockMs, onTimeout: 'lose' } };
}
