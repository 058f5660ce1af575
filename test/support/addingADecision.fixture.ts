/**
 * The worked example of docs/architecture.md, "Adding an event: the six places": one new awaited
 * decision, VOTE (CR 701.38), added in the six places' shape but here, in a test fixture, not in
 * the product. test/contract/addingADecision.test.ts compiles the extended chart and plays it.
 *
 * The rule it adds (a house rule, shaped like a "will of the council" card): at the beginning of
 * each turn's upkeep, starting with the active player and proceeding in turn order, each player
 * votes `land` or `hand` (CR 701.38a). For each `land` vote the active player may play an
 * additional land this turn (CR 305.2); for each `hand` vote their maximum hand size is one
 * greater until end of turn (CR 402.2). Each vote is one continuous effect in `effects` (named
 * after its voter), so the tally lives in a field the context already has: no new context field.
 *
 * Self-contained: it imports only the product (src/, machines/), never another test file.
 */
import { enqueueActions, setup } from 'xstate';
import * as z from 'zod/mini';
import type { Awaiting, EffectEntry, EmittedEvent, PlayerId, TurnEvent } from '../../src/contract.js';
import { violation, type Violation } from '../../src/errors.js';
import { By, PlayerIdSchema, eventSchema, type Agrees } from '../../src/fields.js';
import type { Route } from '../../src/events/record.js';
import { byViolation } from '../../src/rules/control.js';
import { first } from '../../src/rules/legality.js';
import { inTurnOrderFrom } from '../../src/rules/turnOrder.js';
import type { ActiveEffect, TurnContext, TurnInput } from '../../src/state.js';
import { awaitingOf, type SnapshotLike } from '../../src/view.js';
import { adoptContext } from '../../machines/context.js';
import { effect, type Effect } from '../../machines/effect.js';
import { runtimeOf, type GameHooksRuntime } from '../../machines/hooks.js';
import { turnMachine } from '../../machines/turn.machine.js';
import { ACTION_EFFECTS, GUARDS } from '../../machines/turn.implementations.js';

// 1. Its type (src/contract.ts): the event, and the Awaiting kind it answers.

/** What a player may vote for. */
export const VOTE_CHOICES = ['land', 'hand'] as const;
export type VoteChoice = (typeof VOTE_CHOICES)[number];

/** CR 701.38a: a player votes for one of the choices; `by` when someone else decides for them (CR 723.5). */
export type VoteEvent = { type: 'VOTE'; player: PlayerId; choice: VoteChoice; by?: PlayerId; turnMarker?: number };
/** What the game awaits while players vote. */
export type VoteAwaiting = { kind: 'vote'; player: PlayerId; choices: VoteChoice[] };

/** The contract's unions with the new members (in the product: members of TurnEvent and Awaiting themselves). */
export type FixtureEvent = TurnEvent | VoteEvent;
export type FixtureAwaiting = Awaiting | VoteAwaiting;

// 3. Its rule (src/rules/): pure functions of the context, citing the CR.

/** The id of the effect a player's vote of this turn made: the tally is the effects themselves. */
const voteId = (ctx: Pick<TurnContext, 'turn'>, player: PlayerId) => `vote:${ctx.turn}:${player}`;

/** CR 701.38a: the players who have voted this turn, in the order they did. */
export function votersOf(ctx: Pick<TurnContext, 'turn' | 'effects'>): PlayerId[] {
  const prefix = `vote:${ctx.turn}:`;
  return ctx.effects.filter((e) => e.id.startsWith(prefix)).map((e) => e.id.slice(prefix.length));
}

/**
 * CR 701.38a: the player who votes next: starting with the active player and proceeding in turn
 * order, the first still in the game who has not voted; null when all have (or the active
 * player has left the game, CR 800.4j: nobody calls the vote).
 */
export function voterDue(ctx: Pick<TurnContext, 'turn' | 'effects' | 'seats' | 'players' | 'activePlayer'>): PlayerId | null {
  if (ctx.activePlayer === null) return null;
  const voted = votersOf(ctx);
  return inTurnOrderFrom(ctx, ctx.activePlayer).find((p) => !voted.includes(p)) ?? null;
}

/** CR 701.38a: a vote is cast by the player whose turn it is to vote, and only while a vote is awaited. */
export function voteViolation(awaiting: FixtureAwaiting | null, player: PlayerId): Violation | null {
  if (awaiting?.kind === 'vote' && awaiting.player === player) return null;
  const now = awaiting === null ? 'nothing is awaited' : `the game awaits ${awaiting.kind} from ${awaiting.player}`;
  return violation('701.38a', `a vote by ${player} is not awaited now: players vote in turn order, one at a time (${now})`);
}

/**
 * What one vote does, as a continuous effect until end of turn: for each `land` vote the active
 * player may play an additional land (CR 305.2); for each `hand` vote their maximum hand size is
 * one greater (CR 402.2).
 */
export function voteEffect(ctx: Pick<TurnContext, 'turn' | 'activePlayer'>, voter: PlayerId, choice: VoteChoice): ActiveEffect {
  const players = ctx.activePlayer === null ? [] : [ctx.activePlayer];
  const entry: EffectEntry['effect'] = choice === 'land' ? { kind: 'landPlays', change: 1, players } : { kind: 'maxHandSize', change: 1, players };
  return { id: voteId(ctx, voter), effect: entry, duration: 'endOfTurn', since: ctx.turn };
}

// 2. Its record (src/events/): schema, players, what it awaits, legality, template, route.

/** The fields of src/events/record.ts's EventRecord for a decision, typed for the fixture's event (EventRecord<T> takes only TurnEvent types). */
interface FixtureDecisionRecord<E extends { type: string }, K extends string> {
  schema: z.ZodMiniType<E>;
  players: readonly string[];
  awaits: K;
  teammateMayAnswer: boolean;
  legality: (ctx: TurnContext, awaiting: FixtureAwaiting | null, e: E) => Violation | null;
  template: { choose: readonly Exclude<keyof E, 'type'>[]; fill: (event: Record<string, unknown>, awaiting: FixtureAwaiting | null) => void };
  plainest?: true;
  route: Route;
}

export const VOTE = {
  schema: eventSchema('VOTE', { player: PlayerIdSchema, choice: z.enum(VOTE_CHOICES), by: By }),
  players: ['player', 'by'],
  awaits: 'vote',
  // CR 701.38a: each player votes, a teammate does not vote for them.
  teammateMayAnswer: false,
  legality: (ctx, a, e) => first(() => voteViolation(a, e.player), () => byViolation(ctx, e.player, e.by)),
  template: {
    choose: ['choice'],
    fill: (e, a) => {
      e.choice = a?.kind === 'vote' ? a.choices[0] : VOTE_CHOICES[0];
    },
  },
  plainest: true,
  route: 'turn',
} satisfies FixtureDecisionRecord<VoteEvent, 'vote'>;

// The schema builds exactly the event (as src/events/index.ts checks for every record).
const voteSchemaAgrees: Agrees<z.infer<typeof VOTE.schema>, VoteEvent> = true;
void voteSchemaAgrees;

// 6. Its effect (machines/*.effects.ts): a pure (ctx, event) => Effect.

/** CR 701.38a: the player's vote is cast; its effect is in force until end of turn. */
export function castVote(ctx: TurnContext, e: VoteEvent): Effect {
  return effect(ctx, { effects: [...ctx.effects, voteEffect(ctx, e.player, e.choice)] });
}

// 5. Its names (machines/turn.implementations.ts): the guards and actions the chart names.

/** Narrows the event an action was given (the compiled runtime and XState hand over what the chart took). */
function voteOf(event: FixtureEvent): VoteEvent {
  if (event.type !== 'VOTE') throw new Error(`Expected event "VOTE", got event ${JSON.stringify(event.type)}`);
  return event;
}

export const VOTE_GUARDS = {
  ...GUARDS,
  hasNoVoteDue: ({ context }: { context: TurnContext }) => context.result !== null || voterDue(context) === null,
};

export const VOTE_ACTION_EFFECTS = {
  ...ACTION_EFFECTS,
  castVote: (ctx: TurnContext, e: FixtureEvent) => castVote(ctx, voteOf(e)),
};

// 4. A tagged state (machines/turn.machine.ts): the upkeep waits for the votes, then gives priority.

/** The upkeep step: the votes first (tagged `awaiting:vote`), then priority, as the combat steps that await a declaration are built. */
export const votingUpkeep = {
  entry: { type: 'beginStep', params: { step: 'upkeep' } },
  exit: { type: 'emptyManaPools', params: { at: 'step' } },
  initial: 'voting',
  states: {
    // CR 701.38a: starting with the active player, each player in turn order votes.
    voting: {
      tags: ['awaiting:vote'],
      always: { guard: 'hasNoVoteDue', target: 'priority' },
      on: { VOTE: { actions: 'castVote' } },
    },
    // CR 503.2: then the active player receives priority.
    priority: { entry: 'givePriorityToActivePlayer', tags: ['awaiting:priority'] },
  },
  always: { guard: 'isStepOver', target: 'nextStep' },
} as const;

const config = turnMachine.config;
const beginning = config.states?.beginning;
if (beginning === undefined) throw new Error('the turn chart has no beginning phase');

/** The action effects adapted for XState's setup(), as machines/turn.setup.ts adapts the product's. */
type FixtureEffect = (ctx: TurnContext, event: FixtureEvent, runtime: GameHooksRuntime | undefined, params: unknown) => Effect;
function perform(run: FixtureEffect) {
  return enqueueActions<TurnContext, FixtureEvent, Record<string, unknown> | undefined, FixtureEvent, never, never, never, never, EmittedEvent>(({ context, event, self, enqueue }, params) => {
    const { patch, emit, raise } = run(adoptContext(context), event, runtimeOf(self), params);
    if (Object.keys(patch).length > 0) enqueue.assign(patch);
    for (const e of emit) enqueue.emit(e);
    if (raise) for (const e of raise) enqueue.raise(e);
  });
}

// The one boundary where the new type meets the product's tables: the product's guards and effects
// are typed over TurnEvent, and the fixture's chart hands them a FixtureEvent (never a VOTE: the
// chart takes VOTE only with the fixture's own names).
const guards = VOTE_GUARDS as unknown as Record<string, (args: { context: TurnContext; event: FixtureEvent }, params: never) => boolean>;
const effects = VOTE_ACTION_EFFECTS as unknown as Record<string, FixtureEffect>;

const votingSetup = setup({
  types: { context: {} as TurnContext, events: {} as FixtureEvent, input: {} as TurnInput, emitted: {} as EmittedEvent },
  guards,
  actions: Object.fromEntries(Object.entries(effects).map(([name, run]) => [name, perform(run)])),
});
type VotingConfig = Parameters<typeof votingSetup.createMachine>[0];

/** The turn chart with the voting upkeep: the product's config, with one state replaced. */
export const votingTurnMachine = votingSetup.createMachine({
  ...config,
  states: { ...config.states, beginning: { ...beginning, states: { ...beginning.states, upkeep: votingUpkeep } } },
  // The same boundary: the product's config is typed over TurnEvent and turnSetup's names; VOTE and the new names are not in them.
} as unknown as VotingConfig);

/** What the game awaits, the vote included (src/view.ts's awaitingOf reads the other tags). */
export function awaitingWithVote(snapshot: SnapshotLike): FixtureAwaiting | null {
  if (snapshot.status === 'active' && snapshot.context.result === null && snapshot.hasTag('awaiting:vote')) {
    const player = voterDue(snapshot.context);
    if (player !== null) return { kind: 'vote', player, choices: [...VOTE_CHOICES] };
  }
  return awaitingOf(snapshot);
}

/** The template `legalActions` would offer for what is awaited (the record's `template`), filled the plainest way. */
export function plainestVote(awaiting: FixtureAwaiting): VoteEvent {
  const event: Record<string, unknown> = { type: 'VOTE', player: awaiting.player };
  VOTE.template.fill(event, awaiting);
  return VOTE.schema.parse(event);
}
