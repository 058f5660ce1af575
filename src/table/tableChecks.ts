/**
 * What each of the table's events needs beyond what the turn checks (the players it names, the
 * game going on, the player in the game): undo's policy and horizon (src/table/undo.ts), the vote
 * in progress, and CR 732.2a-b for shortcuts (src/table/shortcuts.ts). One entry per event the
 * table takes, its keys checked by the compiler against the records that say `atTable`.
 */
import type { PlayerId } from '../contract.js';
import type { TurnContext } from '../state.js';
import { ErrorCode } from '../errors.js';
import type { EventOf, AtTableEventType } from '../events/index.js';
import { refusal, type Refusal } from '../gate.js';
import { pointKey, proposalProblem, shortenProblem, type ShortcutVote } from './shortcuts.js';
import { undoProblem, type UndoRecord, type UndoVote } from './undo.js';

/** A refusal of what the rules (or the table's policy) do not allow now; `rule` when the Comprehensive Rules say it. */
export const illegal = (message: string, rule?: string): Refusal => refusal(ErrorCode.ILLEGAL_ACTION, message, rule);

/** What a check reads: the turn's context, and the table's records. */
export interface TableAt {
  ctx: TurnContext;
  undo: UndoRecord<unknown> | null;
  shortcut: ShortcutVote | null;
}

/** Each event's check: its refusal now, or null. */
const CHECKS: { [T in AtTableEventType]: (e: EventOf<T>, at: TableAt) => Refusal | null } = {
  MARK_IRREVERSIBLE: () => null,
  UNDO: (e, { undo, shortcut }) => {
    if (undo === null) return illegal("this game has no undo: make it with createGame({ ..., undo: { mode: 'own' } }) or mode 'consent'");
    if (shortcut !== null) return illegal(`${shortcut.asked[0]} is asked about ${shortcut.proposer}'s shortcut first: ACCEPT_SHORTCUT or SHORTEN_SHORTCUT`, '732.2b');
    const problem = undoProblem(undo, e.player, e.to);
    return problem === null ? null : illegal(problem);
  },
  ACCEPT_UNDO: (e, { undo }) => voteAnswerProblem(e, undo?.vote ?? null),
  DECLINE_UNDO: (e, { undo }) => voteAnswerProblem(e, undo?.vote ?? null),
  PROPOSE_SHORTCUT: (e, { ctx, undo, shortcut }) => {
    const undoVote = undo?.vote ?? null;
    if (undoVote !== null) return illegal(`${undoVote.asked[0]} is asked to accept ${undoVote.requester}'s undo first: ACCEPT_UNDO or DECLINE_UNDO`);
    if (shortcut !== null) return illegal(`${shortcut.proposer}'s shortcut is being voted on; ${shortcut.asked[0]} answers it first`, '732.2b');
    const problem = proposalProblem(ctx, e.player);
    if (problem !== null) return illegal(problem, '732.2a');
    const key = pointKey(ctx, e.until);
    return typeof key === 'string' ? illegal(`${key} (CR 732.2a: a shortcut proposes choices from here on)`, '732.2a') : null;
  },
  ACCEPT_SHORTCUT: (e, { shortcut }) => shortcutAnswerProblem(e, shortcut),
  SHORTEN_SHORTCUT: (e, { ctx, shortcut }) => {
    const problem = shortcutAnswerProblem(e, shortcut);
    if (problem !== null || shortcut === null) return problem;
    const later = shortenProblem(ctx, shortcut.until, e.until);
    return later === null ? null : illegal(later, '732.2b');
  },
};

/** Why an answer to an undo request is refused: none awaits one, or another player is asked. */
function voteAnswerProblem(e: { type: string; player: PlayerId }, vote: UndoVote | null): Refusal | null {
  if (vote === null) return illegal(`no undo request awaits an answer; ${e.type} answers one (awaiting.kind 'undoConsent')`);
  return vote.asked[0] === e.player ? null : illegal(`${vote.asked[0]} is asked to accept ${vote.requester}'s undo now, not ${e.player} (each other player in turn order)`);
}

/** Why an answer to a shortcut is refused: none awaits one, or another player is asked (CR 732.2b). */
function shortcutAnswerProblem(e: { type: string; player: PlayerId }, shortcut: ShortcutVote | null): Refusal | null {
  if (shortcut === null) return illegal(`no shortcut awaits an answer; ${e.type} answers a proposal (awaiting.kind 'shortcut')`, '732.2b');
  return shortcut.asked[0] === e.player ? null : illegal(`${shortcut.asked[0]} is asked about ${shortcut.proposer}'s shortcut now, not ${e.player} (each other player in turn order, CR 732.2b)`, '732.2b');
}

/** Why a table event is refused now beyond what the turn checks, or null. */
export function tableEventProblem(e: EventOf<AtTableEventType>, at: TableAt): Refusal | null {
  return (CHECKS[e.type] as (e: EventOf<AtTableEventType>, at: TableAt) => Refusal | null)(e, at);
}
