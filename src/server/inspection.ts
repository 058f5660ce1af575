/**
 * Read routes for watching served games (issue 25, point 5: "the inspector can watch any game the
 * server holds"): the games a store holds, and each one as a recording (CONTRACT v3,
 * "Recordings") built from what the store keeps: its first kept snapshot, then every stored send
 * with the answers its hooks gave. A recording shows everything, private fields included, so the
 * routes answer only a request that carries a key (`Authorization: Bearer <key>`): a read-only
 * key of its own, or the admin key. They never change a game.
 *
 * - `GET /inspect/games`: `{ games: GameSummary[] }`, newest first (at most 100);
 * - `GET /inspect/games/<id>`: one `GameSummary`;
 * - `GET /inspect/games/<id>/recording`: the game's recording, for `replayGame` or the inspector.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RECORDING_ENGINE, RECORDING_FORMAT, SNAPSHOT_EVERY, type RecordedInput, type RecordedSnapshot } from '../recording/format.js';
import { createGame } from '../game/create.js';
import { allModules } from '../allModules.js';
import { V3_CARDS_NAME } from './cards.js';

/** The modules every served game has (the server gives every game every module): its recording names them. */
const MODULE_NAMES = allModules.map((m) => m.module);
import type { GameOptions, RecordedOptions, Recording } from '../game/types.js';
import type { Persisted } from '../persistence/format.js';
import type { GameStore } from './store/types.js';
import { bearerKey, sameSecret } from './tokens.js';

/** The path every inspection route starts with. */
export const INSPECT_PATH = '/inspect/games';

/** What the list says of a game. */
export interface GameSummary {
  gameId: string;
  /** The seats, in turn order (the setup's players). */
  players: string[];
  /** The version written last. */
  version: number;
  /** Whether the game is over. */
  finished: boolean;
  /** When it was created (ms since the epoch). */
  createdAt: number;
}

/** Options of {@link inspectionRoutes}. */
export interface InspectionOptions {
  store: GameStore;
  /** The keys a request may carry (each at least 16 characters): e.g. a read-only key and the admin key. */
  keys: readonly string[];
  /** Which hooks the served games have (`cards.hooks`): their answers are in the stored sends. */
  hooks?: { checkpoint?: unknown; autoPass?: unknown };
}

/**
 * The start of a served game as createGame made it from the setup the store keeps: the options
 * and the recorded answers of createGame's own hook calls, when createGame of that setup, its
 * hooks answering nothing, makes exactly the first stored snapshot (version 0); else null (the
 * cards answered something at the start, or the snapshot is not the first).
 */
function startFromSetup(setup: unknown, first: { version: number; snapshot: unknown }, hooks: InspectionOptions['hooks']): { options: RecordedOptions; start: RecordedInput } | null {
  if (first.version !== 0 || typeof setup !== 'object' || setup === null || Array.isArray(setup)) return null;
  const quiet: GameOptions['hooks'] = {
    ...(typeof hooks?.checkpoint === 'function' ? { checkpoint: () => undefined } : {}),
    ...(typeof hooks?.autoPass === 'function' ? { autoPass: () => false } : {}),
  };
  try {
    // The bot seats' kinds stored with the setup (src/server/tableServer.ts) are the server's, not createGame's.
    const { bots: _bots, ...options } = setup as GameOptions & { bots?: unknown };
    const game = createGame({ ...options, record: true, hooks: quiet, use: allModules });
    if (JSON.stringify(game.persist()) !== JSON.stringify(first.snapshot)) return null;
    const recording = game.recording() as Recording;
    return { options: recording.options as RecordedOptions, start: recording.inputs[0] as RecordedInput };
  } catch {
    return null;
  }
}

/**
 * A stored game as a recording, or null when the store has no such game: from the setup the
 * store keeps (`from: 'options'`, so `recordingToScenario` and `replay --scenario` take it) when
 * createGame of that setup makes the first stored snapshot, else from that snapshot (`from:
 * 'persisted'`). `replayGame` of it reaches the stored version, with the same views and events.
 */
export async function storedRecording(store: GameStore, gameId: string, hooks: InspectionOptions['hooks'] = {}): Promise<Recording | null> {
  const stored = await store.loadGame(gameId);
  if (stored === null) return null;
  const kept = await store.snapshots(gameId);
  const stored0 = kept[0];
  if (stored0 === undefined) throw new Error(`game '${gameId}': the store keeps no snapshot of it`);
  const sends = (await store.sends(gameId, stored0.version)).filter((s) => s.version <= stored.version);
  const inputs: RecordedInput[] = [{}];
  for (const send of sends) inputs.push(send.results.length > 0 ? ({ event: send.event, results: send.results } as RecordedInput) : ({ event: send.event } as RecordedInput));
  // CONTRACT v4: a served game is a card game: its recording names its cards and holds the events as sent (a replay runs the definition again).
  const cards = (stored0.snapshot as { cards?: { name?: unknown } }).cards;
  const isCards = typeof cards === 'object' && cards !== null;
  // A game of the v3 cards without hooks (what `serve` runs) plays as a plain game: its recording is the
  // engine's (the cards' part left out), which the inspector, replayGame and recordingToScenario take.
  const plain = isCards && cards.name === V3_CARDS_NAME && typeof hooks?.checkpoint !== 'function' && typeof hooks?.autoPass !== 'function';
  if (isCards && !plain) {
    return { format: RECORDING_FORMAT, engine: RECORDING_ENGINE, from: 'persisted', options: stored0.snapshot, cards: { name: cards.name }, use: MODULE_NAMES, inputs: inputs.map((i) => (i.event === undefined ? {} : { event: i.event })) } as unknown as Recording;
  }
  const engineOf = (snapshot: unknown): unknown => {
    if (!plain) return snapshot;
    const { cards: _cards, ...engine } = snapshot as Record<string, unknown>;
    return engine;
  };
  const first = { version: stored0.version, snapshot: engineOf(stored0.snapshot) };
  const snapshots: RecordedSnapshot[] = kept
    .filter((s) => s.version > first.version && s.version <= stored.version && s.version % SNAPSHOT_EVERY === 0)
    .map((s) => ({ version: s.version, persisted: engineOf(s.snapshot) as Persisted }));
  const recordingHooks = { checkpoint: typeof hooks.checkpoint === 'function', autoPass: typeof hooks.autoPass === 'function' };
  const start = startFromSetup(stored.setup, first, hooks);
  if (start !== null) {
    inputs[0] = start.start;
    return { format: RECORDING_FORMAT, engine: RECORDING_ENGINE, from: 'options', options: start.options, hooks: recordingHooks, use: MODULE_NAMES, inputs, snapshots };
  }
  return {
    format: RECORDING_FORMAT,
    engine: RECORDING_ENGINE,
    from: 'persisted',
    options: first.snapshot as Persisted,
    hooks: recordingHooks,
    use: MODULE_NAMES,
    inputs,
    snapshots,
  };
}

/** The summary of a stored game, or null. */
async function summaryOf(store: GameStore, gameId: string): Promise<GameSummary | null> {
  const stored = await store.loadGame(gameId);
  if (stored === null) return null;
  const players = (stored.setup as { players?: unknown } | null)?.players;
  return {
    gameId,
    players: Array.isArray(players) ? players.filter((p): p is string => typeof p === 'string') : Object.keys(stored.tokenHashes),
    version: stored.version,
    finished: stored.finished,
    createdAt: stored.createdAt,
  };
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): true {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
  res.end(JSON.stringify(body));
  return true;
}

/**
 * The inspection routes, for `createTableServer({ routes })`: answers the requests under
 * {@link INSPECT_PATH} (401 without a key it knows, 404 for a game it does not hold, 405 for
 * anything but GET) and leaves every other request (false).
 */
export function inspectionRoutes(options: InspectionOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const keys = [...options.keys];
  if (keys.length === 0 || keys.some((k) => typeof k !== 'string' || k.length < 16)) throw new Error('inspectionRoutes: keys must be strings of at least 16 characters');
  const { store } = options;
  return async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    if (path !== INSPECT_PATH && !path.startsWith(`${INSPECT_PATH}/`)) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${INSPECT_PATH} is read with GET` } }, { Allow: 'GET, HEAD' });
    const key = bearerKey(req.headers.authorization);
    // Every key is compared (constant time each), whichever matches.
    if (key === undefined || !keys.map((k) => sameSecret(key, k)).includes(true)) {
      return reply(res, 401, { error: { code: 'UNAUTHORIZED', message: `${INSPECT_PATH} needs the header Authorization: Bearer <inspect key> (printed by the server)` } }, { 'WWW-Authenticate': 'Bearer' });
    }
    if (path === INSPECT_PATH) {
      const ids = await store.listGames(100);
      const games = (await Promise.all(ids.map((id) => summaryOf(store, id)))).filter((g): g is GameSummary => g !== null);
      return reply(res, 200, { games });
    }
    const match = /^\/inspect\/games\/([A-Za-z0-9_-]{1,200})(\/recording)?$/.exec(path);
    if (match === null) return reply(res, 404, { error: { code: 'NOT_FOUND', message: `no route ${path}: ${INSPECT_PATH}, ${INSPECT_PATH}/<id> or ${INSPECT_PATH}/<id>/recording` } });
    const gameId = match[1] as string;
    const body = match[2] === undefined ? await summaryOf(store, gameId) : await storedRecording(store, gameId, options.hooks);
    if (body === null) return reply(res, 404, { error: { code: 'NOT_FOUND', message: `no game '${gameId}' on this server` } });
    return reply(res, 200, body);
  };
}
