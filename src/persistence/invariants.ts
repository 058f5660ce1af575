/**
 * The cross-field invariants of a persisted game (issue 22): facts that every game reached by
 * legal sends keeps, so that a snapshot breaking one was not made by this engine and would leave
 * a restored game stuck, or unable to be saved. Each is named; each problem names the field and
 * what it contradicts. src/persistence/validate.ts runs them after the schema: the game's own
 * ({@link GAME_INVARIANTS}) once, the turn's ({@link TURN_INVARIANTS}) on the one turn of a game
 * or on each turn marker of a Grand Melee game. Builds no game.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { MAX_AMOUNT, variantTeamsRule } from '../fields.js';
import { MAX_EMPTY_TURNS_PER_PLAYER } from '../rules/limits.js';
import { markerCount } from '../rules/grandMelee.js';
import { startingCandidates } from '../rules/pregame.js';
import { triggerOrderDue } from '../rules/priority.js';
import { influenceOf, rangesOf } from '../rules/teams.js';
import { sharesTurns, unitOf } from '../rules/units.js';
import { turnPlan } from '../compiled/plan.js';
import { MAX_COUNT, MAX_RESTORED_TURN, type PersistedFull } from './format.js';

/** A named fact of a persisted game: its first problem (the field, and what it contradicts), or null. */
export interface SnapshotInvariant {
  readonly name: string;
  readonly problem: (p: PersistedFull) => string | null;
}

const list = (xs: readonly unknown[]) => xs.map((x) => JSON.stringify(x)).join(', ');

/** A count past {@link MAX_COUNT}, as a problem of `at`. */
function pastCount(at: string, n: number | null): string | null {
  return n !== null && n > MAX_COUNT ? `${at}: ${n} is past MAX_COUNT = 2^48` : null;
}

/** The first problem of a record of counts by player. */
function pastCounts(at: string, record: Record<PlayerId, number>): string | null {
  for (const [player, n] of Object.entries(record)) {
    const problem = pastCount(`${at}.${player}`, n);
    if (problem !== null) return problem;
  }
  return null;
}

/** Counters leave room for the game to go on and be saved: none at or past the engine's caps. */
const countersWithinCaps: SnapshotInvariant = {
  name: 'countersWithinCaps',
  problem({ context: c }) {
    if (c.turn > MAX_RESTORED_TURN) return `context.turn: ${c.turn} is past MAX_RESTORED_TURN = 2^30`;
    for (const [player, n] of Object.entries(c.handSizes)) {
      if (n > MAX_AMOUNT) return `context.handSizes.${player}: ${n} cards, more than MAX_AMOUNT = ${MAX_AMOUNT}`;
    }
    return (
      pastCounts('context.manaPool', c.manaPool) ??
      pastCounts('context.spellsCast', c.spellsCast) ??
      pastCounts('context.landsPlayedBy', c.landsPlayedBy) ??
      pastCount('context.previousTurnSpells', c.previousTurnSpells) ??
      pastCount('context.planarRolls', c.planarRolls) ??
      pastCount('context.nextObjectId', c.nextObjectId)
    );
  },
};

/** CR 808.2, 810.1: teams split the players who started the game, each player on exactly one team (as createGame's options). */
const teamsPartitionTheSeats: SnapshotInvariant = {
  name: 'teamsPartitionTheSeats',
  problem({ context: c }) {
    if (c.teams === null) return null;
    if (c.teams.length < 2) return `context.teams: ${c.teams.length} team, not 2 or more`;
    const seats = new Set(c.seats);
    const onTeam = new Set<PlayerId>();
    const ids = new Set<string>();
    for (const [i, t] of c.teams.entries()) {
      if (ids.has(t.id)) return `context.teams[${i}].id: team id '${t.id}' appears twice`;
      ids.add(t.id);
      if (t.players.length === 0) return `context.teams[${i}].players: a team without players`;
      for (const [j, player] of t.players.entries()) {
        if (!seats.has(player)) return `context.teams[${i}].players[${j}]: '${player}' is not one of context.seats`;
        if (onTeam.has(player)) return `context.teams[${i}].players[${j}]: '${player}' is on two teams`;
        onTeam.add(player);
      }
    }
    const missing = c.seats.find((x) => !onTeam.has(x));
    return missing === undefined ? null : `context.teams: '${missing}' of context.seats is on no team`;
  },
};

/** Each variant is played by the teams it names (CR 807.1, 809.1, 810.1, 810.11, 904.2), as createGame's options require. */
const variantMatchesTeams: SnapshotInvariant = {
  name: 'variantMatchesTeams',
  problem({ context: c }) {
    const sizes = c.teams === null ? 'no teams' : `teams of ${c.teams.map((t) => t.players.length).join(', ')}`;
    const rule = variantTeamsRule(c.variant, c.teams);
    // Grand Melee's own (CR 807.1: ten players or more, without teams) are the module's (GRAND_MELEE_TURN).
    return rule === null ? null : `context.variant: ${rule}, and context.teams has ${sizes}`;
  },
};

/** CR 801.1, 807.2a, 809.3a: the ranges of influence are the game's, set as it began: one range for every seat, or the emperors' 2 and the generals' 1. */
const rangesMatchVariant: SnapshotInvariant = {
  name: 'rangesMatchVariant',
  problem({ context: c }) {
    const ranges = c.ranges;
    if (c.variant === 'emperor') {
      const expected = rangesOf(c.seats, c.teams, 'emperor', undefined);
      if (expected !== null && (ranges === null || c.seats.some((x) => ranges[x] !== expected[x]) || Object.keys(ranges).length !== c.seats.length)) {
        return `context.ranges: in 'emperor' each emperor's range of influence is 2 (CR 809.3a): ${JSON.stringify(expected)}, not ${JSON.stringify(ranges)}`;
      }
      return null;
    }
    // Grand Melee's ranges (CR 807.2a) are never null: checked by the module (GRAND_MELEE_TURN).
    if (ranges === null) return null;
    const range = ranges[c.seats[0] as PlayerId];
    if (range === undefined || range < 1) return `context.ranges.${c.seats[0]}: must be 1 or more (CR 801.1)`;
    const other = Object.keys(ranges).find((x) => !c.seats.includes(x) || ranges[x] !== range);
    if (other !== undefined) return `context.ranges.${other}: differs from the game's range of influence, ${range} (CR 801.1)`;
    const missing = c.seats.find((x) => ranges[x] === undefined);
    return missing === undefined ? null : `context.ranges: '${missing}' of context.seats has none`;
  },
};

/** CR 801.2, 801.2c: the players within each range of influence are those of context.ranges among the players in the game as this turn began. */
const influenceAsTheTurnBegan: SnapshotInvariant = {
  name: 'influenceAsTheTurnBegan',
  problem({ context: c }) {
    const influence = c.influence;
    if (influence === null || c.ranges === null) return null;
    const began = c.seats.filter((x) => Object.hasOwn(influence, x));
    const expected = influenceOf({ players: began, ranges: c.ranges });
    if (expected === null) return null;
    for (const x of began) {
      if (JSON.stringify(influence[x]) !== JSON.stringify(expected[x])) {
        return `context.influence.${x}: ${JSON.stringify(influence[x])} is not the range of influence, ${JSON.stringify(expected[x])} (CR 801.2c)`;
      }
    }
    return null;
  },
};

/** CR 807.4i: an extra turn left for its player's next turn (they passed their turn marker) is Grand Melee's alone. */
const passedMarkersInGrandMelee: SnapshotInvariant = {
  name: 'passedMarkersInGrandMelee',
  problem({ context: c }) {
    const i = c.variant === 'grandMelee' ? -1 : c.extraTurns.findIndex((t) => t.beforeNextTurn !== undefined);
    return i < 0 ? null : `context.extraTurns[${i}].beforeNextTurn: only in 'grandMelee' (CR 807.4i: a player passed their turn marker)`;
  },
};

/** CR 702.26n: what waits to phase in is of players who have left the game after turn 1 began, each once. */
const waitingToPhaseInOfDeparted: SnapshotInvariant = {
  name: 'waitingToPhaseInOfDeparted',
  problem({ context: c }) {
    const waiting = c.waitingToPhaseIn.map((w) => w.player);
    const bad = waiting.some((p, i) => c.players.includes(p) || !c.seats.includes(p) || c.pregame !== null || waiting.indexOf(p) < i);
    return bad ? 'context.waitingToPhaseIn: players who left the game after turn 1 began, each once (CR 702.26n)' : null;
  },
};

/** CR 805.2, 805.4, 805.8: with shared team turns a turn (and an extra or skipped one) is a team's, kept under its primary player (its first listed). */
const turnsBelongToUnits: SnapshotInvariant = {
  name: 'turnsBelongToUnits',
  problem({ context: c }) {
    if (!sharesTurns(c) || c.pregame !== null) return null;
    for (const field of ['turnOwner', 'rotation', 'activePlayer'] as const) {
      const x = c[field];
      if (x !== null && unitOf(c, x) !== x) return `context.${field}: '${x}' is not the primary player of a team (${unitOf(c, x)} is; CR 805.2)`;
    }
    // CR 805.8: extra turns and skipped turns, phases and steps are the team's too, kept under its primary player.
    const extra = c.extraTurns.findIndex((t) => unitOf(c, t.player) !== t.player);
    if (extra >= 0) return `context.extraTurns[${extra}].player: '${c.extraTurns[extra]?.player}' is not the primary player of a team (CR 805.8)`;
    const skip = Object.keys(c.skips).find((x) => unitOf(c, x) !== x);
    return skip === undefined ? null : `context.skips.${skip}: not the primary player of a team (CR 805.8)`;
  },
};

/** CR 103: before turn 1 nobody is active, holds priority or attacks; the pregame's records name players who started the game. */
const pregameBeforeTurnOne: SnapshotInvariant = {
  name: 'pregameBeforeTurnOne',
  problem({ context: c }) {
    const pre = c.pregame;
    if (pre === null) return null;
    if (c.turn !== 1) return `context.pregame: before turn 1 (CR 103), and context.turn is ${c.turn}`;
    if (c.activePlayer !== null || c.priority !== null || c.combat !== null) return 'context.pregame: before turn 1 there is no active player, priority or combat (CR 103)';
    const seats = new Set(c.seats);
    if (!seats.has(pre.chooser)) return `context.pregame.chooser: '${pre.chooser}' is not one of context.seats`;
    if (pre.starting !== null && !seats.has(pre.starting)) return `context.pregame.starting: '${pre.starting}' is not one of context.seats`;
    // CR 904.6, 809.4: the archenemy, or an emperor, goes first; the chooser is drawn among them as the game begins (with every seat in it).
    const candidates = startingCandidates({ players: c.seats, teams: c.teams, variant: c.variant });
    for (const field of ['chooser', 'starting'] as const) {
      const who = pre[field];
      if (candidates !== null && who !== null && !candidates.includes(who)) return `context.pregame.${field}: '${who}' is not among those who may go first in '${c.variant}' (${list(candidates)}; CR 904.6, 809.4)`;
    }
    for (const field of ['kept', 'decided', 'handsDone'] as const) {
      const xs = pre[field];
      const bad = xs.findIndex((x, i) => !seats.has(x) || xs.indexOf(x) !== i);
      if (bad >= 0) return `context.pregame.${field}[${bad}]: '${xs[bad]}' is not one of context.seats, or twice`;
    }
    for (const field of ['mulligans', 'bottom'] as const) {
      const stranger = Object.keys(pre[field]).find((x) => !seats.has(x));
      if (stranger !== undefined) return `context.pregame.${field}.${stranger}: not one of context.seats`;
    }
    const early = Object.keys(pre.bottom).find((x) => !pre.kept.includes(x));
    return early === undefined ? null : `context.pregame.bottom.${early}: only a player who kept puts cards on the bottom (CR 103.5)`;
  },
};

/** CR 104.4b: turn after turn with everything skipped ends the game in a draw at MAX_EMPTY_TURNS_PER_PLAYER turns per player; no game goes past it. */
const emptyTurnsBelowDraw: SnapshotInvariant = {
  name: 'emptyTurnsBelowDraw',
  problem({ context: c }) {
    const most = MAX_EMPTY_TURNS_PER_PLAYER * c.seats.length;
    return c.emptyTurns > most ? `context.emptyTurns: ${c.emptyTurns} turns in a row with everything skipped, past ${most} (CR 104.4b)` : null;
  },
};

/**
 * CR 603.3b: an order of triggers (ORDER_TRIGGERS) is awaited only with `orderTriggers:
 * 'players'`, in a step with priority while nobody holds it, for a batch of triggers of players
 * in the game, at least one of whom still has two or more to order; orders given are of a
 * unit's own triggers.
 */
const triggerOrderAwaited: SnapshotInvariant = {
  name: 'triggerOrderAwaited',
  problem({ status, state, context: c }) {
    const pending = c.triggerOrder;
    if (pending === null || status === 'done') return null;
    if (c.orderTriggers !== 'players') return `context.triggerOrder: players order their triggers only with context.orderTriggers 'players' (CR 603.3b)`;
    if (!(turnPlan.leaves.get(state)?.tags.has('awaiting:priority') ?? false)) return `context.triggerOrder: triggers wait to be ordered only in a step with priority, and state ${state} has none (CR 603.3b)`;
    if (c.priority !== null) return `context.triggerOrder: nobody holds priority while triggers wait to be ordered (CR 603.3b)`;
    if (pending.batch.length === 0) return 'context.triggerOrder.batch: no triggers to order';
    const taken = new Set([...c.stack.map((o) => o.id), ...c.pendingTriggers.map((t) => t.id)]);
    for (const [i, t] of pending.batch.entries()) {
      if (!c.players.includes(t.controller)) return `context.triggerOrder.batch[${i}].controller: '${t.controller}' is not a player in the game (CR 800.4a)`;
      if (taken.has(t.id)) return `context.triggerOrder.batch[${i}].id: ${t.id} is on the stack or waiting twice (CR 405.1)`;
      taken.add(t.id);
    }
    for (const [unit, order] of Object.entries(pending.orders)) {
      // The triggers of players who left since leave the batch, not the order (800.4a): the order holds every trigger of the unit still in the batch.
      const ours = pending.batch.filter((t) => unitOf(c, t.controller) === unit).map((t) => t.id);
      if (!c.seats.includes(unit) || unitOf(c, unit) !== unit) return `context.triggerOrder.orders.${unit}: not a player (or team) of context.seats`;
      if (new Set(order).size !== order.length || ours.some((id) => !order.includes(id))) return `context.triggerOrder.orders.${unit}: [${list(order)}] is not an order of ${unit}'s triggers of the batch, [${list(ours)}]`;
    }
    if (pending.about !== null && !c.seats.includes(pending.about)) return `context.triggerOrder.about: '${pending.about}' is not one of context.seats`;
    return triggerOrderDue(c) === null ? 'context.triggerOrder: nobody has triggers left to order (CR 603.3b)' : null;
  },
};

/** The counts of the persisted game itself: its version, and the `seq` of its last event, leave room to go on and be saved. */
const versionWithinCap: SnapshotInvariant = {
  name: 'versionWithinCap',
  problem: (p) => pastCount('version', p.version) ?? pastCount('seq', p.seq ?? 0),
};

/** CR 807.4: a Grand Melee game is played with turn markers, and only a Grand Melee game. */
const grandMeleeHasTurnMarkers: SnapshotInvariant = {
  name: 'grandMeleeHasTurnMarkers',
  problem({ context: c, markers }) {
    if (c.variant === 'grandMelee' && markers === undefined) return "markers: a 'grandMelee' game (context.variant) has turn markers (CR 807.4)";
    if (c.variant !== 'grandMelee' && markers !== undefined) return `markers: turn markers exist only in 'grandMelee' (CR 807.4), not '${c.variant}'`;
    return null;
  },
};

/**
 * CR 807.4a-b, 807.4e-g: the markers are numbered from 1, one per full four players who started;
 * as players leave, markers are designated for removal until the markers not designated are at
 * most one per full four players left (one at least).
 */
const turnMarkersMatchPlayers: SnapshotInvariant = {
  name: 'turnMarkersMatchPlayers',
  problem({ status, context: c, markers }) {
    if (markers === undefined) return null;
    const first = markerCount(c.seats.length);
    const high = markers.findIndex((m) => m.number > first);
    if (high >= 0) return `markers[${high}].number: ${(markers[high] as { number: number }).number}, and a game begun with ${c.seats.length} players has turn markers 1 to ${first} (CR 807.4a-b)`;
    if (status === 'done') return null;
    const designated = markers.reduce((n, m) => n + m.removals, 0);
    if (designated >= markers.length) return `markers: ${designated} designations for removal for ${markers.length} turn markers, and a game keeps one marker at least (CR 807.4e)`;
    const allowed = markerCount(c.players.length);
    return markers.length - designated > allowed
      ? `markers: ${markers.length} turn markers, ${designated} of them designated for removal, for ${c.players.length} players in the game: at most ${allowed} may stay (CR 807.4a, 807.4e-f)`
      : null;
  },
};

/** The settings of a game are the same in every turn (the game's options: CR 807.5, one game). */
const GAME_SETTINGS = ['rules', 'maxHandSize', 'attack', 'orderTriggers', 'variant', 'teams', 'ranges', 'pregame'] as const satisfies readonly (keyof TurnContext)[];
const settingsAgreeAcrossMarkers: SnapshotInvariant = {
  name: 'settingsAgreeAcrossMarkers',
  problem({ markers }) {
    const first = markers?.[0];
    if (markers === undefined || first === undefined) return null;
    for (const [i, m] of markers.entries()) {
      for (const field of GAME_SETTINGS) {
        if (JSON.stringify(m.context[field]) !== JSON.stringify(first.context[field])) return `markers[${i}].context.${field}: differs from turn marker ${first.number}'s (a setting of the game, the same in every turn)`;
      }
    }
    return null;
  },
};

/**
 * The invariants of the persisted game as a whole, checked once: {@link CORE_GAME_INVARIANTS} by
 * restoreGame itself, {@link MARKER_INVARIANTS} by the Grand Melee module (a snapshot with turn
 * markers needs it: without it restoreGame refuses the markers, naming the import).
 */
export const GAME_INVARIANTS: readonly SnapshotInvariant[] = [versionWithinCap, grandMeleeHasTurnMarkers, turnMarkersMatchPlayers, settingsAgreeAcrossMarkers];

/** The game's invariants every restore checks (issue 33: a host without Grand Melee bundles only these). */
export const CORE_GAME_INVARIANTS: readonly SnapshotInvariant[] = [versionWithinCap, grandMeleeHasTurnMarkers];

/** The game's invariants of turn markers (CR 807.4), checked by the Grand Melee module (src/grandMelee/module.ts). */
export const MARKER_INVARIANTS: readonly SnapshotInvariant[] = [turnMarkersMatchPlayers, settingsAgreeAcrossMarkers];

/**
 * CR 807.1, 807.2a: a Grand Melee turn is of a game begun with ten players or more, without teams
 * or the pregame, with ranges of influence; 807.4c: in a game going on, a turn that is over (its
 * marker waiting) has no priority, stack, combat or result. Checked by the Grand Melee module (src/persistence/melee.ts)
 * after each marker's {@link TURN_INVARIANTS}: without the module a snapshot with turn markers is
 * refused naming the import, so a host without it bundles none of this (issue 33).
 */
export const GRAND_MELEE_TURN: SnapshotInvariant = {
  name: 'grandMeleeTurn',
  problem({ status, state, context: c }) {
    if (c.teams !== null) return `context.variant: 'grandMelee' is played without teams (CR 807.1)`;
    if (c.seats.length < 10) return `context.variant: 'grandMelee' needs 10 or more players (CR 807.1), not ${c.seats.length}`;
    if (c.pregame !== null) return "context.pregame: not in 'grandMelee'";
    if (c.ranges === null) return "context.ranges: null in 'grandMelee' (CR 807.2a)";
    return state !== 'turnMarkerPassed' || status === 'done' || (c.priority === null && c.stack.length === 0 && c.combat === null && c.result === null) ? null : 'state: a turn that is over has no priority, stack or combat (CR 807.4c)';
  },
};

/** The invariants of one turn (the game's, or each turn marker's in Grand Melee, with {@link GRAND_MELEE_TURN}). */
export const TURN_INVARIANTS: readonly SnapshotInvariant[] = [
  countersWithinCaps,
  teamsPartitionTheSeats,
  variantMatchesTeams,
  rangesMatchVariant,
  influenceAsTheTurnBegan,
  turnsBelongToUnits,
  passedMarkersInGrandMelee,
  waitingToPhaseInOfDeparted,
  pregameBeforeTurnOne,
  emptyTurnsBelowDraw,
  triggerOrderAwaited,
];

/** The first problem of the invariants given, or null. */
export function invariantProblem(p: PersistedFull, invariants: readonly SnapshotInvariant[]): string | null {
  for (const invariant of invariants) {
    const problem = invariant.problem(p);
    if (problem !== null) return problem;
  }
  return null;
}
