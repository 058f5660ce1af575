/**
 * The TurnView of a Grand Melee game (CR 807): the first running turn's view, with `turns`
 * listing every turn marker's turn (its number, who holds it, whether it waits, its phase,
 * step, priority, stack, combat and what it awaits).
 */
import type { TurnMarkerView, TurnView } from '../contract.js';
import { snapshotOf } from '../compiled/runtime.js';
import { turnPlan } from '../compiled/plan.js';
import { viewOf } from '../view.js';
import { extraTurnsAsTurnEnds } from '../rules/grandMelee.js';
import { holderOf, isTakingTurn, tableOf, withMarkerExtraTurns, type Marker } from './coordinator.js';

/** One marker's turn, as `view.turns` shows it, from that turn's view. */
export function markerView(m: Marker, v: TurnView): TurnMarkerView {
  const running = isTakingTurn(m);
  return {
    turnMarker: m.number,
    player: holderOf(m),
    waiting: !running,
    removals: m.removals,
    turn: v.turn,
    activePlayer: running ? v.activePlayer : null,
    phase: v.phase,
    step: v.step,
    priority: running ? v.priority : null,
    awaiting: running ? v.awaiting : null,
    stack: v.stack,
    combat: v.combat,
    landsPlayed: v.landsPlayed,
    landsPlayedBy: v.landsPlayedBy,
    landPlaysAllowed: v.landPlaysAllowed,
    spellsCast: v.spellsCast,
    schedule: v.schedule,
  };
}

/** The view of a Grand Melee game: the first running turn's, with every marker's turn. */
export function meleeView(markers: readonly Marker[], version: number, seq = 0): TurnView {
  // A running turn's schedule (the turns to come if nothing changes) as its marker would pass or be kept were the turn to end now (CR 807.4i).
  const table = markers.length > 1 ? tableOf(markers) : null;
  const turnOf = (m: Marker) => (table !== null && isTakingTurn(m) ? withMarkerExtraTurns(m.turn, extraTurnsAsTurnEnds(m.turn.context, table.markers, m.number)) : m.turn);
  const views = markers.map((m) => viewOf(snapshotOf(turnPlan, turnOf(m)), version, seq));
  const primary = Math.max(0, markers.findIndex(isTakingTurn));
  const view = views[primary] as TurnView;
  // The first running turn's record shares its arrays with the view's own fields (still a fresh view: mutating it changes nothing in the game).
  view.turns = markers.map((m, i) => markerView(m, views[i] as TurnView));
  return view;
}
