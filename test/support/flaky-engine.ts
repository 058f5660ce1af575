/**
 * `mtg-turn-engine` as the README's host sees it in test/contract/host-v3.test.ts, with a
 * checkpoint hook that fails: every send (and createGame) fails at its first checkpoint call,
 * then at its second, and so on, each time after the host's hook has run, and is sent again until
 * it calls the hook fewer times than the failure waits for. The host never knows: its `send` gets
 * the accepted result. What the host carried out in the failed attempts must not count.
 */
import { createGame as create, type EmittedEvent, type Game, type GameOptions, type SendResult, type TurnView } from '../../src/index.js';
import { INJECTED, isInjected } from './staged-play.js';

export * from '../../src/index.js';

/** What the last run saw. */
export const flakyRun = { games: 0, injected: 0, settledGiven: false };

/** createGame, with the failing hook; the game's `send` retries each failed attempt. */
export function createGame(options: GameOptions): Game {
  const checkpoint = options.hooks?.checkpoint;
  flakyRun.games++;
  flakyRun.settledGiven = typeof options.hooks?.settled === 'function';
  let failAt = 0;
  let calls = 0;
  const hooks = {
    ...options.hooks,
    checkpoint: (view: TurnView, pending: EmittedEvent[]) => {
      const result = checkpoint?.(view, pending);
      if (++calls === failAt) {
        flakyRun.injected++;
        throw new Error(INJECTED);
      }
      return result;
    },
  };
  let game: Game | undefined;
  for (failAt = 1; game === undefined; failAt++) {
    calls = 0;
    try {
      game = create({ ...options, hooks });
    } catch (err) {
      if (!String(err).includes(INJECTED)) throw err;
    }
  }
  failAt = 0;
  const send = game.send.bind(game);
  game.send = (event: unknown): SendResult => {
    let result: SendResult;
    failAt = 0;
    do {
      failAt++;
      calls = 0;
      result = send(event);
    } while (isInjected(result) && failAt < 1000);
    failAt = 0;
    return result;
  };
  return game;
}
