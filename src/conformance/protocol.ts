/**
 * The conformance protocol (docs/conformance.md; the JSON Schema of every message is in
 * schema/conformance/): newline-delimited JSON-RPC 2.0 over the engine's stdin and stdout.
 * The runner asks `initialize`, `createGame`, `send`, `view`, `legalActions`, `persist`,
 * `restore`, `nextStop` and `shutdown`; the engine asks `checkpoint` (and `autoPass`, for a game
 * created with `autoPass: true`) while it plays a send.
 */

/** The protocol's version, sent in `initialize` (`protocolVersion`). */
export const PROTOCOL_VERSION = 1;

/** The methods the runner calls on the engine. */
export const ENGINE_METHODS = ['initialize', 'createGame', 'send', 'view', 'legalActions', 'persist', 'restore', 'nextStop', 'shutdown'] as const;
/** A method the runner calls on the engine. */
export type EngineMethod = (typeof ENGINE_METHODS)[number];

/** The methods the engine calls on the runner (the checkpoint and autoPass hooks, driven the other way). */
export const RUNNER_METHODS = ['checkpoint', 'autoPass'] as const;

/** JSON-RPC 2.0 error codes: the standard ones, and the protocol's own (-32000 to -32099). */
export const RpcErrorCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** The engine refused the call (bad createGame options, a persisted game it cannot restore): `data.code` says why (INVALID_OPTIONS, INVALID_SNAPSHOT). */
  REFUSED: -32000,
  /** No game yet: createGame first. */
  NO_GAME: -32001,
  /** A request arrived while the engine waits for the runner's answer to its checkpoint. */
  BUSY: -32002,
} as const;

/** A JSON-RPC id: the runner numbers its requests 1, 2, 3, ...; the engine may use numbers or strings. */
export type RpcId = number | string;

/** A request (or, without `id`, a notification). */
export interface RpcRequest {
  jsonrpc: '2.0';
  id?: RpcId;
  method: string;
  params?: unknown;
}

/** A JSON-RPC error object. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** A response: `result` or `error`. */
export type RpcResponse = { jsonrpc: '2.0'; id: RpcId | null; result: unknown } | { jsonrpc: '2.0'; id: RpcId | null; error: RpcError };

/** What `initialize` answers. */
export interface InitializeResult {
  name: string;
  version: string;
  /** The feature tags the engine supports (docs/conformance.md, "Features"). */
  features: string[];
  protocolVersion?: number;
}

/** The params of `createGame`: the scenario's setup less `inject` and `autoPass`, and whether the engine must call `checkpoint` and `autoPass`. */
export interface CreateGameParams {
  options: Record<string, unknown>;
  checkpoint: boolean;
  /** Whether the game has an autoPass hook (the scenario's `setup.autoPass`): the engine asks the runner `autoPass` where it would call it. Absent: false. */
  autoPass?: boolean;
}

/** What `send` answers. */
export type SendAnswer = { ok: true; events: { type: string; [field: string]: unknown }[] } | { ok: false; error: { code: string; message: string; rule?: string }; events?: [] };

/** The params of `autoPass` (engine -> runner): the hook's arguments; the runner answers true or false. */
export interface AutoPassParams {
  view: Record<string, unknown>;
  player: string;
}

/** The params of `checkpoint` (engine -> runner). */
export interface CheckpointParams {
  view: Record<string, unknown>;
  pending: { type: string; [field: string]: unknown }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with an `initialize` answer, or null. */
export function initializeProblem(result: unknown): string | null {
  if (!isRecord(result)) return 'not an object';
  if (typeof result.name !== 'string' || result.name.length === 0) return 'name: expected a non-empty string';
  if (typeof result.version !== 'string') return 'version: expected a string';
  if (!Array.isArray(result.features) || !result.features.every((f) => typeof f === 'string')) return 'features: expected an array of strings';
  return null;
}

/** What is wrong with a `send` answer, or null. */
export function sendProblem(result: unknown): string | null {
  if (!isRecord(result)) return 'not an object';
  if (result.ok === true) {
    if (!Array.isArray(result.events)) return 'events: expected an array (of the events the send emitted)';
    const bad = result.events.findIndex((e) => !isRecord(e) || typeof e.type !== 'string');
    return bad === -1 ? null : `events[${bad}]: expected an object with a string type`;
  }
  if (result.ok !== false) return 'ok: expected true or false';
  if (!isRecord(result.error) || typeof result.error.code !== 'string' || typeof result.error.message !== 'string') return 'error: expected { code: string, message: string } when ok is false';
  return null;
}

/** What is wrong with a `view` answer, or null (only its shape: the scenario matches its fields). */
export function viewProblem(result: unknown): string | null {
  return isRecord(result) ? null : 'expected the TurnView, an object';
}

/** What is wrong with a message line as JSON-RPC 2.0, or null; `message` is the parsed line. */
export function messageProblem(message: unknown): string | null {
  if (!isRecord(message)) return 'not a JSON object';
  if (message.jsonrpc !== '2.0') return 'jsonrpc: expected "2.0"';
  if ('method' in message) {
    if (typeof message.method !== 'string') return 'method: expected a string';
    if ('id' in message && typeof message.id !== 'number' && typeof message.id !== 'string') return 'id: expected a number or a string';
    return null;
  }
  if (!('id' in message)) return 'neither a request (method) nor a response (id)';
  if ('result' in message === 'error' in message) return 'a response has either result or error';
  if ('error' in message && (!isRecord(message.error) || typeof message.error.code !== 'number' || typeof message.error.message !== 'string')) return 'error: expected { code: number, message: string }';
  return null;
}
