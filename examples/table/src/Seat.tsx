/**
 * One seat: whether it holds priority, its legal actions as buttons (pass, cast an opaque
 * spell, play a land, declare attackers and blockers, discard, and every other decision the
 * engine asks for), its stops and where the game will next stop for it.
 */
import { useState } from 'react';
import type { Awaiting, Game, LegalAction, Stop, TurnEvent } from 'mtg-turn-engine';

type StepName = Stop['step'];
import { useGame, useLegalActions } from 'mtg-turn-engine/react';

const CREATURES = ['bear', 'knight'];
const STOP_STEPS: StepName[] = ['upkeep', 'draw', 'main', 'beginningOfCombat', 'declareAttackers', 'declareBlockers', 'end'];

let serial = 0;

/** The event of a decision the table answers in the plainest way (orders as listed, the first choice). */
function plainest(action: LegalAction, awaiting: Awaiting | null): TurnEvent {
  const { choose: _choose, ...rest } = action as LegalAction & { choose: string[] };
  switch (rest.type) {
    case 'ORDER_BLOCKERS':
      return { ...rest, order: awaiting?.kind === 'orderBlockers' ? awaiting.blockers : [] } as TurnEvent;
    case 'ORDER_ATTACKERS':
      return { ...rest, order: awaiting?.kind === 'orderAttackers' ? awaiting.attackers : [] } as TurnEvent;
    case 'ORDER_TRIGGERS':
      return { ...rest, order: awaiting?.kind === 'orderTriggers' ? awaiting.triggers : [] } as TurnEvent;
    case 'CHOOSE_DEFENDER':
      return { ...rest, defender: awaiting?.kind === 'chooseDefender' ? (awaiting.defenders[0] ?? '') : '' } as TurnEvent;
    case 'CHOOSE_STARTING_PLAYER':
      return { ...rest, starting: rest.player } as TurnEvent;
    case 'BOTTOM':
      return { ...rest, count: awaiting?.kind === 'bottom' ? awaiting.count : 0 } as TurnEvent;
    case 'DISCARD':
      return { ...rest, count: awaiting?.kind === 'discard' ? awaiting.count : 0 } as TurnEvent;
    default:
      return rest as TurnEvent;
  }
}

export function Seat({ game, player, send }: { game: Game; player: string; send: (event: TurnEvent) => void }) {
  const view = useGame(game);
  const actions = useLegalActions(game, player);
  const [attacking, setAttacking] = useState<Record<string, boolean>>({});
  const [blocking, setBlocking] = useState<Record<string, string>>({});
  const [stops, setStops] = useState<StepName[] | null>(null);
  const awaiting = view.awaiting?.player === player ? view.awaiting : null;
  const next = game.nextStop(player);

  const buttons = actions.map((action) => {
    switch (action.type) {
      case 'CAST_SPELL':
      case 'ACTIVATE_ABILITY':
        return (
          <button key={`${action.type}-${action.speed}`} data-action={action.type} data-speed={action.speed} onClick={() => send({ type: action.type, player, id: `${player}-${action.type === 'CAST_SPELL' ? 'spell' : 'ability'}-${++serial}`, speed: action.speed })}>
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

  const declareAttackers = () => {
    const chosen = CREATURES.filter((c) => attacking[c]).map((c) => ({ id: `${player}-${c}`, defender: defenders[0] as string }));
    setAttacking({});
    send({ type: 'DECLARE_ATTACKERS', player, attackers: chosen });
  };
  const declareBlockers = () => {
    const chosen = CREATURES.filter((c) => blocking[c]).map((c) => ({ id: `${player}-${c}`, attacker: blocking[c] as string }));
    setBlocking({});
    send({ type: 'DECLARE_BLOCKERS', player, blockers: chosen });
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
    <div className="seat" data-testid={`seat-${player}`} data-priority={String(view.priority === player)}>
      <h2>
        <span>{player}</span>
        <span data-testid={`awaiting-${player}`}>{awaiting === null ? '' : awaiting.kind}</span>
      </h2>
      <div>
        hand {view.handSizes[player]} · mana {view.manaPool[player]} · lands played {view.activePlayer === player ? view.landsPlayed : 0}
      </div>
      <div className="actions">{buttons}</div>
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
    </div>
  );
}
