/** The side of the table: the stack, the combat, the schedule and the event log (the newest line kept in sight). */
import { useEffect, useRef } from 'react';
import type { TurnView } from 'mtg-turn-engine';
import type { LogLine } from './source.ts';

export function Side({ view, log }: { view: TurnView; log: readonly LogLine[] }) {
  const logRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const element = logRef.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [log]);
  return (
    <div className="side">
      <section>
        <h3>Stack</h3>
        <ol data-testid="stack">
          {view.stack.map((o) => (
            <li key={o.id}>
              {o.id} ({o.kind}, {o.controller})
            </li>
          ))}
        </ol>
        {view.stack.length === 0 && <p>empty</p>}
      </section>
      {view.combat !== null && (
        <section>
          <h3>Combat</h3>
          <ul data-testid="combat">
            {view.combat.attackers.map((a) => (
              <li key={a.id}>
                {a.id} attacks {a.defender}
                {a.blockedBy.length > 0 ? `, blocked by ${a.blockedBy.join(', ')}` : ''}
              </li>
            ))}
          </ul>
          {view.combat.attackers.length === 0 && <p>no attackers</p>}
        </section>
      )}
      <section>
        <h3>Schedule</h3>
        <ul data-testid="schedule">
          {view.schedule.steps.map((s, i) => (
            <li key={`s${i}`}>
              {s.step}
              {s.skipped ? ' (skipped)' : ''}
            </li>
          ))}
          {view.schedule.phases.map((p, i) => (
            <li key={`p${i}`}>
              {p.phase} phase{p.skipped ? ' (skipped)' : ''}
            </li>
          ))}
          {view.schedule.turns.slice(0, 3).map((t, i) => (
            <li key={`t${i}`}>
              {t.extra ? 'extra turn' : 'turn'} of {t.player}
              {t.skipped ? ' (skipped)' : ''}
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h3>Log</h3>
        <ol className="log" data-testid="log" ref={logRef}>
          {log.map((line, i) => (
            <li key={i} data-kind={line.kind}>
              {line.text}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
