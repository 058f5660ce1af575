/**
 * What a table server's rooms (./room.ts) read and keep: the server's context, the Colyseus
 * module the room class is made from, and the records of a connection, a seat and a send being
 * answered.
 */
import type { Client } from '@colyseus/core';
import type { ConnectionBudget, MessageLimits } from './limits.js';
import type { OwnedGame } from './owned.js';
import type { GameStore } from './store/types.js';

/** What the rooms need of their server. */
export interface RoomContext {
  readonly store: GameStore;
  readonly spectatorDelayMs: number;
  /** How long a dropped seat is held for its client's reconnection, in seconds. */
  readonly reconnectSeconds: number;
  readonly limits: MessageLimits;
  /** The games this process owns, by id. */
  readonly owned: ReadonlyMap<string, OwnedGame>;
  readonly shuttingDown: boolean;
  /** Why the stored game cannot be loaded (CONTRACT v4: refused 4500 to every join, never retried), or undefined. */
  failedLoad(gameId: string): string | undefined;
  /** Takes the game's lease and loads it (throws OpenError). */
  open(gameId: string): Promise<OwnedGame>;
  /** The room is gone: the lease is given up. */
  release(game: OwnedGame): Promise<void>;
  /** Reports an error of a room that nothing else would report. */
  report(message: string): void;
  /** How the bot seats of the games play (src/server/bots.ts). */
  readonly bots: { delayMs: number };
}

/** What a client's auth data says: its seat (null: a spectator). */
export interface Auth {
  seat: string | null;
}

/** What the room keeps of one connection. */
export interface Connection {
  seat: string | null;
  /** Its message budget (src/server/limits.ts). */
  budget: ConnectionBudget;
  /**
   * Whether it has its welcome (after a join, or the resume after a reconnection): until then it
   * is sent no update, since the welcome brings everything from the `seq` it gave.
   */
  welcomed: boolean;
  /** Whether a welcome of it is on its way (its events may be read from the store first). */
  welcoming: boolean;
  /** The resume it sent meanwhile, answered after (a newer one takes the place of the one waiting: one waits at most). */
  waiting: { lastSeq: number | undefined } | null;
}

/** A seat's connection: the client, and its pending reconnection while it is away. */
export interface SeatEntry {
  client: Client;
  reconnection?: { reject(reason?: unknown): void };
}

/** A client's send on its way: answered by the update it causes when accepted (`answered`), else by a result. */
export interface Answering {
  readonly client: Client;
  readonly id: number;
  answered: boolean;
}

/** Whether a client has had its welcome (and so is sent updates). */
export function welcomed(client: Client): boolean {
  return (client.userData as Connection | undefined)?.welcomed === true;
}

/** Colyseus (`@colyseus/core`), loaded when a table server starts: the room class is made from it. */
export type Colyseus = typeof import('@colyseus/core');
