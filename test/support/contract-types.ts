/**
 * Every type the contract names is exported from the main entry, and the event union is
 * checked: this file is compiled by `npm run typecheck` (and `test/contract/types.test.ts`), so a
 * misspelt event type or a missing field fails the build.
 */
import { expectTypeOf } from 'vitest';
import {
  createGame,
  ErrorCode,
  fillAction,
  TurnEngineError,
  type ActionChoices,
  type Attacker,
  type Awaiting,
  type Effect,
  type EmittedEvent,
  type Game,
  type GameOptions,
  type LegalAction,
  type Persisted,
  type PhaseName,
  type SeatEvent,
  type SeatOptions,
  type StackObject,
  type StepName,
  type Stop,
  type TurnEvent,
  type TurnEventType,
  type TurnView,
} from '../../src/index.js';
import type { CardAnswer, CardRefusal, HostEvent, Refusal } from '../../src/cards/index.js';

const options: GameOptions = { players: ['A', 'B'], rules: 'm10', attack: 'all' };
const game: Game = createGame(options);
const view: TurnView = game.view();
const phase: PhaseName = view.phase;
const step: StepName = view.step;
const awaiting: Awaiting | null = view.awaiting;
const stack: StackObject[] = view.stack;
const stops: Stop[] = [{ step: 'upkeep', turn: 'own' }];
const effect: Effect = { kind: 'landPlays', change: 1 };
const persisted: Persisted = game.persist();
const actions: LegalAction[] = game.legalActions('A');
const event: TurnEvent = { type: 'ADD_EFFECT', id: 'exploration', effect, duration: 'endOfTurn' };
const code: ErrorCode = ErrorCode.ILLEGAL_ACTION;
const error = new TurnEngineError(code, 'example');

game.send(event);
game.send({ type: 'SET_STOPS', player: 'A', stops });
game.on('autoPass', (e) => e.reason satisfies 'noStop' | 'yield' | 'host' | 'time' | 'away' | 'shortcut');
game.on('*', (e) => e.seq satisfies number | undefined);
game.check(event).ok satisfies boolean;
game.view().seq satisfies number;
game.on('*', (e: EmittedEvent) => e.type);
// CONTRACT v3, private seats: a seat's events may come without another player's private fields.
const seat: SeatOptions = { seat: 'A' };
game.view(seat).stops satisfies Record<string, Stop[] | null>;
game.getSnapshot({ spectator: true }).version satisfies number;
game.on('autoPass', (e) => e.reason satisfies 'noStop' | 'yield' | 'host' | 'time' | 'away' | 'shortcut' | undefined, seat);
game.on('*', (e: SeatEvent) => e.seq, { spectator: true });
// @ts-expect-error a seat receives another player's automatic pass without its reason
game.on('autoPass', (e) => e.reason satisfies 'noStop' | 'yield' | 'host' | 'time' | 'away' | 'shortcut', seat);
// @ts-expect-error a misspelt event type does not compile
game.send({ type: 'PASS_PRIORTY', player: 'A' } satisfies TurnEvent);
// @ts-expect-error a missing field does not compile
game.send({ type: 'CAST_SPELL', player: 'A', speed: 'instant' } satisfies TurnEvent);

// LegalAction is discriminated by type; `choose` names what the caller fills in.
for (const a of actions) {
  if (a.type === 'CAST_SPELL') {
    const { choose, ...template } = a;
    void choose;
    game.send({ ...template, id: 'shock' });
  }
}

// fillAction (issue 23): the choices are typed from the action, and the result is the event, with no cast.
for (const a of actions) {
  if (a.type === 'DECLARE_ATTACKERS') {
    expectTypeOf<ActionChoices<typeof a>>().toEqualTypeOf<{ attackers: Attacker[] }>();
    const declared = fillAction(a, { attackers: [{ id: 'bear#1', defender: 'B' }] });
    expectTypeOf(declared).toEqualTypeOf<Extract<TurnEvent, { type: 'DECLARE_ATTACKERS' }>>();
    game.send(declared);
    // @ts-expect-error a chosen field left out does not compile
    fillAction(a, {});
    // @ts-expect-error a field the action does not leave to choose does not compile
    fillAction(a, { attackers: [], speed: 'instant' });
  }
  if (a.type === 'CAST_SPELL') {
    expectTypeOf<ActionChoices<typeof a>>().toEqualTypeOf<{ id: string }>();
    const cast: TurnEvent = fillAction(a, { id: 'shock#2' });
    game.send(cast);
    // @ts-expect-error the choices of an action that leaves fields to choose are not optional
    fillAction(a);
    // @ts-expect-error the template's own fields are not choices
    fillAction(a, { id: 'shock#3', speed: 'sorcery' });
  }
  if (a.type === 'PASS_PRIORITY') {
    game.send(fillAction(a));
    game.send(fillAction(a, {}));
    // @ts-expect-error an action that leaves nothing to choose takes no choices
    fillAction(a, { id: 'x' });
  }
}

// TurnEvent holds only the events a host may send: not the engine's own (issue 23).
expectTypeOf<Extract<TurnEvent, { type: 'BEGIN_MARKER_TURN' }>>().toBeNever();
expectTypeOf<Extract<TurnEventType, 'BEGIN_MARKER_TURN'>>().toBeNever();

// The card game's names as "Card games" writes them: `decide?(event, ctx): Refusal | HostEvent[] | void`.
expectTypeOf<Refusal>().toEqualTypeOf<CardRefusal>();
expectTypeOf<HostEvent>().toEqualTypeOf<TurnEvent>();
expectTypeOf<{ refuse: 'no mana'; rule: '601.2g' }>().toMatchTypeOf<CardAnswer>();
expectTypeOf<HostEvent[]>().toMatchTypeOf<CardAnswer>();

export const used = [phase, step, awaiting, stack, persisted, error];
