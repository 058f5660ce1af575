/**
 * One seat: whether it holds priority, its legal actions as buttons (pass, cast an opaque
 * spell, play a land, declare attackers and blockers, discard, and every other decision the
 * engine asks for), its stops and where the game will next stop for it. At a networked table,
 * a seat played from another tab (`own` false) shows its state only: its decisions and stops
 * are that tab's (and its stops are private).
 */
import { useMemo, useState } from 'react';
import { fillAction, type Awaiting, type LegalAction, type Stop, type TurnEvent } from 'mtg-turn-engine';
import { isBetweenPeople, ShortcutProposal, UndoButton, Vote, type BetweenPeopleAction } from './Between.tsx';
import { Clock } from './Clock.tsx';
import type { GameSource } from './source.ts';

type StepName = Stop['step'];
import { useGame, useLegalActions } from 'mtg-turn-engine/react';

const CREATURES = ['bear', 'knight'];
const STOP_STEPS: StepName[] = ['upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'end'];

let serial = 0;

/** The decisions the table answers with a single button, in the plainest way (undo and the votes have their own controls). */
type PlainAction = Exclude<LegalAction, { type: 'CAST_SPELL' | 'ACTIVATE_ABILITY' | 'DECLARE_ATTACKERS' | 'DECLARE_BLOCKERS' } | BetweenPeopleAction>;

/** The event of a decision the table answers in the plainest way (orders as listed, the first choice): fillAction types each choice from the action. */
function plainest(action: PlainAction, awaiting: Awaiting | null): TurnEvent {
  switch (action.type) {
    case 'ORDER_BLOCKERS':
      return fillAction(action, { order: awaiting?.kind === 'orderBlockers' ? awaiting.blockers : [] });
    case 'ORDER_ATTACKERS':
      return fillAction(action, { order: awaiting?.kind === 'orderAttackers' ? awaiting.attackers : [] });
    case 'ORDER_TRIGGERS':
      return fillAction(action, { order: awaiting?.kind === 'orderTriggers' ? awaiting.triggers : [] });
    case 'CHOOSE_DEFENDER':
      return fillAction(action, { defender: awaiting?.kind === 'chooseDefender' ? (awaiting.defenders[0] ?? '') : '' });
    case 'CHOOSE_STARTING_PLAYER':
      return fillAction(action, { starting: action.player });
    default:
      // Nothing left to choose: a pass, a land, a mulligan or keep, BOTTOM's and DISCARD's count (the template's).
      return fillAction(action);
  }
}

export function Seat({ game, player, send, own = true }: { game: GameSource; player: string; send: (event: TurnEvent) => void; own?: boolean }) {
  const view = useGame(game);
  const actions = useLegalActions(game, player);
  const [attacking, setAttacking] = useState<Record<string, boolean>>({});
  const [blocking, setBlocking] = useState<Record<string, string>>({});
  const [stops, setStops] = useState<StepName[] | null>(null);
  const awaiting = view.awaiting?.player === player ? view.awaiting : null;
  const next = game.nextStop(player);
  // The game's time, for the clocks (a networked table's: behind the wall clock after a server restart).
  const gameNow = useMemo(() => (game.now === undefined ? undefined : () => (game.now as () => number).call(game)), [game]);

  const buttons = actions.map((action) => {
    // Undo, and the answers to an undo request or a shortcut, have their own controls (Between.tsx).
    if (isBetweenPeople(action)) return null;
    switch (action.type) {
      case 'CAST_SPELL':
      case 'ACTIVATE_ABILITY':
        return (
          <button key={`${action.type}-${action.speed}`} data-action={action.type} data-speed={action.speed} onClick={() => send(fillAction(action, { id: `${player}-${action.type === 'CAST_SPELL' ? 'spell' : 'ability'}-${++serial}` }))}>
            {action.type === 'CAST_SPELL' ? 'Cast' : 'Activate'} ({action.speed})
          </button>
        );
      case 'DECLARE_ATTACKERS':
      case 'DECLARE_BLOCKERS':
        return null; // below, with their choices
      case 'CONCEDE':
        return (
          <button key="CONCEDE" data-action="CONCEDE" onClick={() => send({ type: 'CONCEDE', player })}>
            Concede
          </button>
        );
      default:
        return (
          <button key={action.type} data-action={action.type} onClick={() => send(plainest(action, awaiting))}>
            {action.type === 'PASS_PRIORITY' ? 'Pass' : action.type === 'PLAY_LAND' ? 'Play a land' : action.type === 'DISCARD' ? `Discard ${awaiting?.kind === 'discard' ? awaiting.count : ''}` : action.type.toLowerCase().replaceAll('_', ' ')}
          </button>
        );
    }
  });

  const declaringAttackers = awaiting?.kind === 'declareAttackers';
  const declaringBlockers = awaiting?.kind === 'declareBlockers';
  const defenders = awaiting?.kind === 'declareAttackers' ? awaiting.defenders : [];
  const team = new Set(view.teams?.find((t) => t.players.includes(player))?.players ?? [player]);
  const attackersAtMe = (view.combat?.attackers ?? []).filter((a) => team.has(a.defender)).map((a) => a.id);

  const attack = actions.find((a) => a.type === 'DECLARE_ATTACKERS');
  const block = actions.find((a) => a.type === 'DECLARE_BLOCKERS');
  const declareAttackers = () => {
    const defender = defenders[0];
    const chosen = defender === undefined ? [] : CREATURES.filter((c) => attacking[c]).map((c) => ({ id: `${player}-${c}`, defender }));
    setAttacking({});
    if (attack !== undefined) send(fillAction(attack, { attackers: chosen }));
  };
  const declareBlockers = () => {
    const chosen = CREATURES.flatMap((c) => {
      const attacker = blocking[c];
      return attacker === undefined || attacker === '' ? [] : [{ id: `${player}-${c}`, attacker }];
    });
    setBlocking({});
    if (block !== undefined) send(fillAction(block, { blockers: chosen }));
  };
  const toggleStop = (step: StepName, on: boolean) => {
    const current = stops ?? [];
    const updated = on ? [...current, step] : current.filter((s) => s !== step);
    setStops(updated);
    send({ type: 'SET_STOPS', player, stops: updated.map((s) => ({ step: s, turn: 'any' })) });
  };
  const askEverywhere = () => {
    setStops(null);
    send({ type: 'SET_STOPS', player, stops: null });
  };

  return (
    <div className="seat" data-testid={`seat-${player}`} data-priority={String(view.priority === player)} data-own={String(own)}>
      <h2>
        <span>
          {player}
          {own ? '' : ' (another tab)'}
        </span>
        <span data-testid={`awaiting-${player}`}>{awaiting === null ? '' : awaiting.kind}</span>
        {view.clocks?.[player] !== undefined && <Clock player={player} clock={view.clocks[player]} now={gameNow} />}
      </h2>
      <div>
        hand {view.handSizes[player]} · mana {view.manaPool[player]} · lands played {view.activePlayer === player ? view.landsPlayed : 0}
      </div>
      <div className="actions">{buttons}</div>
      {own && <Vote awaiting={awaiting} player={player} actions={actions} send={send} />}
      {declaringAttackers && (
        <div className="declare">
          {CREATURES.map((c) => (
            <label key={c}>
              <input type="checkbox" data-attacker={c} checked={attacking[c] === true} onChange={(e) => setAttacking({ ...attacking, [c]: e.target.checked })} /> {c}
            </label>
          ))}{' '}
          at {defenders[0] ?? 'nobody'}{' '}
          <button data-action="DECLARE_ATTACKERS" onClick={declareAttackers}>
            Declare attackers
          </button>
        </div>
      )}
      {declaringBlockers && (
        <div className="declare">
          {CREATURES.map((c) => (
            <label key={c}>
              {c} blocks{' '}
              <select data-blocker={c} value={blocking[c] ?? ''} onChange={(e) => setBlocking({ ...blocking, [c]: e.target.value })}>
                <option value="">nothing</option>
                {attackersAtMe.map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </select>{' '}
            </label>
          ))}
          <button data-action="DECLARE_BLOCKERS" onClick={declareBlockers}>
            Declare blockers
          </button>
        </div>
      )}
      {own && view.undo !== undefined && <UndoButton view={view} player={player} actions={actions} send={send} />}
      {own && view.gameOver === null && <ShortcutProposal view={view} player={player} send={send} />}
      {own && (
      <div className="stops" data-testid={`stops-${player}`}>
        stops:{' '}
        {STOP_STEPS.map((step) => (
          <label key={step}>
            <input type="checkbox" data-stop={step} checked={stops?.includes(step) ?? false} onChange={(e) => toggleStop(step, e.target.checked)} />
            {step}
          </label>
        ))}
        <button data-action="ask-everywhere" onClick={askEverywhere} disabled={stops === null}>
          ask everywhere
        </button>
        <div data-testid={`next-stop-${player}`}>next stop: {next === null ? 'none' : `turn ${next.turn}, ${next.phase} / ${next.step}`}</div>
      </div>
      )}
    </div>
  );
}
