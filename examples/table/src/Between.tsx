/**
 * Playing between people (CONTRACT v3; issue 24) at a seat: the undo button with its horizon
 * (`view().undo[player]`: back as far as `to`, and the requests left; the versions come from
 * `legalActions`), the answer to an
 * undo request or a shortcut another player made (`awaiting.kind` 'undoConsent' or 'shortcut'),
 * and a shortcut proposal ("pass until <step>", CR 732). The answers and the undo come from
 * `legalActions` (the server's, at a networked table), so a button shows only what would be
 * accepted.
 */
import { useState } from 'react';
import { fillAction, type Awaiting, type LegalAction, type ShortcutPoint, type TurnEvent, type TurnStepName, type TurnView } from 'mtg-turn-engine';

/** The steps in which players receive priority: where a shortcut may end (CR 732.2a; not untap or cleanup). */
export const SHORTCUT_STEPS: readonly TurnStepName[] = ['upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'combatDamage', 'endOfCombat', 'end'];

/** The decisions this file shows (the seat shows the others as buttons). */
export type BetweenPeopleAction = Extract<LegalAction, { type: 'UNDO' | 'ACCEPT_UNDO' | 'DECLINE_UNDO' | 'ACCEPT_SHORTCUT' | 'SHORTEN_SHORTCUT' }>;
const BETWEEN_PEOPLE: ReadonlySet<string> = new Set<BetweenPeopleAction['type']>(['UNDO', 'ACCEPT_UNDO', 'DECLINE_UNDO', 'ACCEPT_SHORTCUT', 'SHORTEN_SHORTCUT']);

/** Whether this file shows the decision (undo, the answers to an undo request or a shortcut). */
export function isBetweenPeople(action: LegalAction): action is BetweenPeopleAction {
  return BETWEEN_PEOPLE.has(action.type);
}

const describePoint = (p: ShortcutPoint) => `${p.step}${p.phase === undefined ? '' : ` (${p.phase})`}${p.turn === undefined ? '' : ` of turn ${p.turn}`}${p.player === undefined ? '' : ` with ${p.player}`}`;

/** The undo button: back to the version chosen (the latest by default), and how far back the player may go (the horizon). */
export function UndoButton({ view, player, actions, send }: { view: TurnView; player: string; actions: readonly LegalAction[]; send: (event: TurnEvent) => void }) {
  const horizon = view.undo?.[player];
  const versions = actions.flatMap((a) => (a.type === 'UNDO' ? [a.to] : [])).sort((a, b) => b - a);
  const [chosen, setChosen] = useState<number | null>(null);
  if (horizon === undefined) return null;
  const to = chosen !== null && versions.includes(chosen) ? chosen : versions[0];
  return (
    <div className="undo">
      <button data-testid={`undo-${player}`} data-action="UNDO" disabled={to === undefined} onClick={() => to !== undefined && (setChosen(null), send({ type: 'UNDO', player, to }))}>
        {to === undefined ? 'Undo' : `Undo to v${to}`}
      </button>{' '}
      {versions.length > 1 && (
        <select data-testid={`undo-to-${player}`} value={to} onChange={(e) => setChosen(Number(e.target.value))}>
          {versions.map((v) => (
            <option key={v} value={v}>
              v{v}
            </option>
          ))}
        </select>
      )}{' '}
      <span data-testid={`undo-horizon-${player}`}>{versions.length === 0 ? 'nothing to undo' : `back as far as v${horizon.to}`}</span>
      {horizon.requestsLeft !== null && <span> · {horizon.requestsLeft} request(s) left this turn</span>}
    </div>
  );
}

/** What another player asks of this one: to accept an undo, or to accept or shorten a shortcut (CR 732.2b). */
export function Vote({ awaiting, player, actions, send }: { awaiting: Awaiting | null; player: string; actions: readonly LegalAction[]; send: (event: TurnEvent) => void }) {
  const [step, setStep] = useState<TurnStepName | ''>('');
  if (awaiting?.player !== player || (awaiting.kind !== 'undoConsent' && awaiting.kind !== 'shortcut')) return null;
  // Only what would be accepted now (the server's legalActions, at a networked table).
  const answer = (type: 'ACCEPT_UNDO' | 'DECLINE_UNDO' | 'ACCEPT_SHORTCUT', label: string) =>
    actions.some((a) => a.type === type) ? (
      <button data-action={type} onClick={() => send({ type, player })}>
        {label}
      </button>
    ) : null;
  if (awaiting.kind === 'undoConsent') {
    return (
      <div className="vote" data-testid={`vote-${player}`}>
        <span>
          {awaiting.requester} asks to undo to v{awaiting.to}:
        </span>{' '}
        {answer('ACCEPT_UNDO', 'Accept')} {answer('DECLINE_UNDO', 'Decline')}
      </div>
    );
  }
  const shorten = actions.find((a) => a.type === 'SHORTEN_SHORTCUT');
  const earlier = step === '' ? awaiting.until.step : step;
  return (
    <div className="vote" data-testid={`vote-${player}`}>
      <span>
        {awaiting.proposer} proposes to pass until {describePoint(awaiting.until)}:
      </span>{' '}
      {answer('ACCEPT_SHORTCUT', 'Accept')}{' '}
      {shorten !== undefined && (
        <>
          or stop at{' '}
          <select data-testid={`shorten-step-${player}`} value={earlier} onChange={(e) => setStep(e.target.value as TurnStepName)}>
            {SHORTCUT_STEPS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>{' '}
          <button data-action="SHORTEN_SHORTCUT" onClick={() => (setStep(''), send(fillAction(shorten, { until: { step: earlier } })))}>
            Shorten
          </button>
        </>
      )}
    </div>
  );
}

/** A shortcut proposal (CR 732.1-732.2a), for the player holding priority with an empty stack: every player passes until the step chosen. */
export function ShortcutProposal({ view, player, send }: { view: TurnView; player: string; send: (event: TurnEvent) => void }) {
  const [step, setStep] = useState<TurnStepName>('end');
  const may = view.awaiting?.kind === 'priority' && view.awaiting.player === player && view.stack.length === 0 && view.gameOver === null;
  return (
    <div className="shortcut">
      <button data-testid={`shortcut-${player}`} data-action="PROPOSE_SHORTCUT" disabled={!may} onClick={() => send({ type: 'PROPOSE_SHORTCUT', player, until: { step } })}>
        Propose: pass until
      </button>{' '}
      <select data-testid={`shortcut-step-${player}`} value={step} onChange={(e) => setStep(e.target.value as TurnStepName)} disabled={!may}>
        {SHORTCUT_STEPS.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}
