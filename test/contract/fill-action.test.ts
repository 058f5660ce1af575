/**
 * `fillAction(action, choices)` (issue 23 point 7): a LegalAction and the fields it leaves to
 * choose become the TurnEvent `send` takes, with no cast; a missing or unknown choice is
 * refused with INVALID_EVENT naming the field. Its types (the choices derived from the action)
 * are checked by test/support/contract-types.ts, compiled by test/contract/types.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGame, ErrorCode, fillAction, TurnEngineError, type Awaiting, type GameOptions, type LegalAction, type TurnEvent } from '../../src/index.js';
import { ALL_EVENT_TYPES, EVENTS } from '../../src/events/index.js';
import { play } from '../support/dsl.js';
import { allModules } from '../../src/allModules.js';

type ActionOf<T extends LegalAction['type']> = Extract<LegalAction, { type: T }>;

/** The first legal action of a type for a player, narrowed by its type. */
function actionOf<T extends LegalAction['type']>(actions: readonly LegalAction[], type: T): ActionOf<T> {
  const found = actions.find((a): a is ActionOf<T> => a.type === type);
  if (found === undefined) throw new Error(`no ${type} among ${actions.map((a) => a.type).join(', ')}`);
  return found;
}

/** The error fillAction throws, or undefined when it does not throw. */
function thrown(fill: () => unknown): TurnEngineError | undefined {
  try {
    fill();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(TurnEngineError);
    return err as TurnEngineError;
  }
}

let serial = 0;
/** A host's choices for any legal action, each typed by the action's type (the plainest: no creatures, orders as listed). */
function plainestEvent(action: LegalAction, awaiting: Awaiting | null): TurnEvent {
  switch (action.type) {
    case 'CAST_SPELL':
    case 'ACTIVATE_ABILITY':
      return fillAction(action, { id: `object#${++serial}` });
    case 'DECLARE_ATTACKERS':
      return fillAction(action, { attackers: [] });
    case 'DECLARE_BLOCKERS':
      return fillAction(action, { blockers: [] });
    case 'CHOOSE_DEFENDER':
      return fillAction(action, { defender: awaiting?.kind === 'chooseDefender' ? (awaiting.defenders[0] ?? '') : '' });
    case 'ORDER_BLOCKERS':
      return fillAction(action, { order: awaiting?.kind === 'orderBlockers' ? awaiting.blockers : [] });
    case 'ORDER_ATTACKERS':
      return fillAction(action, { order: awaiting?.kind === 'orderAttackers' ? awaiting.attackers : [] });
    case 'ORDER_TRIGGERS':
      return fillAction(action, { order: awaiting?.kind === 'orderTriggers' ? awaiting.triggers : [] });
    case 'CHOOSE_STARTING_PLAYER':
      return fillAction(action, { starting: action.player });
    case 'SHORTEN_SHORTCUT':
      return fillAction(action, { until: awaiting?.kind === 'shortcut' ? awaiting.until : { step: 'end' } });
    default:
      return fillAction(action);
  }
}

describe('fillAction: a LegalAction becomes the event send takes (issue 23 point 7)', () => {
  it('DECLARE_ATTACKERS takes { attackers }: the template with choose dropped and the attackers filled in, accepted by send', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ awaiting: { kind: 'declareAttackers' } });
    const attack = actionOf(t.game.legalActions('A'), 'DECLARE_ATTACKERS');
    const template = JSON.stringify(attack);
    const event = fillAction(attack, { attackers: [{ id: 'bear#1', defender: 'B' }] });
    expect(event).toEqual({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [{ id: 'bear#1', defender: 'B' }] });
    expect(JSON.stringify(attack)).toBe(template); // the template is not changed
    expect(t.game.send(event)).toMatchObject({ ok: true });
    expect(t.view().combat?.attackers.map((a) => a.id)).toEqual(['bear#1']);
  });

  it('CAST_SPELL takes { id }: the speed is the template\'s; PASS_PRIORITY takes no choices', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    const actions = t.game.legalActions('A');
    const cast = actions.find((a): a is ActionOf<'CAST_SPELL'> => a.type === 'CAST_SPELL' && a.speed === 'sorcery');
    expect(cast).toBeDefined();
    const event = fillAction(cast!, { id: 'shock#7' });
    expect(event).toEqual({ type: 'CAST_SPELL', player: 'A', speed: 'sorcery', id: 'shock#7' });
    expect(t.game.send(event)).toMatchObject({ ok: true });
    expect(t.view().stack.map((o) => o.id)).toEqual(['shock#7']);
    const pass = actionOf(t.game.legalActions('A'), 'PASS_PRIORITY');
    expect(fillAction(pass)).toEqual({ type: 'PASS_PRIORITY', player: 'A' });
    expect(fillAction(pass, {})).toEqual({ type: 'PASS_PRIORITY', player: 'A' });
  });

  it('keeps who decides (`by`, CR 723.5) and the Grand Melee turn marker the template names', () => {
    const t = play({ players: ['A', 'B'] });
    t.send({ type: 'CONTROL_PLAYER', controller: 'A', player: 'B' });
    t.passUntil({ turn: 2, step: 'upkeep' });
    const pass = actionOf(t.game.legalActions('B'), 'PASS_PRIORITY');
    expect(pass.by).toBe('A');
    expect(fillAction(pass)).toEqual({ type: 'PASS_PRIORITY', player: 'B', by: 'A' });
    const melee = createGame({ use: allModules, players: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'], variant: 'grandMelee' });
    const marked = melee.legalActions().filter((a) => a.turnMarker !== undefined);
    expect(marked.length).toBeGreaterThan(0);
    for (const action of marked) expect(plainestEvent(action, null).turnMarker).toBe(action.turnMarker);
  });

  it('every action legalActions offers, in every kind of decision, filled in and sent, is accepted', () => {
    const setups: GameOptions[] = [
      { players: ['A', 'B'], pregame: true, seed: 3, orderTriggers: 'players' },
      { players: ['A', 'B', 'C'], attack: 'chooseOne', rules: 'm10' },
      { players: ['A', 'B', 'C', 'D'], variant: 'twoHeadedGiant', teams: [{ id: 'AB', players: ['A', 'B'] }, { id: 'CD', players: ['C', 'D'] }], pregame: true, seed: 5 },
      { players: ['A', 'B'], variant: 'planechase' },
      // CONTRACT v3: undo and shortcuts, whose votes are offered once a request and a proposal are made.
      { players: ['A', 'B'], undo: { mode: 'consent' } },
    ];
    const types = new Set<string>();
    for (const options of setups) {
      const game = createGame({ use: allModules, ...options });
      const mulliganed = new Set<string>();
      const asked = new Set<string>();
      for (let i = 0; i < 150 && game.view().gameOver === null; i++) {
        const view = game.view();
        for (const action of game.legalActions()) {
          if (action.type === 'CONCEDE') continue;
          types.add(action.type);
          const event = plainestEvent(action, view.awaiting);
          const result = game.fork().send(event);
          expect(result.ok ? 'accepted' : `${result.error.code}: ${result.error.message}`, JSON.stringify(event)).toBe('accepted');
        }
        // Move on, so that every kind of decision comes up: a mulligan each, two triggers of one
        // player in turn 2's upkeep, attacks with two creatures and blocks of three.
        if (view.turn === 2 && view.step === 'upkeep' && view.stack.length === 0 && view.awaiting?.kind === 'priority') {
          const p = view.activePlayer!;
          expect(game.send({ type: 'TRIGGER', triggers: [{ id: `t1#${i}`, controller: p }, { id: `t2#${i}`, controller: p }] })).toMatchObject({ ok: true });
          continue;
        }
        const actions = game.legalActions().filter((a) => a.type !== 'CONCEDE');
        const a = view.awaiting;
        const mulligan = actions.find((x): x is ActionOf<'MULLIGAN'> => x.type === 'MULLIGAN' && !mulliganed.has(x.player));
        const attack = actions.find((x): x is ActionOf<'DECLARE_ATTACKERS'> => x.type === 'DECLARE_ATTACKERS');
        const block = actions.find((x): x is ActionOf<'DECLARE_BLOCKERS'> => x.type === 'DECLARE_BLOCKERS');
        const attackers = view.combat?.attackers.map((x) => x.id) ?? [];
        const undo = actions.find((x): x is ActionOf<'UNDO'> => x.type === 'UNDO');
        let next: TurnEvent;
        if (undo !== undefined && !asked.has('undo')) {
          asked.add('undo');
          next = fillAction(undo);
        } else if (options.undo !== undefined && asked.has('undo') && !asked.has('shortcut') && a?.kind === 'priority' && view.stack.length === 0) {
          asked.add('shortcut');
          next = { type: 'PROPOSE_SHORTCUT', player: a.player, until: { step: 'end' } };
        } else if (mulligan !== undefined) {
          mulliganed.add(mulligan.player);
          next = fillAction(mulligan);
        } else if (attack !== undefined && a?.kind === 'declareAttackers' && a.defenders[0] !== undefined) {
          const defender = a.defenders[0];
          next = fillAction(attack, { attackers: [{ id: `${attack.player}-bear#${i}`, defender }, { id: `${attack.player}-elf#${i}`, defender }] });
        } else if (block !== undefined && attackers.length === 2) {
          const [first, second] = attackers as [string, string];
          const wall = `${block.player}-wall#${i}`;
          next = fillAction(block, { blockers: [{ id: `${block.player}-wolf#${i}`, attacker: first }, { id: wall, attacker: first }, { id: wall, attacker: second }] });
        } else next = plainestEvent(actions[0]!, a);
        const result = game.send(next);
        if (!result.ok && next.type === 'DECLARE_BLOCKERS') expect(game.send(plainestEvent(block!, a))).toMatchObject({ ok: true });
        else expect(result, JSON.stringify(next)).toMatchObject({ ok: true });
      }
    }
    // Every type legalActions can offer came up (CONCEDE is offered always, and left out above).
    const offered = ALL_EVENT_TYPES.filter((t) => 'template' in EVENTS[t] && t !== 'CONCEDE');
    expect([...types].sort()).toEqual([...offered].sort());
  });
});

describe('fillAction refuses what is not a LegalAction and its choices (INVALID_EVENT naming the field)', () => {
  const game = createGame({ use: allModules, players: ['A', 'B'] });
  game.send({ type: 'PASS_PRIORITY', player: 'A' });
  game.send({ type: 'PASS_PRIORITY', player: 'B' });
  const cast = actionOf(game.legalActions('A'), 'CAST_SPELL');
  const pass = actionOf(game.legalActions('A'), 'PASS_PRIORITY');
  const loose = fillAction as (action: unknown, choices?: unknown) => TurnEvent;

  it('a chosen field missing or undefined', () => {
    for (const choices of [{}, { id: undefined }, undefined]) {
      const err = thrown(() => loose(cast, choices));
      expect(err?.code).toBe(ErrorCode.INVALID_EVENT);
      expect(err?.message).toMatch(choices === undefined ? /^fillAction: choices\.id: missing \(CAST_SPELL leaves id to choose\)$/ : /choices\.id: missing/);
    }
  });

  it('a field the action does not leave to choose: the template\'s own (speed, player) or an unknown name', () => {
    for (const [choices, field] of [
      [{ id: 'x', speed: 'instant' }, 'speed'],
      [{ id: 'x', player: 'B' }, 'player'],
      [{ id: 'x', attackers: [] }, 'attackers'],
      [{ di: 'x' }, 'di'],
    ] as const) {
      const err = thrown(() => loose(cast, choices));
      expect(err?.code).toBe(ErrorCode.INVALID_EVENT);
      expect(err?.message).toContain(`choices.${field}: CAST_SPELL does not leave ${field} to choose (it leaves id)`);
    }
    expect(thrown(() => loose(pass, { id: 'x' }))?.message).toBe('fillAction: choices.id: PASS_PRIORITY does not leave id to choose (it leaves nothing)');
  });

  it('choices that are not an object, and an action that is not a LegalAction', () => {
    expect(thrown(() => loose(cast, 'x'))?.message).toMatch(/^fillAction: choices: must be an object/);
    expect(thrown(() => loose(cast, ['x']))?.message).toMatch(/^fillAction: choices: must be an object/);
    expect(thrown(() => loose(null, {}))?.message).toMatch(/^fillAction: action: must be a LegalAction/);
    expect(thrown(() => loose({ type: 'TRIGGER', triggers: [], choose: [] }, {}))?.message).toBe('fillAction: action.type: "TRIGGER" is not the type of a LegalAction');
    expect(thrown(() => loose({ type: 'BEGIN_MARKER_TURN', choose: [] }))?.message).toMatch(/action\.type: "BEGIN_MARKER_TURN" is not the type/);
    expect(thrown(() => loose({ type: '__proto__', choose: [] }))?.message).toMatch(/action\.type: "__proto__" is not the type/);
    expect(thrown(() => loose({ type: 'CAST_SPELL', player: 'A', speed: 'instant' }, { id: 'x' }))?.message).toMatch(/^fillAction: action\.choose: must be the list of fields CAST_SPELL leaves to choose \(id\)$/);
    expect(thrown(() => loose({ type: 'CAST_SPELL', player: 'A', speed: 'instant', choose: ['speed'] }, { speed: 'x' }))?.message).toMatch(/action\.choose\[0\]: "speed" is not a field CAST_SPELL leaves to choose \(id\)/);
    for (const err of [thrown(() => loose(cast, 'x')), thrown(() => loose(null, {}))]) expect(err?.code).toBe(ErrorCode.INVALID_EVENT);
  });

  it('changes neither the action nor the choices, whether it fills or refuses', () => {
    const before = JSON.stringify(cast);
    const choices = { id: 'x', speed: 'instant' };
    thrown(() => loose(cast, choices));
    const ok = { id: 'y' };
    const event = fillAction(cast, ok);
    expect(JSON.stringify(cast)).toBe(before);
    expect(choices).toEqual({ id: 'x', speed: 'instant' });
    expect(ok).toEqual({ id: 'y' });
    expect(event).not.toBe(cast);
  });
});

describe('the example table builds its events with fillAction (issue 23 point 7)', () => {
  it('casts nothing to an event or a LegalAction: examples/table/src has no `as TurnEvent`, `as LegalAction` or `as unknown`', () => {
    const dir = resolve(import.meta.dirname, '../../examples/table/src');
    const sources = readdirSync(dir).filter((f) => /\.tsx?$/.test(f));
    expect(sources).toContain('Seat.tsx');
    const casts = sources.flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/\bas (TurnEvent|LegalAction|unknown)\b.*$/gm)].map((m) => `${f}: ${m[0]}`));
    expect(casts).toEqual([]);
    expect(readFileSync(join(dir, 'Seat.tsx'), 'utf8')).toContain('fillAction(');
  });
});
