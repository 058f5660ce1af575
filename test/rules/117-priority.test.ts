/** Priority, the stack and the checkpoint (CR 117, 405, 603.3b, 704.3). */
import { describe, expect, it } from 'vitest';
import type { TurnView } from '../../src/contract.js';
import { play } from '../support/dsl.js';

describe('priority (CR 117)', () => {
  it('117.3a: the starting player holds priority in the upkeep of turn 1 after the untap step', () => {
    const t = play({ players: ['A', 'B'] });
    t.expectView({ turn: 1, phase: 'beginning', step: 'upkeep', priority: 'A', awaiting: { kind: 'priority', player: 'A' } });
  });

  it('117.3d: a pass out of turn is refused with the rule and changes nothing', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.refused({ type: 'PASS_PRIORITY', player: 'C' }, 'ILLEGAL_ACTION', '117.3d');
  });

  it('117.3c: the caster receives priority again; 117.4: all passing resolves the top object', () => {
    const t = play({ players: ['A', 'B'] });
    t.send({ type: 'CAST_SPELL', player: 'A', id: 's1', speed: 'instant' });
    t.expectView({ priority: 'A', stack: [{ id: 's1', controller: 'A', kind: 'spell' }] });
    t.pass('A', 'B');
    t.expectView({ priority: 'A', stack: [], step: 'upkeep' });
    expect(t.emittedOf('resolve')).toEqual([{ type: 'resolve', object: { id: 's1', controller: 'A', kind: 'spell' } }]);
  });

  it('117.3b: after a resolution the active player receives priority, whoever cast it', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.pass('A', 'B');
    t.send({ type: 'CAST_SPELL', player: 'C', id: 'c1', speed: 'instant' });
    t.pass('C', 'A', 'B');
    t.expectView({ priority: 'A', stack: [] });
  });

  it('307.1: sorceries need the active player, a main phase and an empty stack', () => {
    const t = play({ players: ['A', 'B'] });
    t.refused({ type: 'CAST_SPELL', player: 'A', id: 'w', speed: 'sorcery' }, 'ILLEGAL_ACTION', '307.1');
    t.passUntil({ step: 'main' });
    t.send({ type: 'CAST_SPELL', player: 'A', id: 'w', speed: 'sorcery' });
    t.refused({ type: 'CAST_SPELL', player: 'A', id: 'x', speed: 'sorcery' }, 'ILLEGAL_ACTION', '307.1');
  });

  it('305.2, 305.3: one land per turn, only on your own turn', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    t.send({ type: 'PLAY_LAND', player: 'A' });
    t.refused({ type: 'PLAY_LAND', player: 'A' }, 'ILLEGAL_ACTION', '305.2');
    t.pass('A');
    t.refused({ type: 'PLAY_LAND', player: 'B' }, 'ILLEGAL_ACTION', '305.3');
  });
});

describe('triggers and the checkpoint (CR 117.5, 603.3b, 704.3)', () => {
  it('603.3b: triggers go on the stack in APNAP order, each player in the order listed', () => {
    const t = play({ players: ['A', 'B', 'C'], startingPlayer: 'B' });
    t.send({ type: 'TRIGGER', triggers: [{ id: 'a1', controller: 'A' }, { id: 'c1', controller: 'C' }, { id: 'b1', controller: 'B' }, { id: 'a2', controller: 'A' }] });
    expect(t.view().stack.map((o) => o.id)).toEqual(['b1', 'c1', 'a1', 'a2']);
  });

  it('117.5: the hook runs before every priority, with the player about to receive it', () => {
    const seen: (string | null)[] = [];
    const t = play({ players: ['A', 'B'], hooks: { checkpoint: (v: TurnView) => void seen.push(v.priority) } });
    expect(seen).toEqual(['A']); // before the starting player's first priority
    t.pass('A');
    expect(seen).toEqual(['A', 'B']);
  });

  it('704.3: the check repeats until it reports nothing', () => {
    let calls = 0;
    const t = play({
      players: ['A', 'B'],
      hooks: { checkpoint: () => (++calls <= 3 ? { triggers: [{ id: `t${calls}`, controller: 'B' }] } : undefined) },
    });
    expect(calls).toBe(4);
    expect(t.view().stack.map((o) => o.id)).toEqual(['t1', 't2', 't3']);
  });

  it('800.4d: triggers of a player who left are not put on the stack', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'CONCEDE', player: 'C' });
    t.send({ type: 'TRIGGER', triggers: [{ id: 'c1', controller: 'C' }, { id: 'a1', controller: 'A' }] });
    expect(t.view().stack.map((o) => o.id)).toEqual(['a1']);
  });
});

describe('leaving the game (CR 800.4)', () => {
  it('800.4a: if the player with priority leaves, the next player in turn order receives it', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.pass('A');
    t.send({ type: 'CONCEDE', player: 'B' });
    t.expectView({ priority: 'C', players: ['A', 'C'] });
    // A passed before B left, and C passes now: all players still in the game passed in succession (117.4).
    t.pass('C');
    t.expectView({ step: 'draw', priority: 'A' });
  });

  it('104.3a: when the last opponent concedes the game ends at once: no step ends, no mana empties', () => {
    const t = play({ players: ['A', 'B'] });
    t.send({ type: 'ADD_MANA', player: 'A', amount: 2 });
    t.send({ type: 'CONCEDE', player: 'B' });
    expect(t.emittedOf('manaEmptied', 'stepBegan')).toEqual([]);
    expect(t.emittedOf('gameOver')).toEqual([{ type: 'gameOver', winners: ['A'], draw: false }]);
  });

  it('800.4j: without an active player, the next player receives priority where the active player would', () => {
    const t = play({ players: ['A', 'B', 'C'] });
    t.send({ type: 'CONCEDE', player: 'A' });
    t.expectView({ activePlayer: null, priority: 'B' });
    t.passUntil({ step: 'declareAttackers' });
    t.expectView({ priority: 'B', awaiting: { kind: 'priority', player: 'B' } });
    t.passUntil({ turn: 2, step: 'upkeep' });
    t.expectView({ activePlayer: 'B' });
  });
});

describe('legalActions', () => {
  it('lists what the awaited player may do, each with the fields to choose; the plainest choice is accepted', () => {
    const t = play({ players: ['A', 'B'] });
    t.passUntil({ step: 'main' });
    const actions = t.game.legalActions('A');
    expect(actions.map((a) => `${a.type}:${'speed' in a ? a.speed : ''}`)).toEqual([
      'PASS_PRIORITY:', 'CAST_SPELL:instant', 'CAST_SPELL:sorcery', 'ACTIVATE_ABILITY:instant', 'ACTIVATE_ABILITY:sorcery', 'PLAY_LAND:', 'CONCEDE:',
    ]);
    expect(t.game.legalActions('B').map((a) => a.type)).toEqual(['CONCEDE']);
    t.passUntil({ step: 'declareAttackers' });
    const [declare] = t.game.legalActions('A');
    expect(declare).toEqual({ type: 'DECLARE_ATTACKERS', player: 'A', choose: ['attackers'] });
    t.send({ type: 'DECLARE_ATTACKERS', player: 'A', attackers: [] });
  });
});

describe('the cleanup step (CR 514.3a)', () => {
  it('514.3a: an object the host puts on the stack during cleanup gives the active player priority, and another cleanup step follows', () => {
    const t = play({ players: ['A', 'B'], handSize: 9 });
    t.passUntil({ step: 'cleanup' });
    t.expectView({ awaiting: { kind: 'discard', player: 'A', count: 2 } });
    t.send({ type: 'PUT_ON_STACK', object: { id: 'copy-1', controller: 'B', kind: 'copy' } });
    t.send({ type: 'DISCARD', player: 'A', count: 2 });
    t.expectView({ turn: 1, step: 'cleanup', priority: 'A', stack: [{ id: 'copy-1', controller: 'B', kind: 'copy' }] });
    t.pass('A', 'B');
    t.expectView({ turn: 1, step: 'cleanup', stack: [] });
    t.passUntil({ turn: 2 });
  });
});
