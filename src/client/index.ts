/**
 * `mtg-turn-engine/client` (CONTRACT v3, "Serving games"): `connectTable(url, join)` joins a
 * served game over Colyseus (colyseus.js, an optional peer dependency) and returns a table: the
 * read side of a Game (`getSnapshot`, `subscribe`, `legalActions`, `nextStop`, `on`) for its seat,
 * an async `send`, and `close`. `mtg-turn-engine/react`'s hooks take it as they take a Game.
 *
 * The server sends, with every view, the decisions this seat may send now (`legalActions`) and
 * where each player it decides for is next asked (`nextStop`): a seat cannot compute them from its
 * view, which leaves out what is private to the others. After a drop the table rejoins by itself
 * (the same room if it still holds the seat, else a new join through any process: given the
 * addresses of several processes, it tries the next when one fails) with the last `seq` it saw,
 * and receives every event it missed before its view. An accepted send is answered by the update
 * it caused (`answers`), a refused one by a result.
 */
import { ErrorCode, TurnEngineError } from '../errors.js';
import { RemoteTable } from './remoteTable.js';
import type { Table, TableJoin, TableOptions } from './table.js';

/**
 * Joins a served game at `url` (the server's `ws://` or `http://` address; or the addresses of
 * several processes of a cluster, tried in turn): resolves once the server has sent the view,
 * rejects with a TurnEngineError `JOIN_REFUSED` when the server refuses the join (DISCONNECTED
 * when it cannot be reached within `joinTimeoutMs`, and at once when nothing listens at any of
 * the addresses: every connection refused, ECONNREFUSED; INVALID_OPTIONS for an empty list).
 *
 * With several addresses, a join (the first, or a rejoin after a drop) that fails at one (it
 * cannot be reached, the game is busy there) tries the next at once, and waits (`retryMs`) only
 * after each full round. A join that succeeds keeps its address as the first to try next time.
 */
export async function connectTable(url: string | readonly string[], join: TableJoin, options: TableOptions = {}): Promise<Table> {
  const urls = typeof url === 'string' ? [url] : url;
  if (!Array.isArray(urls) || urls.length === 0 || urls.some((u) => typeof u !== 'string' || u.length === 0))
    throw new TurnEngineError(ErrorCode.INVALID_OPTIONS, 'connectTable: url must be the server\'s address, or a non-empty list of the addresses of the processes of a cluster');
  const table = new RemoteTable(urls as readonly string[], join, options);
  await table.start(options.joinTimeoutMs ?? 10_000);
  return table;
}

export { MAX_MESSAGE_BYTES } from './protocol.js';
export type { Table, TableJoin, TableOptions, TableSendResult, TableStatus } from './table.js';
export type { ServerMessage, TableState } from './protocol.js';
