/** The options a new game of the table (local, or from the lobby) may have: chess clocks, undo. */
import type { GameOptions } from 'mtg-turn-engine';

export interface TableSettings {
  /** Each player's time (ms), or null: no clocks. */
  clockMs: number | null;
  /** Who may undo: nobody, each player their own actions, or with every other player's consent. */
  undo: 'none' | 'own' | 'consent';
}

/** No clocks, no undo. */
export const PLAIN: TableSettings = { clockMs: null, undo: 'none' };

/** The clocks a new game may have. */
export const CLOCKS: readonly (readonly [string, number | null])[] = [
  ['none', null],
  ['10 s (see a time-out)', 10_000],
  ['1 min', 60_000],
  ['5 min', 300_000],
  ['10 min', 600_000],
];

/** The undo policies a new game may have. */
export const UNDO_MODES: readonly TableSettings['undo'][] = ['none', 'own', 'consent'];

/** The createGame options of the settings (a player whose clock runs out loses). */
export function gameOptions(settings: TableSettings): Pick<GameOptions, 'clock' | 'undo'> {
  return {
    ...(settings.clockMs === null ? {} : { clock: { initialMs: settings.clockMs, onTimeout: 'lose' } }),
    ...(settings.undo === 'none' ? {} : { undo: { mode: settings.undo } }),
  };
}

/** The settings' selects (test ids `<prefix>-clock` and `<prefix>-undo`). */
export function SettingsFields({ settings, set, prefix }: { settings: TableSettings; set: (s: TableSettings) => void; prefix: string }) {
  return (
    <span className="options">
      <label>
        clocks{' '}
        <select data-testid={`${prefix}-clock`} value={settings.clockMs ?? ''} onChange={(e) => set({ ...settings, clockMs: e.target.value === '' ? null : Number(e.target.value) })}>
          {CLOCKS.map(([label, ms]) => (
            <option key={label} value={ms ?? ''}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        undo{' '}
        <select data-testid={`${prefix}-undo`} value={settings.undo} onChange={(e) => set({ ...settings, undo: e.target.value as TableSettings['undo'] })}>
          {UNDO_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {mode}
            </option>
          ))}
        </select>
      </label>
    </span>
  );
}
