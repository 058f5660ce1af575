/**
 * The runner's side of the conformance protocol: the engine as a child process (a shell
 * command), one JSON-RPC 2.0 message per line on its stdin and stdout. The runner sends one
 * request at a time and waits for its answer, answering meanwhile the engine's own requests
 * (`checkpoint`). An engine that crashes, hangs past the time-out or writes a line that is
 * not JSON-RPC is an {@link EngineFailure}: the process is killed and the runner starts another.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { messageProblem, RpcErrorCode, type RpcError, type RpcRequest } from './protocol.js';

/** The default time-out of one message, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The default time-out of the engine's start-up: from starting its process to its answer to `initialize`. */
export const DEFAULT_STARTUP_TIMEOUT_MS = 60_000;

/** The longest line the runner reads from an engine (a longer one is a failure). */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** How much of the engine's stderr is kept, to quote when it fails. */
const STDERR_TAIL = 2000;

/** The engine process cannot go on: it exited, timed out, or broke the protocol. */
export class EngineFailure extends Error {
  override name = 'EngineFailure';
}

/** The engine answered a request with a JSON-RPC error. */
export class RpcCallError extends Error {
  override name = 'RpcCallError';
  constructor(
    readonly method: string,
    readonly error: RpcError,
  ) {
    const code = typeof error.data === 'object' && error.data !== null && typeof (error.data as { code?: unknown }).code === 'string' ? ` ${(error.data as { code: string }).code}` : '';
    super(`the engine answered ${method} with error ${error.code}${code}: ${error.message}`);
  }
}

/** Options of {@link EngineProcess.start}. */
export interface EngineProcessOptions {
  /** The shell command that starts the engine. */
  command: string;
  /** Its working folder (default: the runner's). */
  cwd?: string;
  /**
   * The time-out of one message, in milliseconds: the longest the runner waits for the answer to
   * a request, counted from the request. The engine's own requests meanwhile (`checkpoint`) do
   * not restart it: an engine that keeps asking still times out.
   */
  timeoutMs?: number;
  /** Sees every line: '>' sent to the engine, '<' received from it. */
  trace?: (direction: '>' | '<', line: string) => void;
  /** Answers the engine's requests (`checkpoint`): the result, or throws to answer an error. */
  onRequest?: (method: string, params: unknown) => unknown;
}

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (err: Error) => void;
}

/** One running engine process. */
export class EngineProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  /** The start of a line not yet ended, as the chunks it came in (each chunk is searched for a newline once: a long line costs its length, not its square). */
  private partial: string[] = [];
  private partialLength = 0;
  private stderr = '';
  private nextId = 1;
  private pending: (Pending & { id: number }) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failure: EngineFailure | null = null;
  private exited: Promise<void>;
  /** Answers the engine's requests; may be replaced between scenarios. */
  onRequest: (method: string, params: unknown) => unknown;

  private constructor(private readonly options: EngineProcessOptions) {
    this.onRequest = options.onRequest ?? (() => ({}));
    // A process group of its own (POSIX), so a time-out kills the shell and the engine it started.
    this.child = spawn(options.command, { shell: true, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    this.child.stdout.setEncoding('utf8');
    this.child.stderr.setEncoding('utf8');
    this.child.stdout.on('data', (chunk: string) => this.read(chunk));
    this.child.stderr.on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-STDERR_TAIL);
    });
    this.child.stdin.on('error', () => {
      // EPIPE: the engine is gone; its exit reports it.
    });
    this.exited = new Promise((resolve) => {
      this.child.on('error', (err) => {
        this.fail(`cannot start the engine '${options.command}': ${err.message}`);
        resolve();
      });
      this.child.on('close', (code, signal) => {
        this.fail(`the engine exited (${signal !== null ? `signal ${signal}` : `code ${code}`})`);
        resolve();
      });
    });
  }

  /** Starts the engine. */
  static start(options: EngineProcessOptions): EngineProcess {
    return new EngineProcess(options);
  }

  /** Why the process cannot go on, or null while it can. */
  get failed(): EngineFailure | null {
    return this.failure;
  }

  /** Sends a request and waits for its answer: its result; rejects with {@link RpcCallError} for an error answer, {@link EngineFailure} when the engine fails. */
  request(method: string, params: unknown, timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS): Promise<unknown> {
    if (this.failure !== null) return Promise.reject(this.failure);
    if (this.pending !== null) return Promise.reject(new Error(`request ${method} while ${this.pending.method} is pending`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, method, resolve, reject };
      this.arm(timeoutMs, method === 'initialize' ? 'the time-out of the start-up' : 'the time-out of one message');
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Asks the engine to shut down, waits for it to exit (at most the time-out), then kills what is left. */
  async close(): Promise<void> {
    if (this.failure === null) {
      try {
        await this.request('shutdown', {});
      } catch {
        // An engine that cannot shut down is killed below.
      }
    }
    this.child.stdin.end();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS).unref());
    await Promise.race([this.exited, timeout]);
    this.kill();
  }

  /** Ends the process with this reason (the pending request, if any, fails with it): the runner's own time limits. */
  abort(reason: string): void {
    this.fail(reason);
    this.kill();
  }

  /** Kills the engine's process group at once. */
  kill(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.child.exitCode !== null || this.child.signalCode !== null) {
      if (pid !== undefined) this.killGroup(pid);
      return;
    }
    this.killGroup(pid);
    this.child.kill('SIGKILL');
  }

  private killGroup(pid: number): void {
    if (process.platform === 'win32') return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is gone.
    }
  }

  private write(message: unknown): void {
    // A process that failed (the runner's own limits included) is told nothing more.
    if (this.failure !== null) return;
    const line = JSON.stringify(message);
    this.options.trace?.('>', line);
    if (this.child.stdin.writable) this.child.stdin.write(`${line}\n`);
  }

  /** Starts the time-out of the request just sent: its answer must come within `ms`, whatever else the engine writes meanwhile. */
  private arm(ms: number, what: string): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const method = this.pending?.method ?? 'a request';
      this.fail(`no answer to ${method} within ${ms} ms (${what})`);
      this.kill();
    }, ms);
  }

  private fail(reason: string): void {
    if (this.failure !== null) return;
    const tail = this.stderr.trim();
    this.failure = new EngineFailure(tail.length > 0 ? `${reason}; its last stderr: ${tail.split('\n').slice(-5).join(' | ')}` : reason);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const p = this.pending;
    this.pending = null;
    p?.reject(this.failure);
  }

  private read(chunk: string): void {
    let start = 0;
    let newline: number;
    while (this.failure === null && (newline = chunk.indexOf('\n', start)) !== -1) {
      const end = chunk.slice(start, newline);
      start = newline + 1;
      if (this.partialLength + end.length > MAX_LINE_BYTES) return this.tooLong();
      const line = (this.partial.length === 0 ? end : this.partial.join('') + end).replace(/\r$/, '');
      this.partial = [];
      this.partialLength = 0;
      if (line.trim().length > 0) this.receive(line);
    }
    if (this.failure !== null || start === chunk.length) return;
    this.partial.push(start === 0 ? chunk : chunk.slice(start));
    this.partialLength += chunk.length - start;
    if (this.partialLength > MAX_LINE_BYTES) this.tooLong();
  }

  private tooLong(): void {
    this.partial = [];
    this.partialLength = 0;
    this.fail(`the engine wrote a line longer than ${MAX_LINE_BYTES} bytes`);
    this.kill();
  }

  private receive(line: string): void {
    this.options.trace?.('<', line);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.protocolError(`the engine wrote a line that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
    const problem = messageProblem(message);
    if (problem !== null) {
      this.protocolError(`the engine wrote a message that is not JSON-RPC 2.0 (${problem}): ${line.slice(0, 200)}`);
      return;
    }
    const m = message as Record<string, unknown>;
    if (typeof m.method === 'string') {
      this.answerEngine(m as unknown as RpcRequest);
      return;
    }
    const p = this.pending;
    if (p === null || m.id !== p.id) {
      this.protocolError(`the engine answered id ${JSON.stringify(m.id)}, which the runner is not waiting for${p === null ? '' : ` (it waits for ${p.method}, id ${p.id})`}`);
      return;
    }
    this.pending = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if ('error' in m) p.reject(new RpcCallError(p.method, m.error as RpcError));
    else p.resolve(m.result);
  }

  private protocolError(reason: string): void {
    this.fail(reason);
    this.kill();
  }

  /** Answers a request of the engine (a notification, without id, gets no answer). */
  private answerEngine(request: RpcRequest): void {
    const reply = (body: { result: unknown } | { error: RpcError }) => {
      if (request.id !== undefined) this.write({ jsonrpc: '2.0', id: request.id, ...body });
    };
    if (request.method !== 'checkpoint' && request.method !== 'autoPass') {
      reply({ error: { code: RpcErrorCode.METHOD_NOT_FOUND, message: `the runner has no method '${request.method}' (it answers only checkpoint and autoPass)` } });
      return;
    }
    try {
      reply({ result: this.onRequest(request.method, request.params) });
    } catch (err) {
      reply({ error: { code: RpcErrorCode.INVALID_PARAMS, message: err instanceof Error ? err.message : String(err) } });
    }
  }
}
