/**
 * `conformance serve-self`: this engine behind the conformance protocol, on stdin and stdout
 * (docs/conformance.md). The checkpoint hook is synchronous, so the whole loop is: it reads
 * stdin with blocking reads, and while a send waits at a checkpoint it asks the runner and
 * reads on until the answer comes. No network; it ends at `shutdown` or when stdin closes.
 */
import { readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckpointResult, EmittedEvent, TurnView } from '../contract.js';
import { createGame, restoreGame } from '../game/create.js';
import { allModules } from '../allModules.js';
import type { Game, GameOptions } from '../game/types.js';
import { TurnEngineError } from '../errors.js';
import { packageRoot } from './corpus.js';
import { FEATURE_NAMES } from './features.js';
import { PROTOCOL_VERSION, RpcErrorCode, type RpcError, type RpcId } from './protocol.js';

/** Where the loop reads and writes: file descriptors by default (0 and 1). */
export interface ServeIo {
  /** Reads some bytes into the buffer, blocking; 0 at the end of the input. */
  read(buffer: Buffer): number;
  /** Writes one whole line (with its newline). */
  write(line: string): void;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Standard input and output as blocking reads and writes (a pipe left non-blocking is polled). */
export function stdio(): ServeIo {
  return {
    read(buffer) {
      for (;;) {
        try {
          return readSync(0, buffer, 0, buffer.length, null);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN' || code === 'EWOULDBLOCK') Atomics.wait(sleeper, 0, 0, 2);
          else if (code === 'EOF') return 0;
          else throw err;
        }
      }
    },
    write(line) {
      const bytes = Buffer.from(line, 'utf8');
      let offset = 0;
      while (offset < bytes.length) {
        try {
          offset += writeSync(1, bytes, offset);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN') Atomics.wait(sleeper, 0, 0, 2);
          else throw err;
        }
      }
    },
  };
}

class Refusal extends Error {
  constructor(readonly rpc: RpcError) {
    super(rpc.message);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The package's version, for `initialize`. */
function version(): string {
  try {
    return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** Serves this engine over the protocol until `shutdown` or the end of the input; `features`: the tags `initialize` declares (default all). */
export function serveSelf(io: ServeIo = stdio(), features: readonly string[] = FEATURE_NAMES): void {
  const chunk = Buffer.alloc(64 * 1024);
  let text = '';
  let ended = false;
  let game: Game | null = null;
  let checkpointId = 0;

  /** The next line of input, or null at the end. */
  const nextLine = (): string | null => {
    for (;;) {
      const newline = text.indexOf('\n');
      if (newline !== -1) {
        const line = text.slice(0, newline);
        text = text.slice(newline + 1);
        if (line.trim().length > 0) return line;
        continue;
      }
      if (ended) {
        const rest = text;
        text = '';
        return rest.trim().length > 0 ? rest : null;
      }
      const n = io.read(chunk);
      if (n === 0) ended = true;
      else text += chunk.toString('utf8', 0, n);
    }
  };
  const send = (message: Record<string, unknown>) => io.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

  /** A hook driven the other way: asks the runner and waits for its answer (a request arriving meanwhile is refused as busy). */
  const ask = (method: 'checkpoint' | 'autoPass', params: Record<string, unknown>): unknown => {
    const id = `${method}-${++checkpointId}`;
    send({ id, method, params });
    for (;;) {
      const line = nextLine();
      if (line === null) throw new Error(`the runner closed the input before answering ${method}`);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        send({ id: null, error: { code: RpcErrorCode.PARSE_ERROR, message: 'not JSON' } });
        continue;
      }
      if (isRecord(message) && message.id === id && !('method' in message)) {
        if (isRecord(message.error)) throw new Error(`the runner answered ${method} with an error: ${String(message.error.message)}`);
        return message.result ?? undefined;
      }
      if (isRecord(message) && typeof message.method === 'string' && 'id' in message) {
        send({ id: message.id, error: { code: RpcErrorCode.BUSY, message: `the engine waits for the answer to its ${method} request` } });
      }
    }
  };
  const checkpoint = (view: TurnView, pending: readonly EmittedEvent[]) => ask('checkpoint', { view, pending }) as CheckpointResult | undefined;
  const autoPass = (view: TurnView, player: string) => ask('autoPass', { view, player }) === true;

  const hooksFor = (wantCheckpoint: boolean, wantAutoPass: boolean) => ({ ...(wantCheckpoint ? { checkpoint } : {}), ...(wantAutoPass ? { autoPass } : {}) });
  let hooks = hooksFor(false, false);
  const current = (): Game => {
    if (game === null) throw new Refusal({ code: RpcErrorCode.NO_GAME, message: 'no game: call createGame first' });
    return game;
  };
  const refusedBy = (err: unknown): Refusal => {
    if (err instanceof TurnEngineError) return new Refusal({ code: RpcErrorCode.REFUSED, message: err.message, data: { code: err.code } });
    return new Refusal({ code: RpcErrorCode.REFUSED, message: err instanceof Error ? err.message : String(err) });
  };

  const handle = (method: string, params: Record<string, unknown>): unknown => {
    switch (method) {
      case 'initialize':
        return { name: 'mtg-turn-engine', version: version(), features: [...features], protocolVersion: PROTOCOL_VERSION };
      case 'createGame': {
        if (!isRecord(params.options)) throw new Refusal({ code: RpcErrorCode.INVALID_PARAMS, message: 'createGame: params.options must be an object (the createGame options)' });
        hooks = hooksFor(params.checkpoint === true, params.autoPass === true);
        // createGame's own events (turn 1's first steps) are its answer; the first send's are only its own.
        const events: EmittedEvent[] = [];
        try {
          game = createGame({ ...(params.options as unknown as GameOptions), hooks, listeners: { '*': (e) => void events.push(e) }, use: allModules });
        } catch (err) {
          game = null;
          throw refusedBy(err);
        }
        return { events };
      }
      case 'send': {
        const result = current().send(params.event);
        return result.ok ? result : { ok: false, error: result.error, events: [] };
      }
      case 'view':
        return current().view();
      case 'legalActions':
        return current().legalActions(typeof params.player === 'string' ? params.player : undefined);
      case 'persist':
        return current().persist();
      case 'restore':
        try {
          game = restoreGame(params.persisted, { hooks, use: allModules });
        } catch (err) {
          throw refusedBy(err);
        }
        return {};
      case 'nextStop':
        return current().nextStop(typeof params.player === 'string' ? params.player : undefined);
      case 'shutdown':
        return {};
      default:
        throw new Refusal({ code: RpcErrorCode.METHOD_NOT_FOUND, message: `no method '${method}'` });
    }
  };

  for (let line = nextLine(); line !== null; line = nextLine()) {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      send({ id: null, error: { code: RpcErrorCode.PARSE_ERROR, message: 'not JSON' } });
      continue;
    }
    if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') {
      // A stray response (to a checkpoint given up on) is dropped; anything else is an invalid request.
      if (isRecord(message) && !('method' in message) && ('result' in message || 'error' in message)) continue;
      send({ id: isRecord(message) && (typeof message.id === 'number' || typeof message.id === 'string') ? message.id : null, error: { code: RpcErrorCode.INVALID_REQUEST, message: 'not a JSON-RPC 2.0 request' } });
      continue;
    }
    const id = message.id as RpcId | undefined;
    const params = isRecord(message.params) ? message.params : {};
    let body: { result: unknown } | { error: RpcError };
    try {
      body = { result: handle(message.method, params) ?? null };
    } catch (err) {
      body = { error: err instanceof Refusal ? err.rpc : { code: RpcErrorCode.INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) } };
    }
    if (id !== undefined) send({ id, ...body });
    if (message.method === 'shutdown') return;
  }
}
