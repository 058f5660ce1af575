/**
 * The new-game form: how many players, the variant, who starts and the rules era. Each variant
 * gets the seats and teams its options require (CONTRACT.md, "Players, teams and the start of
 * the game"): Two-Headed Giant two teams of two (CR 810.1), Archenemy the archenemy alone
 * against a team of heroes (904.2), Emperor teams of three (809.1), Grand Melee ten or more
 * players on their own (807.1). The starting players offered are those the variant allows
 * (the archenemy, 904.6; an emperor, 809.4), from the engine's own rule.
 */
import type { RulesProfile } from '../../src/contract.js';
import type { GameOptions } from '../../src/game/types.js';
import { startingCandidates } from '../../src/rules/pregame.js';
import { h } from './dom.js';

/** The variants of `createGame` (its `variant` option). */
export type Variant = NonNullable<GameOptions['variant']>;

/** What the form holds. */
export interface NewGameSettings {
  players: number;
  starting: string;
  rules: RulesProfile;
  variant: Variant;
}

/** The seat names: A, B, C, ... */
export const PLAYER_NAMES = Array.from({ length: 16 }, (_, i) => String.fromCharCode(65 + i));

type Team = { id: string; players: string[] };

/** In groups of `size`, each team named by its players ('AB', 'CD'). */
const groupsOf = (size: number) => (players: string[]) =>
  Array.from({ length: players.length / size }, (_, i) => players.slice(i * size, i * size + size)).map((p) => ({ id: p.join(''), players: p }));

/** Each variant's player counts (`step`: a multiple of it) and teams. */
const VARIANTS: { readonly [V in Variant]: { label: string; min: number; max: number; step: number; teams?: (players: string[]) => Team[] } } = {
  freeForAll: { label: 'Free-for-all', min: 2, max: 8, step: 1 },
  // CR 810.1: two teams of two.
  twoHeadedGiant: { label: 'Two-Headed Giant', min: 4, max: 4, step: 2, teams: groupsOf(2) },
  // CR 904.2: the archenemy alone, against a team of the others.
  archenemy: { label: 'Archenemy', min: 3, max: 8, step: 1, teams: ([archenemy, ...heroes]) => [{ id: 'archenemy', players: [archenemy as string] }, { id: 'heroes', players: heroes }] },
  // CR 809.1: teams of three, the emperor in the middle.
  emperor: { label: 'Emperor', min: 6, max: 9, step: 3, teams: groupsOf(3) },
  planechase: { label: 'Planechase', min: 2, max: 8, step: 1 },
  // CR 807.1: ten or more players, each on their own.
  grandMelee: { label: 'Grand Melee', min: 10, max: 16, step: 1 },
};

/** The variants, in the order the form lists them. */
export const VARIANT_NAMES = Object.keys(VARIANTS) as Variant[];

/** A player count the variant allows, as near `n` as can be. */
export function playerCount(variant: Variant, n: number): number {
  const { min, max, step } = VARIANTS[variant];
  const whole = Number.isFinite(n) ? Math.round(n) : min;
  return Math.min(max, Math.max(min, Math.round(whole / step) * step));
}

/** The players, teams and variant of the game the form describes. */
export function seatsOf(settings: NewGameSettings): { players: string[]; teams?: Team[]; variant: Variant } {
  const players = PLAYER_NAMES.slice(0, playerCount(settings.variant, settings.players));
  const teams = VARIANTS[settings.variant].teams?.(players);
  return { players, ...(teams === undefined ? {} : { teams }), variant: settings.variant };
}

/** Who may start: those the variant allows (CR 904.6, 809.4), or anyone. */
export function startingOptions(settings: NewGameSettings): string[] {
  const seats = seatsOf(settings);
  return startingCandidates({ players: seats.players, teams: seats.teams ?? null, variant: seats.variant }) ?? seats.players;
}

/** The options of `createGame` for the form's game (less the hooks). */
export function gameOptionsOf(settings: NewGameSettings): Pick<GameOptions, 'players' | 'teams' | 'variant' | 'startingPlayer' | 'rules'> {
  const candidates = startingOptions(settings);
  const startingPlayer = candidates.includes(settings.starting) ? settings.starting : (candidates[0] as string);
  return { ...seatsOf(settings), startingPlayer, rules: settings.rules };
}

/** How the log names the game: "Two-Headed Giant, AB (A, B) against CD (C, D)". */
export function describeGame(options: Pick<GameOptions, 'players' | 'teams' | 'variant'>): string {
  const seats = options.teams === undefined ? options.players.join(', ') : options.teams.map((t) => `${t.id} (${t.players.join(', ')})`).join(' against ');
  return options.variant === undefined || options.variant === 'freeForAll' ? seats : `${VARIANTS[options.variant].label}, ${seats}`;
}

/** The form's fields: players, variant, starting player, rules. `changed` re-renders the form. */
export function newGameFields(s: NewGameSettings, changed: () => void): HTMLElement[] {
  const { min, max, step } = VARIANTS[s.variant];
  s.players = playerCount(s.variant, s.players);
  const starting = startingOptions(s);
  if (!starting.includes(s.starting)) s.starting = starting[0] as string;
  const read = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;
  return [
    h('label', {}, 'players ', h('input', { type: 'number', min, max, step, value: s.players, 'data-field': 'players', onchange: (e: Event) => ((s.players = playerCount(s.variant, Number(read(e)))), changed()) })),
    h(
      'label',
      {},
      'variant ',
      h(
        'select',
        { 'data-field': 'variant', onchange: (e: Event) => ((s.variant = read(e) as Variant), changed()) },
        VARIANT_NAMES.map((v) => h('option', { value: v, selected: v === s.variant }, VARIANTS[v].label)),
      ),
    ),
    h('label', {}, 'starting ', h('select', { 'data-field': 'starting', onchange: (e: Event) => (s.starting = read(e)) }, starting.map((p) => h('option', { value: p, selected: p === s.starting }, p)))),
    h('label', {}, 'rules ', h('select', { 'data-field': 'rules', onchange: (e: Event) => (s.rules = read(e) as RulesProfile) }, (['current', 'm10', 'classic'] as const).map((r) => h('option', { value: r, selected: r === s.rules }, r)))),
  ];
}
