/**
 * The games of the recorded corpus (scenarios/recorded/, issue 26): every setup (two players,
 * free-for-all, teams, Two-Headed Giant, Grand Melee, Archenemy, Emperor, Planechase), each
 * rules era, the pregame, stops and yields, a checkpoint hook returning triggers and host
 * events, and the host's turn-changing events. Each game is fixed by its seed: changing a
 * spec (or the engine) changes its file, which `npm run generate:recorded` writes anew.
 */
import type { RecordedOptions } from '../game/types.js';
import { seatsOf } from '../simulation.js';
import type { RecordedGameSpec } from './recordedHost.js';

const two = { players: ['A', 'B'] };
const seats = (n: number) => ({ players: Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i)) });
const variant = (name: NonNullable<Parameters<typeof seatsOf>[0]>, count = 4) => seatsOf(name, count) as Omit<RecordedOptions, 'seed'>;
const teamsOf = (players: string[], size: number) => Array.from({ length: players.length / size }, (_, i) => ({ id: players.slice(i * size, (i + 1) * size).join(''), players: players.slice(i * size, (i + 1) * size) }));

/** The recorded games, in the order of their files. */
export const RECORDED_GAMES: readonly RecordedGameSpec[] = [
  // Two players, the current rules: the core alone, then with a hook and host events of every kind.
  { slug: '2p-core', name: 'two players, current rules, players only', options: { ...two, seed: 101 }, turns: 3, sends: 40, host: [] },
  { slug: '2p-core-host', name: 'two players, current rules, triggers and mana from the host', options: { ...two, seed: 102, startingPlayer: 'B' }, turns: 3, sends: 35 },
  { slug: '2p-hook-triggers', name: 'two players, a checkpoint hook reporting triggers and state-based actions', options: { ...two, seed: 103 }, turns: 3, sends: 40, hook: ['triggers'], host: [] },
  { slug: '2p-hook-events', name: 'two players, a checkpoint hook returning host events (mana, hand sizes)', options: { ...two, seed: 104, maxHandSize: 5 }, turns: 3, sends: 35, hook: ['events'] },
  { slug: '2p-order-triggers', name: 'two players order their own triggers', options: { ...two, seed: 106, orderTriggers: 'players' }, turns: 3, sends: 35, hook: ['triggers', 'events'] },
  { slug: '2p-stack', name: 'two players, copies put on the stack and objects countered', options: { ...two, seed: 107 }, turns: 3, sends: 30, host: ['stack', 'triggers'] },
  { slug: '2p-combat-changes', name: 'two players, creatures removed from combat and given first strike', options: { ...two, seed: 108 }, turns: 3, sends: 35, host: ['combatChanges', 'combatChanges', 'mana'] },
  { slug: '2p-end-turn', name: 'two players, turns and combats ended by the host', options: { ...two, seed: 109 }, turns: 3, sends: 30, hook: ['triggers'], host: ['endTurn', 'triggers'] },
  { slug: '2p-leaving', name: 'two players, one concedes', options: { ...two, seed: 110 }, turns: 6, sends: 25, host: ['mana', 'triggers', 'mana', 'leaving'] },
  { slug: '2p-stops', name: 'two players with stops and yields', options: { ...two, seed: 111 }, turns: 4, sends: 25, hook: ['triggers'], host: ['stops', 'triggers'] },
  { slug: '2p-effects', name: 'two players, turn-changing effects with durations', options: { ...two, seed: 113 }, turns: 3, sends: 30, host: ['effects', 'triggers'] },
  { slug: '2p-extra', name: 'two players, extra turns, combats and steps', options: { ...two, seed: 114 }, turns: 3, sends: 30, host: ['extraTurns', 'extraPhases'] },
  { slug: '2p-skips', name: 'two players, steps, phases and turns skipped', options: { ...two, seed: 115 }, turns: 3, sends: 30, host: ['skips', 'mana'] },
  { slug: '2p-control-day-night', name: 'two players, control of a player and day and night', options: { ...two, seed: 116 }, turns: 3, sends: 30, host: ['control', 'dayNight'] },
  { slug: '2p-full-view', name: 'two players, every view field expected', options: { ...two, seed: 117 }, turns: 3, sends: 25, hook: ['triggers'], fullView: true },
  // Two players in the other eras.
  { slug: '2p-m10', name: "two players, 'm10' rules", options: { ...two, seed: 201, rules: 'm10' }, turns: 3, sends: 35, hook: ['triggers'] },
  { slug: '2p-m10-host', name: "two players, 'm10' rules, host events", options: { ...two, seed: 202, rules: 'm10' }, turns: 3, sends: 30, hook: ['events'], host: ['combatChanges', 'stack'] },
  { slug: '2p-classic', name: "two players, 'classic' rules (mana burn, combat damage on the stack)", options: { ...two, seed: 203, rules: 'classic' }, turns: 3, sends: 35, hook: ['events'] },
  { slug: '2p-classic-host', name: "two players, 'classic' rules, triggers and turns ended", options: { ...two, seed: 204, rules: 'classic' }, turns: 3, sends: 30, hook: ['triggers'], host: ['mana', 'endTurn'] },
  // The pregame (CR 103).
  { slug: '2p-pregame', name: 'two players, the pregame: starting player, mulligans, opening hands', options: { ...two, seed: 301, pregame: true }, turns: 2, sends: 35, hook: ['triggers'] },
  { slug: '2p-pregame-m10', name: "two players, the pregame, 'm10' rules", options: { ...two, seed: 302, pregame: true, rules: 'm10' }, turns: 2, sends: 25 },
  { slug: '2p-pregame-classic', name: "two players, the pregame, 'classic' rules, stops", options: { ...two, seed: 303, pregame: true, rules: 'classic' }, turns: 3, sends: 25, hook: ['events'], host: ['stops', 'mana'] },
  { slug: '4p-pregame', name: 'four players, the pregame (the first mulligan free)', options: { ...seats(4), seed: 304, pregame: true }, turns: 1, sends: 25 },
  // Free-for-all.
  { slug: '3p-current', name: 'three players, free-for-all', options: { ...seats(3), seed: 401 }, turns: 2, sends: 30, hook: ['triggers'] },
  { slug: '3p-m10', name: "three players, 'm10' rules", options: { ...seats(3), seed: 402, rules: 'm10', orderTriggers: 'players' }, turns: 2, sends: 30, hook: ['triggers', 'events'] },
  { slug: '4p-classic', name: "four players, 'classic' rules", options: { ...seats(4), seed: 403, rules: 'classic' }, turns: 2, sends: 25 },
  { slug: '4p-choose-one', name: 'four players, attack one chosen player', options: { ...seats(4), seed: 404, attack: 'chooseOne' }, turns: 2, sends: 30, hook: ['triggers'] },
  { slug: '5p-left-range', name: 'five players, attack left, range of influence 1', options: { ...seats(5), seed: 405, attack: 'left', rangeOfInfluence: 1 }, turns: 1, sends: 25 },
  { slug: '4p-leaving-stops', name: 'four players with stops, players conceding', options: { ...seats(4), seed: 406 }, turns: 3, sends: 25, host: ['leaving', 'stops', 'triggers'] },
  // Teams.
  { slug: '4p-teams', name: 'two teams of two (free-for-all seating)', options: { ...seats(4), teams: teamsOf(['A', 'B', 'C', 'D'], 2), seed: 501 }, turns: 2, sends: 25, hook: ['triggers'] },
  { slug: '6p-teams-m10', name: "three teams of two, 'm10' rules", options: { ...seats(6), teams: teamsOf(['A', 'B', 'C', 'D', 'E', 'F'], 2), seed: 502, rules: 'm10' }, turns: 1, sends: 25 },
  { slug: '2hg-current', name: 'Two-Headed Giant', options: { ...variant('twoHeadedGiant'), seed: 503 }, turns: 2, sends: 35, hook: ['triggers'] },
  { slug: '2hg-classic-stops', name: "Two-Headed Giant, 'classic' rules, stops", options: { ...variant('twoHeadedGiant'), seed: 505, rules: 'classic' }, turns: 2, sends: 25, hook: ['events'], host: ['stops', 'triggers'] },
  { slug: '2hg-pregame-m10', name: "Two-Headed Giant, the pregame, 'm10' rules", options: { ...variant('twoHeadedGiant'), seed: 506, pregame: true, rules: 'm10', orderTriggers: 'players' }, turns: 1, sends: 30, hook: ['triggers'] },
  // Variants.
  { slug: 'archenemy', name: 'Archenemy', options: { ...variant('archenemy'), seed: 601 }, turns: 2, sends: 30, hook: ['triggers'] },
  { slug: 'archenemy-pregame', name: 'Archenemy, the pregame', options: { ...variant('archenemy'), seed: 602, pregame: true }, turns: 1, sends: 20 },
  { slug: 'emperor', name: 'Emperor (ranges of influence, attacks on adjacent opponents)', options: { ...variant('emperor'), seed: 603 }, turns: 1, sends: 25 },
  { slug: 'planechase', name: 'Planechase, three players', options: { ...variant('planechase', 3), seed: 604 }, turns: 2, sends: 30, hook: ['events'] },
  { slug: 'planechase-2p-classic', name: "Planechase, two players, 'classic' rules", options: { ...variant('planechase', 2), seed: 605, rules: 'classic' }, turns: 2, sends: 25 },
  { slug: 'grand-melee', name: 'Grand Melee, ten players, two turn markers', options: { ...variant('grandMelee', 10), seed: 606 }, turns: 1, sends: 10, host: ['triggers', 'mana'] },
  { slug: 'grand-melee-hook', name: 'Grand Melee, a checkpoint hook reporting triggers', options: { ...variant('grandMelee', 10), seed: 607 }, turns: 1, sends: 8, hook: ['triggers'], host: [] },
];
