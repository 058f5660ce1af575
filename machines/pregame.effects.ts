/**
 * What the decisions of the start of the game do (CR 103): pure functions of the context.
 */
import { cardsToBottom, inOrderFromStarting } from '../src/rules/pregame.js';
import { randomIndex } from '../src/rules/random.js';
import { effect, type Effect } from './effect.js';
import type { EmittedEvent, PlayerId } from '../src/contract.js';
import type { TurnContext } from '../src/state.js';

type Pregame = NonNullable<TurnContext['pregame']>;

function withPregame(ctx: TurnContext, patch: Partial<Pregame>, more: Partial<TurnContext> = {}, emit: EmittedEvent[] = []): Effect {
  return effect(ctx, { ...more, pregame: { ...(ctx.pregame as Pregame), ...patch } }, emit);
}

/**
 * CR 103.1: a player chosen at random chooses who takes the first turn; when a variant says
 * who may start (`candidates`: the archenemy, 904.6; the emperors, 809.4), one of them.
 */
export function pregameOf(players: readonly PlayerId[], handSize: number, rng: number, candidates: readonly PlayerId[] | null = null): { pregame: Pregame; rng: number } {
  const pool = candidates ?? players;
  const { state, index } = randomIndex(rng, pool.length);
  const mulligans: Record<PlayerId, number> = {};
  for (const p of players) mulligans[p] = 0;
  return { rng: state, pregame: { chooser: pool[index] as PlayerId, starting: null, handSize, mulligans, kept: [], decided: [], bottom: {}, handsDone: [] } };
}

/** CR 103.1, 103.4: the starting player is chosen; every player draws an opening hand. */
export function chooseStartingPlayer(ctx: TurnContext, starting: PlayerId): Effect {
  const pre = ctx.pregame as Pregame;
  const order = inOrderFromStarting(ctx, starting);
  const handSizes = { ...ctx.handSizes };
  for (const p of order) handSizes[p] = pre.handSize;
  return withPregame(
    ctx,
    { starting },
    { startingPlayer: starting, turnOwner: starting, rotation: starting, handSizes },
    order.map((player): EmittedEvent => ({ type: 'drawHand', player, size: pre.handSize })),
  );
}

/** CR 103.5: a player takes a mulligan: a new hand of the same size; they decide again next round. */
export function takeMulligan(ctx: TurnContext, player: PlayerId): Effect {
  const pre = ctx.pregame as Pregame;
  const number = (pre.mulligans[player] ?? 0) + 1;
  const decided = nextRound(ctx, [...pre.decided, player]);
  // The hand is shuffled away and a new one drawn: the player holds a full hand again, whatever the host reported of the old one.
  return withPregame(ctx, { mulligans: { ...pre.mulligans, [player]: number }, decided }, { handSizes: { ...ctx.handSizes, [player]: pre.handSize } }, [
    { type: 'mulligan', player, number },
    { type: 'drawHand', player, size: pre.handSize },
  ]);
}

/**
 * CR 103.5: a player keeps; after N mulligans they put N cards (less a free one, 103.5c) on the
 * bottom, or every card of a hand that holds fewer (101.3: as much of an instruction as possible).
 */
export function keepHand(ctx: TurnContext, player: PlayerId): Effect {
  const pre = ctx.pregame as Pregame;
  const count = Math.min(cardsToBottom(ctx, pre.mulligans[player] ?? 0), ctx.handSizes[player] ?? 0);
  const kept = [...pre.kept, player];
  const decided = nextRound(ctx, [...pre.decided, player], kept);
  return withPregame(ctx, { kept, decided, bottom: count > 0 ? { ...pre.bottom, [player]: count } : pre.bottom });
}

/** When every player still deciding has decided this round, a new round begins. */
function nextRound(ctx: TurnContext, decided: PlayerId[], kept = (ctx.pregame as Pregame).kept): PlayerId[] {
  const open = ctx.players.filter((p) => !kept.includes(p));
  return open.every((p) => decided.includes(p)) ? [] : decided;
}

/**
 * CR 103.5: the player puts that many cards from their hand on the bottom of their library; a
 * hand the host reported smaller since they kept goes to the bottom whole (101.3).
 */
export function putOnBottom(ctx: TurnContext, player: PlayerId, count: number): Effect {
  const pre = ctx.pregame as Pregame;
  const bottom = { ...pre.bottom };
  delete bottom[player];
  return withPregame(ctx, { bottom }, { handSizes: { ...ctx.handSizes, [player]: Math.max(0, (ctx.handSizes[player] ?? 0) - count) } });
}

/** CR 103.6: a player is done with opening hand actions. */
export function finishOpeningHand(ctx: TurnContext, player: PlayerId): Effect {
  const pre = ctx.pregame as Pregame;
  return withPregame(ctx, { handsDone: [...pre.handsDone, player] });
}
