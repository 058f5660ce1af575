/**
 * Bot seats (issue 32: "play against a bot"): a seat of a served game that the server plays
 * itself, with random legal actions. A bot seat has no token: the store keeps
 * {@link BOT_TOKEN_HASH} as its token hash, so no client can join it, and the server knows the
 * seat is a bot's after a restart.
 *
 * A bot decides from what its seat may know (CONTRACT v4, "Bots"): in a card game whose
 * definition has `bot`, `bot(view, seen, player, random)` with `seen` the seat's card view (never
 * the full state); otherwise it picks among the seat's `legalActions` at random (no data), and
 * concedes now and then so that a game of a cardless table ends. A seat made with
 * `{ seat, bot: name }` plays the definition's `bots[name]` instead (a bot that plans, e.g. the
 * example's Monte Carlo bot): given the same view and `seen`, and worlds of the game's turn with
 * a cards' state of its own making (`botWorlds`), never the game's state. Its sends go through
 * the same pipeline as a client's ("who may send what" included): it is a seat, not the host.
 */
import type { Game } from '../game/types.js';
import { concreteEvent, seededRandom } from '../simulation.js';
import { authorize } from './authorize.js';
import { botOf, plannerOf, seenBy, type BotChooser, type BotRandom } from './cardGames.js';
import type { OwnedGame } from './owned.js';
import { legalFor } from './seatState.js';

/**
 * The token hash of a bot seat: 64 zero digits, as the stores check a hash's shape; no token is
 * known to hash to it (finding one is a SHA-256 preimage), and joins to it are refused before any
 * token is compared.
 */
export const BOT_TOKEN_HASH = '0'.repeat(64);

/** The bot seats of a game, from its token hashes. */
export function botSeats(tokenHashes: Readonly<Record<string, string>>): string[] {
  return Object.keys(tokenHashes).filter((seat) => tokenHashes[seat] === BOT_TOKEN_HASH);
}

/** The kind of bot seat that plays random legal actions (the definition's `bot`): the default. */
export const RANDOM_BOT = 'random';

/** A bot seat and its kind: 'random', or a name of the definition's `bots`. */
export interface BotSeat {
  seat: string;
  bot: string;
}

/** How often a bot of a game without a definition's `bot` concedes, per move: the only way such a game ends. */
export const BOT_CONCEDE_CHANCE = 0.01;

/** The random numbers of one move: seeded by the game and its version, so a game's bot moves are the same in every run. */
export function botRandom(gameId: string, version: number, attempt: number): BotRandom & { next(): number } {
  let seed = version * 31 + attempt * 7919;
  for (let i = 0; i < gameId.length; i++) seed = (Math.imul(seed, 31) + gameId.charCodeAt(i)) | 0;
  const next = seededRandom(seed);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    shuffle<T>(list: readonly T[]): T[] {
      const out = [...list];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
  };
}

/**
 * The move of bot seat `seat` now, or undefined when it has nothing to decide. The first attempt
 * asks the definition's `bot` (when there is one); later attempts (after a refusal) pick among
 * the seat's legal actions, a pass first.
 */
export function botMove(game: Game, gameId: string, seat: string, attempt: number, bot: BotChooser | undefined): unknown {
  const view = game.getSnapshot({ seat });
  if (view.gameOver !== null) return undefined;
  const random = botRandom(gameId, view.version, attempt);
  if (attempt === 0 && bot !== undefined) {
    const chosen = bot(view, seenBy(game, seat), seat, random);
    if (chosen !== undefined) return chosen;
  }
  const actions = legalFor(seat, game.legalActions()).filter((a) => a.type !== 'CONCEDE');
  if (actions.length === 0) return undefined;
  // CR 104.3a: a player may concede at any time; now and then, so that a game without cards ends.
  if (bot === undefined && random.next() < BOT_CONCEDE_CHANCE) return { type: 'CONCEDE', player: seat };
  // Mostly a pass, so that the turns go on (and always after a refusal).
  const pass = actions.find((a) => a.type === 'PASS_PRIORITY');
  const action = pass !== undefined && (attempt > 0 || random.next() < 0.7) ? pass : actions[random.int(actions.length)];
  return action === undefined ? undefined : concreteEvent(action, view, random.next, view.version);
}

/** Options of a game's bots. */
export interface BotOptions {
  /** How long a bot waits before it moves, in ms (0 in tests; a moment in the demo, so people see the moves). */
  delayMs: number;
  /** Reports a move that failed on the server (not a refusal: those are retried). */
  report(message: string): void;
}

/** How many refused moves in a row a bot makes before it waits for the game to change. */
const MAX_ATTEMPTS = 3;

/**
 * The bots of one owned game: after every accepted send (and when the game opens) each bot seat
 * that has something to decide sends its move, through the game's queue.
 */
export class GameBots {
  readonly #owned: OwnedGame;
  readonly #seats: readonly BotSeat[];
  readonly #options: BotOptions;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;

  constructor(owned: OwnedGame, seats: readonly BotSeat[], options: BotOptions) {
    this.#owned = owned;
    this.#seats = seats;
    this.#options = options;
  }

  /** The game changed (or opened): a move is made soon, if a bot has one. */
  poke(): void {
    if (this.#stopped || this.#timer !== null || this.#seats.length === 0) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#move();
    }, this.#options.delayMs);
  }

  /** No more moves (the room is going). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** One move of the first bot seat that has one (a refused move is tried again another way). */
  async #move(): Promise<void> {
    const owned = this.#owned;
    for (let attempt = 0; attempt < MAX_ATTEMPTS && !this.#stopped && !owned.dropped; attempt++) {
      let moved = false;
      const result = await owned
        .submit((at, game) => {
          for (const { seat, bot } of this.#seats) {
            const move = botMove(game, owned.gameId, seat, attempt, bot === RANDOM_BOT ? botOf(game) : plannerOf(game, bot));
            if (move === undefined) continue;
            const checked = authorize(seat, move, game.getSnapshot());
            if (!checked.ok) return checked;
            moved = true;
            return { ok: true, event: { ...checked.event, at } };
          }
          return { ok: false, error: { code: 'ILLEGAL_ACTION', message: 'no bot has a move' } };
        })
        .catch((err: unknown) => {
          this.#options.report(`bot of game ${owned.gameId}: a move failed: ${err instanceof Error ? err.message : String(err)}`);
          return null;
        });
      // Accepted: the commit pokes again. Nothing to move: wait for the game to change.
      if (result === null || result.ok || !moved) return;
    }
  }
}
