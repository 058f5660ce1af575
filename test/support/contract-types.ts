/**
 * Every type the contract names is exported from the main entry, and the event union is
 * checked: this file is compiled by `npm run typecheck` (and `test/contract/types.test.ts`), so a
 * misspelt event type or a missing field fails the build.
 */
import {
  createGame,
  ErrorCode,
  TurnEngineError,
  type Awaiting,
  type Effect,
  type EmittedEvent,
  type Game,
  type GameOptions,
  type LegalAction,
  type Persisted,
  type PhaseName,
  type StackObject,
  type StepName,
  type Stop,
  type TurnEvent,
  type TurnView,
} from '../../src/index.js';

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
game.on('autoPass', (e) => e.reason satisfies 'noStop' | 'yield' | 'host');
game.on('*', (e) => e.seq satisfies number | undefined);
game.check(event).ok satisfies boolean;
game.view().seq satisfies number;
game.on('*', (e: EmittedEvent) => e.type);
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

export const used = [phase, step, awaiting, stack, persisted, error];
