/**
 * The worked example of docs/architecture.md, "Adding an event: the six places": the fixture
 * test/support/addingADecision.fixture.ts adds an awaited decision, VOTE (CR 701.38), in the six
 * places' shape; this test compiles the extended chart with compileMachine and plays it on the
 * compiled runtime (and checks XState's own transition takes the same path).
 */
import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { TurnEvent } from '../../src/contract.js';
import { compileMachine } from '../../src/compiled/compile.js';
import { initialState, snapshotOf, step, type CompiledState } from '../../src/compiled/runtime.js';
import { violationOf } from '../../src/events/index.js';
import { landPlaysAllowed, maxHandSizeOf } from '../../src/rules/effects.js';
import type { TurnInput } from '../../src/state.js';
import { initialContext } from '../../machines/turn.effects.js';
import {
  VOTE,
  VOTE_ACTION_EFFECTS,
  VOTE_GUARDS,
  awaitingWithVote,
  plainestVote,
  votersOf,
  votingTurnMachine,
  type FixtureAwaiting,
  type FixtureEvent,
  type VoteEvent,
} from '../support/addingADecision.fixture.js';

const plan = compileMachine(votingTurnMachine, { guards: VOTE_GUARDS, actions: VOTE_ACTION_EFFECTS });

const input: TurnInput = {
  players: ['ann', 'ben', 'cal'],
  startingPlayer: 'ben',
  rules: 'current',
  maxHandSize: 7,
  handSize: 7,
  attack: 'all',
  orderTriggers: 'host',
  pregame: false,
  variant: 'freeForAll',
  teams: null,
  seed: 1,
};

const awaiting = (state: CompiledState): FixtureAwaiting | null => awaitingWithVote(snapshotOf(plan, state));

/** The fixture's gate for VOTE: the record's schema, then its legality, as the product's gate reads a record. */
function sendVote(state: CompiledState, raw: unknown): { state: CompiledState; refused: { rule: string; message: string } | null } {
  const parsed = VOTE.schema.safeParse(raw);
  if (!parsed.success) return { state, refused: { rule: 'INVALID_EVENT', message: parsed.error.message } };
  const refused = VOTE.legality(state.context, awaiting(state), parsed.data);
  if (refused !== null) return { state, refused };
  // The boundary: the compiled runtime's step is typed over TurnEvent, which VOTE is not part of.
  return { state: step(plan, state, parsed.data as unknown as TurnEvent).state, refused: null };
}

/** Sends a product event after its own legality row, as the gate does (what is awaited is not a vote here). */
function send(state: CompiledState, e: TurnEvent): CompiledState {
  const a = awaiting(state);
  if (a?.kind === 'vote') throw new Error(`a vote is awaited from ${a.player}`);
  const refused = violationOf(state.context, a, e);
  if (refused !== null) throw new Error(`${e.type} refused: ${refused.rule} ${refused.message}`);
  return step(plan, state, e).state;
}

/** The plainest answers (priority passed, no attackers, the discard) until a vote is awaited again. */
function playUntilVote(state: CompiledState): CompiledState {
  for (let i = 0; i < 200; i++) {
    const a = awaiting(state);
    if (a === null) throw new Error(`nothing is awaited in ${state.value}`);
    if (a.kind === 'vote') return state;
    if (a.kind === 'priority') state = send(state, { type: 'PASS_PRIORITY', player: a.player });
    else if (a.kind === 'declareAttackers') state = send(state, { type: 'DECLARE_ATTACKERS', player: a.player, attackers: [] });
    else if (a.kind === 'discard') state = send(state, { type: 'DISCARD', player: a.player, count: a.count });
    else throw new Error(`unexpected ${a.kind}`);
  }
  throw new Error('no vote within 200 events');
}

const start = () => initialState(plan, input, initialContext).state;

describe('adding an awaited decision: VOTE (CR 701.38), the worked example of docs/architecture.md', () => {
  it('compiles: the extended chart has the tagged state, the new names and the transition on VOTE', () => {
    const voting = plan.leaves.get('beginning.upkeep.voting');
    expect(voting?.tags).toEqual(new Set(['awaiting:vote']));
    expect(voting?.on.get('VOTE')?.[0]?.actions.map((a) => a.name)).toEqual(['castVote']);
    expect(voting?.always.map((t) => t.guard?.name)).toContain('hasNoVoteDue');
    expect(plan.leaves.get('beginning.upkeep.priority')?.tags).toEqual(new Set(['awaiting:priority']));
    // The product's upkeep leaf is gone: the upkeep is now the two states above.
    expect(plan.leaves.has('beginning.upkeep')).toBe(false);
  });

  it('awaits the vote from each player in turn order, starting with the active player (701.38a)', () => {
    let state = start();
    expect(state.value).toBe('beginning.upkeep.voting');
    expect(state.context.activePlayer).toBe('ben');
    expect(state.context.priority).toBeNull();
    const order: string[] = [];
    for (const choice of ['land', 'hand', 'land'] as const) {
      const a = awaiting(state);
      expect(a?.kind).toBe('vote');
      order.push(a!.player);
      const sent = sendVote(state, { type: 'VOTE', player: a!.player, choice });
      expect(sent.refused).toBeNull();
      state = sent.state;
    }
    expect(order).toEqual(['ben', 'cal', 'ann']);
    expect(votersOf(state.context)).toEqual(['ben', 'cal', 'ann']);
    // Every player has voted: the active player receives priority in the upkeep (503.2).
    expect(state.value).toBe('beginning.upkeep.priority');
    expect(awaiting(state)).toEqual({ kind: 'priority', player: 'ben' });
  });

  it("refuses a vote its record's legality refuses, naming the rule, and changes nothing", () => {
    const state = start();
    const outOfTurn = sendVote(state, { type: 'VOTE', player: 'ann', choice: 'land' });
    expect(outOfTurn.refused?.rule).toBe('701.38a');
    expect(outOfTurn.refused?.message).toContain('the game awaits vote from ben');
    expect(outOfTurn.state).toBe(state);
    // CR 723.5: nobody controls ben, so cal cannot vote for him.
    expect(sendVote(state, { type: 'VOTE', player: 'ben', choice: 'land', by: 'cal' }).refused?.rule).toBe('723.5');
    // The schema (src/fields.ts helpers) refuses a choice that is not on the ballot.
    expect(sendVote(state, { type: 'VOTE', player: 'ben', choice: 'money' }).refused?.rule).toBe('INVALID_EVENT');
    // Nobody holds priority while the votes are awaited: the product's own row refuses a pass.
    expect(violationOf(state.context, null, { type: 'PASS_PRIORITY', player: 'ben' })).not.toBeNull();
    // Once the votes are in, a vote is refused too.
    let done = state;
    for (let i = 0; i < 3; i++) done = sendVote(done, plainestVote(awaiting(done)!)).state;
    expect(sendVote(done, { type: 'VOTE', player: 'ben', choice: 'land' }).refused?.rule).toBe('701.38a');
  });

  it("offers the record's template, filled the plainest way, and it is accepted", () => {
    const state = start();
    const plainest = plainestVote(awaiting(state)!);
    expect(plainest).toEqual({ type: 'VOTE', player: 'ben', choice: 'land' } satisfies VoteEvent);
    expect(sendVote(state, plainest).refused).toBeNull();
  });

  it('changes the state as the effect says: one effect per vote, for the active player, until end of turn', () => {
    let state = start();
    for (const [player, choice] of [['ben', 'land'], ['cal', 'hand'], ['ann', 'land']] as const) state = sendVote(state, { type: 'VOTE', player, choice }).state;
    expect(state.context.effects).toEqual([
      { id: 'vote:1:ben', effect: { kind: 'landPlays', change: 1, players: ['ben'] }, duration: 'endOfTurn', since: 1 },
      { id: 'vote:1:cal', effect: { kind: 'maxHandSize', change: 1, players: ['ben'] }, duration: 'endOfTurn', since: 1 },
      { id: 'vote:1:ann', effect: { kind: 'landPlays', change: 1, players: ['ben'] }, duration: 'endOfTurn', since: 1 },
    ]);
    // Two land votes: three land plays this turn (305.2); one hand vote: maximum hand size 8 (402.2).
    expect(landPlaysAllowed(state.context, 'ben')).toBe(3);
    expect(maxHandSizeOf(state.context, 'ben')).toBe(8);
    expect(landPlaysAllowed(state.context, 'cal')).toBe(1);
  });

  it('then the turn goes on: the effects end with the turn, and the next upkeep awaits the next vote', () => {
    let state = start();
    for (let i = 0; i < 3; i++) state = sendVote(state, plainestVote(awaiting(state)!)).state;
    state = playUntilVote(state);
    expect(state.context.turn).toBe(2);
    expect(state.context.activePlayer).toBe('cal');
    expect(state.value).toBe('beginning.upkeep.voting');
    // The vote's effects lasted until end of turn (514.2).
    expect(state.context.effects).toEqual([]);
    expect(awaiting(state)).toEqual({ kind: 'vote', player: 'cal', choices: ['land', 'hand'] });
  });

  it("takes the same path on XState's own transition (the chart is a real XState machine)", () => {
    const events: FixtureEvent[] = [
      { type: 'VOTE', player: 'ben', choice: 'land' },
      { type: 'VOTE', player: 'cal', choice: 'hand' },
      { type: 'VOTE', player: 'ann', choice: 'hand' },
      { type: 'PASS_PRIORITY', player: 'ben' },
      { type: 'PASS_PRIORITY', player: 'cal' },
      { type: 'PASS_PRIORITY', player: 'ann' },
    ];
    let [snapshot] = initialTransition(votingTurnMachine, input);
    let state = start();
    expect(snapshot.value).toEqual({ beginning: { upkeep: 'voting' } });
    for (const e of events) {
      [snapshot] = transition(votingTurnMachine, snapshot, e);
      // The boundary again: the compiled step is typed over TurnEvent.
      state = step(plan, state, e as TurnEvent).state;
      expect(snapshot.context.effects).toEqual(state.context.effects);
      expect(snapshot.context.step).toBe(state.context.step);
    }
    expect(state.value).toBe('beginning.draw');
    expect(snapshot.value).toEqual({ beginning: 'draw' });
    expect(maxHandSizeOf(snapshot.context, 'ben')).toBe(9);
  });
});
