/**
 * Playing the example card game in-process with random legal actions (test/cards/): the
 * definition's bot picks a decision with its data, or one of the engine's legal actions when it
 * has none of its own. Sized by count; no clock.
 */
import { createCardGame } from '../../src/cards/index.js';
import type { CardGame, CardRandom } from '../../src/cards/index.js';
import type { TurnEvent } from '../../src/contract.js';
import { fillAction, type LegalAction } from '../../src/legal.js';
import { cardRandom } from '../../src/cards/random.js';
import { seedState } from '../../src/rules/random.js';
import { exampleCards, type ExampleState } from '../../examples/cards/definition.js';

/** A seeded random for the players' choices (apart from the game's). */
export function chooser(seed: number): CardRandom {
  return cardRandom({ position: seedState(seed + 0.5), drew: false });
}

/** The player who must act now (awaited, or holding priority), or null once the game is over. */
export function actor(game: CardGame<ExampleState>): string | null {
  const view = game.view();
  if (view.gameOver !== null || view.awaiting === null) return null;
  return view.decidedBy[view.awaiting.player] ?? view.awaiting.player;
}

/** One random legal decision for whoever must act: the bot's, else one of the engine's legal actions. */
export function nextDecision(game: CardGame<ExampleState>, random: CardRandom): unknown {
  const view = game.view();
  const player = view.awaiting?.player as string;
  const seen = game.cards({ seat: player });
  const chosen = exampleCards.bot?.(view, seen, player, random);
  if (chosen !== undefined) return chosen;
  const legal = game.legalActions(player).filter((a) => a.type !== 'CONCEDE');
  const action = legal[random.int(legal.length)] as LegalAction;
  return fillAction(action as never) as TurnEvent;
}

export interface Played {
  game: CardGame<ExampleState>;
  failures: { version: number; event: unknown; error: unknown }[];
  sends: number;
}

/** Plays a seeded game to its end (or `maxSends`), counting refused decisions as failures. */
export function playGame(seed: number, options: { maxSends?: number; undo?: boolean; record?: boolean; onSend?: (game: CardGame<ExampleState>, sends: number) => CardGame<ExampleState> | void } = {}): Played {
  let game = createCardGame(exampleCards, { players: ['alice', 'bob'], seed, ...(options.record === true ? { record: true } : {}), ...(options.undo === true ? { undo: { mode: 'own' as const } } : {}) });
  const random = chooser(seed);
  const failures: Played['failures'] = [];
  let sends = 0;
  const max = options.maxSends ?? 5000;
  while (actor(game) !== null && sends < max) {
    const event = nextDecision(game, random);
    const out = game.send(event);
    sends++;
    if (!out.ok) failures.push({ version: game.view().version, event, error: out.error });
    const next = options.onSend?.(game, sends);
    if (next !== undefined) game = next;
  }
  return { game, failures, sends };
}
