/**
 * The compiled runtime (issue 15) against XState on the same chart:
 *  (a) the transition plan: `xstate/graph` paths walked through XState's `transition` and the
 *      compiled `step`, comparing state value, context and emitted events after every event;
 *  (b) a differential property: random games in lockstep on the XState Game and the compiled
 *      Game (all eras, 2-4 players, a checkpoint hook that sometimes reports triggers),
 *      comparing acceptance, emitted events and the view after every event. The compiled
 *      game's contexts are deeply frozen, so an effect that mutated shared state would fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transition, type AnyEventObject } from 'xstate';
import { getShortestPaths } from 'xstate/graph';
import { adoptContext, cloneContext, CONTEXT_KEYS } from '../../machines/context.js';
import { initialContext } from '../../machines/turn.effects.js';
import { ACTION_EFFECTS, GUARDS } from '../../machines/turn.setup.js';
import { turnMachine } from '../../machines/turn.machine.js';
import type { CheckpointHook, RulesEra, TurnEvent } from '../../src/contract.js';
import type { TurnContext } from '../../src/state.js';
import { compileMachine } from '../../src/compiled/compile.js';
import { createCompiledGame, createInterpreterGame, isCompiled, restoreCompiledGame, restoreInterpreterGame } from '../support/logics.js';
import { step, type CompiledState } from '../../src/compiled/runtime.js';
import { playout } from '../../src/compiled/simulate.js';
import { createGame, toInput } from '../../src/game/create.js';
import { type Game } from '../../src/game/types.js';
import { legalActionsOf, plainestFill } from '../../src/legal.js';
import { statePath } from '../../src/persistence/format.js';
import { seededRandom } from '../../src/simulation.js';
import { awaitingOf, deepFreeze, type SnapshotLike } from '../../src/view.js';
import { actorOf } from '../../src/xstate.js';

const plan = compileMachine(turnMachine);
type XSnapshot = ReturnType<typeof turnMachine.getInitialSnapshot>;

const inputOf = (players: string[], rules: RulesEra = 'current') => ({
  players,
  startingPlayer: players[0] as string,
  rules,
  maxHandSize: 7,
  handSize: 7,
  attack: 'all' as const,
  orderTriggers: 'host' as const,
  pregame: false,
  variant: 'freeForAll' as const,
  teams: null,
  seed: 7,
});

describe('compiled runtime: the plan', () => {
  it('calls the very guards and effects that setup() is given', () => {
    const impl = turnMachine.implementations;
    for (const [name, fn] of Object.entries(GUARDS)) expect(impl.guards[name], name).toBe(fn);
    expect(Object.keys(impl.actions).sort()).toEqual(Object.keys(ACTION_EFFECTS).sort());
  });

  it('has one leaf per atomic state, tagged as XState tags it', () => {
    for (const leaf of plan.leaves.values()) {
      const snapshot = turnMachine.resolveState({ value: leaf.path.split('.').reduceRight<unknown>((v, k) => (v === undefined ? k : { [k]: v }), undefined) as never, context: {} as TurnContext });
      expect([...leaf.tags].sort(), leaf.path).toEqual([...snapshot.tags].sort());
      expect(leaf.final, leaf.path).toBe(snapshot.status === 'done');
    }
    expect(plan.leaves.get('gameOver')?.final).toBe(true);
  });

  it('follows every shortest path of xstate/graph exactly as XState does (value, context, emitted events)', () => {
    for (const rules of ['current', 'classic', 'm10'] as const) {
      const input = inputOf(['A', 'B', 'C'], rules);
      const events = (s: XSnapshot): TurnEvent[] => {
        if (s.status !== 'active' || s.context.turn > 2) return [];
        const awaiting = awaitingOf(s);
        const decisions = legalActionsOf(s).filter((a) => a.player === awaiting?.player || a.type === 'CONCEDE').map((a) => plainestFill(a, awaiting, s.context));
        const host: TurnEvent[] = [
          { type: 'END_TURN' },
          { type: 'END_COMBAT' },
          { type: 'TRIGGER', triggers: [{ id: `t-${s.context.stack.length}-${s.context.pendingTriggers.length}`, controller: 'B' }] },
          { type: 'ADD_EXTRA_COMBAT' },
          { type: 'ADD_EFFECT', id: 'skip-draw', effect: { kind: 'skip', what: 'draw' }, duration: 'endOfTurn' },
        ];
        return [...decisions, ...host];
      };
      const paths = getShortestPaths(turnMachine, {
        input,
        events,
        serializeState: (s: XSnapshot) => `${statePath(s.value)}|${s.context.turn}|${s.context.stack.length > 0}|${s.context.priority}|${s.context.players.length}|${s.context.effects.length > 0}`,
        limit: 20_000,
      } as never);
      expect(paths.length).toBeGreaterThan(50);
      for (const path of paths) {
        let x = turnMachine.resolveState({ value: 'start', context: {} as TurnContext }) as XSnapshot;
        let c: CompiledState | null = null;
        for (const { event, state } of path.steps) {
          if ((event as AnyEventObject).type === 'xstate.init') {
            x = state as XSnapshot;
            const leaf = statePath(x.value);
            c = { value: leaf, context: x.context, status: 'active' };
            continue;
          }
          const emittedX: unknown[] = [];
          const [next, actions] = transition(turnMachine, x, event as TurnEvent);
          for (const a of actions as { type: string; params?: unknown }[]) if (a.type === 'xstate.emit') emittedX.push((a.params as { event: unknown }).event);
          const out = step(plan, c as CompiledState, event as TurnEvent);
          expect(out.state.value, `${JSON.stringify(event)} from ${statePath(x.value)}`).toBe(statePath(next.value));
          expect(out.state.status).toBe(next.status);
          expect(out.state.context).toEqual(next.context);
          expect(out.emitted).toEqual(emittedX);
          x = next;
          c = out.state;
        }
      }
    }
  });
});

/** Lockstep: the XState game and the compiled game, with identical hooks and identical random event streams. */
function lockstep(seed: number, players: number, rules: RulesEra, length: number): number {
  let accepted = 0;
  const ids = ['A', 'B', 'C', 'D'].slice(0, players);
  const hook = (): CheckpointHook => {
    const random = seededRandom(seed ^ 0x5eed);
    let n = 0;
    return (view) => {
      const r = random();
      if (r < 0.12 && view.players.length > 0) return { triggers: [{ id: `hook-${n++}`, controller: view.players[Math.floor(random() * view.players.length)] as string }] };
      if (r < 0.15) return { stateBasedActions: true };
      return undefined;
    };
  };
  // The reference Game on XState's own transition (src/logic/xstate.ts).
  const xstateGame: Game = createInterpreterGame({ players: ids, rules, seed, hooks: { checkpoint: hook() } });
  expect(isCompiled(xstateGame)).toBe(false);
  const compiled = createCompiledGame({ players: ids, rules, seed, hooks: { checkpoint: hook() } });
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const freeze = () => deepFreeze(compiled.state.context);
  freeze();
  expect(compiled.view()).toEqual(xstateGame.view());
  for (let i = 0; i < length; i++) {
    const view = xstateGame.view();
    if (view.gameOver !== null) break;
    const someone = pick(view.players);
    const roll = random();
    let event: unknown;
    if (roll < 0.75) {
      const snapshot = actorOf(xstateGame).getSnapshot() as SnapshotLike;
      const awaiting = awaitingOf(snapshot);
      const actions = legalActionsOf(snapshot).filter((a) => a.type !== 'CONCEDE' || random() < 0.02);
      const mine = actions.filter((a) => a.player === awaiting?.player);
      const action = mine.find((a) => a.type === 'PASS_PRIORITY') !== undefined && random() < 0.6 ? mine.find((a) => a.type === 'PASS_PRIORITY') : pick(actions.length > 0 ? actions : mine);
      if (action === undefined) break;
      event = plainestFill(action, awaiting, snapshot.context);
    } else {
      const host: unknown[] = [
        { type: 'ADD_EFFECT', id: `e-${i}`, effect: pick([{ kind: 'skip', what: pick(['draw', 'upkeep', 'combat', 'turn', 'declareBlockers']) }, { kind: 'maxHandSize', set: 2 }, { kind: 'landPlays', change: 1 }, { kind: 'keepMana' }]), duration: pick(['endOfTurn', 'untilRemoved', 'endOfCombat', 'untilYourNextTurn']) },
        { type: 'END_TURN' },
        { type: 'END_COMBAT' },
        { type: 'ADD_EXTRA_STEP', step: pick(['upkeep', 'draw', 'end', 'combatDamage']) },
        { type: 'ADD_EXTRA_PHASE', phase: pick(['combat', 'postcombatMain', 'beginning']) },
        { type: 'ADD_EXTRA_TURN', player: someone },
        { type: 'ADD_EXTRA_COMBAT', followedByMain: random() < 0.5 },
        { type: 'TRIGGER', triggers: [{ id: `trig-${i}`, controller: someone }] },
        { type: 'SET_STOPS', player: someone, stops: random() < 0.5 ? null : [{ step: pick(['upkeep', 'main', 'end', 'declareAttackers']), turn: pick(['own', 'others', 'any']) }] },
        { type: 'YIELD', player: someone, until: pick(['stackResolved', 'endOfTurn', 'nextTurn', null]) },
        { type: 'ADD_MANA', player: someone, amount: 2 },
        { type: 'HAND_SIZE', player: someone, size: Math.floor(random() * 10) },
        { type: 'SKIP_NEXT', player: someone, what: pick(['draw', 'upkeep', 'combat', 'turn']) },
        { type: 'LOSE', player: someone, reason: 'test' },
      ];
      event = pick(roll < 0.97 ? host.slice(0, -1) : host);
    }
    const a = xstateGame.send(event);
    const b = compiled.send(event);
    const where = `seed ${seed}, ${players}p ${rules}, event ${i}: ${JSON.stringify(event)}`;
    expect(b.ok, where).toBe(a.ok);
    if (a.ok) accepted++;
    if (a.ok && b.ok) expect(b.events, where).toEqual(a.events);
    if (!a.ok && !b.ok) expect(b.error.code, where).toBe(a.error.code);
    expect(compiled.view(), where).toEqual(xstateGame.view());
    expect(compiled.legalActions(), where).toEqual(xstateGame.legalActions());
    freeze();
  }
  expect(compiled.persist()).toEqual(xstateGame.persist());
  expect(compiled.nextStop()).toEqual(xstateGame.nextStop());
  return accepted;
}

describe('compiled runtime: differential against XState', () => {
  it('plays random games in lockstep with the XState game: acceptance, emitted events and views agree after every event', () => {
    let accepted = 0;
    let games = 0;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 4 }), fc.constantFrom<RulesEra>('current', 'm10', 'classic'), (seed, players, rules) => {
        accepted += lockstep(seed, players, rules, 150);
        games++;
      }),
      { seed: 15, numRuns: 40 },
    );
    expect(accepted / games).toBeGreaterThan(60);
  });
});

describe('compiled Game', () => {
  it('fork() gives an independent game that shares the state and diverges from it', () => {
    const game = createCompiledGame({ players: ['A', 'B'], seed: 3 });
    game.send({ type: 'PASS_PRIORITY', player: 'A' });
    const fork = game.fork();
    expect(fork.state).toBe(game.state);
    expect(fork.view()).toEqual(game.view());
    expect(fork.send({ type: 'PASS_PRIORITY', player: 'B' }).ok).toBe(true);
    expect(fork.view().version).toBe(game.view().version + 1);
    expect(game.view().step).toBe('upkeep');
    expect(fork.view().step).not.toBe('upkeep');
  });

  it('builds its XState actor only when asked, then routes every event through it with the same checks', () => {
    const game = createCompiledGame({ players: ['A', 'B'], seed: 3 });
    const seen: string[] = [];
    game.on('*', (e) => seen.push(e.type));
    const actor = actorOf(game);
    expect(actorOf(game)).toBe(actor);
    expect(statePath(actor.getSnapshot().value)).toBe(game.state.value);
    const emittedByActor: string[] = [];
    actor.on('*', (e) => emittedByActor.push(e.type));
    expect(game.send({ type: 'PASS_PRIORITY', player: 'B' }).ok).toBe(false);
    const ok = game.send({ type: 'PASS_PRIORITY', player: 'A' });
    expect(ok.ok).toBe(true);
    expect(statePath(actor.getSnapshot().value)).toBe(game.state.value);
    expect(actor.getSnapshot().context).toBe(game.state.context);
    expect(emittedByActor).toEqual(ok.ok ? ok.events.map((e) => e.type) : []);
    actor.send({ type: 'PASS_PRIORITY', player: 'A' } as never);
    expect(game.view().version).toBe(1);
  });

  it('persists and restores like the XState game', () => {
    const game = createCompiledGame({ players: ['A', 'B', 'C'], rules: 'classic', seed: 9 });
    for (let i = 0; i < 30; i++) {
      const a = game.legalActions().find((x) => x.type === 'PASS_PRIORITY' || x.type === 'DECLARE_ATTACKERS' || x.type === 'DECLARE_BLOCKERS' || x.type === 'DISCARD');
      if (a === undefined) break;
      game.send(plainestFill(a, game.view().awaiting, game.state.context));
    }
    const restored = restoreCompiledGame(JSON.parse(JSON.stringify(game.persist())));
    expect(restored.view()).toEqual(game.view());
    expect(restored.persist()).toEqual(game.persist());
  });

  it('hands out a restored context with its fields in the order the XState game does (the runtime copies contexts in one order)', () => {
    const game = createCompiledGame({ players: ['A', 'B'], seed: 2 });
    const saved = JSON.parse(JSON.stringify(game.persist())) as unknown;
    const compiled = restoreCompiledGame(saved);
    const onXState = restoreInterpreterGame(saved);
    for (const g of [compiled, onXState]) {
      expect(g.send({ type: 'PASS_PRIORITY', player: 'A' }).ok).toBe(true);
      expect(g.send({ type: 'PASS_PRIORITY', player: 'B' }).ok).toBe(true);
    }
    expect(JSON.stringify(compiled.persist())).toBe(JSON.stringify(onXState.persist()));
    expect(JSON.stringify(compiled.fork().persist())).toBe(JSON.stringify(onXState.persist()));
    expect(Object.keys(actorOf(compiled).getSnapshot().context)).toEqual(Object.keys(actorOf(onXState).getSnapshot().context));
    const inspected = createGame({ players: ['A', 'B'], seed: 2 });
    actorOf(inspected, { inspect: () => undefined });
    expect(Object.keys(game.persist().context ?? {})).toEqual(Object.keys(inspected.persist().context ?? {}));
  });

  it('plays out forks to turn 20 (the simulate API)', () => {
    const game = createCompiledGame({ players: ['A', 'B'], seed: 5 });
    const a = playout(game, { untilTurn: 20, seed: 1 });
    const b = playout(game, { untilTurn: 20, seed: 1 });
    expect(a.turn).toBeGreaterThan(20);
    expect(b.game.view()).toEqual(a.game.view());
    expect(game.view().turn).toBe(1);
  });
});

describe('context copies (machines/context.ts)', () => {
  it('cloneContext and adoptContext (kept apart for V8) copy every field of the context, in the same order', () => {
    const ctx = initialContext(toInput({ players: ['A', 'B', 'C'], seed: 3 }));
    expect(Object.keys(cloneContext(ctx))).toEqual(Object.keys(ctx));
    expect(Object.keys(adoptContext(ctx))).toEqual(CONTEXT_KEYS);
    expect(adoptContext(ctx)).toEqual(cloneContext(ctx));
  });
});
