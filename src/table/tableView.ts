/**
 * What the table (./tableLogic.ts) adds to what a game shows: the vote awaited (the view's
 * `awaiting`, `pendingVote`), its `legalActions` (the vote's answers, each player's UNDOs), and
 * the nextStop of a player asked later in a shortcut vote.
 */
import type { Awaiting, PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { ANSWERS, EVENTS, violationOf, type EventRecord, type EventType } from '../events/index.js';
import type { LegalAction } from '../legal.js';
import type { NextStop } from '../nextStop.js';
import { Table, type TableState } from './tableState.js';
import { undoProblem, versionsOf } from './undo.js';

/** What the game awaits from the table: the vote's awaited player, or null. */
export function voteAwaiting<S>(state: TableState<S>): Awaiting | null {
  if (!(state instanceof Table)) return null;
  const undoVote = state.undo?.vote ?? null;
  if (undoVote !== null) return { kind: 'undoConsent', player: undoVote.asked[0] as PlayerId, requester: undoVote.requester, to: undoVote.to };
  const s = state.shortcut;
  return s === null ? null : { kind: 'shortcut', player: s.asked[0] as PlayerId, proposer: s.proposer, until: { ...s.until } };
}

/**
 * The table's additions to `legalActions`: the vote's answers while one is awaited, else each
 * player's UNDO to every version they may return to (`turn`: the turn's own; `contextOf` and
 * `statusOf` read the turn's chart).
 */
export function tableActions<S>(state: TableState<S>, player: PlayerId | undefined, turn: () => LegalAction[], contextOf: (game: S) => TurnContext, statusOf: (game: S) => string): LegalAction[] {
  const game: S = state instanceof Table ? state.game : state;
  const ctx = contextOf(game);
  if (statusOf(game) !== 'active' || ctx.result !== null) return [];
  const awaiting = voteAwaiting(state);
  if (awaiting !== null) {
    // The awaited player answers for themselves (the vote is the people's at the table, not a decision of the turn); anyone may concede (CR 104.3a).
    const out: LegalAction[] = [];
    for (const p of ctx.players) {
      if (player !== undefined && p !== player) continue;
      if (p === awaiting.player) for (const type of ANSWERS[awaiting.kind]) out.push({ type, player: p, choose: [...((EVENTS[type] as EventRecord<EventType>).template?.choose ?? [])] } as LegalAction);
      if (violationOf(ctx, null, { type: 'CONCEDE', player: p }) === null) out.push({ type: 'CONCEDE', player: p, choose: [] });
    }
    return out;
  }
  const listed = turn();
  const undo = state instanceof Table ? state.undo : null;
  if (undo === null || undo.vote !== null) return listed;
  const out: LegalAction[] = [];
  for (const p of ctx.players) {
    if (player !== undefined && p !== player) continue;
    for (const a of listed) if (a.player === p) out.push(a);
    if (undoProblem(undo, p, versionsOf(undo, p).at(-1) ?? -1) !== null) continue;
    for (const to of versionsOf(undo, p).reverse()) out.push({ type: 'UNDO', player: p, to, choose: [] });
  }
  return out;
}

/**
 * nextStop of `player` (or anyone) when a shortcut is voted on and they are asked after the
 * player asked now (the plainest answer, accepting, asks the next one, CR 732.2b): that vote,
 * where the game stands (`contextOf` reads the turn's context). Null otherwise (an undo request's
 * plainest answer, a decline, ends it).
 */
export function laterVoter<S>(state: TableState<S>, player: string | undefined, contextOf: (game: S) => TurnContext): NextStop | null {
  if (!(state instanceof Table) || state.shortcut === null) return null;
  const vote = state.shortcut;
  const asked = vote.asked.slice(1).find((p) => player === undefined || p === player);
  if (asked === undefined) return null;
  const ctx = contextOf(state.game);
  return { turn: ctx.turn, activePlayer: ctx.activePlayer, phase: ctx.phase, step: ctx.step, awaiting: { kind: 'shortcut', player: asked, proposer: vote.proposer, until: { ...vote.until } } };
}
